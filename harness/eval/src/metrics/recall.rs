//! Recall within a context budget: an agent reads an answer from its start, so what counts
//! is how many bytes in the first expected key comes. A judged case's `first_hit_bytes` is
//! the byte offset in its answer document (the JSON `output_bytes` counts) at which the
//! first occurrence of an expected key ends; recall at a budget is the share of judged cases
//! whose first hit is within it (a case with no hit counts as outside every budget). The
//! budgets are 1, 2, 4 and 8 KB, beside hit@1, hit@k and MRR.

use crate::case::CaseResult;
use serde::{Deserialize, Serialize};

/// The budgets recall is reported at: their name (a field's suffix) and bytes.
pub const BUDGETS: [(&str, u64); 4] = [("1kb", 1024), ("2kb", 2048), ("4kb", 4096), ("8kb", 8192)];

/// Bytes a key is made of: a match bounded by anything else is the key itself, not a
/// part of a longer one (`T1` in `T12`, `a.cpp` in `a.cpp.bak`, `src/a` in `src/ab`).
fn key_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'/' | b'\\')
}

/// Where in `doc` the first expected key ends, in bytes (the offset just past it), or
/// `None` when no key of `expected` is in it. A key is matched whole; a tool that prints
/// paths as `./key`, or absolute under `root`, is matched as `./key` and `root/key` too.
pub fn first_hit_bytes(doc: &[u8], expected: &[String], root: Option<&str>) -> Option<u64> {
    let mut best: Option<usize> = None;
    for key in expected.iter().filter(|k| !k.is_empty()) {
        let dotted = format!("./{key}");
        let rooted = root.map(|r| format!("{}/{key}", r.trim_end_matches('/')));
        let needles = [Some(key.as_str()), Some(dotted.as_str()), rooted.as_deref()];
        for needle in needles.into_iter().flatten() {
            if let Some(end) = whole_match_end(doc, needle.as_bytes(), best) {
                best = Some(best.map_or(end, |b| b.min(end)));
            }
        }
    }
    best.map(|b| b as u64)
}

/// The end of the first whole occurrence of `needle` in `doc` ending before `limit`.
fn whole_match_end(doc: &[u8], needle: &[u8], limit: Option<usize>) -> Option<usize> {
    let finder = memchr::memmem::Finder::new(needle);
    let mut from = 0;
    while let Some(at) = finder.find(&doc[from..]) {
        let start = from + at;
        let end = start + needle.len();
        if limit.is_some_and(|l| end >= l) {
            return None;
        }
        let before = start.checked_sub(1).map(|i| doc[i]);
        let after = doc.get(end).copied();
        if !before.is_some_and(key_byte) && !after.is_some_and(key_byte) {
            return Some(end);
        }
        from = start + 1;
    }
    None
}

/// Recall at each of [`BUDGETS`]: the share of judged cases whose first hit is within it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct RecallAtBudget {
    #[serde(default)]
    pub recall_at_1kb: f64,
    #[serde(default)]
    pub recall_at_2kb: f64,
    #[serde(default)]
    pub recall_at_4kb: f64,
    #[serde(default)]
    pub recall_at_8kb: f64,
}

impl RecallAtBudget {
    /// Recall of judged cases whose first hits are `hits` (`None`: no hit).
    pub fn of(hits: impl IntoIterator<Item = Option<u64>>) -> RecallAtBudget {
        let mut counts = BudgetCounts::default();
        for hit in hits {
            counts.add(hit);
        }
        counts.recall()
    }

    /// The four values, in [`BUDGETS`] order.
    pub fn values(&self) -> [f64; 4] {
        [
            self.recall_at_1kb,
            self.recall_at_2kb,
            self.recall_at_4kb,
            self.recall_at_8kb,
        ]
    }
}

/// Judged cases counted within each budget, as a stream goes by (a replay keeps these,
/// not its cases).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BudgetCounts {
    pub judged: usize,
    pub within: [usize; 4],
}

impl BudgetCounts {
    pub fn add(&mut self, hit: Option<u64>) {
        self.judged += 1;
        for (n, (_, budget)) in self.within.iter_mut().zip(BUDGETS) {
            if hit.is_some_and(|h| h <= budget) {
                *n += 1;
            }
        }
    }

    pub fn recall(&self) -> RecallAtBudget {
        let r = |i: usize| super::rate(self.within[i], self.judged);
        RecallAtBudget {
            recall_at_1kb: r(0),
            recall_at_2kb: r(1),
            recall_at_4kb: r(2),
            recall_at_8kb: r(3),
        }
    }
}

