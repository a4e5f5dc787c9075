//! How far BM25F's average field lengths estimated from a sample of files are from the
//! averages over every file: for the plain mean of the sample, for the ratio estimator over
//! whole files (findbench's: the sample's length per byte of text times every file's mean
//! text bytes), and for the same estimator counting at most some bytes of each sampled
//! file (`findbench_engine::retrieval::sampled_lengths` and `estimated_averages`, which
//! this calls). For each tree and sample size, the relative RMS
//! error over random samples (drawn by a fixed xorshift generator, so a run is
//! reproducible) for the symbols, prose and code fields (the path field is the sample's
//! mean in every estimator), and the share of the whole files' bytes the bounded counts
//! read. The table in benches/RESULTS.md ("Fast-path A/Bs") is its output.
//!
//! Usage: length_estimators ROOT... [--draws N] [--sizes N,N...] [--caps BYTES,BYTES...]
//! (defaults: 200 draws; sizes 128,256,512; caps 8192,16384,32768)

use findbench_engine::retrieval::{estimated_averages, sampled_lengths, Sampled};
use findbench_engine::Profile;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut roots = Vec::new();
    let mut draws = 200usize;
    let mut sizes = vec![128usize, 256, 512];
    let mut caps = vec![8192usize, 16384, 32768];
    let mut args = std::env::args().skip(1);
    let numbers = |v: Option<String>| -> Option<Vec<usize>> {
        v?.split(',')
            .map(|n| n.trim().parse().ok().filter(|&n| n > 0))
            .collect()
    };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--draws" => match args.next().and_then(|n| n.parse().ok()) {
                Some(n) if n > 0 => draws = n,
                _ => return usage("--draws needs a positive number"),
            },
            "--sizes" => match numbers(args.next()) {
                Some(n) => sizes = n,
                None => return usage("--sizes needs positive numbers, comma-separated"),
            },
            "--caps" => match numbers(args.next()) {
                Some(n) => caps = n,
                None => return usage("--caps needs positive byte counts, comma-separated"),
            },
            _ => roots.push(a),
        }
    }
    if roots.is_empty() {
        return usage("no root given");
    }
    println!(
        "relative RMS error of the averages (symbols / prose / code), {draws} random samples per size"
    );
    println!();
    print!("| tree | files | sample | plain | ratio, whole files |");
    for cap in &caps {
        print!(" ratio, {} KiB each |", cap / 1024);
    }
    println!();
    println!("|---|---:|---:|---|---|{}", "---|".repeat(caps.len()));
    let profile = Profile::default();
    for root in &roots {
        let tree = match findbench_benches::tree::in_memory(root) {
            Ok(tree) => tree,
            Err(e) => {
                eprintln!("{root}: {e}");
                return ExitCode::from(3);
            }
        };
        let n = tree.len();
        // every file measured whole, then at each cap
        let mut bytes = Vec::new();
        let mut measure = |cap: usize| -> Vec<Sampled> {
            tree.files()
                .iter()
                .map(|f| sampled_lengths(f, &profile, cap, &mut bytes))
                .collect()
        };
        let whole = measure(0);
        let capped: Vec<Vec<Sampled>> = caps.iter().map(|&cap| measure(cap)).collect();
        let exact = plain_mean(&whole);
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for &size in &sizes {
            let mut plain = [0f64; 4];
            let mut ratio = [0f64; 4];
            let mut bounded = vec![[0f64; 4]; caps.len()];
            let mut read = vec![0f64; caps.len()];
            let mut read_whole = 0f64;
            for _ in 0..draws {
                // the first `size` places of a partial Fisher-Yates shuffle
                let mut order: Vec<usize> = (0..n).collect();
                for k in 0..size.min(n) {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let j = k + (seed as usize) % (n - k);
                    order.swap(k, j);
                }
                let sample = &order[..size.min(n)];
                let of =
                    |all: &[Sampled]| -> Vec<Sampled> { sample.iter().map(|&i| all[i]).collect() };
                let p = plain_mean(&of(&whole));
                let r = estimated_averages(&tree, &of(&whole));
                read_whole += of(&whole).iter().map(|s| s.1 as f64).sum::<f64>();
                for f in 1..4 {
                    plain[f] += (p[f] / exact[f] - 1.0).powi(2);
                    ratio[f] += (r[f] / exact[f] - 1.0).powi(2);
                }
                for (c, all) in capped.iter().enumerate() {
                    let b = estimated_averages(&tree, &of(all));
                    read[c] += of(all).iter().map(|s| s.1 as f64).sum::<f64>();
                    for f in 1..4 {
                        bounded[c][f] += (b[f] / exact[f] - 1.0).powi(2);
                    }
                }
            }
            let rms = |e: [f64; 4]| {
                (1..4)
                    .map(|f| format!("{:.1}", 100.0 * (e[f] / draws as f64).sqrt()))
                    .collect::<Vec<_>>()
                    .join(" / ")
            };
            print!(
                "| {root} | {n} | {size} | {} % | {} % |",
                rms(plain),
                rms(ratio)
            );
            for c in 0..caps.len() {
                print!(
                    " {} % ({:.0} % of the bytes) |",
                    rms(bounded[c]),
                    100.0 * read[c] / read_whole.max(1.0)
                );
            }
            println!();
        }
    }
    ExitCode::SUCCESS
}

fn usage(why: &str) -> ExitCode {
    eprintln!("length_estimators: {why}");
    eprintln!(
        "usage: length_estimators ROOT... [--draws N] [--sizes N,N...] [--caps BYTES,BYTES...]"
    );
    ExitCode::from(2)
}

/// The mean of each field's length over the sampled files (at least 1, as findbench's
/// averages).
fn plain_mean(sampled: &[Sampled]) -> [f64; 4] {
    let mut totals = [0f64; 4];
    for (lengths, _) in sampled {
        for (t, &l) in totals.iter_mut().zip(lengths) {
            *t += f64::from(l);
        }
    }
    totals.map(|t| (t / sampled.len().max(1) as f64).max(1.0))
}
