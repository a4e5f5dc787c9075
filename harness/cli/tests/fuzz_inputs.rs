//! Bounded-time fuzzing of the two inputs findbench reads from users: corpus YAML and trace
//! lines. Mutations of valid inputs (the edits a typo, a truncation or a hostile file
//! makes) must end in a value or in a documented error (exit 2, naming the file and a
//! line, in the author's words), never a panic. A few mutants also go through the binary
//! to check the exit code end to end (never 101).

mod common;

use findbench_eval::corpus::load::parse_corpus_str;
use findbench_eval::error::HarnessError;
use findbench_traces::trace::{Trace, TraceItem, TraceStream};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::path::Path;

const CORPUS: &str = r#"suite: tasks
fixture: {store: todo.json}
budget: {p95_ms: 100, max_output_bytes: 5120}
gate: {min_pass_rate: 0.9, max_failed: 0}
cases:
  - id: typo
    query: authentcation
    mode: task
    args: {status: [pending, active], limit: 5}
    expect: {outcome: success, top: T002, contains: [T001], within: 5, excludes: [T9], max_bytes: 2048}
    tags: [typo]
  - {id: name, query: milk, mode: name, args: {domain: life}, expect: {quality: good}}
  - id: known
    query: "x: y"
    mode: ask
    expect: {outcome: insufficient_evidence}
    known_failure: "why"
"#;

const TRACE: &str = r#"{"trace_id":"t1","timestamp":"2026-06-19T09:00:00Z","query":"find cursor binary","fixture":"agent-cpp","tools":[{"name":"find","input":"cursor","candidates":0,"duration_ms":80.5}],"outcome":"insufficient_evidence","iterations":3,"duration_ms":200}"#;

/// Words of the parser's API that must never reach a user.
const LIBRARY_WORDS: [&str; 5] = [
    "DuplicateKeyPolicy",
    "Option<",
    "from_str_multiple",
    "budget breached",
    "invalid u64",
];

/// Characters that matter to YAML and JSON, and a few that matter to nobody.
const ALPHABET: &[char] = &[
    ':', '-', ' ', '\n', '\t', '{', '}', '[', ']', ',', '"', '\'', '#', '&', '*', '!', '|', '>',
    '%', '@', '`', '?', '~', '0', '9', '.', 'e', 'x', '\\', '\u{feff}', '\0', 'é', '\u{fffd}',
];

