//! `find task` over generated stores of 1k, 10k and 100k tasks.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use findbench_engine::modes::task::{find_task, TaskRequest};
use findbench_engine::profile::TaskWeights;
use findbench_engine::Store;

fn bench_find_task(c: &mut Criterion) {
    let weights = TaskWeights::default();
    let queries = [
        ("word", TaskRequest::new("middleware")),
        ("two_terms", TaskRequest::new("session cache")),
        ("typo", TaskRequest::new("registraton")),
        ("no_match", TaskRequest::new("kubernetes")),
    ];
    let mut group = c.benchmark_group("find_task");
    for n in [1_000usize, 10_000, 100_000] {
        let store = Store::from_items("bench", findbench_benches::tasks(n, 42)).unwrap();
        group.throughput(Throughput::Elements(n as u64));
        for (name, request) in &queries {
            group.bench_with_input(BenchmarkId::new(*name, n), &store, |b, store| {
                b.iter(|| find_task(store, request, &weights).unwrap())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_find_task);
criterion_main!(benches);
