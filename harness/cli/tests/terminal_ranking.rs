//! What a terminal shows of the ranking: `replay` prints findbench's ranking beside the
//! agent's whenever traces are judged, says what it replayed against, and keeps an unknown
//! recorded latency unknown (null, "–"); `compare` judges hit@1, hit@k, MRR and recall
//! (McNemar, paired bootstrap), names the significant ones in its headline and lists the
//! cases whose expected file moved.

mod common;

use common::{assert_exit, assert_schema, findbench, stdout_json};
use serde_json::json;
use std::path::Path;

/// Two traces asking where replay is implemented in `agent-cpp`, one expecting the file
/// findbench finds and one a file the tree lacks; the second, like an imported agent log,
/// has no recorded time (0).
fn judged_traces(dir: &Path) -> String {
    let line = |id: &str, expected: &str, ms: f64| {
        json!({
            "trace_id": id, "timestamp": "2026-06-19T00:00:00Z",
            "query": "where is replay implemented", "fixture": "agent-cpp",
            "tools": [{"name": "Grep", "input": "replay", "candidates": 3,
                       "duration_ms": 1.0, "output_bytes": 300}],
            "outcome": "success", "iterations": 1, "duration_ms": ms,
            "expected": [expected]
        })
        .to_string()
    };
    let path = dir.join("judged.jsonl");
    std::fs::write(
        &path,
        [
            line("found", "src/services/replay_service.cpp", 0.0),
            line("absent", "src/click/termui.py", 0.0),
        ]
        .join("\n"),
    )
    .unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn replay_prints_the_ranking_table_and_what_it_replayed_against() {
    let dir = tempfile::tempdir().unwrap();
    let t = judged_traces(dir.path());
    let out = findbench(&["replay", "--no-progress", "-f", "text", &t, "--hit-k", "3"]);
    assert_exit(&out, 0);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("against corpora/fixtures"), "{text}");
    let header = text
        .lines()
        .find(|l| l.starts_with("| answered by"))
        .unwrap_or_else(|| panic!("no ranking table:\n{text}"));
    for column in [
        "hit@1", "hit@3", "MRR", "≤ 1 KB", "≤ 2 KB", "≤ 4 KB", "≤ 8 KB",
    ] {
        assert!(header.contains(column), "{header}");
    }
    let row = |label: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("| {label} ")))
            .unwrap_or_else(|| panic!("no row {label}:\n{text}"))
            .split('|')
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(str::to_string)
            .collect::<Vec<String>>()
    };
    let findbench_row = row("findbench");
    assert_eq!(findbench_row[1..4], ["2", "50.0%", "50.0%"]);
    let agent = row("the agent's own searches");
    assert_eq!(agent[1..3], ["2", "–"]);

    // an unknown recorded time stays unknown
    let out = findbench(&["replay", "--no-progress", "-f", "json", &t]);
    let s = &stdout_json(&out)["summary"];
    assert!(s["recorded_latency_p50_ms"].is_null(), "{s}");
    assert!(s["recorded_latency_p95_ms"].is_null(), "{s}");
    let reports = dir.path().join("reports");
    let out = findbench(&[
        "replay",
        "--no-progress",
        &t,
        "--out",
        reports.to_str().unwrap(),
    ]);
    assert_exit(&out, 0);
    let md = std::fs::read_to_string(reports.join("summary.md")).unwrap();
    let recorded = md
        .lines()
        .find(|l| l.starts_with("| recorded_latency_p50_ms"))
        .unwrap();
    assert!(
        recorded.contains('–') && !recorded.contains("0.000"),
        "{recorded}"
    );
}

/// A results.json of a replay whose judged cases found their expected file at `ranks`.
fn results(path: &Path, ranks: &[Option<usize>]) {
    let cases: Vec<_> = ranks
        .iter()
        .enumerate()
        .map(|(i, r)| {
            json!({"id": format!("t{i}"), "suite": "replay", "mode": "ask", "status": "pass",
                   "outcome": "success", "duration_ms": 1.0, "query": "where is x",
                   "expected": ["a.rs"], "rank": r,
                   "first_hit_bytes": r.map(|r| if r == 1 { 300 } else { 5000 })})
        })
        .collect();
    let hit_1 = ranks.iter().filter(|r| **r == Some(1)).count() as f64 / ranks.len() as f64;
    std::fs::write(
        path,
        json!({"kind": "replay", "summary": {"rank": {"k": 5, "hit_at_1": hit_1}},
               "cases": cases})
        .to_string(),
    )
    .unwrap();
}

#[test]
fn compare_judges_the_ranking_and_lists_the_moved_cases() {
    let dir = tempfile::tempdir().unwrap();
    let before = dir.path().join("before.json");
    let after = dir.path().join("after.json");
    results(&before, &[Some(1); 12]);
    let mut moved = vec![Some(3); 11];
    moved.push(None);
    results(&after, &moved);
    let (b, a) = (before.to_str().unwrap(), after.to_str().unwrap());
    let md = dir.path().join("compare.md");
    let out = findbench(&["compare", b, a, "-f", "text", "--out", md.to_str().unwrap()]);
    assert_exit(&out, 0);
    let headline = String::from_utf8_lossy(&out.stdout);
    assert!(
        headline.contains("rank.hit_at_1: 12 lost, 0 gained over 12 judged cases: worse, larger than noise (p = 0.0005)"),
        "{headline}"
    );
    assert!(headline.contains("rank.mrr: -0.69"), "{headline}");
    // one case lost its hit within 5: noise, so not in the headline
    assert!(!headline.contains("rank.hit_at_k"), "{headline}");
    assert!(
        headline.contains("expected file moved in 12 judged cases: t11 1 -> none, t0 1 -> 3"),
        "{headline}"
    );
    let report = std::fs::read_to_string(&md).unwrap();
    assert!(
        report.contains("| rank.hit_at_k      | McNemar        |    12 | 1 lost, 0 gained"),
        "{report}"
    );
    assert!(
        report.contains("| replay/t11 | where is x | 1 -> none |"),
        "{report}"
    );

    let out = findbench(&["compare", b, a, "-f", "json"]);
    let v = stdout_json(&out);
    assert_schema("compare.schema.json", &v);
    let hit = v["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "rank.hit_at_1")
        .unwrap();
    assert_eq!(hit["test"], "McNemar");
    assert_eq!(v["rank_moves"][0]["after"], serde_json::Value::Null);
    assert_eq!(v["rank_tests"].as_array().unwrap().len(), 7);
}
