//! The kept index through the real binary: `findbench index DIR` (built, refreshed,
//! unchanged; its schema; its errors) and `--no-cache` (the same answers as the kept index
//! while the tree changes between calls, and nothing written to the cache directory).

mod common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The binary with its cache in `cache` (never the user's own).
fn bin(cache: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_findbench"));
    c.env("FINDBENCH_CACHE", cache);
    c
}

fn run(cache: &Path, args: &[&str]) -> (i32, Value) {
    let out = bin(cache)
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
        panic!(
            "{args:?}: stdout is not JSON: {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap(), json)
}

/// A document without what differs between two runs of the same call (the clock).
fn answer(mut doc: Value) -> Value {
    if let Value::Object(map) = &mut doc {
        map.remove("_meta");
        map.remove("duration_ms");
    }
    doc
}

/// Sets the mtime of every file and directory under `dir` (and `dir`) an hour back, so that
/// the index trusts them (an mtime within two seconds of a build is looked at again).
fn age(dir: &Path) {
    let past = SystemTime::now() - Duration::from_secs(3600);
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            age(&path);
        } else {
            let f = std::fs::File::options().write(true).open(&path).unwrap();
            f.set_modified(past).unwrap();
        }
    }
    std::fs::File::open(dir)
        .unwrap()
        .set_modified(past)
        .unwrap();
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A small source tree: a definition, a caller, and a note.
fn tree(dir: &Path) -> PathBuf {
    let root = dir.join("src-tree");
    write(
        &root,
        "src/session_cache.rs",
        "/// Keeps sessions.\npub struct SessionCache {\n    entries: Vec<u32>,\n}\n\nimpl SessionCache {\n    pub fn evict_stale(&mut self) {}\n}\n",
    );
    write(
        &root,
        "src/server.rs",
        "use crate::session_cache::SessionCache;\n\nfn serve(cache: &mut SessionCache) {\n    cache.evict_stale();\n}\n",
    );
    write(
        &root,
        "docs/notes.md",
        "# Notes\n\nThe session cache evicts stale entries.\n",
    );
    root
}

fn files_under(dir: &Path) -> usize {
    if !dir.exists() {
        return 0;
    }
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        n += if path.is_dir() { files_under(&path) } else { 1 };
    }
    n
}

#[test]
fn index_builds_then_finds_nothing_changed_then_sees_a_change() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let root = tree(tmp.path());
    age(&root);
    let r = root.to_str().unwrap();

    let (code, doc) = run(&cache, &["index", r]);
    assert_eq!(code, 0, "{doc}");
    common::assert_schema("index.schema.json", &doc);
    assert_eq!(doc["state"], "built");
    assert_eq!(doc["rebuilt_because"], "no index yet");
    assert_eq!(doc["files"], 3);
    assert_eq!(doc["files_read"], 3);
    assert_eq!(doc["walk"]["files"], 3);
    assert!(doc["symbols"].as_u64().unwrap() >= 2, "{doc}");
    assert!(doc["words"].as_u64().unwrap() > 5, "{doc}");
    let index_file = PathBuf::from(doc["cache_path"].as_str().unwrap());
    assert!(index_file.starts_with(&cache), "{}", index_file.display());
    assert_eq!(
        std::fs::metadata(&index_file).unwrap().len(),
        doc["index_bytes"].as_u64().unwrap()
    );

    assert_eq!(doc["ranking_kept"], true, "{doc}");
    assert!(index_file.with_extension("fields").is_file());
    let index_bytes = doc["index_bytes"].clone();

    let (code, doc) = run(&cache, &["index", r]);
    assert_eq!(code, 0);
    assert_eq!(doc["state"], "unchanged", "{doc}");
    assert_eq!(doc["files_read"], 0);

    // a few files changed: the new one is read and kept beside the index, not rewritten
    write(&root, "src/added.rs", "pub fn added_later() {}\n");
    let (code, doc) = run(&cache, &["index", r]);
    assert_eq!(code, 0);
    common::assert_schema("index.schema.json", &doc);
    assert_eq!(doc["state"], "changes_kept", "{doc}");
    assert_eq!(doc["files"], 4);
    assert_eq!(doc["files_read"], 1, "{doc}");
    assert_eq!(doc["index_bytes"], index_bytes);
    assert!(index_file.with_extension("changes").is_file());
    // the statistics of the index's files stay kept: a question lays the changed files
    // over them
    assert_eq!(doc["ranking_kept"], true, "{doc}");

    // an ignore file added changes what the walk keeps: the index is refreshed
    write(&root, ".ignore", "nothing-ignored/\n");
    let (code, doc) = run(&cache, &["index", r]);
    assert_eq!(code, 0);
    assert_eq!(doc["state"], "refreshed", "{doc}");
    assert_eq!(doc["files"], 4);
    // the new file and nothing that was trusted before
    assert_eq!(doc["files_read"], 1, "{doc}");
    // written just now: its mtime is not trusted yet, nor statistics built over it
    assert_eq!(doc["ranking_kept"], false, "{doc}");
    assert!(!index_file.with_extension("changes").exists());
}