/// Recall of the judged cases among `cases` (those that name expected keys).
pub fn of_cases(cases: &[&CaseResult]) -> RecallAtBudget {
    RecallAtBudget::of(
        cases
            .iter()
            .filter(|c| !c.expected.is_empty())
            .map(|c| c.first_hit_bytes),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(k: &[&str]) -> Vec<String> {
        k.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_first_whole_key_ends_the_hit() {
        let doc = br#"{"matches":[{"path":"src/a.cpp.bak"},{"path":"src/a.cpp"},{"id":"T12"},{"id":"T1"}]}"#;
        let at = |k: &[&str]| first_hit_bytes(doc, &keys(k), None);
        let a = doc.windows(11).position(|w| w == b"\"src/a.cpp\"").unwrap() + 10;
        assert_eq!(at(&["src/a.cpp"]), Some(a as u64));
        assert_eq!(at(&["a.cpp"]), None);
        let t1 = doc.windows(4).rposition(|w| w == b"\"T1\"").unwrap() + 3;
        assert_eq!(at(&["T1"]), Some(t1 as u64));
        // the earliest of several keys
        assert_eq!(at(&["T1", "src/a.cpp"]), Some(a as u64));
        assert_eq!(at(&[]), None);
        // absolute paths under the root, as a line tool prints them
        let lines = b"/srv/repo/lib/x.rs\n/srv/repo/src/a.cpp\n";
        assert_eq!(
            first_hit_bytes(lines, &keys(&["src/a.cpp"]), Some("/srv/repo")),
            Some(lines.len() as u64 - 1)
        );
        assert_eq!(first_hit_bytes(lines, &keys(&["src/a.cpp"]), None), None);
        assert_eq!(
            first_hit_bytes(b"./src/a.cpp:3:x\n", &keys(&["src/a.cpp"]), None),
            Some(11)
        );
    }

    /// A key's bytes are letters, digits and `_ - . / \`: bounded by one of them, a match
    /// is part of a longer key; bounded by anything else (or the document's ends), the key.
    #[test]
    fn a_key_bounded_by_a_key_byte_is_part_of_a_longer_key() {
        let ab = keys(&["ab"]);
        let at = |doc: &str| first_hit_bytes(doc.as_bytes(), &ab, None);
        for doc in [
            "xab", "abx", "Xab", "abZ", "1ab", "ab9", "_ab", "ab_", "-ab", "ab-", ".ab", "ab.",
            "/ab", "ab/", "\\ab", "ab\\",
        ] {
            assert_eq!(at(doc), None, "{doc}");
        }
        for (doc, end) in [
            ("ab", 2),
            (" ab", 3),
            ("ab ", 2),
            ("\"ab\"", 3),
            ("(ab)", 3),
            ("ab:3", 2),
            ("é ab", 5),
            // a later whole occurrence after a part of a longer key
            ("xab ab", 6),
            ("abab ab", 7),
            ("ab_x ab", 7),
        ] {
            assert_eq!(at(doc), Some(end), "{doc}");
        }
        // the first to end of several keys, whichever is named first
        let two = keys(&["cd", "ab"]);
        assert_eq!(first_hit_bytes(b"ab cd", &two, None), Some(2));
        assert_eq!(first_hit_bytes(b"cd ab", &two, None), Some(2));
        assert_eq!(first_hit_bytes(b"xcd ab cd", &two, None), Some(6));
        // an empty key matches nothing
        assert_eq!(first_hit_bytes(b"ab", &keys(&["", "zz"]), None), None);
        // a rooted path under a root written with its trailing slash
        assert_eq!(
            first_hit_bytes(b"/r/ab\n", &keys(&["ab"]), Some("/r/")),
            Some(5)
        );
    }

    /// Only judged cases count, each within every budget at or above its first hit.
    #[test]
    fn recall_of_cases_counts_the_judged_ones() {
        let mut a = crate::metrics::tests::case("a", crate::case::Status::Pass, "success", 1.0);
        a.expected = keys(&["x"]);
        a.first_hit_bytes = Some(2048);
        let mut b = a.clone();
        b.first_hit_bytes = None;
        let unjudged = crate::metrics::tests::case("u", crate::case::Status::Pass, "success", 1.0);
        let r = of_cases(&[&a, &b, &unjudged]);
        assert_eq!(r.values(), [0.0, 0.5, 0.5, 0.5]);
        let mut counts = BudgetCounts::default();
        counts.add(Some(0));
        counts.add(Some(8192));
        counts.add(Some(8193));
        assert_eq!(counts.judged, 3);
        assert_eq!(counts.within, [1, 1, 1, 2]);
        assert_eq!(counts.recall().values(), [0.3333, 0.3333, 0.3333, 0.6667]);
    }

    #[test]
    fn recall_counts_a_hit_within_the_budget_and_a_miss_nowhere() {
        let r = RecallAtBudget::of([Some(100), Some(1024), Some(1025), Some(5000), None]);
        assert_eq!(r.values(), [0.4, 0.6, 0.6, 0.8]);
        assert_eq!(RecallAtBudget::of([]).values(), [0.0; 4]);
    }
}
