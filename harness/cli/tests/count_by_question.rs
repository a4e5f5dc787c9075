//! A user question searched three times counts once: an imported turn's searches (trace ids
//! `SESSION/CALL`, one question) are one case in `replay`'s pass rate, in `compare`'s
//! McNemar test and in `clusters`, and `--per-search` keeps the view of every search.

mod common;

use common::{assert_exit, findbench, stdout_json};
use serde_json::json;
use std::path::Path;

/// Session `s1` searched `question` three times (one turn); session `s2` asked another
/// question once. `expected` is what each search's turn went on to read.
fn turns(dir: &Path, name: &str, expected: &str) -> String {
    let line = |id: &str, query: &str| {
        json!({
            "trace_id": id, "timestamp": "2026-06-19T00:00:00Z", "query": query,
            "fixture": "agent-cpp",
            "tools": [{"name": "Grep", "input": "x", "candidates": 0,
                       "duration_ms": 0.0, "output_bytes": 10}],
            "outcome": "insufficient_evidence", "iterations": 1, "duration_ms": 0.0,
            "expected": [expected]
        })
        .to_string()
    };
    let question = "where is replay implemented";
    let lines = [
        line("s1/call-1", question),
        line("s1/call-2", question),
        line("s1/call-3", question),
        line("s2/call-1", "where is the cursor binary"),
    ];
    let path = dir.join(name);
    std::fs::write(&path, lines.join("\n")).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn a_question_searched_three_times_counts_once() {
    let dir = tempfile::tempdir().unwrap();
    let found = turns(dir.path(), "found.jsonl", "src/services/replay_service.cpp");
    let replay = |t: &str, extra: &[&str], out: &Path| {
        let mut args = vec!["replay", "--no-progress", "-f", "json", t, "--out"];
        args.push(out.to_str().unwrap());
        args.extend_from_slice(extra);
        let o = findbench(&args);
        assert_exit(&o, 0);
        stdout_json(&o)["summary"].clone()
    };
    let s = replay(&found, &[], &dir.path().join("a"));
    assert_eq!(s["total"], 4);
    assert_eq!(s["questions"], 2);
    assert_eq!(s["counted_by"], "question");
    // the replay question's file is found; the cursor question's is not
    assert_eq!(
        (s["passed"].as_u64(), s["failed"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(s["pass_rate"], 0.5);
    assert_eq!(s["search_pass_rate"], 0.75);
    let text = findbench(&["replay", "--no-progress", "-f", "text", &found]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("passed: 1 of 2 questions (50.0%; 3 of 4 searches)"),
        "{text}"
    );
    let per = replay(&found, &["--per-search"], &dir.path().join("a-per"));
    assert_eq!(per["counted_by"], "search");
    assert_eq!(
        (per["passed"].as_u64(), per["pass_rate"].as_f64()),
        (Some(3), Some(0.75))
    );

    // after a change that loses the replay question: one question flipped, not three
    let lost = turns(dir.path(), "lost.jsonl", "src/elsewhere.cpp");
    replay(&lost, &[], &dir.path().join("b"));
    let compare = |a: &str, b: &str| {
        let o = findbench(&[
            "compare",
            &dir.path().join(a).join("results.json").to_string_lossy(),
            &dir.path().join(b).join("results.json").to_string_lossy(),
            "-f",
            "json",
        ]);
        assert_exit(&o, 0);
        stdout_json(&o)["flips"][0].clone()
    };
    let flips = compare("a", "b");
    assert_eq!(flips["property"], "pass/fail");
    assert_eq!(
        (flips["worsened"].as_u64(), flips["improved"].as_u64()),
        (Some(1), Some(0))
    );
    replay(&lost, &["--per-search"], &dir.path().join("b-per"));
    let flips = compare("a-per", "b-per");
    assert_eq!(flips["worsened"], 3);

    // clusters: the turn is seen once, each search with --per-search
    let clusters = |extra: &[&str]| {
        let mut args = vec!["clusters", found.as_str(), "--min", "1", "-f", "json"];
        args.extend_from_slice(extra);
        let o = findbench(&args);
        assert_exit(&o, 0);
        let v = stdout_json(&o);
        v["clusters"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["question"] == "where is replay implemented")
            .unwrap()["occurrences"]
            .clone()
    };
    assert_eq!(clusters(&[]), 1);
    assert_eq!(clusters(&["--per-search"]), 3);
}