#[test]
fn index_text_output_names_the_index_and_what_it_holds() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let root = tree(tmp.path());
    let out = bin(&cache)
        .args(["index", root.to_str().unwrap(), "--format", "text"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("built "), "{text}");
    assert!(text.contains("(3 files, 3 read,"), "{text}");
    assert!(
        text.contains(&cache.join("trees").display().to_string()),
        "{text}"
    );
    assert!(text.contains("symbols"), "{text}");
}

#[test]
fn index_errors_have_their_exit_codes() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let root = tree(tmp.path());
    let r = root.to_str().unwrap();

    let (code, doc) = run(&cache, &["index", r, "--no-cache"]);
    assert_eq!(code, 2, "{doc}");
    common::assert_schema("error.schema.json", &doc);
    assert_eq!(doc["error"]["code"], "E_INVALID_INPUT");
    assert!(!cache.exists(), "--no-cache wrote to the cache");

    let missing = tmp.path().join("missing");
    let (code, doc) = run(&cache, &["index", missing.to_str().unwrap()]);
    assert_eq!(code, 3, "{doc}");
    assert!(doc["error"]["message"]
        .as_str()
        .unwrap()
        .contains("missing"));

    // a cache "directory" that is a file: the index cannot be written, which is the
    // command's whole purpose, so it is a file error (root or not)
    let blocked = tmp.path().join("not-a-dir");
    std::fs::write(&blocked, "x").unwrap();
    let (code, doc) = run(&blocked, &["index", r]);
    assert_eq!(code, 3, "{doc}");
    assert_eq!(doc["error"]["code"], "E_FILE");
}

