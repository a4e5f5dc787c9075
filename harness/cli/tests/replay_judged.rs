//! A replayed trace that names `expected` files passes only when findbench's answer has one
//! of them in its top k (`--hit-k`), and the ranking thresholds (`--min-hit-at-k`,
//! `--min-mrr`, `--min-recall-at-4kb`, or a `--gate FILE`'s `gate:` section) gate it.

mod common;

use common::{assert_exit, findbench, stdout_json};
use serde_json::json;
use std::path::{Path, PathBuf};

/// Two traces asking where replay is implemented in `agent-cpp`: one expecting the file
/// findbench finds, one a file the tree does not hold (rank none).
fn traces(dir: &Path) -> PathBuf {
    let line = |id: &str, expected: &str| {
        json!({
            "trace_id": id, "timestamp": "2026-06-19T00:00:00Z",
            "query": "where is replay implemented", "fixture": "agent-cpp",
            "tools": [{"name": "Grep", "input": "replay", "candidates": 3,
                       "duration_ms": 1.0, "output_bytes": 300}],
            "outcome": "success", "iterations": 1, "duration_ms": 5.0,
            "expected": [expected]
        })
        .to_string()
    };
    let path = dir.join("judged.jsonl");
    std::fs::write(
        &path,
        [
            line("found", "src/services/replay_service.cpp"),
            line("absent", "src/click/termui.py"),
        ]
        .join("\n"),
    )
    .unwrap();
    path
}

fn replay(args: &[&str]) -> std::process::Output {
    let mut all = vec!["replay", "--no-progress", "-f", "json"];
    all.extend_from_slice(args);
    findbench(&all)
}

#[test]
fn a_trace_whose_expected_file_is_not_in_the_answer_fails() {
    let dir = tempfile::tempdir().unwrap();
    let t = traces(dir.path());
    let t = t.to_str().unwrap();
    let out = replay(&[t, "--min-pass-rate", "1.0"]);
    assert_exit(&out, 1);
    let v = stdout_json(&out);
    let s = &v["summary"];
    // both succeeded, only one found what the agent needed
    assert_eq!(s["outcomes"]["success"], 2);
    assert_eq!(
        (s["passed"].as_u64(), s["failed"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(s["pass_rate"], 0.5);
    assert_eq!(s["rank"]["hit_at_k"], 0.5);
    let failures = v["gate"]["failures"].to_string();
    assert!(failures.contains("pass rate 50.0%"), "{failures}");
}

#[test]
fn the_ranking_thresholds_gate_a_replay_from_flags_and_from_a_gate_file() {
    let dir = tempfile::tempdir().unwrap();
    let t = traces(dir.path());
    let t = t.to_str().unwrap();
    let out = replay(&[t, "--min-hit-at-k", "0.9"]);
    assert_exit(&out, 1);
    let failures = stdout_json(&out)["gate"]["failures"].to_string();
    assert!(
        failures.contains("hit@k 0.5000 is below the minimum 0.9 (2 judged cases)"),
        "{failures}"
    );
    assert_exit(
        &replay(&[t, "--min-hit-at-k", "0.5", "--min-mrr", "0.5"]),
        0,
    );
    assert_exit(&replay(&[t, "--min-recall-at-4kb", "0.6"]), 1);

    // a gate file holds a corpus's `gate:` keys; the flag wins over it
    let gate = dir.path().join("gate.yaml");
    std::fs::write(&gate, "gate:\n  min_hit_at_k: 0.9\n  max_ie_rate: 0.5\n").unwrap();
    let g = gate.to_str().unwrap();
    let out = replay(&[t, "--gate", g]);
    assert_exit(&out, 1);
    assert_eq!(stdout_json(&out)["gate"]["checks"], 2);
    assert_exit(&replay(&[t, "--gate", g, "--min-hit-at-k", "0.5"]), 0);
    // an unknown key is named with its line
    std::fs::write(&gate, "gate:\n  min_pass_rate: 0.5\n  min_hits: 0.9\n").unwrap();
    let out = findbench(&["replay", "--no-progress", t, "--gate", g]);
    assert_exit(&out, 2);
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains(&format!("{g}:3: unknown field `min_hits`")),
        "{said}"
    );
}

#[test]
fn hit_k_sets_how_far_down_an_expected_file_may_be() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("second.jsonl");
    // what findbench ranks first for this question is not the header the agent read
    std::fs::write(
        &path,
        json!({
            "trace_id": "h", "timestamp": "2026-06-19T00:00:00Z",
            "query": "where is replay implemented", "fixture": "agent-cpp",
            "tools": [], "outcome": "success", "iterations": 1, "duration_ms": 5.0,
            "expected": ["src/services/replay_service.cpp"]
        })
        .to_string(),
    )
    .unwrap();
    let p = path.to_str().unwrap();
    let out = replay(&[p]);
    assert_exit(&out, 0);
    let v = stdout_json(&out);
    let rank = &v["summary"]["rank"];
    assert_eq!(rank["k"], 5);
    assert_eq!(v["summary"]["passed"], 1);
    // with k below its rank (or at 1 when it is first, the test still holds: k=1 counts it)
    let hit_1 = rank["hit_at_1"].as_f64().unwrap();
    let out = replay(&[p, "--hit-k", "1", "--min-pass-rate", "1.0"]);
    let v = stdout_json(&out);
    assert_eq!(v["summary"]["rank"]["k"], 1);
    assert_eq!(v["summary"]["rank"]["hit_at_k"].as_f64().unwrap(), hit_1);
    assert_exit(&out, if hit_1 == 1.0 { 0 } else { 1 });
    assert_exit(&replay(&[p, "--hit-k", "0"]), 2);
}

#[test]
fn both_spellings_of_the_insufficient_evidence_threshold_are_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let t = traces(dir.path());
    let t = t.to_str().unwrap();
    for flag in ["--max-ie-rate", "--max-insufficient-evidence-rate"] {
        let out = replay(&[t, flag, "0.0"]);
        assert_exit(&out, 0);
        assert_eq!(stdout_json(&out)["gate"]["checks"], 1);
    }
}

