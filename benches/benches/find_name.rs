//! `find name` over generated task, goal and reading stores of 1k, 10k and 100k items.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use findbench_benches::outline::named_items;
use findbench_engine::modes::name::{find_name, NameRequest};
use findbench_engine::profile::NameWeights;
use findbench_engine::{Domain, Store};

fn bench_find_name(c: &mut Criterion) {
    let weights = NameWeights::default();
    let mut goals = NameRequest::new("half marathon");
    goals.domain = Domain::Goal;
    let queries = [
        ("good", NameRequest::new("the email task")),
        (
            "long_query",
            NameRequest::new("submit the monthly expense report"),
        ),
        ("weak", NameRequest::new("xyzzy")),
        ("goals", goals),
        ("no_query", NameRequest::default()),
    ];
    let mut group = c.benchmark_group("find_name");
    for n in [1_000usize, 10_000, 100_000] {
        let store = Store::from_items("bench", named_items(n, 42)).unwrap();
        group.throughput(Throughput::Elements(n as u64));
        if n == 100_000 {
            group.sample_size(20);
        }
        for (name, request) in &queries {
            group.bench_with_input(BenchmarkId::new(*name, n), &store, |b, store| {
                b.iter(|| find_name(store, request, &weights).unwrap())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_find_name);
criterion_main!(benches);
