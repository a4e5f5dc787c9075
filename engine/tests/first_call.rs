//! The first call on a root (no kept index: the tree is walked once, files keep only their
//! grams, `ask` and `find code` scan the symbols of the files their keys need and, when
//! `ask` ranks, it computes the ranking statistics of the question's terms only) gives the
//! answer the kept index gives, field by field: on the shipped code fixture, on this
//! crate's own sources, and on a generated tree, for every `ask` question and `find code`
//! term of the shipped corpora and more.

mod common;
use common::strip_durations;

use findbench_engine::modes::ask::AskRequest;
use findbench_engine::modes::code::CodeRequest;
use findbench_engine::modes::grep::GrepRequest;
use findbench_engine::{Engine, Fixture, Request, Tree, TreeOptions};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The `ask` questions of a corpus file (a `query:` line followed by `mode: ask`).
fn corpus_questions(file: &str) -> Vec<String> {
    corpus_queries(file, "ask")
}

/// The queries of a corpus file's cases of one mode (a `query:` line followed by
/// `mode: MODE`).
fn corpus_queries(file: &str, mode: &str) -> Vec<String> {
    let text = std::fs::read_to_string(repo().join(file)).unwrap();
    let mut out = Vec::new();
    let mut last = None;
    for line in text.lines() {
        let line = line.trim().trim_start_matches("- ");
        if let Some(q) = line.strip_prefix("query:") {
            last = Some(q.trim().trim_matches('"').to_string());
        } else if line == format!("mode: {mode}") {
            out.extend(last.take());
        }
    }
    out
}

fn questions() -> Vec<String> {
    let mut q = corpus_questions("corpora/benchmark.yaml");
    q.extend(corpus_questions("corpora/validation.yaml"));
    assert!(q.len() > 40, "{}", q.len());
    q.extend(
        [
            // tasks ranked by every word, subjects, names, phrases, nothing
            "Exit immediately when Ctrl-C has been pressed twice",
            "where is the deserializer for yaml anchors",
            "how is the gzip header parsed",
            "how are symbols scanned and kept in the table",
            "where is SymbolTable defined",
            "where is Café defined",
            "get used global args",
            "where is it?",
            "find cursor binary",
            "where is kubernetes autoscaler implemented",
            "which part keeps sessions around",
            "where is the posting list decoded",
            "where is Read implemented",
            // ranked with words no file holds: no field lengths needed
            "where is zzqqxx",
            // tasks that quote the names of code (`profile.task_ranking.defines_named`)
            "fix the empty key in `SymbolTable::containing` and rank_files",
            "weigh_references lifts the file that defines named_identifiers()",
            // a task naming a file's own definition (`task_ranking.named_file`): that file
            // is scored though its words rank it low
            "make FieldIndex count the words of the prose and the path apart",
            "move the bound from best_files.rs to retrieval/kept.rs",
            // a qualified member the tree does not hold: its owner is named
            "Add SymbolTable.lookup_all",
            // ranked by words most files hold, and one that saturates nowhere
            "how does the parser read the header of a file",
        ]
        .map(String::from),
    );
    q
}

/// `find code` terms: the shipped corpora's, and names, stems, directories, phrases and
/// words of the trees asked (a qualified member's class, a name with an accent, a word in
/// thousands of names, a separator pattern, a term nothing holds).
fn code_terms() -> Vec<String> {
    let mut terms = corpus_queries("corpora/benchmark.yaml", "code");
    assert!(terms.len() >= 4, "{terms:?}");
    terms.extend(
        [
            "cursor_binary",
            "ReplayCursor",
            "SymbolTable",
            "symbol table",
            "table",
            "router",
            "CommandRouter",
            "Café",
            "gzip-header",
            "parse",
            "mod",
            "x",
            "zzqqxx",
            // qualified members (`modes/code/qualified.rs`): the member and its owner are
            // looked up too; one the tree does not hold, and a file name with its extension
            "CommandRouter::route",
            "SymbolTable::containing",
            "SymbolTable.nothing_here",
            "Tree#files",
            "mod.rs",
        ]
        .map(String::from),
    );
    terms
}

fn answers(tree: Tree, requests: &[Request], engine: &Engine) -> Vec<Value> {
    let fixture = Fixture::Tree(Arc::new(tree));
    requests
        .iter()
        .map(|r| {
            let mut v = serde_json::to_value(engine.execute(&fixture, r).unwrap()).unwrap();
            strip_durations(&mut v);
            v
        })
        .collect()
}

