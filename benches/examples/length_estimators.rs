//! How far BM25F's average field lengths estimated from a sample of files are from the
//! averages over every file, for the plain mean of the sample (what findbench used before
//! the tenth session of 2026-11-29) and for the ratio estimator it uses now
//! (`findbench_engine::retrieval::estimated_averages`: the sample's length per byte of
//! text times every file's mean text bytes). For each tree and sample size, the relative
//! RMS error over random samples (drawn by a fixed xorshift generator, so a run is
//! reproducible) for the symbols, prose and code fields; the path field is the sample's
//! mean either way. The table in docs/index.md (tenth session) is its output.
//!
//! Usage: length_estimators ROOT... [--draws N]   (default 200 draws per size)

use findbench_engine::retrieval::bm25f::FieldIndex;
use findbench_engine::retrieval::estimated_averages;
use findbench_engine::{Profile, Tree, TreeOptions};
use std::path::Path;
use std::process::ExitCode;

const SIZES: [usize; 4] = [128, 256, 512, 1024];

fn main() -> ExitCode {
    let mut roots = Vec::new();
    let mut draws = 200usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--draws" {
            match args.next().and_then(|n| n.parse().ok()) {
                Some(n) if n > 0 => draws = n,
                _ => {
                    eprintln!("--draws needs a positive number");
                    return ExitCode::from(2);
                }
            }
        } else {
            roots.push(a);
        }
    }
    if roots.is_empty() {
        eprintln!("usage: length_estimators ROOT... [--draws N]");
        return ExitCode::from(2);
    }
    println!("relative RMS error of the averages (symbols / prose / code), {draws} random samples per size");
    println!();
    print!("| tree | files |");
    for n in SIZES {
        print!(" plain, {n} | ratio, {n} |");
    }
    println!();
    println!("|---|---:|{}", "---|---|".repeat(SIZES.len()));
    for root in &roots {
        let options = TreeOptions {
            no_cache: true,
            ..TreeOptions::default()
        };
        let tree = match Tree::load(Path::new(root), &options) {
            Ok(tree) => tree,
            Err(e) => {
                eprintln!("{root}: {e}");
                return ExitCode::from(3);
            }
        };
        let index = FieldIndex::build(&tree, &Profile::default());
        let lengths = index.field_lengths();
        let n = tree.len();
        let all: Vec<usize> = (0..n).collect();
        let exact = plain_mean(&all, lengths);
        print!("| {root} | {n} |");
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for size in SIZES {
            let (mut plain, mut ratio) = ([0f64; 4], [0f64; 4]);
            for _ in 0..draws {
                // the first `size` places of a partial Fisher-Yates shuffle
                let mut order = all.clone();
                for k in 0..size.min(n) {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let j = k + (seed as usize) % (n - k);
                    order.swap(k, j);
                }
                let sample = &order[..size.min(n)];
                let p = plain_mean(sample, lengths);
                let r = estimated_averages(&tree, sample, lengths);
                for f in 1..4 {
                    plain[f] += (p[f] / exact[f] - 1.0).powi(2);
                    ratio[f] += (r[f] / exact[f] - 1.0).powi(2);
                }
            }
            let rms = |e: [f64; 4]| {
                (1..4)
                    .map(|f| format!("{:.1}", 100.0 * (e[f] / draws as f64).sqrt()))
                    .collect::<Vec<_>>()
                    .join(" / ")
            };
            print!(" {} % | {} % |", rms(plain), rms(ratio));
        }
        println!();
    }
    ExitCode::SUCCESS
}

/// The mean of each field's length over `files` (at least 1, as findbench's averages).
fn plain_mean(files: &[usize], lengths: &[[u32; 4]]) -> [f64; 4] {
    let mut totals = [0f64; 4];
    for &i in files {
        for (t, &l) in totals.iter_mut().zip(&lengths[i]) {
            *t += f64::from(l);
        }
    }
    totals.map(|t| (t / files.len().max(1) as f64).max(1.0))
}
