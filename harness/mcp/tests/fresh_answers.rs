//! The server answers from the files as they are now: an edit, an added file, a removed one
//! and a changed store are seen by the very next call, through the service's call path.

use findbench_mcp::{Sandbox, Service};
use serde_json::{json, Value};
use std::path::Path;

/// The service over `root` and `store`, keeping what it indexes in `cache`.
fn service(root: &Path, store: &Path, cache: &Path) -> Service {
    let (roots, stores) = ([root.to_path_buf()], [store.to_path_buf()]);
    let sandbox = Sandbox::new(&roots, &stores, &[]).expect("the sandbox opens");
    let service = Service::new(sandbox, None).cache_in(cache.to_path_buf());
    service.warm_up(&roots, &stores, &[]);
    service
}

/// The paths `grep` finds for `term`.
fn grep(service: &Service, term: &str) -> Vec<String> {
    let out = service.call("grep", &json!({ "term": term }));
    assert!(!out.is_error, "{}", out.document);
    let matches = out.document["matches"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    matches
        .iter()
        .map(|r| r["path"].as_str().unwrap().to_string())
        .collect()
}

fn task_ids(service: &Service, query: &str) -> Vec<Value> {
    let out = service.call("find_task", &json!({ "query": query }));
    assert!(!out.is_error, "{}", out.document);
    out.document["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].clone())
        .collect()
}

#[test]
fn every_call_answers_from_the_files_as_they_are_now() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("repo");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/lib.rs"), "pub fn first() {}\n").unwrap();
    std::fs::write(root.join("src/other.rs"), "pub fn other() {}\n").unwrap();
    let store = dir.path().join("todo.json");
    std::fs::write(&store, r#"[{"id": "T1", "title": "write the parser"}]"#).unwrap();
    let service = service(&root, &store, &dir.path().join("cache"));

    assert_eq!(grep(&service, "zqxmarker"), Vec::<String>::new());
    // an edit in place
    std::fs::write(root.join("src/lib.rs"), "pub fn first() { zqxmarker(); }\n").unwrap();
    assert_eq!(grep(&service, "zqxmarker"), ["src/lib.rs"]);
    // a file added in a new directory
    std::fs::create_dir_all(root.join("added")).unwrap();
    std::fs::write(root.join("added/new.rs"), "fn zqxmarker() {}\n").unwrap();
    assert_eq!(grep(&service, "zqxmarker"), ["added/new.rs", "src/lib.rs"]);
    // a file removed
    std::fs::remove_file(root.join("src/lib.rs")).unwrap();
    assert_eq!(grep(&service, "zqxmarker"), ["added/new.rs"]);
    // unchanged files keep answering
    assert_eq!(grep(&service, "other"), ["src/other.rs"]);

    assert_eq!(task_ids(&service, "parser"), [json!("T1")]);
    std::fs::write(
        &store,
        r#"[{"id": "T1", "title": "write the parser"}, {"id": "T2", "title": "the lexer"}]"#,
    )
    .unwrap();
    assert_eq!(task_ids(&service, "lexer"), [json!("T2")]);
}