fn options(cache: &Path) -> TreeOptions {
    TreeOptions {
        cache_dir: Some(cache.to_path_buf()),
        ..TreeOptions::default()
    }
}

/// Asks every question as a first call (a fresh cache directory, one tree for all of them, as a
/// long-lived process holds it), then warm from the kept index, and compares.
fn assert_first_call_is_the_index_answer(root: &Path) {
    assert_first_call_is_the_index_answer_with(root, &Engine::default());
}

fn assert_first_call_is_the_index_answer_with(root: &Path, engine: &Engine) {
    let mut requests: Vec<Request> = questions()
        .into_iter()
        .map(|q| Request::Ask(AskRequest::new(q)))
        .collect();
    requests.push(Request::Grep(GrepRequest::new("replay")));
    requests.push(Request::Grep(GrepRequest::new("cursor[ _-]?binary")));
    requests.extend(
        code_terms()
            .into_iter()
            .map(|t| Request::Code(CodeRequest::new(t))),
    );
    let mut implementation = CodeRequest::new("router");
    implementation.impl_query = true;
    requests.push(Request::Code(implementation));
    let cache = tempfile::tempdir().unwrap();
    let unindexed = Tree::load(root, &options(cache.path())).unwrap();
    assert!(
        unindexed.is_unindexed(),
        "{}: no index yet, yet indexed",
        root.display()
    );
    let first_answers = answers(unindexed, &requests, engine);
    // nothing was built by answering
    assert!(!cache.path().join("trees").exists());
    Tree::index(root, &options(cache.path())).unwrap();
    let warm = Tree::load(root, &options(cache.path())).unwrap();
    assert!(!warm.is_unindexed());
    let warm_answers = answers(warm, &requests, engine);
    for ((first, warm), request) in first_answers.iter().zip(&warm_answers).zip(&requests) {
        assert_eq!(first, warm, "{}: {request:?}", root.display());
    }
}

#[test]
fn the_first_ask_on_the_code_fixture_is_the_kept_index_answer() {
    assert_first_call_is_the_index_answer(&repo().join("corpora/fixtures/agent-cpp"));
}

#[test]
fn the_first_ask_on_this_crate_is_the_kept_index_answer() {
    assert_first_call_is_the_index_answer(&repo().join("engine/src"));
}

/// A generated tree: Rust, Python, C++ and Go files whose names share words, qualified
/// members, names with accents, docs, a binary file and one over the size limit.
fn generated(dir: &Path) -> PathBuf {
    let root = dir.join("generated");
    let words = [
        "replay", "cursor", "binary", "session", "cache", "yaml", "anchor", "gzip", "header",
        "parse", "symbol", "table", "router", "command", "trace", "writer",
    ];
    let write = |rel: String, text: String| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    for i in 0..120usize {
        let a = words[i % words.len()];
        let b = words[(i * 7 + 3) % words.len()];
        let c = words[(i * 5 + 1) % words.len()];
        let camel = |w: &str| w[..1].to_uppercase() + &w[1..];
        match i % 5 {
            0 => write(
                format!("src/{a}/{b}_{c}.rs"),
                format!(
                    "//! How the {a} {b} is {c}d.\npub struct {}{} {{ n: u32 }}\n\nimpl {}{} {{\n    pub fn {c}_{a}(&self) {{}}\n}}\n",
                    camel(a),
                    camel(b),
                    camel(a),
                    camel(b)
                ),
            ),
            1 => write(
                format!("py/{b}/{c}.py"),
                format!("class {}{}:\n    \"\"\"The {a} of {c}.\"\"\"\n    def {a}_{b}(self):\n        pass\n", camel(c), camel(a)),
            ),
            2 => write(
                format!("cpp/{c}_{a}.cpp"),
                format!("// {b} handling\nvoid {}{}::{}() {{\n}}\nint Café{i}() {{ return {i}; }}\n", camel(c), camel(a), camel(b)),
            ),
            3 => write(
                format!("go/{a}/{a}_{c}.go"),
                format!("package {a}\n\n// {}{} keeps the {b}.\ntype {}{} struct {{}}\n\nfunc (x *{}{}) {}() {{}}\n", camel(a), camel(c), camel(a), camel(c), camel(a), camel(c), camel(b)),
            ),
            _ => write(
                format!("docs/{a}-{b}.md"),
                format!("# {a} {b}\n\nThe {c} is parsed when the {a} header is read; exit when Ctrl-C is pressed twice.\n"),
            ),
        }
    }
    write("data/blob.bin".into(), "ab\0cd".into());
    write("data/big.txt".into(), "replay ".repeat(200_000));
    root
}

