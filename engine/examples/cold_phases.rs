//! Throwaway: times each phase of a cold `ask` on a root (walk, read, scan, tokenise).
use findbench_engine::retrieval::fields::{split, Syntax};
use findbench_engine::retrieval::tokens::for_each_term;
use findbench_engine::tree::symbols::scan_file;
use findbench_engine::{Profile, Tree, TreeOptions};
use rayon::prelude::*;
use std::time::Instant;

fn main() {
    let root = std::env::args().nth(1).expect("root");
    let cache = tempfile::tempdir().unwrap();
    let options = TreeOptions {
        cache_dir: Some(cache.path().to_path_buf()),
        ..TreeOptions::default()
    };
    let t = Instant::now();
    let tree = Tree::load(root.as_ref(), &options).unwrap();
    println!("walk: {:?} ({} files)", t.elapsed(), tree.len());
    let profile = Profile::default();
    let files = tree.files();
    let t = Instant::now();
    let bytes: usize = files
        .par_iter()
        .map(|f| f.text_once().map_or(0, |t| t.len()))
        .sum();
    println!("read+fold: {:?} ({} MB)", t.elapsed(), bytes >> 20);
    let t = Instant::now();
    let (n, src): (usize, usize) = files
        .par_iter()
        .filter_map(|f| Some((f.language?, f)))
        .map(|(l, f)| {
            let text = f.text_once().unwrap_or_default();
            (scan_file(l, &text).len(), text.len())
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    println!(
        "read+scan: {:?} ({n} symbols, {} MB source)",
        t.elapsed(),
        src >> 20
    );
    let t = Instant::now();
    let terms: usize = files
        .par_iter()
        .map(|f| {
            let Some(text) = f.text_once() else { return 0 };
            let source = findbench_engine::retrieval::bm25f::is_source(f, &profile);
            let mut n = 0;
            split(&text, Syntax::of(f, source), |s, e, _| {
                for_each_term(&text[s..e], |_, _| n += 1)
            });
            n
        })
        .sum();
    println!("read+split+terms: {:?} ({terms} terms)", t.elapsed());
    let t = Instant::now();
    let fi = findbench_engine::retrieval::bm25f::FieldIndex::build(&tree, &profile);
    println!("FieldIndex::build: {:?} ({})", t.elapsed(), fi.files());
}
