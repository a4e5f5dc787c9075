//! How fast the field lengths of a ranking's length sample are counted (what the first
//! ranked `ask` on a root measures of 256 files, `retrieval/length_sample.rs`): the first 400
//! text files of a tree of at least MIN_BYTES, each read and counted whole REPS times on one
//! thread, and the megabytes of text counted per second.
//!
//! Usage: length_speed ROOT [REPS] [MIN_BYTES]   (default 10 and 100)

use findbench_engine::retrieval::sampled_lengths;
use findbench_engine::Profile;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(root) = args.first() else {
        eprintln!("usage: length_speed ROOT [REPS] [MIN_BYTES]");
        return ExitCode::from(2);
    };
    let number = |at: usize, default: u64| match args.get(at) {
        None => Some(default),
        Some(s) => s.parse().ok(),
    };
    let (Some(reps), Some(min_bytes)) = (number(1, 10), number(2, 100)) else {
        eprintln!("length_speed: REPS and MIN_BYTES are whole numbers");
        return ExitCode::from(2);
    };
    let tree = match findbench_benches::tree::in_memory(root) {
        Ok(tree) => tree,
        Err(e) => {
            eprintln!("length_speed: {root}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let profile = Profile::default();
    let files: Vec<_> = tree
        .files()
        .iter()
        .filter(|f| f.size() >= min_bytes && f.text().is_some())
        .take(400)
        .collect();
    let mut bytes = Vec::new();
    let (mut counted, mut terms) = (0u64, 0u64);
    let started = Instant::now();
    for _ in 0..reps {
        for f in &files {
            let (lengths, text_bytes) = sampled_lengths(f, &profile, 0, &mut bytes);
            counted += text_bytes;
            terms += lengths.iter().map(|&n| u64::from(n)).sum::<u64>();
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{} files, {} bytes of text counted, {} terms: {:.1} MB/s",
        files.len(),
        counted / reps.max(1),
        terms / reps.max(1),
        counted as f64 / seconds / 1e6
    );
    ExitCode::SUCCESS
}
