//! Generated stores for the item modes: an outline forest (lists, nesting, notes, comments)
//! for `find outline` and `get`, and tasks, goals and reading items for `find name`.

use crate::Sequence;
use findbench_engine::Item;

const LISTS: &[&str] = &["Engineering", "Marketing", "Operations", "Product"];
const AREAS: &[&str] = &[
    "Auth service",
    "Billing",
    "Search",
    "Design system",
    "Onboarding flow",
    "Kubernetes migration",
    "Observability",
    "Launch campaign",
    "Help centre",
    "Hiring",
    "Quarterly close",
    "Team workspaces",
    "Calendar sync",
    "Offline mode",
];
const STEPS: &[&str] = &[
    "Token refresh",
    "Rate limiting",
    "Webhook retries",
    "Invoice export",
    "Index rebuild",
    "Dark mode",
    "Invite teammates",
    "Autoscaling",
    "Structured logging",
    "Press kit",
    "Getting started guide",
    "Interview loop",
    "Reconcile payouts",
    "Workspace roles",
    "Conflict resolution",
    "Push notifications",
];
const DETAILS: &[&str] = &[
    "edge cases",
    "on mobile",
    "for admins",
    "under load",
    "in the EU",
    "after upgrade",
    "with retries",
    "copy review",
    "tests",
    "rollout plan",
];
const NOTES: &[&str] = &[
    "Spec in docs/design.md",
    "Owner: platform team",
    "Blocked on legal review",
    "Measure before and after",
];
const COMMENTS: &[&str] = &["Who owns this?", "Moved to next sprint", "Looks good to me"];

/// `n` outline items with ids `O1..On`: about one root in 40, every other item a child of a
/// recent item at most five levels deep, a third with notes and a sixth with comments.
pub fn outline_items(n: usize, seed: u64) -> Vec<Item> {
    let mut seq = Sequence::new(seed);
    let mut depth: Vec<usize> = Vec::with_capacity(n);
    let mut list_of: Vec<usize> = Vec::with_capacity(n);
    (0..n)
        .map(|i| {
            // a parent among the last 64 items that is shallow enough; a root otherwise
            let parent = (i > 0 && seq.below(40) != 0)
                .then(|| i - 1 - seq.below(i.min(64)))
                .filter(|&p| depth[p] < 5);
            let (d, list) = match parent {
                Some(p) => (depth[p] + 1, list_of[p]),
                None => (0, seq.below(LISTS.len())),
            };
            depth.push(d);
            list_of.push(list);
            let title = match d {
                0 => format!("{} {}", seq.pick(AREAS), i),
                1 => seq.pick(STEPS).to_string(),
                _ => format!("{} {}", seq.pick(STEPS), seq.pick(DETAILS)),
            };
            let mut item = serde_json::json!({
                "id": format!("O{}", i + 1),
                "title": title,
                "list": LISTS[list],
                "status": if seq.below(4) == 0 { "done" } else { "pending" },
            });
            if let Some(p) = parent {
                item["parent"] = format!("O{}", p + 1).into();
            }
            if seq.below(3) == 0 {
                item["notes"] = serde_json::json!([seq.pick(NOTES)]);
            }
            if seq.below(6) == 0 {
                item["comments"] = serde_json::json!([seq.pick(COMMENTS)]);
            }
            serde_json::from_value(item).expect("generated item is valid")
        })
        .collect()
}

const CHORES: &[&str] = &[
    "Read emails",
    "Reply to the landlord",
    "Calendar cleanup",
    "Email the accountant",
    "Book dentist appointment",
    "Renew passport",
    "Pay the electricity bill",
    "Cancel the gym membership",
    "Submit the expense report",
    "Plan the summer holiday",
    "File the tax return",
    "Schedule car service",
];
const GOALS: &[&str] = &[
    "Run a half marathon",
    "Read 24 books",
    "Learn Spanish",
    "Save an emergency fund",
    "Ship the side project",
    "Meditate every morning",
];
const BOOKS: &[&str] = &[
    "Designing Data-Intensive Applications",
    "The Pragmatic Programmer",
    "Thinking, Fast and Slow",
    "Atomic Habits",
    "Deep Work",
    "Crafting Interpreters",
];
const WHEN: &[&str] = &[
    "this week",
    "before Friday",
    "for March",
    "again",
    "with Sam",
    "for the team",
    "",
    "",
];

/// `n` items for `find name`: two thirds tasks, then goals and reading items; a quarter of
/// each finished (`Done`, `Complete`, `Read`). Ids `N1..Nn`.
pub fn named_items(n: usize, seed: u64) -> Vec<Item> {
    let mut seq = Sequence::new(seed);
    (0..n)
        .map(|i| {
            let (domain, base, done) = match seq.below(6) {
                0 => ("goal", seq.pick(GOALS), "Complete"),
                1 => ("reading", seq.pick(BOOKS), "Read"),
                _ => ("task", seq.pick(CHORES), "Done"),
            };
            let when = seq.pick(WHEN);
            let title = if when.is_empty() {
                format!("{base} #{i}")
            } else {
                format!("{base} {when} #{i}")
            };
            let status = if seq.below(4) == 0 {
                done
            } else {
                "Not started"
            };
            serde_json::from_value(serde_json::json!({
                "id": format!("N{}", i + 1),
                "title": title,
                "status": status,
                "domain": domain,
            }))
            .expect("generated item is valid")
        })
        .collect()
}
