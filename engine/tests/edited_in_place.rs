//! Files edited, added or removed after the kept index was written
//! (`engine/src/tree/edits.rs`): the next load lays them over the index instead of
//! refreshing it, and every mode answers as a tree walked and read from scratch does
//! (symbols gained and lost, words gained, ranking statistics counted again, ignore rules
//! and hidden files followed for an added file), while neither the index nor the ranking
//! statistics kept beside it is written. A changed ignore rule, or more files than an
//! overlay reads, refreshes the index.

mod common;
use common::{backdate, strip_durations};

use findbench_engine::modes::ask::AskRequest;
use findbench_engine::modes::code::CodeRequest;
use findbench_engine::modes::grep::GrepRequest;
use findbench_engine::tree::{Tree, TreeOptions};
use findbench_engine::{Engine, Fixture, Request};
use serde_json::Value;
use std::fs;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::SystemTime;

struct Scene {
    root: tempfile::TempDir,
    cache: tempfile::TempDir,
}

const SERVICE: &str = "/// Replays recorded traces within a budget.\npub struct ReplayService {\n    budget: u32,\n}\n\nimpl ReplayService {\n    /// Replays every trace, stopping when the budget runs out.\n    pub fn replay(&self) {}\n}\n";

impl Scene {
    fn new() -> Scene {
        let scene = Scene {
            root: tempfile::tempdir().unwrap(),
            cache: tempfile::tempdir().unwrap(),
        };
        scene.write("src/replay_service.rs", SERVICE);
        scene.write(
            "src/budget.rs",
            "/// How much time a replay may take.\npub struct Budget { millis: u64 }\n\npub fn budget_for(trace: &str) -> Budget { Budget { millis: trace.len() as u64 } }\n",
        );
        scene.write(
            "src/cursor.c",
            "#include <stdio.h>\n/* the cursor over a binary trace */\nstatic int cursor_binary(void) { return 1; }\n",
        );
        scene.write(
            "docs/guide.md",
            "# Guide\nThe replay service replays traces within a budget.\n",
        );
        scene.write(
            "tests/replay_test.rs",
            "#[test]\nfn replay_works() { let s = ReplayService { budget: 3 }; s.replay(); }\n",
        );
        scene.write("README.md", "A tool that replays traces.\n");
        backdate(scene.root.path());
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

    /// Writes `text` to a new file and renames it over `rel`, as editors that save
    /// atomically do: the directory's mtime moves, its names do not.
    fn replace(&self, rel: &str, text: &str) {
        let temp = self.path(&format!("{rel}.saving"));
        fs::write(&temp, text).unwrap();
        fs::rename(&temp, self.path(rel)).unwrap();
    }

    fn options(&self, no_cache: bool) -> TreeOptions {
        TreeOptions {
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

    /// Every file under the cache directory with its length and mtime: what a write changes.
    fn cache_files(&self) -> Vec<(PathBuf, u64, SystemTime)> {
        let mut out = Vec::new();
        for entry in fs::read_dir(self.cache.path().join("trees")).unwrap() {
            let path = entry.unwrap().path();
            let meta = fs::metadata(&path).unwrap();
            out.push((path, meta.len(), meta.modified().unwrap()));
        }
        out.sort();
        out
    }
}

/// The answers of every tree mode that reads symbols, words or ranking statistics, without
/// their timings.
fn answers(tree: Tree) -> Vec<Value> {
    let fixture = Fixture::Tree(Arc::new(tree));
    let engine = Engine::default();
    let requests = [
        Request::Code(CodeRequest::new("ReplayService")),
        Request::Code(CodeRequest::new("zebra_handler")),
        Request::Code(CodeRequest::new("budget")),
        Request::Code(CodeRequest::new("cursor_binary")),
        Request::Grep(GrepRequest::new("replay")),
        Request::Grep(GrepRequest::new("zebra")),
        Request::Grep(GrepRequest::new("cursor[ _-]?binary")),
        Request::Ask(AskRequest::new("where is ReplayService defined")),
        Request::Ask(AskRequest::new("where is zebra_handler defined")),
        Request::Ask(AskRequest::new(
            "how does the replay of recorded traces stop when the time budget runs out",
        )),
        Request::Ask(AskRequest::new(
            "which striped zebra gallops across the savanna",
        )),
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

fn edited(tree: &Tree) -> Vec<&str> {
    tree.kept()
        .expect("a tree of the kept index with trusted mtimes")
        .edited
        .iter()
        .map(|&i| tree.files()[i as usize].path.as_str())
        .collect()
}

#[test]
fn files_edited_in_place_are_laid_over_the_index_and_answer_as_a_fresh_tree() {
    let scene = Scene::new();
    Tree::index(scene.root.path(), &scene.options(false)).unwrap();
    // the ranked question keeps the ranking statistics beside the index
    assert_eq!(answers(scene.cached()), answers(scene.uncached()), "built");
    let kept = scene.cache_files();
    assert!(
        kept.iter()
            .any(|(p, _, _)| p.extension().is_some_and(|e| e == "fields")),
        "{kept:?}"
    );

    // a file edited in place: a definition lost, another gained, prose changed
    scene.write(
        "src/replay_service.rs",
        "/// Handles zebra events within a budget.\npub fn zebra_handler(budget: u32) -> u32 { budget }\n\n/// The striped zebra gallops across the savanna.\npub struct Savanna;\n",
    );
    let tree = scene.cached();
    assert_eq!(edited(&tree), ["src/replay_service.rs"]);
    let (got, want) = (answers(tree), answers(scene.uncached()));
    assert_eq!(got, want, "one file edited");
    // the lost definition is not found, the gained one is
    assert!(
        !got[0]
            .to_string()
            .contains("definition `struct ReplayService`"),
        "{}",
        got[0]
    );
    assert_eq!(
        got[1]["matches"][0]["path"], "src/replay_service.rs",
        "{}",
        got[1]
    );
    assert_eq!(scene.cache_files(), kept, "nothing written");

    // a second file saved by renaming a new file over it; then one edited to the same size
    scene.replace(
        "src/budget.rs",
        "/// How long a replay of recorded traces may run before it stops.\npub struct Budget { millis: u64 }\n",
    );
    let tree = scene.cached();
    assert_eq!(edited(&tree), ["src/budget.rs", "src/replay_service.rs"]);
    assert_eq!(
        answers(tree),
        answers(scene.uncached()),
        "saved by a rename"
    );
    scene.write(
        "src/cursor.c",
        "#include <stdio.h>\n/* the cursor over a binary trace */\nstatic int cursor_binarx(void) { return 1; }\n",
    );
    assert_eq!(
        answers(scene.cached()),
        answers(scene.uncached()),
        "same size"
    );
    assert_eq!(scene.cache_files(), kept, "nothing written");

    // an edited file edited back: it is still read again (its mtime moved), with the same
    // answers as before the edits
    scene.write("src/replay_service.rs", SERVICE);
    assert_eq!(
        answers(scene.cached()),
        answers(scene.uncached()),
        "edited back"
    );

    assert_eq!(scene.cache_files(), kept, "nothing written");
}

#[test]
fn files_added_and_removed_are_laid_over_the_index_and_answer_as_a_fresh_tree() {
    let scene = Scene::new();
    scene.write(".gitignore", "build/\n");
    scene.write("build/out.rs", "pub fn zebra_handler() {}\n");
    backdate(scene.root.path());
    Tree::index(scene.root.path(), &scene.options(false)).unwrap();
    assert_eq!(answers(scene.cached()), answers(scene.uncached()), "built");
    let kept = scene.cache_files();

    // a file added beside others, one removed, a directory of files added, an ignored
    // file and a hidden one added (neither is in the tree)
    scene.write(
        "src/zebra.rs",
        "/// The striped zebra.\npub fn zebra_handler() {}\n",
    );
    fs::remove_file(scene.path("docs/guide.md")).unwrap();
    scene.write(
        "src/savanna/herd.rs",
        "pub struct Herd;\n/// gallops across the savanna\npub fn gallop() {}\n",
    );
    scene.write("src/savanna/deep/grass.rs", "pub fn zebra_grass() {}\n");
    scene.write("build/more.rs", "pub fn zebra_more() {}\n");
    scene.write("src/.hidden.rs", "pub fn zebra_hidden() {}\n");
    let tree = scene.cached();
    assert_eq!(
        edited(&tree),
        [
            "src/savanna/deep/grass.rs",
            "src/savanna/herd.rs",
            "src/zebra.rs"
        ]
    );
    assert!(tree.file("docs/guide.md").is_none());
    assert!(tree.file("build/more.rs").is_none() && tree.file("src/.hidden.rs").is_none());
    let (got, want) = (answers(tree), answers(scene.uncached()));
    assert_eq!(got, want, "added and removed");
    assert_eq!(got[1]["matches"][0]["path"], "src/zebra.rs", "{}", got[1]);
    assert_eq!(scene.cache_files(), kept, "nothing written");
    assert_eq!(
        scene.cached().index_wanted(),
        None,
        "a few files: no refresh wanted"
    );

    // a whole directory removed, a file turned into a directory, a directory into a file
    fs::remove_dir_all(scene.path("src/savanna")).unwrap();
    fs::remove_file(scene.path("src/budget.rs")).unwrap();
    scene.write("src/budget.rs/inner.rs", "pub struct Budget;\n");
    fs::remove_dir_all(scene.path("tests")).unwrap();
    scene.write("tests", "fn zebra_tests() {}\n");
    let tree = scene.cached();
    assert_eq!(
        edited(&tree),
        ["src/budget.rs/inner.rs", "src/zebra.rs", "tests"]
    );
    assert_eq!(answers(tree), answers(scene.uncached()), "directories");
    assert_eq!(scene.cache_files(), kept, "nothing written");

    // enough files read again on every call that the caller is asked to refresh the index
    for i in 0..64 {
        scene.write(
            &format!("many/file_{i}.rs"),
            &format!("pub fn many_{i}() {{}}\n"),
        );
    }
    let tree = scene.cached();
    assert_eq!(tree.kept().unwrap().edited.len(), 3 + 64);
    let wanted = tree.index_wanted().expect("a refresh is wanted");
    assert_eq!(wanted.root, scene.root.path().canonicalize().unwrap());
    assert_eq!(wanted.cache_dir, scene.cache.path());
    assert_eq!(answers(tree), answers(scene.uncached()), "many files");
    assert_eq!(scene.cache_files(), kept, "nothing written");

    // more files than an overlay reads: the index is refreshed by a walk and written
    for i in 0..300 {
        scene.write(
            &format!("gen/file_{i}.rs"),
            &format!("pub fn generated_{i}() {{}}\n"),
        );
    }
    let tree = scene.cached();
    assert!(tree.kept().is_none_or(|k| k.edited.is_empty()));
    assert_eq!(tree.len(), scene.uncached().len());
    assert_ne!(scene.cache_files(), kept, "the index was written again");
}

#[test]
fn a_changed_or_added_ignore_file_refreshes_the_index() {
    let scene = Scene::new();
    scene.write(".gitignore", "build/\n");
    scene.write("build/out.rs", "pub struct ReplayService;\n");
    backdate(scene.root.path());
    Tree::index(scene.root.path(), &scene.options(false)).unwrap();
    let kept = scene.cache_files();

    // the ignore file changes in place: the ignored directory comes in
    scene.write(".gitignore", "target/\n");
    let tree = scene.cached();
    assert!(tree.file("build/out.rs").is_some());
    assert_eq!(
        answers(tree),
        answers(scene.uncached()),
        "changed ignore rule"
    );
    assert_ne!(scene.cache_files(), kept, "the index was written again");

    // an ignore file added below the root: the files it ignores leave the tree
    backdate(scene.root.path());
    Tree::index(scene.root.path(), &scene.options(false)).unwrap();
    let kept = scene.cache_files();
    scene.write("src/.gitignore", "budget.rs\n");
    let tree = scene.cached();
    assert!(tree.file("src/budget.rs").is_none());
    assert_eq!(
        answers(tree),
        answers(scene.uncached()),
        "added ignore file"
    );
    assert_ne!(scene.cache_files(), kept, "the index was written again");
}

/// Moves the mtime of the file `rel` half an hour back: out of the racy window of a
/// refresh that reads it now, still after the index was built.
fn settle(scene: &Scene, rel: &str) {
    let past = SystemTime::now() - std::time::Duration::from_secs(1800);
    fs::File::open(scene.path(rel))
        .unwrap()
        .set_modified(past)
        .unwrap();
}

#[test]
fn a_refresh_after_a_few_changes_keeps_the_files_it_read_beside_the_index() {
    use findbench_engine::tree::IndexState;
    let scene = Scene::new();
    Tree::index(scene.root.path(), &scene.options(false)).unwrap();
    let index = scene.cache_files();
    let many: Vec<String> = (0..70).map(|i| format!("many/file_{i}.rs")).collect();
    for (i, rel) in many.iter().enumerate() {
        scene.write(rel, &format!("pub fn many_{i}() {{}}\n"));
        settle(&scene, rel);
    }
    scene.replace("src/budget.rs", "pub fn zebra_budget() -> u32 { 3 }\n");
    settle(&scene, "src/budget.rs");
    assert!(
        scene.cached().index_wanted().is_some(),
        "71 files read a call"
    );

    // the refresh reads the changed files once and writes only them, beside the index
    let stats = Tree::index(scene.root.path(), &scene.options(false)).unwrap();
    assert_eq!(stats.state, IndexState::ChangesKept);
    assert_eq!(stats.files_read, 71);
    assert_eq!(stats.write_error, None);
    let after = scene.cache_files();
    for kept in &index {
        assert!(
            after.contains(kept),
            "{} was written again",
            kept.0.display()
        );
    }
    let changes: Vec<_> = after.iter().filter(|f| !index.contains(f)).collect();
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!(changes[0].0.extension().unwrap(), "changes");

    // the next call takes their records from there: nothing to read, no refresh wanted,
    // and every answer is a fresh tree's
    let tree = scene.cached();
    assert_eq!(tree.index_wanted(), None);
    assert_eq!(edited(&tree).len(), 71);
    assert_eq!(answers(tree), answers(scene.uncached()), "kept changes");
    assert_eq!(scene.cache_files(), after, "nothing written by a call");

    // a kept file edited again is read again; so is one within the racy window of the
    // refresh that kept it
    scene.replace(
        "src/budget.rs",
        "pub fn zebra_budget_again() -> u32 { 4 }\n",
    );
    let stats = Tree::index(scene.root.path(), &scene.options(false)).unwrap();
    assert_eq!(
        (stats.state, stats.files_read),
        (IndexState::ChangesKept, 1)
    );
    let stats = Tree::index(scene.root.path(), &scene.options(false)).unwrap();
    assert_eq!(
        stats.files_read, 1,
        "racy: not trusted from the kept changes"
    );
    assert_eq!(answers(scene.cached()), answers(scene.uncached()), "again");

    // a damaged file of changes is not used: the files are read again, the answers hold
    let changes_path = &changes[0].0;
    fs::write(changes_path, b"FBCHANGE and not much else").unwrap();
    let tree = scene.cached();
    assert!(tree.index_wanted().is_some());
    assert_eq!(answers(tree), answers(scene.uncached()), "damaged");
    assert!(
        !changes_path.exists(),
        "a damaged file of changes is removed"
    );

    // a whole refresh writes the index and drops the changes kept beside the old one
    Tree::index(scene.root.path(), &scene.options(false)).unwrap();
    for i in 0..300 {
        scene.write(&format!("gen/file_{i}.rs"), "pub fn generated() {}\n");
    }
    let stats = Tree::index(scene.root.path(), &scene.options(false)).unwrap();
    assert_eq!(stats.state, IndexState::Refreshed);
    assert!(!changes_path.exists());
}

/// A directory whose mtime is within the racy window of the build that stamped it is not
/// trusted: it may change again in the same clock tick without its mtime showing it, so the
/// next load walks the tree again instead of taking the index as it is.
#[test]
fn a_directory_stamped_within_the_racy_window_is_walked_again() {
    use findbench_engine::tree::IndexState;
    let index = |scene: &Scene| Tree::index(scene.root.path(), &scene.options(false)).unwrap();
    let settled = Scene::new();
    assert_eq!(index(&settled).state, IndexState::Built);
    assert_eq!(
        index(&settled).state,
        IndexState::Unchanged,
        "every stamp trusted"
    );
    // the same tree, one directory's mtime now and the index built at once: its stamp is
    // within the window
    let scene = Scene::new();
    fs::File::open(scene.path("docs"))
        .unwrap()
        .set_modified(SystemTime::now())
        .unwrap();
    assert_eq!(index(&scene).state, IndexState::Built);
    assert_eq!(
        index(&scene).state,
        IndexState::Refreshed,
        "an untrusted stamp"
    );
    assert_eq!(answers(scene.cached()), answers(scene.uncached()));
}
