//! The symbol scan over every source file under the roots given, in one thread: how many
//! files, bytes and symbols, how fast, a digest of every symbol (name, line, kind, defines or
//! declares) to compare two builds by, and how many names hold a term their file's text does
//! not, and how many segments of names are not written in their text, their snake form's
//! letters not one after the other in the text's (what the first `ask` on a root relies on
//! being none of either: docs/index.md).
//!
//! `cargo run --release -p findbench-engine --example symbol_census -- ROOT...`

use findbench_engine::retrieval::tokens::terms;
use findbench_engine::text::camel::{snake, snake_letters};
use findbench_engine::tree::symbols::scan_file;
use findbench_engine::tree::Language;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};

fn main() {
    let roots: Vec<String> = std::env::args().skip(1).collect();
    if roots.is_empty() {
        eprintln!("usage: symbol_census ROOT...");
        std::process::exit(2);
    }
    let mut paths: Vec<std::path::PathBuf> = roots
        .iter()
        .flat_map(|root| ignore::WalkBuilder::new(root).build().flatten())
        .map(|entry| entry.into_path())
        .collect();
    paths.sort();
    let mut files = Vec::new();
    for path in paths {
        let Some(ext) = path.extension().and_then(|e| e.to_str()) else {
            continue;
        };
        let Some(language) = Language::from_extension(&ext.to_ascii_lowercase()) else {
            continue;
        };
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        // what the tree reads as text: at most 1 MiB, no NUL in the first 8 KiB
        if bytes.len() > 1 << 20 || bytes[..bytes.len().min(8192)].contains(&0) {
            continue;
        }
        files.push((language, String::from_utf8_lossy(&bytes).into_owned()));
    }
    let bytes: usize = files.iter().map(|f| f.1.len()).sum();
    let clock = std::time::Instant::now();
    let scanned: Vec<_> = files.iter().map(|(l, text)| scan_file(*l, text)).collect();
    let seconds = clock.elapsed().as_secs_f64();
    let mut digest = std::collections::hash_map::DefaultHasher::new();
    let (mut symbols, mut outside, mut unwritten) = (0usize, 0usize, 0usize);
    for ((_, text), found) in files.iter().zip(&scanned) {
        let words: HashSet<String> = terms(text).into_iter().collect();
        let mut letters = Vec::new();
        snake_letters(text, &mut letters);
        let finder = |segment: &str| {
            let key = snake(segment).replace('_', "");
            memchr::memmem::find(&letters, key.as_bytes()).is_some()
        };
        for s in found {
            unwritten += s.name.split("::").filter(|g| !finder(g)).count();
            symbols += 1;
            (&s.name, s.line, s.definition, format!("{:?}", s.kind)).hash(&mut digest);
            outside += terms(&s.name)
                .iter()
                .filter(|t| !words.contains(*t))
                .count();
        }
    }
    println!(
        "files {} ({:.1} MB), symbols {symbols}, scan {seconds:.2} s ({:.0} MB/s, one thread), \
         digest {:016x}, name terms outside their text {outside}, name segments not written \
         in their text {unwritten}",
        files.len(),
        bytes as f64 / 1e6,
        bytes as f64 / 1e6 / seconds,
        digest.finish()
    );
}
