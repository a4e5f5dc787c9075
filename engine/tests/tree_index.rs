//! The kept tree index on real files: the same tree and the same answers with and without
//! the cache while the tree changes between calls (a changed, added and removed file, a new
//! ignore rule), no file read when nothing changed, grep reading only the files the posting
//! lists name, a truncated, garbage or foreign index rebuilt, concurrent builders, and the
//! walk's counts of skipped files kept.

mod common;
use common::strip_durations;

use findbench_engine::modes::ask::AskRequest;
use findbench_engine::modes::grep::GrepRequest;
use findbench_engine::tree::{ContentKind, IndexState, Tree, TreeOptions};
use findbench_engine::{Engine, Fixture, Request};
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

struct Scene {
    root: tempfile::TempDir,
    cache: tempfile::TempDir,
}

impl Scene {
    fn new() -> Scene {
        let scene = Scene {
            root: tempfile::tempdir().unwrap(),
            cache: tempfile::tempdir().unwrap(),
        };
        scene.write(
            "src/replay_service.rs",
            "pub struct ReplayService {\n    budget: u32,\n}\n\nimpl ReplayService {\n    pub fn replay(&self) {}\n}\n",
        );
        scene.write(
            "src/cursor.c",
            "#include <stdio.h>\nstatic int cursor_binary(void) { return 1; }\n",
        );
        scene.write(
            "docs/guide.md",
            "# Guide\nThe replay service replays traces.\n",
        );
        scene.write("tests/replay_test.rs", "#[test]\nfn replay_works() {}\n");
        fs::write(scene.path("assets/logo.png"), b"\x89PNG\0\0binary").unwrap();
        scene.write("data/big.txt", &"replay ".repeat(2000));
        scene.write(".gitignore", "build/\n");
        scene.write("build/generated.rs", "pub struct ReplayService;\n");
        scene.backdate();
        scene
    }

    fn path(&self, rel: &str) -> PathBuf {
        let p = self.root.path().join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        p
    }

    fn write(&self, rel: &str, text: &str) {
        fs::write(self.path(rel), text).unwrap();
    }

    /// Moves every mtime an hour back, so that the index trusts them (a file written in the
    /// same clock tick as the index read it is looked at again).
    fn backdate(&self) {
        common::backdate(self.root.path());
    }

    fn options(&self, no_cache: bool) -> TreeOptions {
        TreeOptions {
            max_file_bytes: 10_000,
            no_cache,
            cache_dir: Some(self.cache.path().to_path_buf()),
            ..TreeOptions::default()
        }
    }

    fn cached(&self) -> Tree {
        Tree::load(self.root.path(), &self.options(false)).unwrap()
    }

    fn uncached(&self) -> Tree {
        Tree::load(self.root.path(), &self.options(true)).unwrap()
    }

    fn index_file(&self) -> PathBuf {
        Tree::index(self.root.path(), &self.options(false))
            .unwrap()
            .cache_path
    }
}

/// Everything a tree holds that modes read, as comparable values.
fn contents(tree: &Tree) -> Vec<(String, u64, ContentKind, Option<String>, String)> {
    tree.files()
        .iter()
        .map(|f| {
            (
                f.path.clone(),
                f.size(),
                f.content_kind().clone(),
                f.text().map(str::to_string),
                serde_json::to_string(f.symbols()).unwrap(),
            )
        })
        .collect()
}

/// The answers of grep and ask, without their timings.
fn answers(tree: Tree) -> Vec<Value> {
    let fixture = Fixture::Tree(Arc::new(tree));
    let engine = Engine::default();
    let requests = [
        Request::Grep(GrepRequest::new("replay")),
        Request::Grep(GrepRequest::new("cursor[ _-]?binary")),
        Request::Grep(GrepRequest::new("budget: u32")),
        Request::Grep(GrepRequest::new("absentword")),
        Request::Ask(AskRequest::new("where is replay implemented")),
        Request::Ask(AskRequest::new("find cursor binary")),
        Request::Ask(AskRequest::new("where is the traces")),
    ];
    requests
        .iter()
        .map(|r| {
            let mut v = serde_json::to_value(engine.execute(&fixture, r).unwrap()).unwrap();
            strip_durations(&mut v);
            v
        })
        .collect()
}

fn assert_same(scene: &Scene, step: &str) {
    let (cached, uncached) = (scene.cached(), scene.uncached());
    assert_eq!(contents(&cached), contents(&uncached), "{step}: files");
    assert_eq!(cached.report(), uncached.report(), "{step}: walk report");
    assert_eq!(
        cached.dump_bytes(),
        uncached.dump_bytes(),
        "{step}: dump bytes"
    );
    assert_eq!(answers(cached), answers(uncached), "{step}: answers");
}

fn paths(tree: &Tree) -> Vec<&str> {
    tree.files().iter().map(|f| f.path.as_str()).collect()
}

