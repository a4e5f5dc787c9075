//! `findbench find task` end to end: formats, exit codes, errors, schema.

mod common;

use common::{assert_schema, findbench, findbench_in, stdout_json};
use std::io::Write;

const STORE: &str = "corpora/fixtures/todo.json";

#[test]
fn json_matches_are_ranked_and_valid() {
    let out = findbench(&[
        "find",
        "task",
        "auth middleware",
        "--store",
        STORE,
        "-f",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let v = stdout_json(&out);
    assert_schema("find-task.schema.json", &v);
    let matches = v["matches"].as_array().unwrap();
    assert!(!matches.is_empty());
    let scores: Vec<f64> = matches
        .iter()
        .map(|m| m["score"].as_f64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert!(matches[0]["title"]
        .as_str()
        .unwrap()
        .to_lowercase()
        .contains("auth middleware"));
    // envelope order: $schema, _meta, success first
    let keys: Vec<&String> = v.as_object().unwrap().keys().take(3).collect();
    assert_eq!(keys, ["$schema", "_meta", "success"]);
}

#[test]
fn ten_matches_stay_under_5kb() {
    let out = findbench(&["find", "task", "fix", "--store", STORE, "-f", "json"]);
    let v = stdout_json(&out);
    assert_eq!(v["summary"]["returned"], 10);
    assert!(v["summary"]["truncated"].as_bool().unwrap());
    assert!(out.stdout.len() < 5 * 1024, "{} bytes", out.stdout.len());
}

#[test]
fn verbose_adds_description_and_labels() {
    let out = findbench(&[
        "find",
        "task",
        "registration",
        "--store",
        STORE,
        "-f",
        "json",
        "-v",
    ]);
    let v = stdout_json(&out);
    assert_schema("find-task.schema.json", &v);
    assert!(v["matches"][0]["description"].is_string());
    assert!(v["matches"][0]["labels"].is_array());
}

#[test]
fn jsonl_is_one_match_per_line() {
    let out = findbench(&[
        "find", "task", "fix", "--store", STORE, "-f", "jsonl", "-n", "3",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    for line in lines {
        let m: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(m["id"].is_string() && m["score"].is_number());
    }
}

#[test]
fn text_is_one_aligned_line_per_match_plus_summary() {
    let out = findbench(&[
        "find",
        "task",
        "session cache",
        "--store",
        STORE,
        "-f",
        "text",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 2);
    assert!(lines.last().unwrap().contains("match"));
    // scores are in the same column on every line
    let col = lines[0].find("0.").unwrap();
    assert!(lines[..lines.len() - 1]
        .iter()
        .all(|l| l[col..].starts_with(['0', '1'])));
    let quiet = findbench(&[
        "find",
        "task",
        "session cache",
        "--store",
        STORE,
        "-f",
        "text",
        "-q",
    ]);
    assert_eq!(
        String::from_utf8(quiet.stdout).unwrap().lines().count(),
        lines.len() - 1
    );
}

#[test]
fn options_reach_the_engine() {
    let exact = findbench(&[
        "find",
        "task",
        "add user registration flow",
        "--store",
        STORE,
        "-e",
        "-f",
        "json",
    ]);
    let v = stdout_json(&exact);
    assert_eq!(v["summary"]["total_matches"], 1);
    assert_eq!(v["matches"][0]["id"], "T003");
    assert_eq!(v["matches"][0]["score"], 1.0);

    let by_id = findbench(&[
        "find", "task", "--id", "T00", "--store", STORE, "-f", "json", "-n", "50",
    ]);
    let v = stdout_json(&by_id);
    assert_eq!(v["summary"]["total_matches"], 9);

    let archived = findbench(&[
        "find",
        "task",
        "prototype find",
        "--store",
        STORE,
        "-f",
        "json",
    ]);
    assert_eq!(archived.status.code(), Some(100));
    let archived = findbench(&[
        "find",
        "task",
        "prototype find",
        "--store",
        STORE,
        "--include-archive",
        "-f",
        "json",
    ]);
    assert_eq!(stdout_json(&archived)["matches"][0]["id"], "T900");

    let status = findbench(&[
        "find", "task", "fix", "--store", STORE, "-s", "blocked", "-f", "json", "-n", "100",
    ]);
    let v = stdout_json(&status);
    assert!(v["matches"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["status"] == "blocked"));

    let notes = findbench(&[
        "find", "task", "bats", "--store", STORE, "--field", "notes", "-f", "json",
    ]);
    let v = stdout_json(&notes);
    assert_eq!(v["matches"][0]["matched_in"], serde_json::json!(["notes"]));
    let no_notes = findbench(&["find", "task", "bats", "--store", STORE, "-f", "json"]);
    assert_eq!(no_notes.status.code(), Some(100));

    let strict = findbench(&[
        "find", "task", "auth", "--store", STORE, "-t", "0.9", "-f", "json",
    ]);
    let v = stdout_json(&strict);
    assert!(v["matches"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["score"].as_f64().unwrap() >= 0.9));
}

#[test]
fn no_match_exits_100_with_success_true() {
    let out = findbench(&["find", "task", "kubernetes", "--store", STORE, "-f", "json"]);
    assert_eq!(out.status.code(), Some(100));
    let v = stdout_json(&out);
    assert_schema("find-task.schema.json", &v);
    assert_eq!(v["success"], true);
    assert_eq!(v["matches"], serde_json::json!([]));
}

fn assert_error(out: &std::process::Output, exit: i32, code: &str) -> serde_json::Value {
    assert_eq!(
        out.status.code(),
        Some(exit),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = stdout_json(out);
    assert_schema("error.schema.json", &v);
    assert_eq!(v["error"]["code"], code);
    assert_eq!(v["error"]["exit_code"], exit);
    v
}

#[test]
fn invalid_input_exits_2() {
    for args in [
        &["find", "task", "", "--store", STORE, "-f", "json"][..],
        &[
            "find", "task", "x", "--store", STORE, "-f", "json", "--limit", "0",
        ],
        &[
            "find", "task", "x", "--store", STORE, "-f", "json", "-t", "1.5",
        ],
        &[
            "find", "task", "x", "--store", STORE, "-f", "json", "-t", "-0.5",
        ],
        &[
            "find", "task", "x", "--store", STORE, "-f", "json", "--field", "owner",
        ],
        &["find", "task", "x", "-f", "json"],
    ] {
        let v = assert_error(&findbench(args), 2, "E_INVALID_INPUT");
        assert!(v["error"]["hint"].is_string(), "{args:?}");
    }
    // a malformed option value is rejected by the argument parser with the same exit code
    assert_eq!(
        findbench(&["find", "task", "x", "--store", STORE, "--limit", "ten"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn missing_store_exits_3() {
    let v = assert_error(
        &findbench(&[
            "find",
            "task",
            "x",
            "--store",
            "no/such/todo.json",
            "-f",
            "json",
        ]),
        3,
        "E_FILE",
    );
    assert!(v["error"]["message"]
        .as_str()
        .unwrap()
        .contains("no/such/todo.json"));
}

fn temp_store(name: &str, bytes: &[u8]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::File::create(&path)
        .unwrap()
        .write_all(bytes)
        .unwrap();
    (dir, path.to_string_lossy().into_owned())
}

#[test]
fn malformed_store_names_file_line_and_column() {
    let (_d, path) = temp_store(
        "todo.json",
        b"{\"tasks\": [\n  {\"id\": \"T1\", \"title\": \"a\"},\n  {\"id\": \"T2\", \"ti",
    );
    let v = assert_error(
        &findbench(&["find", "task", "a", "--store", &path, "-f", "json"]),
        2,
        "E_PARSE",
    );
    let msg = v["error"]["message"].as_str().unwrap();
    assert!(msg.contains("todo.json:3:"), "{msg}");

    let (_d, path) = temp_store(
        "s.jsonl",
        b"{\"id\":\"a\",\"title\":\"x\"}\n{\"id\":\"b\",\"title\":7}\n",
    );
    let v = assert_error(
        &findbench(&["find", "task", "x", "--store", &path, "-f", "json"]),
        2,
        "E_PARSE",
    );
    assert!(v["error"]["message"]
        .as_str()
        .unwrap()
        .contains("s.jsonl:2:"));

    let (_d, path) = temp_store(
        "bin.json",
        b"{\"tasks\": [{\"id\": \"T1\", \"title\": \"caf\xe9\"}]}",
    );
    let v = assert_error(
        &findbench(&["find", "task", "x", "--store", &path, "-f", "json"]),
        2,
        "E_PARSE",
    );
    assert!(v["error"]["message"].as_str().unwrap().contains("UTF-8"));
}

#[test]
fn store_of_zero_tasks_exits_100() {
    let (dir, path) = temp_store("todo.json", b"{\"tasks\": []}");
    let out = findbench_in(
        dir.path(),
        &["find", "task", "x", "--store", &path, "-f", "json"],
    );
    assert_eq!(out.status.code(), Some(100));
    assert_eq!(stdout_json(&out)["summary"]["total_matches"], 0);
}

#[test]
fn text_errors_go_to_stderr() {
    let out = findbench(&["find", "task", "x", "--store", "missing.json", "-f", "text"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("error: ") && err.contains("hint: "),
        "{err}"
    );
}

#[test]
fn profile_file_changes_the_ranking() {
    let (dir, store) = temp_store(
        "todo.json",
        br#"{"tasks": [{"id": "T1", "title": "cache layer", "description": "x"},
                      {"id": "T2", "title": "y", "description": "cache"}]}"#,
    );
    let default = findbench(&["find", "task", "cache", "--store", &store, "-f", "json"]);
    assert_eq!(stdout_json(&default)["matches"][0]["id"], "T1");

    let profile = dir.path().join("desc-first.json");
    std::fs::write(
        &profile,
        br#"{"name": "desc-first", "task": {"description": 2.0}}"#,
    )
    .unwrap();
    let p = profile.to_string_lossy().into_owned();
    let tuned = findbench(&[
        "find",
        "task",
        "cache",
        "--store",
        &store,
        "--profile",
        &p,
        "-f",
        "json",
    ]);
    assert_eq!(stdout_json(&tuned)["matches"][0]["id"], "T2");

    let unknown = findbench(&[
        "find",
        "task",
        "cache",
        "--store",
        &store,
        "--profile",
        "nosuch",
        "-f",
        "json",
    ]);
    assert_error(&unknown, 2, "E_INVALID_INPUT");
}

/// Without `--threshold`, the profile's `task.threshold` decides what is kept (and is
/// echoed); `--threshold` overrides it.
#[test]
fn threshold_defaults_to_the_profiles() {
    let (dir, store) = temp_store(
        "todo.json",
        br#"{"tasks": [{"id": "T1", "title": "cache layer", "description": "x"},
                      {"id": "T2", "title": "the cashe of old reports", "description": "y"}]}"#,
    );
    let scores = |extra: &[&str]| -> (Vec<String>, f64) {
        let mut args = vec!["find", "task", "cache", "--store", &store, "-f", "json"];
        args.extend_from_slice(extra);
        let v = stdout_json(&findbench(&args));
        let ids = v["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["id"].as_str().unwrap().to_string())
            .collect();
        (ids, v["query"]["threshold"].as_f64().unwrap())
    };
    let (default_ids, default_threshold) = scores(&[]);
    assert_eq!(default_threshold, 0.3);
    assert!(default_ids.contains(&"T1".to_string()), "{default_ids:?}");

    let profile = dir.path().join("strict.json");
    std::fs::write(
        &profile,
        br#"{"name": "strict", "task": {"threshold": 0.99}}"#,
    )
    .unwrap();
    let p = profile.to_string_lossy().into_owned();
    let (strict_ids, strict_threshold) = scores(&["--profile", &p]);
    assert_eq!(strict_threshold, 0.99);
    assert!(strict_ids.len() < default_ids.len(), "{strict_ids:?}");

    let (explicit_ids, explicit_threshold) = scores(&["--profile", &p, "--threshold", "0.3"]);
    assert_eq!(explicit_threshold, 0.3);
    assert_eq!(explicit_ids, default_ids);
}
