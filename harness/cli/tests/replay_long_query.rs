//! A trace whose question is an issue pasted whole (a megabyte in one `query`): the
//! reports people read (summary.md, report.html, junit.xml's test names) show its first
//! 200 characters and its size; the machine-readable ones (cases.jsonl, cases.csv,
//! results.json) keep it whole.

mod common;

use common::{assert_exit, findbench};
use std::path::Path;

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_huge_query_is_cut_in_the_human_reports_and_kept_whole_in_the_data() {
    let tmp = tempfile::tempdir().unwrap();
    // words no file holds: replayed as insufficient evidence, recorded as a success, so the
    // question is listed as regressed in summary.md and report.html
    let words: Vec<String> = (0..100_000).map(|i| format!("zqxword{i}")).collect();
    let query = words.join(" ");
    assert!(query.len() > 1_000_000);
    let line = |id: &str, q: &str| {
        serde_json::json!({
            "trace_id": id, "timestamp": "2026-06-19T00:00:00Z", "query": q,
            "fixture": "agent-cpp", "tools": [], "outcome": "success", "iterations": 1,
            "duration_ms": 5.0
        })
        .to_string()
    };
    let traces = tmp.path().join("traces.jsonl");
    std::fs::write(
        &traces,
        [
            line("huge", &query),
            line("small", "where is replay implemented"),
        ]
        .join("\n")
            + "\n",
    )
    .unwrap();
    let out = tmp.path().join("out");
    let o = findbench(&["replay", path_str(&traces), "--out", path_str(&out), "-q"]);
    assert_exit(&o, 0);
    let read = |name: &str| std::fs::read_to_string(out.join(name)).unwrap();
    let shown = format!("{}... ({} bytes)", &query[..200], query.len());
    for name in ["summary.md", "report.html", "junit.xml"] {
        let text = read(name);
        assert!(text.len() < 64 * 1024, "{name} is {} bytes", text.len());
        assert!(text.contains(&shown), "{name} shows the cut question");
    }
    assert!(read("junit.xml").contains(&format!("name=\"huge {shown}\"")));
    // every other question is shown whole
    assert!(read("junit.xml").contains("name=\"small where is replay implemented\""));
    let cases: Vec<serde_json::Value> = read("cases.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(cases[0]["query"], query.as_str());
    assert!(read("cases.csv").contains(&query));
    let results: serde_json::Value = serde_json::from_str(&read("results.json")).unwrap();
    assert_eq!(results["cases"][0]["query"], query.as_str());
}
