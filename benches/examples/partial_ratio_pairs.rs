//! Scores every (query, name) pair of a TSV file with `partial_ratio`, once,
//! and prints one JSON line: {"pairs": n, "score_ns": ns, "checksum": sum}.
//!
//! Used by benches/peer_partial_ratio.py to compare with rapidfuzz. Only the
//! scoring loop is timed: reading the file and splitting strings into chars
//! happen before, as rapidfuzz's timing excludes building its input lists.
//!
//! Usage: partial_ratio_pairs PAIRS.tsv   (one `query<TAB>name` per line)

use std::process::ExitCode;
use std::time::Instant;

use findbench_engine::text::partial_ratio::partial_ratio_chars;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: partial_ratio_pairs PAIRS.tsv");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            return ExitCode::FAILURE;
        }
    };

    let mut pairs: Vec<(Vec<char>, Vec<char>)> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let Some((query, name)) = line.split_once('\t') else {
            eprintln!("{path}:{}: expected query<TAB>name", n + 1);
            return ExitCode::FAILURE;
        };
        pairs.push((query.chars().collect(), name.chars().collect()));
    }

    let mut scores = Vec::with_capacity(pairs.len());
    let start = Instant::now();
    for (query, name) in &pairs {
        scores.push(partial_ratio_chars(query, name));
    }
    let score_ns = start.elapsed().as_nanos();

    println!(
        "{{\"pairs\": {}, \"score_ns\": {}, \"checksum\": {}}}",
        pairs.len(),
        score_ns,
        compensated_sum(&scores)
    );
    ExitCode::SUCCESS
}

/// Neumaier summation: the checksum is compared with Python's `math.fsum`
/// to 1e-6, which a plain running sum of 100k scores may miss.
fn compensated_sum(values: &[f64]) -> f64 {
    let mut sum = 0.0f64;
    let mut compensation = 0.0f64;
    for &v in values {
        let t = sum + v;
        if sum.abs() >= v.abs() {
            compensation += (sum - t) + v;
        } else {
            compensation += (v - t) + sum;
        }
        sum = t;
    }
    sum + compensation
}
