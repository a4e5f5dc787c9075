//! Times the symbol scan a first call makes of the files that may declare a name holding
//! one of some keys (`engine/src/first_call/scanned.rs`, `Scanned::for_keys_in`: the lines whose
//! letters hold a key read, the others passed over or only followed), against the
//! names-only scan of the whole of the same files (what the ranking's count of a file's
//! symbols field makes): on C headers, where a first `ask` pays for this scan beyond what
//! rg does, it says how much of a file's lines cost is left once the lines are known.
//!
//! Usage: key_scan_speed ROOT KEY...   (e.g. `/usr/include cursor binary cursor_binary`,
//! the keys of `ask "find cursor binary"` when no file declares `cursor_binary`)
//!
//! The source files whose text, in ASCII lower case, holds one of the keys are loaded into
//! memory with their lower-cased copies (not timed); each scan goes over them five times on
//! one thread (`ROUNDS=N` in the environment for another count: many, to profile the scans
//! rather than the load). Prints one JSON line: files, bytes, lines, the symbols kept, and the median
//! milliseconds of the keyed scan and of the whole names-only scan (wall time of a scan on
//! one thread: on a busy machine it counts the time other processes held the core. Linux's
//! per-thread CPU count, which `dump_symbols` reads, is brought up to date at scheduler
//! ticks and switches only: these scans, which switch to nothing, read whole 4 ms ticks).

use findbench_engine::first_call::key_scan_count;
use findbench_engine::tree::symbols::scan_file_keeping;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((root, keys)) = args.split_first().filter(|(_, keys)| !keys.is_empty()) else {
        eprintln!("usage: key_scan_speed ROOT KEY...");
        return ExitCode::from(2);
    };
    let keys: Vec<String> = keys.iter().map(|k| k.to_ascii_lowercase()).collect();
    let tree = match findbench_benches::tree::in_memory(root) {
        Ok(tree) => tree,
        Err(e) => {
            eprintln!("key_scan_speed: {root}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut files = Vec::new();
    for file in tree.files() {
        if let (Some(language), Some(text)) = (file.language, file.text()) {
            let folded = text.as_bytes().to_ascii_lowercase();
            let holds = keys
                .iter()
                .any(|k| memchr::memmem::find(&folded, k.as_bytes()).is_some());
            if holds {
                files.push((language, text, folded));
            }
        }
    }
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    let bytes: usize = files.iter().map(|(_, text, _)| text.len()).sum();
    let lines: usize = files
        .iter()
        .map(|(_, text, _)| memchr::memchr_iter(b'\n', text.as_bytes()).count())
        .sum();
    let mut kept = 0;
    let keyed = median_ms(|| {
        kept = files
            .iter()
            .map(|(language, text, folded)| key_scan_count(*language, text, folded, &keys))
            .sum();
    });
    let mut names = 0u64;
    let whole = median_ms(|| {
        names = 0;
        for (language, text, _) in &files {
            scan_file_keeping(*language, text, &mut |_| {
                names += 1;
                false
            });
        }
    });
    println!(
        "{}",
        serde_json::json!({
            "root": root,
            "keys": keys,
            "files": files.len(),
            "bytes": bytes,
            "lines": lines,
            "kept": kept,
            "keyed_scan_ms": keyed,
            "whole_names_ms": whole,
            "names": names,
        })
    );
    ExitCode::SUCCESS
}

/// The median time of `ROUNDS` runs of `run` (five unless the environment says), in
/// milliseconds to a tenth.
fn median_ms(mut run: impl FnMut()) -> f64 {
    let rounds = std::env::var("ROUNDS")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or(5);
    let mut times: Vec<f64> = (0..rounds)
        .map(|_| {
            let started = Instant::now();
            run();
            started.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2] * 10.0).round() / 10.0
}
