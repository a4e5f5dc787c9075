//! How fast the first call's word search reads a tree's text (MB/s on one thread), two
//! ways: each file folded to ASCII lower case and searched with `memmem` (how the first
//! call searched before `text/caseless.rs`), and searched as it is with `CaselessFinder`.
//! Both must find the same words in the same files (checked).
//!
//! cargo run --release -p findbench-benches --example caseless_speed -- ROOT [WORD...]
//! (default words: those of the four questions of `benches/cold_ab.sh`)

use findbench_engine::text::caseless::CaselessFinder;
use memchr::memmem;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let root = args.next().expect("usage: caseless_speed ROOT [WORD...]");
    let mut words: Vec<String> = args.collect();
    if words.is_empty() {
        words = [
            "replay",
            "implement",
            "cursor",
            "binary",
            "deserializ",
            "yaml",
            "anchor",
            "gzip",
            "header",
            "pars",
        ]
        .map(String::from)
        .to_vec();
    }
    let tree = match findbench_benches::tree::in_memory(&root) {
        Ok(tree) => tree,
        Err(e) => {
            eprintln!("caseless_speed: {root}: {e}");
            std::process::exit(1);
        }
    };
    // every text file, as the first call's pass reads it
    let files: Vec<&[u8]> = tree
        .files()
        .iter()
        .filter_map(|f| f.text().map(str::as_bytes))
        .collect();
    let bytes: usize = files.iter().map(|f| f.len()).sum();
    println!(
        "{root}: {} text files, {:.1} MB; words {words:?}",
        files.len(),
        bytes as f64 / 1e6
    );
    let folding: Vec<memmem::Finder<'_>> = words
        .iter()
        .map(|w| memmem::Finder::new(w.as_bytes()))
        .collect();
    let caseless: Vec<CaselessFinder> = words
        .iter()
        .map(|w| CaselessFinder::new(w.as_bytes()))
        .collect();
    for round in 0..3 {
        let clock = Instant::now();
        let mut folded = Vec::new();
        let mut by_folding = 0usize;
        for f in &files {
            folded.clear();
            folded.extend(f.iter().map(u8::to_ascii_lowercase));
            by_folding += folding.iter().filter(|w| w.find(&folded).is_some()).count();
        }
        let folding_s = clock.elapsed().as_secs_f64();
        let clock = Instant::now();
        let by_caseless: usize = files
            .iter()
            .map(|f| caseless.iter().filter(|w| w.find(f).is_some()).count())
            .sum();
        let caseless_s = clock.elapsed().as_secs_f64();
        assert_eq!(by_folding, by_caseless, "the two searches disagree");
        println!(
            "round {round}: folded + memmem {:.0} MB/s, caseless {:.0} MB/s ({by_caseless} words found)",
            bytes as f64 / 1e6 / folding_s,
            bytes as f64 / 1e6 / caseless_s
        );
    }
}
