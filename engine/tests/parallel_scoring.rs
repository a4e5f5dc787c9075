//! Large stores are scored in parallel; the answers must not depend on the thread count.

use findbench_engine::modes::name::NameRequest;
use findbench_engine::modes::task::TaskRequest;
use findbench_engine::{Engine, Fixture, Item, Request, Store};
use std::sync::Arc;

const WORDS: &[&str] = &[
    "auth",
    "middleware",
    "email",
    "émail",
    "calendar",
    "session",
    "cache",
    "report",
    "straße",
    "invoice",
    "deploy",
    "timeout",
    "registration",
    "backup",
];

/// 12,000 items with titles from a small vocabulary, so scores tie often and only the
/// tie-breaks decide the order.
fn store() -> Store {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    let items: Vec<Item> = (0..12_000)
        .map(|i| {
            let title = format!(
                "{} {} {}",
                WORDS[next(14)],
                WORDS[next(14)],
                WORDS[next(14)]
            );
            let status = ["pending", "done", "active"][next(3)];
            let priority = ["high", "low", "medium", "critical"][next(4)];
            serde_json::from_value(serde_json::json!({
                "id": format!("T{i}"),
                "title": title,
                "description": format!("{} and {}", WORDS[next(14)], WORDS[next(14)]),
                "status": status,
                "priority": priority,
            }))
            .unwrap()
        })
        .collect();
    Store::from_items("generated", items).unwrap()
}

fn answers(fixture: &Fixture) -> Vec<serde_json::Value> {
    let mut wide = TaskRequest::new("cache");
    wide.limit = 500;
    let mut typo = TaskRequest::new("midleware emial");
    typo.limit = 500;
    let mut name = NameRequest::new("session cache");
    name.limit = Some(200);
    let mut weak = NameRequest::new("xyz");
    weak.limit = Some(200);
    let engine = Engine::default();
    [
        Request::Task(wide),
        Request::Task(typo),
        Request::Name(name),
        Request::Name(weak),
    ]
    .iter()
    .map(|r| serde_json::to_value(engine.execute(fixture, r).unwrap()).unwrap())
    .collect()
}

#[test]
fn one_thread_and_four_threads_answer_alike() {
    let fixture = Fixture::Store(Arc::new(store()));
    let pool = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    };
    let one = pool(1).install(|| answers(&fixture));
    let four = pool(4).install(|| answers(&fixture));
    assert_eq!(one, four);
    // real answers: many matches, cut by the limit
    assert_eq!(one[0]["matches"].as_array().unwrap().len(), 500);
    assert!(one[1]["summary"]["total_matches"].as_u64().unwrap() > 0);
    assert_eq!(one[2]["results"].as_array().unwrap().len(), 200);
}