#[test]
fn the_cache_gives_the_same_tree_and_answers_while_the_tree_changes() {
    let scene = Scene::new();
    let first = Tree::index(scene.root.path(), &scene.options(false)).unwrap();
    assert_eq!(first.state, IndexState::Built);
    assert_eq!(first.rebuilt_because.as_deref(), Some("no index yet"));
    assert_same(&scene, "first build");

    // a changed file (same size, new mtime) is read again
    scene.write(
        "src/cursor.c",
        "#include <stdio.h>\nstatic int cursor_binarx(void) { return 1; }\n",
    );
    assert_same(&scene, "changed file");
    assert!(scene
        .cached()
        .file("src/cursor.c")
        .unwrap()
        .text()
        .unwrap()
        .contains("binarx"));

    // an added file is seen, and found by grep through the posting lists
    scene.write("src/replay/engine.rs", "pub fn replay_engine() {}\n");
    assert_same(&scene, "added file");
    assert!(paths(&scene.cached()).contains(&"src/replay/engine.rs"));

    // a removed file is gone
    fs::remove_file(scene.root.path().join("docs/guide.md")).unwrap();
    assert_same(&scene, "removed file");
    assert!(!paths(&scene.cached()).contains(&"docs/guide.md"));

    // an ignore rule that changes in place brings the ignored directory in
    scene.write(".gitignore", "target/\n");
    assert_same(&scene, "changed .gitignore");
    assert!(paths(&scene.cached()).contains(&"build/generated.rs"));
}

#[test]
fn an_unchanged_tree_is_answered_from_the_index_without_reading_a_file() {
    let scene = Scene::new();
    let built = Tree::index(scene.root.path(), &scene.options(false)).unwrap();
    assert_eq!((built.state, built.files_read), (IndexState::Built, 6));
    let again = Tree::index(scene.root.path(), &scene.options(false)).unwrap();
    assert_eq!(again.state, IndexState::Unchanged);
    assert_eq!(again.files_read, 0);
    assert_eq!(again.rebuilt_because, None);
    assert_eq!((again.files, again.text_files), (6, 4));
    assert!(again.symbols >= 4, "{again:?}");
    assert!(again.words > 10 && again.postings_bytes > 0);
    assert_eq!(
        again.index_bytes,
        fs::metadata(&again.cache_path).unwrap().len()
    );

    // one changed file: only it is read, and kept beside the index (`tree/kept_changes.rs`)
    scene.write("src/cursor.c", "int cursor_binary(void);\n");
    let refreshed = Tree::index(scene.root.path(), &scene.options(false)).unwrap();
    assert_eq!(refreshed.state, IndexState::ChangesKept);
    assert_eq!(refreshed.files_read, 1);
}

#[test]
fn grep_reads_only_the_files_the_posting_lists_name() {
    let scene = Scene::new();
    scene.index_file();
    let tree = scene.cached();
    let names = |idx: Vec<usize>| -> Vec<String> {
        idx.into_iter()
            .map(|i| tree.files()[i].path.clone())
            .collect()
    };
    assert_eq!(names(tree.candidates(&["cursor_bin"])), ["src/cursor.c"]);
    assert_eq!(
        names(tree.candidates(&["replay", "budget"])),
        ["src/replay_service.rs"]
    );
    assert!(tree.candidates(&["nowhere"]).is_empty());
    // proof by a file that changes after the tree was loaded: it is not a candidate for
    // `cursor`, so grep never opens it and does not see its new text
    fs::write(
        scene.root.path().join("tests/replay_test.rs"),
        "fn cursor_binary() {}\n",
    )
    .unwrap();
    let fixture = Fixture::Tree(Arc::new(tree));
    let r = Engine::default()
        .execute(&fixture, &Request::Grep(GrepRequest::new("cursor")))
        .unwrap();
    let found: Vec<String> = serde_json::to_value(r).unwrap()["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["path"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(found, ["src/cursor.c"]);
}

#[test]
fn a_truncated_garbage_or_foreign_index_is_rebuilt_not_trusted() {
    let scene = Scene::new();
    let file = scene.index_file();
    let good = fs::read(&file).unwrap();
    let expected = contents(&scene.uncached());
    // the header is 88 bytes; the parts' lengths start at 20: the head's, then the stamps'
    let head_len = u64::from_le_bytes(good[20..28].try_into().unwrap()) as usize;
    let stamps_len = u64::from_le_bytes(good[28..36].try_into().unwrap()) as usize;
    assert!(stamps_len > 4, "{stamps_len}");
    let damages: [(&str, Vec<u8>); 7] = [
        ("truncated", good[..good.len() / 2].to_vec()),
        ("truncated", good[..10].to_vec()),
        ("bad magic", b"not an index, just garbage bytes. ".repeat(8)),
        ("checksum", {
            let mut b = good.clone();
            b[88 + 3] ^= 0x55; // inside the head, after the header
            b
        }),
        ("checksum", {
            let mut b = good.clone();
            b[88 + head_len + 3] ^= 0x55; // inside the stamps, after the head
            b
        }),
        ("symbol table", {
            let mut b = good.clone();
            b[88 + head_len + stamps_len + 30] ^= 0x55; // after the head and the stamps
            b
        }),
        ("another version", {
            let mut b = good.clone();
            b[12] ^= 0xff; // the fingerprint
            b
        }),
    ];
    for (why, bytes) in damages {
        fs::write(&file, &bytes).unwrap();
        let stats = Tree::index(scene.root.path(), &scene.options(false)).unwrap();
        assert_eq!(stats.state, IndexState::Built, "{why}");
        let reason = stats.rebuilt_because.unwrap();
        assert!(reason.contains(why), "{why}: {reason}");
        assert_eq!(contents(&scene.cached()), expected, "{why}");
        assert_eq!(
            fs::read(&file).unwrap().len(),
            good.len(),
            "{why}: rewritten whole"
        );
    }
}

#[test]
fn damaged_posting_lists_are_not_used_and_the_index_is_rebuilt() {
    let scene = Scene::new();
    let file = scene.index_file();
    let mut bytes = fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55; // the last posting list
    fs::write(&file, &bytes).unwrap();
    // the head is sound: the tree loads from it; the lists fail their checksum when grep
    // first needs them, so grep reads every file, and the answers are still right
    assert_eq!(answers(scene.cached()), answers(scene.uncached()));
    let next = Tree::index(scene.root.path(), &scene.options(false)).unwrap();
    assert_eq!(next.state, IndexState::Built);
    assert_eq!(next.rebuilt_because.as_deref(), Some("no index yet"));
}

#[test]
fn builders_racing_on_one_root_each_leave_a_whole_index() {
    let scene = Scene::new();
    let root = scene.root.path().to_path_buf();
    let options = scene.options(false);
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let (root, options) = (root.clone(), options.clone());
            std::thread::spawn(move || Tree::index(&root, &options).unwrap())
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap().files, 6);
    }
    let after = Tree::index(&root, &options).unwrap();
    assert_eq!(after.state, IndexState::Unchanged);
    // no temporary file is left behind
    let dir = after.cache_path.parent().unwrap();
    let names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
}

