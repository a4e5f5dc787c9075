//! `ask` on the shipped C++ fixture (`corpora/fixtures/agent-cpp`) with questions of 10,
//! 100, 1,000 and 10,000 words, as an agent passes a whole issue text: the time should
//! stay near that of a short question, since a plan keeps at most the profile's
//! `planner.max_terms` distinct words (the tree is loaded once, outside the timed loop).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use findbench_engine::modes::ask::{ask, AskRequest};
use findbench_engine::tree::{Tree, TreeOptions};
use findbench_engine::Profile;
use std::path::Path;

const WORDS: [usize; 4] = [10, 100, 1_000, 10_000];

/// A question of `n` words: the fixture's own vocabulary with the filler of an issue text,
/// picked by a fixed linear congruential sequence so every run asks the same.
fn question(n: usize) -> String {
    const VOCABULARY: &[&str] = &[
        "where",
        "is",
        "the",
        "replay",
        "service",
        "cursor",
        "binary",
        "checkpoint",
        "when",
        "validation",
        "runner",
        "command",
        "router",
        "fails",
        "after",
        "timeout",
        "and",
        "execution",
        "engine",
        "crashes",
        "with",
        "an",
        "error",
        "ui",
        "manager",
        "plugin",
        "loader",
        "session",
        "state",
        "trace",
        "config",
        "parser",
        "should",
        "retry",
        "it",
    ];
    let mut x: u64 = 7;
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            VOCABULARY[(x >> 33) as usize % VOCABULARY.len()]
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn bench_ask_question_length(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpora/fixtures/agent-cpp");
    let options = TreeOptions {
        no_cache: true,
        ..TreeOptions::default()
    };
    let tree = Tree::load(&root, &options).expect("the shipped fixture loads");
    let profile = Profile::default();
    let mut group = c.benchmark_group("ask_question_words");
    group.sample_size(20);
    for n in WORDS {
        let request = AskRequest::new(question(n));
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::from_parameter(n), &request, |b, r| {
            b.iter(|| ask(&tree, r, &profile).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, bench_ask_question_length);
criterion_main!(benches);
