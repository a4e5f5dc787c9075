//! A root new to the server is indexed in the background and the indexed tree kept: once
//! the build is done the server answers from the index in memory, with the answer the
//! engine gives over the same files, and after an edit with the answer of an index built
//! afresh.

use findbench_engine::{Fixture, TreeOptions};
use findbench_mcp::{Sandbox, Service};
use findbench_tools::call;
use findbench_tools::{FixtureKind, ToolCall};
use serde_json::{json, Value};
use std::path::Path;
use std::time::{Duration, Instant, SystemTime};

const QUESTION: &str = "where is the gzip header parsed";

/// The document without what differs between two calls with the same answer: the clock.
fn comparable(document: &Value) -> Value {
    match document {
        Value::Object(map) => map
            .iter()
            .filter(|(k, _)| !matches!(k.as_str(), "_meta" | "meta" | "duration_ms" | "walk"))
            .map(|(k, v)| (k.clone(), comparable(v)))
            .collect(),
        Value::Array(list) => list.iter().map(comparable).collect(),
        other => other.clone(),
    }
}

/// The engine's `ask` over `root` as a tree loaded with `options` (the server's walk: links
/// not followed), through the path the CLI's `ask` takes.
fn engine_ask(root: &Path, options: &TreeOptions) -> Value {
    if !options.no_cache {
        findbench_engine::Tree::index(root, options).expect("the index is built");
    }
    let call = ToolCall::parse("ask", &json!({ "question": QUESTION, "root": root }))
        .expect("a valid call");
    let answer = call::answer(&call, SystemTime::now(), Instant::now(), None, |_| {
        call::load_fixture(FixtureKind::Root, root, options)
    });
    assert!(
        matches!(&answer.fixture, Some(Fixture::Tree(t)) if !t.is_unindexed()),
        "the expected answer comes from an indexed tree"
    );
    answer.document()
}

fn server_ask(service: &Service, root: &Path) -> Value {
    let out = service.call("ask", &json!({ "question": QUESTION, "root": root }));
    assert!(!out.is_error, "{}", out.document);
    out.document
}

/// An index built afresh in a cache of its own, walked as the server walks.
fn fresh_index_options(cache: &Path) -> TreeOptions {
    TreeOptions {
        follow_links: false,
        cache_dir: Some(cache.to_path_buf()),
        ..TreeOptions::default()
    }
}

/// Dates every file and directory under `dir` an hour back: a load right after they were
/// written would doubt them (the racy-mtime rule) and load the tree again at the next call,
/// which would hide whether the built tree was swapped in.
fn age(dir: &Path) {
    let hour_ago = SystemTime::now() - Duration::from_secs(3600);
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            age(&path);
        } else {
            let file = std::fs::File::options().write(true).open(&path).unwrap();
            file.set_modified(hour_ago).unwrap();
        }
    }
    std::fs::File::open(dir)
        .unwrap()
        .set_modified(hour_ago)
        .unwrap();
}

fn paths(document: &Value) -> Vec<String> {
    document["matches"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["path"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn the_server_answers_from_the_index_it_built_as_the_engine_does() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("repo");
    std::fs::create_dir_all(root.join("src/codec")).unwrap();
    std::fs::write(
        root.join("src/codec/header.rs"),
        "/// The gzip header: magic bytes, flags, mtime.\npub struct GzHeader { flags: u8 }\n\n\
         /// Reads the gzip header from the stream.\npub fn read_header(bytes: &[u8]) -> GzHeader {\n    \
         GzHeader { flags: bytes[3] }\n}\n",
    )
    .unwrap();
    std::fs::write(
        root.join("src/lib.rs"),
        "pub mod codec;\n/// Opens a stream.\npub fn open() {}\n",
    )
    .unwrap();
    std::fs::write(root.join("README.md"), "A small codec crate.\n").unwrap();
    age(&root);
    let root = root.canonicalize().unwrap();
    let server_cache = dir.path().join("server-cache");
    let roots = [root.clone()];
    let service =
        Service::new(Sandbox::new(&roots, &[], &[]).unwrap(), None).cache_in(server_cache.clone());
    service.warm_up(&roots, &[], &[]);
    assert_eq!(
        service.answers_from_index(&root),
        Some(false),
        "a root never indexed is answered by passes over its files at first"
    );

    let first = server_ask(&service, &root);
    service.finish_index_builds();
    let warm = server_ask(&service, &root);
    assert_eq!(
        service.answers_from_index(&root),
        Some(true),
        "the server keeps the tree of the index it built"
    );
    let in_memory = TreeOptions {
        follow_links: false,
        no_cache: true,
        ..TreeOptions::default()
    };
    let expected = engine_ask(&root, &in_memory);
    assert_eq!(comparable(&warm), comparable(&expected));
    assert_eq!(
        comparable(&first),
        comparable(&expected),
        "the first call agrees"
    );
    assert!(
        paths(&warm).contains(&"src/codec/header.rs".to_string()),
        "{warm}"
    );

    // an edit: the next answer is the one of an index built afresh over the edited files
    std::fs::write(
        root.join("src/lib.rs"),
        "pub mod codec;\n/// Parses the gzip header of a stream: magic, flags, the header's crc.\n\
         pub fn parse_gzip_header(stream: &[u8]) -> bool { stream.len() > 10 }\n",
    )
    .unwrap();
    let edited = server_ask(&service, &root);
    assert_eq!(service.answers_from_index(&root), Some(true));
    let fresh_cache = tempfile::tempdir().unwrap();
    let expected = engine_ask(&root, &fresh_index_options(fresh_cache.path()));
    assert_eq!(comparable(&edited), comparable(&expected));
    assert_ne!(
        comparable(&edited),
        comparable(&warm),
        "the edit changes the answer"
    );
}