#[test]
fn skipped_files_are_counted_the_same_from_the_index() {
    let scene = Scene::new();
    scene.index_file();
    let report = scene.cached().report().clone();
    assert_eq!((report.files, report.binary, report.too_large), (6, 1, 1));
    assert_eq!(report, scene.uncached().report().clone());
    let big = scene.cached();
    assert_eq!(
        big.file("data/big.txt").unwrap().read().unwrap_err(),
        "too large to read"
    );
}

#[test]
fn no_cache_writes_nothing_and_index_refuses_it() {
    let scene = Scene::new();
    scene.uncached();
    assert_eq!(fs::read_dir(scene.cache.path()).unwrap().count(), 0);
    let err = Tree::index(scene.root.path(), &scene.options(true)).unwrap_err();
    assert_eq!(err.exit_code(), 2);
}

#[test]
fn a_missing_root_is_a_file_error_with_or_without_the_cache() {
    let scene = Scene::new();
    let missing = scene.root.path().join("nope");
    for no_cache in [false, true] {
        let err = Tree::load(Path::new(&missing), &scene.options(no_cache)).unwrap_err();
        assert_eq!(err.exit_code(), 3, "{err}");
    }
}

/// The symbol table's checksum is computed once per written index file: once it checked
/// out (and the file is older than the racy window), its identity is kept beside it and the
/// next loads trust it. A write into the file changes that identity (the ctime, even when
/// the mtime is put back), so a damaged table is still found and the index rebuilt.
#[test]
fn a_checked_symbol_table_is_trusted_until_the_file_changes() {
    let scene = Scene::new();
    let file = scene.index_file();
    let stamp = file.with_extension("verified");
    assert!(!stamp.exists(), "a fresh index is not trusted yet");
    // past the racy window: the next load checks the table and keeps the identity
    std::thread::sleep(std::time::Duration::from_millis(2_200));
    let expected = contents(&scene.uncached());
    assert_eq!(contents(&scene.cached()), expected);
    assert_eq!(fs::read(&stamp).unwrap().len(), 36, "identity not kept");
    // trusted: the same answers from the kept identity
    assert_eq!(contents(&scene.cached()), expected);
    let again = Tree::index(scene.root.path(), &scene.options(false)).unwrap();
    assert_eq!(again.state, IndexState::Unchanged);

    // one byte of the table damaged, the mtime put back: the ctime tells
    let mtime = fs::metadata(&file).unwrap().modified().unwrap();
    let mut bytes = fs::read(&file).unwrap();
    let head_len = u64::from_le_bytes(bytes[20..28].try_into().unwrap()) as usize;
    let stamps_len = u64::from_le_bytes(bytes[28..36].try_into().unwrap()) as usize;
    bytes[88 + head_len + stamps_len + 30] ^= 0x55;
    fs::write(&file, &bytes).unwrap();
    fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    let stats = Tree::index(scene.root.path(), &scene.options(false)).unwrap();
    assert_eq!(stats.state, IndexState::Built);
    assert!(
        stats
            .rebuilt_because
            .as_deref()
            .unwrap()
            .contains("symbol table"),
        "{stats:?}"
    );
    assert_eq!(contents(&scene.cached()), expected);

    // a stamp that is not the file's (garbage) is not trusted either
    fs::write(&stamp, b"garbage").unwrap();
    assert_eq!(contents(&scene.cached()), expected);
}
