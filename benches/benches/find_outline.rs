//! `find outline` over generated outline stores of 1k, 10k and 100k items.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use findbench_benches::outline::outline_items;
use findbench_engine::modes::outline::{find_outline, OutlineRequest};
use findbench_engine::profile::OutlineWeights;
use findbench_engine::Store;

fn bench_find_outline(c: &mut Criterion) {
    let weights = OutlineWeights::default();
    let mut in_list = OutlineRequest::new("dark mode");
    in_list.list = Some("Marketing".into());
    let queries = [
        ("word", OutlineRequest::new("token")),
        ("two_terms", OutlineRequest::new("webhook retries")),
        ("notes", OutlineRequest::new("legal review")),
        ("typo", OutlineRequest::new("autoscalng")),
        ("in_list", in_list),
        ("no_match", OutlineRequest::new("kubernetes helm")),
    ];
    let mut group = c.benchmark_group("find_outline");
    for n in [1_000usize, 10_000, 100_000] {
        let store = Store::from_items("bench", outline_items(n, 42)).unwrap();
        group.throughput(Throughput::Elements(n as u64));
        for (name, request) in &queries {
            group.bench_with_input(BenchmarkId::new(*name, n), &store, |b, store| {
                b.iter(|| find_outline(store, request, &weights).unwrap())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_find_outline);
criterion_main!(benches);
