//! The walk of a first call on a root (no kept index) opens no file: what each file holds is
//! learnt when it is first read. What the tree then says of its files (each one's size and
//! kind, the walk report, the dump size) is what a walk that reads every file says, and
//! what the kept index says, whether it is asked before any read or after `ask` read them.

use findbench_engine::modes::ask::AskRequest;
use findbench_engine::{Engine, Fixture, Request, Tree, TreeOptions};
use std::path::Path;
use std::sync::Arc;

/// Text in several languages, invalid UTF-8, an empty file, a binary file, a NUL past the
/// first 8 KiB, and a file over the size limit.
fn write_tree(root: &Path) {
    let files: [(&str, &[u8]); 8] = [
        ("src/replay.rs", b"pub fn replay_trace() {}\n"),
        ("src/Cursor.py", b"class CursorBinary:\n    pass\n"),
        ("src/invalid.c", b"int a\xffb(void) { return 0; }\n"),
        ("docs/empty.md", b""),
        ("data/blob.bin", b"ab\0cd"),
        ("data/late_nul.txt", &[b'a'; 9000]),
        ("data/big.txt", &[b'r'; 40_000]),
        ("README.md", b"Where replay is implemented.\n"),
    ];
    for (rel, bytes) in files {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, bytes).unwrap();
    }
    let mut late = std::fs::OpenOptions::new()
        .append(true)
        .open(root.join("data/late_nul.txt"))
        .unwrap();
    std::io::Write::write_all(&mut late, b"\0").unwrap();
}

fn options(cache: &Path, no_cache: bool) -> TreeOptions {
    TreeOptions {
        max_file_bytes: 32 << 10,
        cache_dir: Some(cache.to_path_buf()),
        no_cache,
        ..TreeOptions::default()
    }
}

/// Each file's path, size and kind, the walk report and the dump size.
fn described(tree: &Tree) -> String {
    let files: Vec<String> = tree
        .files()
        .iter()
        .map(|f| format!("{} {} {:?}", f.path, f.size(), f.content_kind()))
        .collect();
    format!(
        "{}\n{:?}\ndump {}",
        files.join("\n"),
        tree.report(),
        tree.dump_bytes()
    )
}

#[test]
fn an_unindexed_tree_says_of_its_files_what_a_read_of_every_file_says() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(dir.path());
    let cache = tempfile::tempdir().unwrap();
    let read = Tree::load(dir.path(), &options(cache.path(), true)).unwrap();
    assert!(!read.is_unindexed());
    let want = described(&read);
    assert_eq!(
        (read.report().binary, read.report().too_large),
        (1, 1),
        "{want}"
    );

    // asked before any read: the files are probed
    let probed = Tree::load(dir.path(), &options(cache.path(), false)).unwrap();
    assert!(probed.is_unindexed());
    assert_eq!(described(&probed), want);

    // asked after `ask` read every file (as the command line asks it)
    let asked = Arc::new(Tree::load(dir.path(), &options(cache.path(), false)).unwrap());
    assert!(asked.is_unindexed());
    let fixture = Fixture::Tree(asked.clone());
    let request = Request::Ask(AskRequest::new("where is replay implemented"));
    Engine::default().execute(&fixture, &request).unwrap();
    assert_eq!(described(&asked), want);

    // the kept index says the same
    let stats = Tree::index(dir.path(), &options(cache.path(), false)).unwrap();
    assert_eq!(&stats.report, read.report());
    assert_eq!(stats.files, read.len());
    let warm = Tree::load(dir.path(), &options(cache.path(), false)).unwrap();
    assert!(!warm.is_unindexed());
    assert_eq!(described(&warm), want);
}
