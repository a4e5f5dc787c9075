//! Metrics of the cases that name several expected keys (a task whose change spans files):
//! recall@5, the share of a case's expected keys among the first five distinct keys it
//! returned, and nDCG@10 over binary relevance (an expected key has gain 1, any other 0),
//! with trec_eval's definitions (`recall_5`, `ndcg_cut_10`):
//! `DCG@10 = Σ_{r ≤ 10, key r expected} 1 / log2(r + 1)`, over the DCG of the expected keys
//! ranked first (at most ten of them). Keys count once, at their first place, as in hit@k;
//! a case that returned nothing scores 0 and stays in the mean.
//! `scripts/metrics_reference.py` checks them against trec_eval ([`super::rank`]'s tests).

use crate::case::CaseResult;
use serde::{Deserialize, Serialize};

/// The `k` of recall@k.
pub const RECALL_K: usize = 5;
/// The `k` of nDCG@k.
pub const NDCG_K: usize = 10;

/// Recall@5 and nDCG@10, means over the judged cases that name at least two distinct
/// expected keys (with one, recall@5 is hit@5); 0 in results written before they were
/// measured.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct SeveralMetrics {
    /// Judged cases naming at least two distinct expected keys.
    #[serde(default)]
    pub several_judged: usize,
    #[serde(default)]
    pub recall_at_5: f64,
    #[serde(default)]
    pub ndcg_at_10: f64,
}

impl SeveralMetrics {
    pub fn of(cases: &[&CaseResult]) -> SeveralMetrics {
        let several: Vec<&&CaseResult> = cases
            .iter()
            .filter(|c| distinct(&c.expected).len() >= 2)
            .collect();
        let n = several.len();
        let mean = |f: &dyn Fn(&CaseResult) -> f64| {
            super::arithmetic::round(super::mean(several.iter().map(|c| f(c))), 4)
        };
        SeveralMetrics {
            several_judged: n,
            recall_at_5: mean(&|c| recall_at(c, RECALL_K)),
            ndcg_at_10: mean(&|c| ndcg_at(c, NDCG_K)),
        }
    }
}

/// `keys` without repeats, in their first order.
fn distinct(keys: &[String]) -> Vec<&str> {
    let mut seen: Vec<&str> = Vec::new();
    for key in keys {
        if !seen.contains(&key.as_str()) {
            seen.push(key);
        }
    }
    seen
}

/// The share of `case`'s distinct expected keys among the first `k` distinct keys it
/// returned (0 for a case that names none).
pub fn recall_at(case: &CaseResult, k: usize) -> f64 {
    let expected = distinct(&case.expected);
    if expected.is_empty() {
        return 0.0;
    }
    let found = distinct(&case.ranked)
        .iter()
        .take(k)
        .filter(|key| expected.contains(key))
        .count();
    found as f64 / expected.len() as f64
}

/// Normalised discounted cumulative gain of `case`'s first `k` distinct keys, an expected
/// key gaining 1 (0 for a case that names none).
pub fn ndcg_at(case: &CaseResult, k: usize) -> f64 {
    let expected = distinct(&case.expected);
    let discount = |rank: usize| 1.0 / ((rank + 1) as f64).log2();
    let ideal: f64 = (1..=expected.len().min(k)).map(discount).sum();
    if ideal == 0.0 {
        return 0.0;
    }
    let dcg: f64 = distinct(&case.ranked)
        .iter()
        .take(k)
        .enumerate()
        .filter(|(_, key)| expected.contains(key))
        .map(|(i, _)| discount(i + 1))
        .sum();
    dcg / ideal
}
