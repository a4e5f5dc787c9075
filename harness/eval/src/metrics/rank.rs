//! Rank metrics of the cases that name their expected items (`top` and `contains`): hit@1,
//! hit@k and mean reciprocal rank, over binary relevance (a returned key is relevant when
//! the case names it), with trec_eval's definitions: a query's reciprocal rank is 1/r of
//! the first relevant result, success@k is 1 when that r <= k. A case that returned nothing
//! scores 0 and stays in the mean, never dropped. (These few lines replaced the `elinor`
//! crate, which brought 48 crates for three means; the tests below pin the same values.)

use crate::case::CaseResult;
use serde::{Deserialize, Serialize};

/// The `k` of hit@k.
pub const RANK_K: usize = 5;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankMetrics {
    /// Cases that name expected items; the others take no part in these metrics.
    pub judged: usize,
    pub k: usize,
    /// Share of judged cases whose rank-1 result is expected.
    pub hit_at_1: f64,
    /// Share of judged cases with an expected result within the first k.
    pub hit_at_k: f64,
    /// Mean reciprocal rank of the first expected result (0 when absent).
    pub mrr: f64,
    /// Share of judged cases whose first expected key is within 1, 2, 4 and 8 KB of the
    /// answer ([`super::recall`]); 0 in results written before it was measured.
    #[serde(flatten)]
    pub recall: super::recall::RecallAtBudget,
    /// Recall@5 and nDCG@10 of the judged cases naming several expected keys
    /// ([`super::several`]); 0 in results written before they were measured.
    #[serde(flatten)]
    pub several: super::several::SeveralMetrics,
}

impl RankMetrics {
    pub fn of(cases: &[&CaseResult]) -> RankMetrics {
        let judged: Vec<&&CaseResult> = cases.iter().filter(|c| !c.expected.is_empty()).collect();
        let empty = RankMetrics {
            judged: 0,
            k: RANK_K,
            hit_at_1: 0.0,
            hit_at_k: 0.0,
            mrr: 0.0,
            recall: Default::default(),
            several: Default::default(),
        };
        if judged.is_empty() {
            return empty;
        }
        let first_hit: Vec<Option<usize>> = judged.iter().map(|c| first_relevant_rank(c)).collect();
        let n = judged.len() as f64;
        let mean = |score: &dyn Fn(Option<usize>) -> f64| -> f64 {
            super::arithmetic::round(first_hit.iter().map(|r| score(*r)).sum::<f64>() / n, 4)
        };
        RankMetrics {
            judged: judged.len(),
            k: RANK_K,
            hit_at_1: mean(&|r| f64::from(u8::from(r == Some(1)))),
            hit_at_k: mean(&|r| f64::from(u8::from(r.is_some_and(|r| r <= RANK_K)))),
            mrr: mean(&|r| r.map_or(0.0, |r| 1.0 / r as f64)),
            recall: super::recall::of_cases(cases),
            several: super::several::SeveralMetrics::of(cases),
        }
    }
}

/// The 1-based rank of the first expected key among the distinct keys a case returned
/// (`None`: none returned): what hit@k and MRR are computed from.
pub fn first_relevant_rank(case: &CaseResult) -> Option<usize> {
    let mut seen: Vec<&str> = Vec::new();
    for key in &case.ranked {
        if !seen.contains(&key.as_str()) {
            seen.push(key);
        }
    }
    seen.iter()
        .position(|k| case.expected.iter().any(|e| e == k))
        .map(|i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::Status;
    use crate::metrics::tests::case;

    fn judged(id: &str, expected: &[&str], ranked: &[&str]) -> CaseResult {
        let mut c = case(id, Status::Pass, "success", 1.0);
        c.expected = expected.iter().map(|s| s.to_string()).collect();
        c.ranked = ranked.iter().map(|s| s.to_string()).collect();
        c
    }

    #[test]
    fn hit_and_mrr_with_an_empty_answer_scored_zero() {
        let a = judged("a", &["T1"], &["T1", "T2"]); // rank 1
        let b = judged("b", &["T3"], &["T1", "T2", "T3"]); // rank 3
        let c = judged("c", &["T9"], &[]); // nothing returned: 0, not dropped
        let d = judged("d", &["T5"], &["T1", "T2", "T3", "T4", "T6", "T5"]); // rank 6
        let unjudged = case("e", Status::Pass, "success", 1.0);
        let m = RankMetrics::of(&[&a, &b, &c, &d, &unjudged]);
        assert_eq!(m.judged, 4);
        assert_eq!(m.hit_at_1, 0.25);
        assert_eq!(m.hit_at_k, 0.5);
        // (1 + 1/3 + 0 + 1/6) / 4 = 0.375
        assert_eq!(m.mrr, 0.375);
    }

    #[test]
    fn several_expected_items_count_the_first_found() {
        let a = judged("a", &["X", "Y"], &["Z", "Y", "X"]);
        let m = RankMetrics::of(&[&a]);
        assert_eq!((m.hit_at_1, m.hit_at_k, m.mrr), (0.0, 1.0, 0.5));
        assert_eq!(RankMetrics::of(&[]).judged, 0);
    }

    #[test]
    fn repeated_keys_count_once_and_k_is_inclusive() {
        // duplicates do not push the expected key down: rank 5 after dedup, within k = 5
        let a = judged("a", &["E"], &["A", "A", "B", "C", "D", "E", "F"]);
        let b = judged("b", &["E"], &["A", "B", "C", "D", "F", "E"]); // rank 6: outside k
        let m = RankMetrics::of(&[&a, &b]);
        assert_eq!((m.hit_at_1, m.hit_at_k), (0.0, 0.5));
        // (1/5 + 1/6) / 2
        assert_eq!(m.mrr, 0.1833);
    }
}
