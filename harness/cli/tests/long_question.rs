//! `ask` and `replay` with questions far longer than any name: a whole issue text, a word
//! repeated thousands of times, a trace whose query is megabytes. Each answers (no hang, no
//! panic), planned from at most `planner.max_terms` distinct words, and says in
//! `plan.truncated` that the question was cut; a short question's answer has no such field.

mod common;

use common::{assert_exit, assert_schema, findbench, stdout_json};
use serde_json::Value;

fn ask(question: &str) -> Value {
    let out = findbench(&[
        "ask",
        question,
        "--root",
        "corpora/fixtures/agent-cpp",
        "--format",
        "json",
        "--no-cache",
    ]);
    let doc = stdout_json(&out);
    assert!(matches!(out.status.code(), Some(0 | 100)), "{doc:#}");
    assert_schema("ask.schema.json", &doc);
    doc
}

#[test]
fn a_short_question_says_nothing_of_truncation() {
    let doc = ask("where is replay implemented");
    assert_eq!(doc["plan"]["term"], "replay");
    assert!(doc["plan"].get("truncated").is_none(), "{doc:#}");
}

#[test]
fn a_word_repeated_two_thousand_times_is_one_term() {
    let doc = ask(&"replay ".repeat(2000));
    assert_eq!(doc["plan"]["term"], "replay");
    assert_eq!(
        doc["plan"]["truncated"],
        serde_json::json!({"terms_kept": 1, "terms_dropped": 0})
    );
    assert_eq!(doc["outcome"], "success");
}

#[test]
fn a_question_of_a_thousand_distinct_words_keeps_the_first_thirty_two() {
    let words: Vec<String> = (0..1000).map(|i| format!("w{i}")).collect();
    let doc = ask(&format!("where is replay {}", words.join(" ")));
    let term = doc["plan"]["term"].as_str().unwrap();
    assert_eq!(term.split("[ _-]?").count(), 32, "{term}");
    assert!(term.starts_with("replay[ _-]?w0[ _-]?w1[ _-]?"), "{term}");
    assert_eq!(
        doc["plan"]["truncated"],
        serde_json::json!({"terms_kept": 32, "terms_dropped": 969})
    );
}

#[test]
fn replay_of_a_trace_whose_query_is_megabytes_finishes() {
    let dir = tempfile::tempdir().unwrap();
    let query = "where is the replay service ".repeat(80_000); // 2.2 MB
    let trace = serde_json::json!({
        "trace_id": "tr-huge",
        "timestamp": "2026-06-19T00:40:13Z",
        "query": query,
        "fixture": "agent-cpp",
        "tools": [{"name": "find", "input": "replay", "candidates": 0, "duration_ms": 1.0}],
        "outcome": "insufficient_evidence",
        "iterations": 1,
        "duration_ms": 10.0
    });
    let file = dir.path().join("huge.jsonl");
    std::fs::write(&file, format!("{trace}\n")).unwrap();
    let out = findbench(&[
        "replay",
        file.to_str().unwrap(),
        "--format",
        "json",
        "--no-progress",
        "--exit-zero",
    ]);
    assert_exit(&out, 0);
    let doc = stdout_json(&out);
    assert_eq!(doc["traces"], 1, "{doc:#}");
    assert_eq!(doc["bad_lines"], 0);
}

#[test]
fn the_text_answer_says_the_question_was_cut() {
    let out = findbench(&[
        "ask",
        &"replay ".repeat(2000),
        "--root",
        "corpora/fixtures/agent-cpp",
        "--format",
        "text",
        "--no-cache",
    ]);
    assert_exit(&out, 0);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "cut       question too long: planned from its first 1 distinct words, \
             0 more left out"
        ),
        "{text}"
    );
    let out = findbench(&[
        "ask",
        "where is replay implemented",
        "--root",
        "corpora/fixtures/agent-cpp",
        "--format",
        "text",
    ]);
    assert!(!String::from_utf8_lossy(&out.stdout).contains("cut "));
}
