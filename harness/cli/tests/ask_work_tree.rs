//! `ask` on the top of a git work tree from the command line: an answer with free places
//! lists the files that changed lately, and the history it read is kept in the cache under
//! `HEAD`'s commit (`harness/tools/src/work_tree_history.rs`), never with `--no-cache`.

mod common;

use common::{assert_exit, git, stdout_json};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn commit(dir: &Path, path: &str, text: &str) -> String {
    std::fs::create_dir_all(dir.join(path).parent().unwrap()).unwrap();
    std::fs::write(dir.join(path), text).unwrap();
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", &format!("change {path}")]);
    git(dir, &["rev-parse", "HEAD"])
}

fn ask(root: &Path, cache: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_findbench"))
        .args(["ask", "Render the page again on slow screens", "-f", "json"])
        .args(["--no-background-index", "--root"])
        .arg(root)
        .args(extra)
        .env("FINDBENCH_CACHE", cache)
        .output()
        .expect("findbench runs")
}

/// The files an answer lists by history, in order.
fn by_history(answer: &Value) -> Vec<String> {
    answer["matches"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["reason"].as_str().unwrap().starts_with("history:"))
        .map(|m| m["path"].as_str().unwrap().to_string())
        .collect()
}

fn logs(cache: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(cache.join("history"))
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn ask_on_a_work_tree_lists_the_files_changed_lately_and_keeps_the_history_it_read() {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    git(root, &["init", "-q", "-b", "main"]);
    commit(
        root,
        "src/render.rs",
        "/// Render the page again when the screen is slow.\npub fn render_page() {}\n",
    );
    commit(root, "src/net.rs", "pub fn connect() {}\n");
    let head = commit(root, "src/store.rs", "pub fn put() {}\n");
    let cache = tempfile::tempdir().unwrap();
    let out = ask(root, cache.path(), &[]);
    assert_exit(&out, 0);
    let answer = stdout_json(&out);
    assert_eq!(answer["outcome"], "success", "{answer}");
    assert_eq!(answer["selected"], "src/render.rs");
    assert_eq!(by_history(&answer), ["src/store.rs", "src/net.rs"]);
    assert_eq!(logs(cache.path()), [format!("{head}-1000.log")]);
    // asked again: the same answer, from the kept log
    let again = stdout_json(&ask(root, cache.path(), &[]));
    assert_eq!(again["matches"], answer["matches"]);
    // a new commit: the history is read again and kept under the new HEAD
    let moved = commit(root, "src/net.rs", "pub fn connect() { retry(); }\n");
    let after = stdout_json(&ask(root, cache.path(), &[]));
    assert_eq!(by_history(&after), ["src/net.rs", "src/store.rs"]);
    assert_eq!(logs(cache.path()), {
        let mut both = vec![format!("{head}-1000.log"), format!("{moved}-1000.log")];
        both.sort();
        both
    });
    // `--no-cache`: the same history, read from git, nothing kept
    let bare = tempfile::tempdir().unwrap();
    let uncached = stdout_json(&ask(root, bare.path(), &["--no-cache"]));
    assert_eq!(by_history(&uncached), ["src/net.rs", "src/store.rs"]);
    assert!(!bare.path().join("history").exists());
}
