//! Checks `partial_ratio` against scores recorded from rapidfuzz's
//! `fuzz.partial_ratio` (see scripts/gen_partial_ratio_vectors.py).

use findbench_engine::text::partial_ratio::partial_ratio;
use serde_json::Value;

const TOLERANCE: f64 = 1e-9;

#[test]
fn matches_rapidfuzz_vectors() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/partial_ratio_vectors.jsonl"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {path}: {e}"));
    let mut lines = text.lines().filter(|line| !line.trim().is_empty());

    let header: Value = serde_json::from_str(lines.next().expect("header line")).expect("header");
    let declared = header["count"].as_u64().expect("header count");

    let mut count = 0u64;
    let mut mismatches = Vec::new();
    for (n, line) in lines.enumerate() {
        let row: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("line {}: {e}", n + 2));
        let s1 = row["s1"].as_str().expect("s1");
        let s2 = row["s2"].as_str().expect("s2");
        let expected = row["score"].as_f64().expect("score");
        let got = partial_ratio(s1, s2);
        if (got - expected).abs() > TOLERANCE {
            mismatches.push(format!("{s1:?} vs {s2:?}: got {got}, rapidfuzz {expected}"));
        }
        count += 1;
    }

    assert_eq!(count, declared, "vector count differs from the header");
    assert!(count >= 2000, "only {count} vectors");
    assert!(
        mismatches.is_empty(),
        "{} of {count} vectors differ from rapidfuzz {}:\n{}",
        mismatches.len(),
        header["rapidfuzz"],
        mismatches
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
