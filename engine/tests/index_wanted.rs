//! The engine starts no process: a call answered on a tree without its kept index says
//! that an index is wanted (`Fixture::index_wanted`), and only a caller that claims the
//! build (`IndexWanted::claim`) writes its marker.

use findbench_engine::modes::ask::AskRequest;
use findbench_engine::modes::code::CodeRequest;
use findbench_engine::{Engine, Fixture, Request, Tree, TreeOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn tree(dir: &Path) -> PathBuf {
    let root = dir.join("tree");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("src/replay.rs"),
        "pub struct ReplayService;\n\nimpl ReplayService {\n    pub fn replay(&self) {}\n}\n",
    )
    .unwrap();
    root
}

fn options(cache: &Path) -> TreeOptions {
    TreeOptions {
        cache_dir: Some(cache.to_path_buf()),
        ..TreeOptions::default()
    }
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn a_cold_answer_wants_the_index_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let root = tree(dir.path());
    let fixture = Fixture::Tree(Arc::new(Tree::load(&root, &options(cache.path())).unwrap()));
    let engine = Engine::default();
    for request in [
        Request::Ask(AskRequest::new("where is replay implemented")),
        Request::Code(CodeRequest::new("ReplayService")),
    ] {
        engine.execute(&fixture, &request).unwrap();
    }
    // no index, no marker: nothing started a build
    assert!(
        entries(&cache.path().join("trees")).is_empty(),
        "{:?}",
        entries(&cache.path().join("trees"))
    );
    let wanted = fixture.index_wanted().expect("a cold tree wants its index");
    assert_eq!(wanted.root, root.canonicalize().unwrap());
    assert_eq!(wanted.cache_dir, cache.path());

    // one claim at a time: the marker holds off a second until released
    let claim = wanted.claim().expect("the first claim");
    let markers = entries(&cache.path().join("trees"));
    assert_eq!(markers.len(), 1, "{markers:?}");
    assert!(markers[0].ends_with(".building"), "{markers:?}");
    assert!(wanted.claim().is_none(), "a second build was claimed");
    claim.release();
    assert!(entries(&cache.path().join("trees")).is_empty());
    assert!(
        wanted.claim().is_some(),
        "released, the build is claimed again"
    );
}

#[test]
fn an_indexed_tree_or_no_cache_wants_no_index() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let root = tree(dir.path());
    let no_cache = TreeOptions {
        no_cache: true,
        ..options(cache.path())
    };
    let fixture = Fixture::Tree(Arc::new(Tree::load(&root, &no_cache).unwrap()));
    assert!(fixture.index_wanted().is_none());

    // walk options no command-line index uses: such an index would never be read
    let other = TreeOptions {
        hidden: !TreeOptions::default().hidden,
        ..options(cache.path())
    };
    let fixture = Fixture::Tree(Arc::new(Tree::load(&root, &other).unwrap()));
    assert!(fixture.index_wanted().is_none());

    Tree::index(&root, &options(cache.path())).unwrap();
    let fixture = Fixture::Tree(Arc::new(Tree::load(&root, &options(cache.path())).unwrap()));
    assert!(fixture.index_wanted().is_none());
}
