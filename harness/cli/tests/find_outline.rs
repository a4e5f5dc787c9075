//! `findbench find outline` end to end: the map's breadcrumbs and indicators, formats,
//! exit codes, and broken hierarchies.

mod common;

use common::{assert_schema, findbench, stdout_json};

const STORE: &str = "corpora/fixtures/outline.json";

fn outline(args: &[&str]) -> std::process::Output {
    let mut all = vec!["find", "outline"];
    all.extend_from_slice(args);
    findbench(&all)
}

#[test]
fn json_match_has_breadcrumb_and_indicators() {
    let out = outline(&["token refresh", "--store", STORE, "-f", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let v = stdout_json(&out);
    assert_schema("find-outline.schema.json", &v);
    let top = &v["matches"][0];
    assert_eq!(top["id"], "ENG-4");
    assert_eq!(
        top["breadcrumb"],
        "Website relaunch > Backend platform > Auth service > Token refresh"
    );
    assert_eq!(top["indicators"], "[F: 3]");
    assert_eq!(top["children"], 3);
    assert_eq!(top["list"], "Engineering");
    assert!(out.stdout.len() < 5 * 1024, "{} bytes", out.stdout.len());
    // the parent carries notes, comments and children, all three signalled
    let v = stdout_json(&outline(&["token", "--store", STORE, "-f", "json"]));
    let auth = v["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == "ENG-3")
        .expect("Auth service matches through its notes");
    assert_eq!(auth["indicators"], "[N] [C] [F: 4]");
    assert_eq!(auth["has_notes"], true);
    assert_eq!(auth["has_comments"], true);
    assert_eq!(auth["matched_in"], serde_json::json!(["notes"]));
}

#[test]
fn ten_matches_with_breadcrumbs_stay_under_5kb() {
    let out = outline(&["e", "--store", STORE, "-f", "json"]);
    let v = stdout_json(&out);
    assert_schema("find-outline.schema.json", &v);
    assert_eq!(v["summary"]["returned"], 10);
    assert!(v["summary"]["truncated"].as_bool().unwrap());
    assert!(out.stdout.len() < 5 * 1024, "{} bytes", out.stdout.len());
}

#[test]
fn text_is_indicators_breadcrumb_id() {
    let out = outline(&["dark mode", "--store", STORE, "-f", "text", "-q"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "[N] [C] [F: 2]  Website relaunch > Frontend > Design system > Dark mode  ENG-33"
    );
    // indicators are padded so breadcrumbs line up
    assert!(lines[1].starts_with("                Website relaunch > Frontend"));
    assert!(lines
        .iter()
        .all(|l| l.split_whitespace().last().unwrap().contains('-')));
}

#[test]
fn list_and_limit_narrow_the_map() {
    let out = outline(&[
        "dark mode",
        "--store",
        STORE,
        "-f",
        "json",
        "--list",
        "marketing",
    ]);
    let v = stdout_json(&out);
    assert_schema("find-outline.schema.json", &v);
    let matches = v["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 1);
    assert_eq!(matches[0]["id"], "MKT-5");
    let out = outline(&["mode", "--store", STORE, "-f", "json", "-n", "2"]);
    let v = stdout_json(&out);
    assert_eq!(v["summary"]["returned"], 2);
    assert_eq!(v["summary"]["truncated"], true);
    assert_eq!(v["query"]["limit"], 2);
}

#[test]
fn unknown_list_is_invalid_input_naming_the_lists() {
    let out = outline(&["x", "--store", STORE, "-f", "json", "--list", "Sales"]);
    assert_eq!(out.status.code(), Some(2));
    let v = stdout_json(&out);
    assert_schema("error.schema.json", &v);
    assert!(v["error"]["hint"]
        .as_str()
        .unwrap()
        .contains("Engineering, Marketing, Operations, Product"));
}

#[test]
fn no_match_exits_100_and_empty_query_exits_2() {
    let out = outline(&["kubernetes helm chart", "--store", STORE, "-f", "json"]);
    assert_eq!(out.status.code(), Some(100));
    let v = stdout_json(&out);
    assert_schema("find-outline.schema.json", &v);
    assert_eq!(v["matches"], serde_json::json!([]));
    let out = outline(&[" ", "--store", STORE, "-f", "json"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn broken_hierarchies_are_marked_in_breadcrumbs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.jsonl");
    let mut lines = vec![
        r#"{"id":"c1","title":"cycle one","parent":"c2"}"#.to_string(),
        r#"{"id":"c2","title":"cycle two","parent":"c1"}"#.to_string(),
        r#"{"id":"s","title":"self parent","parent":"s"}"#.to_string(),
        r#"{"id":"o","title":"orphan","parent":"gone"}"#.to_string(),
    ];
    // a 10,000-deep chain
    for i in 0..10_000 {
        let parent = if i == 0 {
            "null".to_string()
        } else {
            format!("\"d{}\"", i - 1)
        };
        lines.push(format!(
            r#"{{"id":"d{i}","title":"depth {i}","parent":{parent}}}"#
        ));
    }
    std::fs::write(&path, lines.join("\n")).unwrap();
    let store = path.to_str().unwrap();
    let crumb = |q: &str| -> (String, serde_json::Value) {
        let out = outline(&[q, "--store", store, "-f", "json", "-n", "1"]);
        assert_eq!(out.status.code(), Some(0), "{q}");
        let v = stdout_json(&out);
        assert_schema("find-outline.schema.json", &v);
        let m = &v["matches"][0];
        (
            m["breadcrumb"].as_str().unwrap().to_string(),
            m["breadcrumb_cut"].clone(),
        )
    };
    assert_eq!(
        crumb("cycle one"),
        ("(cycle) > cycle two > cycle one".into(), "cycle".into())
    );
    assert_eq!(
        crumb("self parent"),
        ("(cycle) > self parent".into(), "cycle".into())
    );
    assert_eq!(
        crumb("orphan"),
        (
            "(missing parent gone) > orphan".into(),
            "missing_parent".into()
        )
    );
    let (deep, cut) = crumb("depth 9999");
    assert!(deep.starts_with("… > depth 9936 > "), "{deep}");
    assert!(deep.ends_with("> depth 9999"));
    assert_eq!(cut, "too_deep");
}
