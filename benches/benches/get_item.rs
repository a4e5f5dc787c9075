//! `get` over generated outline stores of 1k, 10k and 100k items: one item, one item with
//! its subtree to depth 2 and 5, and an unknown id (which ranks every id for suggestions).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use findbench_benches::outline::outline_items;
use findbench_engine::modes::get::{get_item, GetRequest};
use findbench_engine::profile::OutlineWeights;
use findbench_engine::Store;

fn bench_get(c: &mut Criterion) {
    let weights = OutlineWeights::default();
    let mut group = c.benchmark_group("get");
    for n in [1_000usize, 10_000, 100_000] {
        let store = Store::from_items("bench", outline_items(n, 42)).unwrap();
        // the root with the most children: the widest subtree to walk
        let root = (0..store.len())
            .filter(|&i| store.hierarchy().parent(i).is_none())
            .max_by_key(|&i| store.hierarchy().child_count(i))
            .unwrap();
        let root_id = store.item(root).id().to_string();
        let leaf_id = store.item(n - 1).id().to_string();
        let mut depth2 = GetRequest::new(root_id.clone());
        depth2.children = true;
        let mut depth5 = depth2.clone();
        depth5.depth = Some(5);
        let requests = [
            ("item", GetRequest::new(leaf_id)),
            ("children_depth2", depth2),
            ("children_depth5", depth5),
            ("unknown_id", GetRequest::new(format!("O{}x", n / 2))),
        ];
        group.throughput(Throughput::Elements(n as u64));
        for (name, request) in &requests {
            group.bench_with_input(BenchmarkId::new(*name, n), &store, |b, store| {
                b.iter(|| get_item(store, request, &weights).unwrap())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_get);
criterion_main!(benches);