/// One edit of a text: insert, delete, replace a char, cut the text, or duplicate a slice.
#[derive(Debug, Clone)]
enum Edit {
    Insert(usize, char),
    Delete(usize),
    Replace(usize, char),
    Truncate(usize),
    Duplicate(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let ch = proptest::sample::select(ALPHABET);
    prop_oneof![
        (any::<usize>(), ch.clone()).prop_map(|(i, c)| Edit::Insert(i, c)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), ch).prop_map(|(i, c)| Edit::Replace(i, c)),
        any::<usize>().prop_map(Edit::Truncate),
        (any::<usize>(), 1usize..200).prop_map(|(i, n)| Edit::Duplicate(i, n)),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        let at = |i: usize, len: usize| if len == 0 { 0 } else { i % (len + 1) };
        match *e {
            Edit::Insert(i, c) => {
                let i = at(i, chars.len());
                chars.insert(i, c);
            }
            Edit::Delete(i) if !chars.is_empty() => {
                let i = i % chars.len();
                chars.remove(i);
            }
            Edit::Replace(i, c) if !chars.is_empty() => {
                let i = i % chars.len();
                chars[i] = c;
            }
            Edit::Truncate(i) => {
                let i = at(i, chars.len());
                chars.truncate(i);
            }
            Edit::Duplicate(i, n) => {
                let i = at(i, chars.len());
                let end = (i + n).min(chars.len());
                let slice: Vec<char> = chars[i..end].to_vec();
                chars.splice(i..i, slice);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// A bounded run: a fixed number of cases from a fixed seed, so the suite takes the same
/// (short) time on every machine and a failure reproduces.
fn runner(cases: u32) -> TestRunner {
    TestRunner::new_with_rng(
        Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        },
        proptest::test_runner::TestRng::deterministic_rng(
            proptest::test_runner::RngAlgorithm::ChaCha,
        ),
    )
}

#[test]
fn mutated_corpora_load_or_fail_with_a_documented_error() {
    let path = Path::new("fuzz.yaml");
    runner(1500)
        .run(&proptest::collection::vec(edit(), 1..8), |edits| {
            let text = apply(CORPUS, &edits);
            if let Err(e) = parse_corpus_str(path, &text) {
                let message = e.to_string();
                prop_assert!(matches!(e, HarnessError::Invalid { .. }), "{message}");
                prop_assert_eq!(e.exit_code(), 2);
                prop_assert!(message.starts_with("fuzz.yaml"), "{}", message);
                for w in LIBRARY_WORDS {
                    prop_assert!(!message.contains(w), "{}: {}", w, message);
                }
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn arbitrary_text_as_a_corpus_never_panics() {
    let path = Path::new("fuzz.yaml");
    runner(1000)
        .run(&".{0,300}", |text| {
            if let Err(e) = parse_corpus_str(path, &text) {
                prop_assert_eq!(e.exit_code(), 2);
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn mutated_trace_lines_parse_or_give_a_reason() {
    runner(3000)
        .run(&proptest::collection::vec(edit(), 1..6), |edits| {
            let line = apply(TRACE, &edits);
            if let Err(reason) = Trace::parse_line(&line) {
                prop_assert!(!reason.trim().is_empty());
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn arbitrary_bytes_as_a_trace_file_stream_as_traces_and_bad_lines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.jsonl");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, format!("{TRACE}\n{TRACE}\n").as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    let seeds = prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..2000),
        // a gzip stream with bytes flipped or cut
        (any::<usize>(), any::<u8>(), any::<usize>()).prop_map(move |(i, b, cut)| {
            let mut g = gz.clone();
            let i = i % g.len();
            g[i] ^= b;
            g.truncate(cut % (g.len() + 1));
            g
        }),
    ];
    runner(400)
        .run(&seeds, |bytes| {
            std::fs::write(&path, &bytes).unwrap();
            let stream = TraceStream::open(std::slice::from_ref(&path)).unwrap();
            for item in stream {
                // an opened file never ends the stream in an error: bad input is a bad line
                match item {
                    Ok(TraceItem::Bad(b)) => prop_assert!(b.line >= 1),
                    Ok(TraceItem::Trace(_)) => {}
                    Err(e) => prop_assert!(false, "stream error: {e}"),
                }
            }
            Ok(())
        })
        .unwrap();
}

/// End to end: mutants through `findbench run` exit 0, 1, 2 or 3, never 101.
#[test]
fn mutated_corpora_through_the_binary_exit_with_a_documented_code() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("todo.json"),
        r#"{"tasks": [{"id": "T001", "title": "Fix authentication", "status": "active"}]}"#,
    )
    .unwrap();
    let corpus = "suite: s\nfixture: {store: todo.json}\ncases:\n  - {id: a, query: auth, mode: task, expect: {top: T001}}\n  - id: b\n    query: authentication\n    mode: task\n    args: {limit: 3}\n    expect: {contains: [T001], within: 2}\n";
    runner(24)
        .run(&proptest::collection::vec(edit(), 1..5), |edits| {
            let text = apply(corpus, &edits);
            std::fs::write(dir.path().join("c.yaml"), &text).unwrap();
            let out = common::findbench_in(dir.path(), &["run", "c.yaml", "--out", "out"]);
            let code = out.status.code();
            prop_assert!(
                matches!(code, Some(0..=3)),
                "exit {:?} for\n{}\n{}",
                code,
                text,
                String::from_utf8_lossy(&out.stderr)
            );
            Ok(())
        })
        .unwrap();
}
