//! `findbench find name` end to end on the shipped life store: quality, exclusion flags per
//! domain, exit codes, schema.

mod common;

use common::{assert_schema, findbench, stdout_json};
use serde_json::Value;

const STORE: &str = "corpora/fixtures/life.json";

fn name(args: &[&str]) -> (Option<i32>, Value) {
    let mut all = vec!["find", "name"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--store", STORE, "-f", "json"]);
    let out = findbench(&all);
    let v = stdout_json(&out);
    if v["success"] == true {
        assert_schema("find-name.schema.json", &v);
    } else {
        assert_schema("error.schema.json", &v);
    }
    (out.status.code(), v)
}

fn ids(v: &Value) -> Vec<&str> {
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect()
}

#[test]
fn the_email_task_is_found_with_good_quality() {
    let (code, v) = name(&["emails"]);
    assert_eq!(code, Some(0));
    assert_eq!(v["fuzzy_match_quality"], "good");
    assert_eq!(v["results"][0]["title"], "Read emails");
    assert_eq!(v["results"][0]["score"], 100.0);
    assert!(v["results"].as_array().unwrap().len() <= 5);
    // "Archive old emails from 2021" is Done: left out, and the flag says so
    assert!(!ids(&v).contains(&"T26"));
    assert_eq!(v["excluded_done"], true);
    assert!(v["excluded_count"].as_u64().unwrap() > 0);
    let scores: Vec<f64> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["score"].as_f64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert!(scores.iter().all(|&s| s >= 60.0));
}

#[test]
fn scores_are_rapidfuzz_partial_ratio_of_the_folded_strings() {
    // values from Python: fuzz.partial_ratio("the email task", title.lower())
    let (_, v) = name(&["The Email task"]);
    assert_eq!(v["results"][0]["id"], "T17");
    assert_eq!(v["results"][0]["score"], 78.57142857142857);
    let read_emails = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "T1")
        .unwrap();
    assert_eq!(read_emails["score"], 72.72727272727273);
    let (_, v) = name(&["read books", "--domain", "goals"]);
    assert_eq!(v["results"][0]["score"], 70.0);
}

#[test]
fn short_words_are_dropped_from_the_query() {
    let (_, v) = name(&["the calendar cleanup"]);
    assert_eq!(v["query"]["normalised"], "the calendar cleanup");
    let (_, v) = name(&["do a calendar cleanup"]);
    assert_eq!(v["query"]["normalised"], "calendar cleanup");
    assert_eq!(v["results"][0]["title"], "Calendar cleanup");
}

#[test]
fn weak_quality_exits_100_with_best_guesses() {
    let (code, v) = name(&["xyz"]);
    assert_eq!(code, Some(100));
    assert_eq!(v["fuzzy_match_quality"], "weak");
    assert_eq!(v["results"].as_array().unwrap().len(), 5);
    assert!(v["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["score"].as_f64().unwrap() < 60.0));
    let out = findbench(&["find", "name", "xyz", "--store", STORE, "-f", "text"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("quality weak"), "{text}");
}

#[test]
fn include_done_and_its_aliases() {
    for flag in ["--include-done", "--include-complete", "--include-read"] {
        let (code, v) = name(&["old emails", flag]);
        assert_eq!(code, Some(0));
        assert_eq!(v["results"][0]["id"], "T26", "{flag}");
        assert_eq!(v["excluded_done"], false);
        assert_eq!(v["excluded_count"], 0);
    }
}

#[test]
fn each_domain_has_its_own_flag() {
    let (code, v) = name(&["half marathon", "--domain", "goals"]);
    assert_eq!(code, Some(0));
    assert_eq!(v["results"][0]["id"], "G1");
    assert_eq!(v["excluded_complete"], true);
    assert!(v.get("excluded_done").is_none());
    let (_, v) = name(&["atomic habits", "--domain", "reading"]);
    // it is Read, so only weak guesses remain
    assert_eq!(v["fuzzy_match_quality"], "weak");
    assert_eq!(v["excluded_read"], true);
    let (_, v) = name(&["atomic habits", "--domain", "reading", "--include-read"]);
    assert_eq!(v["results"][0]["title"], "Atomic Habits");
}

#[test]
fn no_query_lists_unfiltered_with_null_quality() {
    let (code, v) = name(&["--domain", "goals", "-n", "3"]);
    assert_eq!(code, Some(0));
    assert_eq!(v["fuzzy_match_quality"], Value::Null);
    assert_eq!(ids(&v), ["G1", "G2", "G3"]);
    assert!(v["results"][0]["score"].is_null());
    assert_eq!(v["summary"]["truncated"], true);
}

#[test]
fn bad_options_exit_2() {
    for args in [&["x", "--threshold", "120"][..], &["x", "--limit", "0"]] {
        let (code, v) = name(args);
        assert_eq!(code, Some(2), "{args:?}");
        assert_eq!(v["error"]["code"], "E_INVALID_INPUT");
    }
    let out = findbench(&["find", "name", "x", "--store", STORE, "--domain", "books"]);
    assert_eq!(out.status.code(), Some(2));
}
