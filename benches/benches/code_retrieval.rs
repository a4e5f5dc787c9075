//! `find code`, `find path`, `grep` and `ask` over generated trees and path lists of 1k,
//! 10k and 100k files (the fixture is built once per size, outside the timed loop).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use findbench_engine::modes::ask::{ask, AskRequest};
use findbench_engine::modes::code::{find_code, CodeRequest};
use findbench_engine::modes::grep::{grep, GrepRequest};
use findbench_engine::modes::path::{find_path, PathRequest};
use findbench_engine::Profile;

const SIZES: [usize; 3] = [1_000, 10_000, 100_000];

fn bench_find_path(c: &mut Criterion) {
    let weights = Profile::default().path;
    let queries = [
        "replaysvc",
        "src/cursor/probe",
        "checkpoint_service",
        "chekpoint",
        "zzqx",
    ];
    let mut group = c.benchmark_group("find_path");
    for n in SIZES {
        let list = findbench_benches::tree::path_list(n, 7);
        group.throughput(Throughput::Elements(n as u64));
        for q in queries {
            let request = PathRequest::new(q);
            group.bench_with_input(BenchmarkId::new(q, n), &list, |b, list| {
                b.iter(|| find_path(list, &request, &weights).unwrap())
            });
        }
    }
    group.finish();
}

fn bench_tree_modes(c: &mut Criterion) {
    let profile = Profile::default();
    let mut group = c.benchmark_group("tree_modes");
    group.sample_size(20);
    for n in SIZES {
        let tree = findbench_benches::tree::tree(n, 7);
        group.throughput(Throughput::Elements(n as u64));
        let mut code = CodeRequest::new("ReplayService");
        code.impl_query = true;
        group.bench_with_input(BenchmarkId::new("code_camel", n), &tree, |b, t| {
            b.iter(|| find_code(t, &code, &profile.code).unwrap())
        });
        let words = CodeRequest::new("cursor[ _-]?probe");
        group.bench_with_input(BenchmarkId::new("code_words", n), &tree, |b, t| {
            b.iter(|| find_code(t, &words, &profile.code).unwrap())
        });
        let g = GrepRequest::new("checkpoint[ _-]?store");
        group.bench_with_input(BenchmarkId::new("grep", n), &tree, |b, t| {
            b.iter(|| grep(t, &g, &profile.code, &profile.grep).unwrap())
        });
        let a = AskRequest::new("where is kubernetes autoscaler implemented");
        group.bench_with_input(BenchmarkId::new("ask_no_evidence", n), &tree, |b, t| {
            b.iter(|| ask(t, &a, &profile).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, bench_find_path, bench_tree_modes);
criterion_main!(benches);