/// Every tree mode gives the same document with the kept index as without it, before and
/// after the tree changes (a file edited, one added, one removed); `--no-cache` writes
/// nothing.
#[test]
fn no_cache_answers_equal_the_kept_index_while_the_tree_changes() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let root = tree(tmp.path());
    let r = root.to_str().unwrap();
    let calls: Vec<Vec<&str>> = vec![
        vec!["find", "code", "SessionCache", "--root", r],
        vec!["find", "code", "added_later", "--root", r],
        vec!["find", "path", "sescache", "--root", r],
        vec!["grep", "evict_stale", "--root", r],
        vec!["grep", "added_later", "--root", r],
        vec!["ask", "where is SessionCache defined", "--root", r],
        vec!["ask", "where is added_later defined", "--root", r],
        // no symbol named by it: ranked by its words (the kept ranking statistics)
        vec!["ask", "which part keeps sessions around", "--root", r],
    ];
    let compare = |stage: &str| -> Vec<Value> {
        let mut answers = Vec::new();
        for call in &calls {
            let (code, kept) = run(&cache, call);
            let mut bare = call.clone();
            bare.push("--no-cache");
            let (bare_code, walked) = run(&cache, &bare);
            assert_eq!(code, bare_code, "{stage} {call:?}");
            assert_eq!(answer(kept.clone()), answer(walked), "{stage} {call:?}");
            answers.push(answer(kept));
        }
        answers
    };

    let before = compare("before");
    assert!(files_under(&cache) > 0, "the kept index was not written");
    assert_eq!(before[1]["matches"], serde_json::json!([]), "{}", before[1]);

    age(&root);
    // the tree's files are old enough to trust: the ranking statistics are kept beside the
    // index; damaged, they are not used (the same answers) and are written anew
    let stats = |dir: &Path| -> Vec<PathBuf> {
        std::fs::read_dir(dir.join("trees"))
            .map(|d| d.map(|e| e.unwrap().path()).collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .filter(|p: &PathBuf| p.extension().is_some_and(|e| e == "fields"))
            .collect()
    };
    compare("aged");
    let kept = stats(&cache);
    assert_eq!(kept.len(), 1, "no ranking statistics kept: {kept:?}");
    let good = std::fs::read(&kept[0]).unwrap();
    let mut bytes = good.clone();
    bytes[100] ^= 0x55; // the header's checksum
    std::fs::write(&kept[0], &bytes).unwrap();
    compare("damaged statistics");
    assert_eq!(std::fs::read(&kept[0]).unwrap(), good, "not written anew");
    write(&root, "src/added.rs", "pub fn added_later() {}\n");
    std::fs::remove_file(root.join("docs/notes.md")).unwrap();
    write(
        &root,
        "src/server.rs",
        "fn serve() {\n    // the cache is gone from here\n}\n",
    );

    let after = compare("after");
    assert_eq!(
        after[1]["matches"][0]["path"], "src/added.rs",
        "{}",
        after[1]
    );
    assert_ne!(before[3], after[3], "grep did not see server.rs change");

    // nothing under a fresh cache directory with --no-cache, for trees and stores
    let fresh = tmp.path().join("fresh-cache");
    let store = workspace().join("corpora/fixtures/todo.json");
    for call in [
        vec!["find", "code", "SessionCache", "--root", r, "--no-cache"],
        vec![
            "ask",
            "where is SessionCache defined",
            "--root",
            r,
            "--no-cache",
        ],
        vec![
            "find",
            "task",
            "review",
            "--store",
            store.to_str().unwrap(),
            "--no-cache",
        ],
    ] {
        let (code, doc) = run(&fresh, &call);
        assert!(code == 0 || code == 100, "{call:?}: {doc}");
    }
    assert_eq!(files_under(&fresh), 0, "--no-cache wrote to the cache");
    // and the store is cached without it
    let (code, _) = run(
        &fresh,
        &["find", "task", "review", "--store", store.to_str().unwrap()],
    );
    assert!(code == 0 || code == 100);
    assert!(files_under(&fresh) > 0, "the store cache was not written");
}

/// What a first `ask` leaves in the cache directory's `trees/`: a marker or the index when
/// it started a background build (the marker is written before the call returns and the
/// builder replaces it with the index), nothing when it started none. A build under way
/// also has its segments there, hidden temporary files (`.KEY.idx.PID.N.M.segment.tmp`,
/// `tree/segments/`): they are its work, not what it leaves, and are not listed.
fn first_ask_leaves(extra: &[&str], env: Option<(&str, &str)>) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let root = tree(dir.path());
    let mut cmd = bin(cache.path());
    cmd.args(["ask", "where is the session cache", "--root"])
        .arg(&root)
        .args(["--format", "json"])
        .args(extra);
    if let Some((k, v)) = env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let trees = cache.path().join("trees");
    let mut names: Vec<String> = std::fs::read_dir(&trees)
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| !(n.starts_with('.') && n.ends_with(".tmp")))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    // let a started build finish before the temporary directories go
    for _ in 0..200 {
        if !names.iter().any(|n| n.ends_with(".building")) {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
        if std::fs::read_dir(&trees).unwrap().all(|e| {
            !e.unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".building")
        }) {
            break;
        }
    }
    names
}

#[test]
fn a_first_ask_starts_a_background_index_unless_told_not_to() {
    let started = first_ask_leaves(&[], None);
    assert_eq!(started.len(), 1, "{started:?}");
    assert!(
        started[0].ends_with(".building") || started[0].ends_with(".idx"),
        "{started:?}"
    );
    assert_eq!(
        first_ask_leaves(&["--no-background-index"], None),
        Vec::<String>::new()
    );
    assert_eq!(
        first_ask_leaves(&[], Some(("FINDBENCH_NO_BACKGROUND_INDEX", "1"))),
        Vec::<String>::new()
    );
    assert_eq!(
        first_ask_leaves(&["--no-cache"], None),
        Vec::<String>::new()
    );
    // a false value leaves the build on
    assert_eq!(
        first_ask_leaves(&[], Some(("FINDBENCH_NO_BACKGROUND_INDEX", "0"))).len(),
        1
    );
}
