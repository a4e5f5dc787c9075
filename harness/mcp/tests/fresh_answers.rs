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

fn git(dir: &Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The files an `ask` answer lists by the history, in order.
fn listed_by_history(service: &Service, root: &Path) -> Vec<String> {
    let question = json!({ "question": "Fix a typo in the spelling", "root": root });
    let out = service.call("ask", &question);
    assert!(!out.is_error, "{}", out.document);
    let matches = out.document["matches"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    matches
        .iter()
        .filter(|m| m["reason"].as_str().unwrap().starts_with("history:"))
        .map(|m| m["path"].as_str().unwrap().to_string())
        .collect()
}

/// A commit changes only the git directory, which the watch skips: the next `ask` still
/// lists the files that changed lately by the history as it is now.
#[test]
fn a_commit_is_seen_by_the_history_of_the_next_answer() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("repo");
    std::fs::create_dir_all(root.join("src")).unwrap();
    git(dir.path(), &["init", "-q", "-b", "main", "repo"]);
    for (name, body) in [("a", "fn a() {}\n"), ("b", "fn b() {}\n")] {
        std::fs::write(root.join(format!("src/{name}.rs")), body).unwrap();
        git(&root, &["add", "."]);
        git(&root, &["commit", "-q", "-m", name]);
    }
    let store = dir.path().join("todo.json");
    std::fs::write(&store, "[]").unwrap();
    let service = service(&root, &store, &dir.path().join("cache"));
    assert_eq!(listed_by_history(&service, &root), ["src/b.rs", "src/a.rs"]);
    // an edit, seen (and the tree loaded again) before it is committed
    std::fs::write(root.join("src/a.rs"), "fn a() { let _ = 1; }\n").unwrap();
    assert_eq!(listed_by_history(&service, &root), ["src/b.rs", "src/a.rs"]);
    git(&root, &["commit", "-q", "-am", "a again"]);
    assert_eq!(listed_by_history(&service, &root), ["src/a.rs", "src/b.rs"]);
}