/// `gate` takes the ranking thresholds for a results.json already written, and a corpus
/// says the same in its `gate:` section.
#[test]
fn gate_and_a_corpus_gate_section_take_the_ranking_thresholds() {
    let dir = tempfile::tempdir().unwrap();
    let t = traces(dir.path());
    let out_dir = dir.path().join("replayed");
    let out = replay(&[t.to_str().unwrap(), "--out", out_dir.to_str().unwrap()]);
    assert_exit(&out, 0);
    let results = out_dir.join("results.json");
    let gate = |args: &[&str]| {
        let mut all = vec!["gate", results.to_str().unwrap()];
        all.extend_from_slice(args);
        findbench(&all)
    };
    let failed = gate(&["--min-hit-at-k", "0.9"]);
    assert_exit(&failed, 1);
    assert!(
        String::from_utf8_lossy(&failed.stdout)
            .contains("all: hit@k 0.5000 is below the minimum 0.9 (2 judged cases)"),
        "{}",
        String::from_utf8_lossy(&failed.stdout)
    );
    assert_exit(&gate(&["--min-hit-at-k", "0.5", "--min-mrr", "0.5"]), 0);

    // a corpus: one case finds its item first, a known failure expects one the store lacks
    std::fs::write(
        dir.path().join("todo.json"),
        r#"{"tasks": [{"id": "T001", "title": "Implement fuzzy find command", "status": "active"},
                      {"id": "T002", "title": "Fix authentication middleware", "status": "active"}]}"#,
    )
    .unwrap();
    let corpus = dir.path().join("ranked.yaml");
    std::fs::write(
        &corpus,
        "suite: ranked\nfixture: {store: todo.json}\ngate: {min_hit_at_k: 0.9}\ncases:\n  \
         - id: found\n    query: authentication\n    mode: task\n    expect: {top: T002}\n  \
         - id: absent\n    query: authentication\n    mode: task\n    expect: {top: T999}\n    \
         known_failure: the store has no T999\n",
    )
    .unwrap();
    let run = findbench(&[
        "run",
        corpus.to_str().unwrap(),
        "--no-progress",
        "--out",
        dir.path().join("run").to_str().unwrap(),
    ]);
    assert_exit(&run, 1);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        stdout
            .contains("gate: FAIL ranked: hit@k 0.5000 is below the minimum 0.9 (2 judged cases)"),
        "{stdout}"
    );
}
