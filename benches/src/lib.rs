//! Deterministic generators of benchmark inputs, shared by the criterion benches and the
//! peer-comparison examples. A tiny xorshift keeps them reproducible without a rand dependency.

pub mod outline;

use findbench_engine::Item;

pub mod tree;

/// A reproducible pseudo-random sequence (xorshift64*).
pub struct Sequence(u64);

impl Sequence {
    pub fn new(seed: u64) -> Sequence {
        Sequence(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn pick<'a>(&mut self, from: &'a [&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
}

const VERBS: &[&str] = &[
    "Fix",
    "Add",
    "Refactor",
    "Document",
    "Test",
    "Remove",
    "Migrate",
    "Review",
    "Optimise",
    "Investigate",
    "Design",
    "Implement",
];
const OBJECTS: &[&str] = &[
    "auth middleware",
    "user registration",
    "session cache",
    "billing export",
    "search index",
    "email digest",
    "calendar sync",
    "rate limiter",
    "CSV importer",
    "dashboard charts",
    "webhook retries",
    "password reset",
    "audit log",
    "feature flags",
    "onboarding flow",
    "PDF renderer",
    "notification queue",
    "backup job",
    "API pagination",
    "dark mode",
];
const QUALIFIERS: &[&str] = &[
    "for mobile",
    "timeout",
    "on staging",
    "in v2",
    "edge cases",
    "under load",
    "for admins",
    "with retries",
    "after upgrade",
    "regression",
];
const STATUSES: &[&str] = &["pending", "active", "blocked", "done"];
const PRIORITIES: &[&str] = &["critical", "high", "medium", "low"];
const LABELS: &[&str] = &[
    "backend", "frontend", "security", "perf", "docs", "infra", "ux",
];

/// `n` realistic-looking tasks with ids `T1..Tn`, reproducible for a given seed.
pub fn tasks(n: usize, seed: u64) -> Vec<Item> {
    let mut seq = Sequence::new(seed);
    (1..=n)
        .map(|i| {
            let title = format!(
                "{} {} {}",
                seq.pick(VERBS),
                seq.pick(OBJECTS),
                seq.pick(QUALIFIERS)
            );
            let description = format!(
                "{} the {} so that the {} works {}.",
                seq.pick(VERBS),
                seq.pick(OBJECTS),
                seq.pick(OBJECTS),
                seq.pick(QUALIFIERS)
            );
            let item = serde_json::json!({
                "id": format!("T{i}"),
                "title": title,
                "description": description,
                "status": seq.pick(STATUSES),
                "priority": seq.pick(PRIORITIES),
                "labels": [seq.pick(LABELS), seq.pick(LABELS)],
            });
            serde_json::from_value(item).expect("generated item is valid")
        })
        .collect()
}
