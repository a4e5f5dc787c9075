//! `findbench get` end to end: the whole item, its subtree to a depth, unknown ids, lists.

mod common;

use common::{assert_exit, assert_schema, findbench, stdout_json};
use serde_json::Value;

const STORE: &str = "corpora/fixtures/outline.json";

fn get(args: &[&str]) -> (Option<i32>, Value) {
    let mut all = vec!["get"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--store", STORE, "-f", "json"]);
    let out = findbench(&all);
    let v = stdout_json(&out);
    if v["success"] == true {
        assert_schema("get.schema.json", &v);
    } else {
        assert_schema("error.schema.json", &v);
    }
    (out.status.code(), v)
}

#[test]
fn whole_item_with_notes_comments_and_breadcrumb() {
    let (code, v) = get(&["ENG-3"]);
    assert_eq!(code, Some(0));
    let item = &v["item"];
    assert_eq!(item["title"], "Auth service");
    assert_eq!(
        item["breadcrumb"],
        "Website relaunch > Backend platform > Auth service"
    );
    assert_eq!(item["parent"], "ENG-2");
    assert!(item["notes"][0]
        .as_str()
        .unwrap()
        .contains("docs/auth-v2.md"));
    assert_eq!(item["comments"][0], "Security review booked for week 32");
    assert_eq!(item["indicators"], "[N] [C] [F: 4]");
    assert!(item.get("children").is_none());
    assert!(v.get("truncated").is_none());
}

#[test]
fn children_default_to_depth_two_and_show_where_branches_go_on() {
    let (code, v) = get(&["ENG-3", "--children"]);
    assert_eq!(code, Some(0));
    assert_eq!(v["query"]["depth"], 2);
    assert_eq!(v["truncated"], false);
    let kids = v["item"]["children"].as_array().unwrap();
    let ids: Vec<&str> = kids.iter().map(|k| k["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["ENG-4", "ENG-8", "ENG-11", "ENG-12"]);
    let grandchildren = kids[0]["children"].as_array().unwrap();
    assert_eq!(grandchildren.len(), 3);
    assert_eq!(grandchildren[0]["indicators"], "[N]");
    // depth 2 reached: no further children lists
    assert!(grandchildren.iter().all(|g| g.get("children").is_none()));

    let (_, v) = get(&["ENG-1", "--children", "--depth", "1"]);
    let kids = v["item"]["children"].as_array().unwrap();
    assert!(kids.iter().all(|k| k.get("children").is_none()));
    assert!(kids.iter().all(|k| k["child_count"].as_u64().unwrap() > 0));
    assert!(kids[0]["indicators"].as_str().unwrap().contains("[F: "));
}

#[test]
fn unknown_id_exits_100_with_closest_ids() {
    let (code, v) = get(&["ENG-3x"]);
    assert_eq!(code, Some(100));
    assert!(v["item"].is_null());
    assert_eq!(v["suggestions"][0]["id"], "ENG-3");
    assert!(v["hint"].as_str().unwrap().contains("closest ids: ENG-3"));
    // text output carries the hint too
    let out = findbench(&["get", "ENG-3x", "--store", STORE, "-f", "text"]);
    assert_eq!(out.status.code(), Some(100));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("hint: no item with id `ENG-3x`; closest ids: ENG-3"),
        "{text}"
    );
}

#[test]
fn list_must_hold_the_item() {
    let (code, v) = get(&["ENG-3", "--list", "engineering"]);
    assert_eq!(code, Some(0));
    assert_eq!(v["item"]["id"], "ENG-3");
    let (code, v) = get(&["ENG-3", "--list", "Marketing"]);
    assert_eq!(code, Some(100));
    assert!(v["hint"]
        .as_str()
        .unwrap()
        .contains("is in list `Engineering`"));
    let (code, v) = get(&["ENG-3", "--list", "Nope"]);
    assert_eq!(code, Some(2));
    assert_eq!(v["error"]["code"], "E_INVALID_INPUT");
}

#[test]
fn depth_beyond_the_limit_is_invalid() {
    let (code, v) = get(&["ENG-1", "--children", "--depth", "1000"]);
    assert_eq!(code, Some(2));
    assert!(v["error"]["hint"].is_string());
}

#[test]
fn text_shows_the_subtree_indented() {
    let out = findbench(&["get", "ENG-4", "--children", "--store", STORE, "-f", "text"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("ENG-4  Token refresh  [F: 3]\n"), "{text}");
    assert!(
        text.contains("path: Website relaunch > Backend platform > Auth service > Token refresh")
    );
    assert!(text.contains("\n  ENG-5  Refresh tokens rotate on every use  (pending)  [N]\n"));
}

#[test]
fn deep_chain_and_cycle_neither_hang_nor_overflow() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deep.jsonl");
    let mut lines: Vec<String> = (0..10_000)
        .map(|i| {
            let parent = if i == 0 {
                "\"d9999\"".to_string()
            } else {
                format!("\"d{}\"", i - 1)
            };
            format!(r#"{{"id":"d{i}","title":"depth {i}","parent":{parent}}}"#)
        })
        .collect();
    lines.push(r#"{"id":"x","title":"self","parent":"x","notes":["n"]}"#.into());
    std::fs::write(&path, lines.join("\n")).unwrap();
    let store = path.to_str().unwrap();
    let run = |args: &[&str]| {
        let mut all = vec!["get"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--store", store, "-f", "json"]);
        let out = findbench(&all);
        assert_exit(&out, 0);
        let v = stdout_json(&out);
        assert_schema("get.schema.json", &v);
        v
    };
    // the whole chain is one 10,000-item cycle
    let v = run(&["d5000", "--children", "--depth", "32"]);
    assert_eq!(v["item"]["breadcrumb_cut"], "too_deep");
    let mut depth = 0;
    let mut node = &v["item"]["children"][0];
    while node.is_object() {
        depth += 1;
        node = &node["children"][0];
    }
    assert_eq!(depth, 32);
    let v = run(&["x", "--children"]);
    assert_eq!(v["item"]["breadcrumb"], "(cycle) > self");
    assert_eq!(v["item"]["children"], serde_json::json!([]));
}
