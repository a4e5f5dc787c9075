//! `findbench tune` on trace files: a trace naming `expected` files is a case scored as
//! `findbench replay` judges it, its project is the tree it names, and a held-out input
//! sharing that tree with a train input is refused.

mod common;

use common::{assert_exit, assert_schema, findbench, stdout_json};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// Traces on `agent-cpp` (resolved under the default `--fixtures corpora/fixtures`): some
/// whose expected file findbench ranks first, some lower or not at all, and one naming no
/// expected file (not a case).
fn traces(dir: &Path) -> PathBuf {
    let line = |id: &str, query: &str, expected: Option<&str>| {
        let mut t = json!({
            "trace_id": id, "timestamp": "2026-06-19T00:00:00Z", "query": query,
            "fixture": "agent-cpp", "tools": [], "outcome": "success", "iterations": 1,
            "duration_ms": 5.0
        });
        if let Some(e) = expected {
            t["expected"] = json!([e]);
        }
        t.to_string()
    };
    let path = dir.join("agent.jsonl");
    let lines = [
        line(
            "a",
            "where is replay implemented",
            Some("src/services/replay_service.cpp"),
        ),
        line("b", "find the cursor binary", Some("tools/cursor/main.cpp")),
        line("c", "where is the config loaded", Some("src/config.cpp")),
        line(
            "d",
            "replay service",
            Some("src/services/replay_service.cpp"),
        ),
        line("e", "absent thing", Some("src/click/termui.py")),
        line("f", "where is replay implemented", None),
    ];
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

fn tune_json(args: &[&str]) -> Value {
    let mut all = vec!["tune", "--no-progress", "-f", "json", "--budget", "1"];
    all.extend_from_slice(args);
    let out = findbench(&all);
    assert_exit(&out, 0);
    let v = stdout_json(&out);
    assert_schema("tune.schema.json", &v);
    v
}

#[test]
fn a_trace_file_scores_the_base_profile_as_replay_judges_it() {
    let dir = tempfile::tempdir().unwrap();
    let t = traces(dir.path());
    let t = t.to_str().unwrap();
    let out = findbench(&["replay", t, "--no-progress", "-f", "json"]);
    let replayed = stdout_json(&out);
    let rank = &replayed["summary"]["rank"];
    assert_eq!(rank["judged"], 5);
    for (objective, key) in [("mrr", "mrr"), ("hit@1", "hit_at_1"), ("hit@5", "hit_at_k")] {
        let v = tune_json(&[t, "--objective", objective, "--holdout", "0"]);
        let p = &v["provenance"];
        assert_eq!(p["inputs"][0]["kind"], "traces");
        assert_eq!(
            p["split"]["train_cases"], 5,
            "the trace without expected files"
        );
        assert_eq!(
            p["split"]["train_projects"],
            json!(["corpora/fixtures/agent-cpp"])
        );
        let before = p["train"]["before"].as_f64().unwrap();
        let replay = rank[key].as_f64().unwrap();
        // replay rounds to four places
        assert!(
            (before - replay).abs() < 1e-4,
            "{objective}: tune {before}, replay {replay}"
        );
        assert!(before > 0.0 && before < 1.0, "{objective}: {before}");
    }
}

#[test]
fn a_held_out_input_sharing_a_traces_repository_is_refused_naming_both() {
    let dir = tempfile::tempdir().unwrap();
    let t = traces(dir.path());
    let t = t.to_str().unwrap();
    // corpora/benchmark.yaml runs on corpora/fixtures/agent-cpp, the traces' tree
    let out = findbench(&[
        "tune",
        "--no-progress",
        "--budget",
        "1",
        t,
        "--holdout-input",
        "corpora/benchmark.yaml",
    ]);
    assert_exit(&out, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("train input `{t}`"))
            && err.contains("held-out input `corpora/benchmark.yaml`")
            && err.contains("project `corpora/fixtures/agent-cpp`"),
        "{err}"
    );
    // the same traces against a corpus of another project: split by inputs
    let v = tune_json(&[t, "--holdout-input", "corpora/names.yaml"]);
    let split = &v["provenance"]["split"];
    assert_eq!(split["rule"], "inputs");
    assert_eq!(
        split["train_projects"],
        json!(["corpora/fixtures/agent-cpp"])
    );
    assert_eq!(
        split["held_out_projects"],
        json!(["corpora/fixtures/life.json"])
    );
}