#[test]
fn the_first_ask_on_a_generated_tree_is_the_kept_index_answer() {
    let dir = tempfile::tempdir().unwrap();
    assert_first_call_is_the_index_answer(&generated(dir.path()));
}

/// A tree of more files than the average field lengths are measured on: the first call
/// reads the sampled files and those holding the question's words, and ranks as the kept
/// index does (its averages measured on the same files).
#[test]
fn the_first_ask_on_a_sampled_tree_is_the_kept_index_answer() {
    let dir = tempfile::tempdir().unwrap();
    let mut profile = findbench_engine::profile::Profile::default();
    profile.task_ranking.length_sample = 16;
    assert_first_call_is_the_index_answer_with(&generated(dir.path()), &Engine::new(profile));
}

/// With the reference weights on, a first call ranks as the kept index: the declarations
/// of the best files and the texts that use their names are the same lists however the
/// tree was loaded.
#[test]
fn the_first_ask_weighing_references_is_the_kept_index_answer() {
    let mut profile = findbench_engine::profile::Profile::default();
    profile.task_ranking.defines_named = 1.0;
    profile.task_ranking.uses_defined = 0.5;
    profile.task_ranking.referenced = 0.5;
    assert_first_call_is_the_index_answer_with(&repo().join("engine/src"), &Engine::new(profile));
}

/// A first call's `find code` (on a tree loaded without its kept index) reads the files its term's key needs and builds no
/// index, whatever forms of the term the profile compares (snake form, the literal with
/// its separators as `_`, the literal itself, no symbol step), and answers as the kept
/// index does; so do an empty term and a limit of 0 (the same errors).
#[test]
fn a_first_find_code_answers_as_the_index_without_building_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = generated(dir.path());
    let profiles = [
        (true, true, true),
        (false, true, true),
        (false, false, true),
        (true, true, false),
    ]
    .map(|(camel_case, separator_pattern, symbol_scan)| {
        let mut profile = findbench_engine::profile::Profile::default();
        profile.code.camel_case = camel_case;
        profile.code.separator_pattern = separator_pattern;
        profile.code.symbol_scan = symbol_scan;
        profile
    });
    let requests: Vec<Request> = code_terms()
        .into_iter()
        .map(|t| Request::Code(CodeRequest::new(t)))
        .collect();
    let mut found = 0;
    for profile in profiles {
        let engine = Engine::new(profile);
        let cache = tempfile::tempdir().unwrap();
        let unindexed = Tree::load(&root, &options(cache.path())).unwrap();
        assert!(unindexed.is_unindexed());
        let first = answers(unindexed, &requests, &engine);
        assert!(!cache.path().join("trees").exists(), "an index was built");
        Tree::index(&root, &options(cache.path())).unwrap();
        let warm = Tree::load(&root, &options(cache.path())).unwrap();
        assert!(!warm.is_unindexed());
        let kept = answers(warm, &requests, &engine);
        for ((first, warm), request) in first.iter().zip(&kept).zip(&requests) {
            assert_eq!(first, warm, "{request:?}");
        }
        found += first
            .iter()
            .filter(|v| v["matches"].as_array().is_some_and(|m| !m.is_empty()))
            .count();
        // errors are told the same way, before any file is read
        for bad in [CodeRequest::new(" "), {
            let mut r = CodeRequest::new("replay");
            r.limit = 0;
            r
        }] {
            let error = |cache: &Path| {
                let tree = Fixture::Tree(Arc::new(Tree::load(&root, &options(cache)).unwrap()));
                let request = Request::Code(bad.clone());
                engine.execute(&tree, &request).unwrap_err().to_string()
            };
            let empty = tempfile::tempdir().unwrap();
            assert_eq!(error(empty.path()), error(cache.path()), "{bad:?}");
            assert!(!empty.path().join("trees").exists(), "an index was built");
        }
    }
    // the comparison holds answers, not only empty ones
    assert!(found > 20, "{found}");
}
