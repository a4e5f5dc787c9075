//! Harness throughput: 10,000 generated `find task` cases over the 352-task store, run by
//! the corpus runner at `--jobs 1` and `--jobs 2` (cases/second = criterion's elem/s).
//! Each iteration is what `findbench run` does after loading: a rayon pool of N threads,
//! every case executed, its envelope bytes measured and its expectations judged.
//!
//! Run: `cargo bench -p findbench-benches --bench run_corpus`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use findbench_benches::Sequence;
use findbench_engine::Engine;
use findbench_eval::corpus::{self, Case};
use findbench_eval::runner::{run_cases, RunOptions};
use std::fmt::Write;
use std::path::Path;

const CASES: usize = 10_000;

const WORDS: &[&str] = &[
    "auth",
    "middleware",
    "registration",
    "session",
    "cache",
    "invoice",
    "export",
    "stripe",
    "webhook",
    "oauth",
    "callback",
    "calendar",
    "sync",
    "search",
    "index",
    "query",
    "parser",
    "backup",
    "deploy",
    "metrics",
    "settings",
    "keyboard",
    "shortcuts",
    "schema",
    "migration",
    "importer",
    "digest",
    "reminder",
    "token",
    "refresh",
    "tls",
    "certificates",
    "progress",
];

/// A typo of `word`: two neighbouring letters swapped.
fn swap(word: &str, at: usize) -> String {
    let mut chars: Vec<char> = word.chars().collect();
    if chars.len() > 3 {
        let i = 1 + at % (chars.len() - 2);
        chars.swap(i, i + 1);
    }
    chars.into_iter().collect()
}

/// A corpus of `n` task cases against `store`: one- and two-word queries, typos, id
/// patterns, status filters and exact titles.
fn corpus_text(n: usize, store: &Path) -> String {
    let mut seq = Sequence::new(4242);
    let mut out = format!(
        "suite: generated\nfixture: {{store: \"{}\"}}\ncases:\n",
        store.display()
    );
    for i in 0..n {
        let _ = writeln!(out, "  - id: c{i:05}\n    mode: task");
        match seq.below(6) {
            0 => {
                let _ = writeln!(out, "    query: {}", seq.pick(WORDS));
            }
            1 => {
                let _ = writeln!(out, "    query: {} {}", seq.pick(WORDS), seq.pick(WORDS));
            }
            2 => {
                let w = swap(seq.pick(WORDS), seq.below(7));
                let _ = writeln!(out, "    query: {w}");
            }
            3 => {
                let _ = writeln!(out, "    args: {{id: \"T{:02}\"}}", 1 + seq.below(35));
            }
            4 => {
                let status = ["pending", "active", "done", "blocked"][seq.below(4)];
                let _ = writeln!(
                    out,
                    "    query: {}\n    args: {{status: {status}}}",
                    seq.pick(WORDS)
                );
            }
            _ => {
                let _ = writeln!(
                    out,
                    "    query: Add user registration flow\n    args: {{exact: true}}\n    expect: {{top: T003}}"
                );
            }
        }
    }
    out
}

fn run_corpus(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpora/fixtures/todo.json");
    let store = store.canonicalize().expect("corpora/fixtures/todo.json");
    let path = dir.path().join("generated.yaml");
    std::fs::write(&path, corpus_text(CASES, &store)).expect("write corpus");
    let corpora = corpus::load_corpora(&[path]).expect("generated corpus loads");
    let cases: Vec<&Case> = corpora.iter().flat_map(|c| c.cases.iter()).collect();
    assert_eq!(cases.len(), CASES);
    let engine = Engine::default();

    let mut group = c.benchmark_group("run_corpus");
    group.throughput(Throughput::Elements(CASES as u64));
    group.sample_size(10);
    for jobs in [1usize, 2] {
        group.bench_with_input(BenchmarkId::new("jobs", jobs), &jobs, |b, &jobs| {
            b.iter(|| {
                run_cases(
                    &engine,
                    &cases,
                    RunOptions {
                        jobs,
                        progress: false,
                    },
                )
                .expect("run")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, run_corpus);
criterion_main!(benches);
