//! Rank metrics of the cases that name their expected items (`top` and `contains`): hit@1,
//! hit@k and mean reciprocal rank, computed with `elinor` (validated against trec_eval).
//!
//! elinor scores only the queries present in the predictions, so a case that returned
//! nothing is given a single placeholder result that is never relevant: it scores 0 and
//! stays in the mean, never dropped.

use crate::results::CaseResult;
use elinor::{Metric, PredRelStoreBuilder, TrueRelStoreBuilder};
use serde::{Deserialize, Serialize};

/// The `k` of hit@k.
pub const RANK_K: usize = 5;

const NOTHING: &str = "\u{0}(no results)";

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
        };
        if judged.is_empty() {
            return empty;
        }
        let mut truth = TrueRelStoreBuilder::new();
        let mut pred = PredRelStoreBuilder::new();
        for (q, c) in judged.iter().enumerate() {
            // the query key only needs to be unique within this computation
            let qid = format!("{q:08}");
            for key in &c.expected {
                // duplicates in `expected` are impossible (Expect::relevant dedups)
                let _ = truth.add_record(qid.clone(), key.clone(), 1u32);
            }
            let mut seen: Vec<&str> = Vec::new();
            for key in &c.ranked {
                if !seen.contains(&key.as_str()) {
                    seen.push(key);
                }
            }
            if seen.is_empty() {
                let _ = pred.add_record(qid.clone(), NOTHING.to_string(), 0.0.into());
            }
            let n = seen.len();
            for (i, key) in seen.into_iter().enumerate() {
                let _ = pred.add_record(qid.clone(), key.to_string(), ((n - i) as f64).into());
            }
        }
        let (truth, pred) = (truth.build(), pred.build());
        let metric = |m: Metric| {
            elinor::evaluate(&truth, &pred, m)
                .map(|e| super::round(e.mean(), 4))
                .unwrap_or(0.0)
        };
        RankMetrics {
            judged: judged.len(),
            k: RANK_K,
            hit_at_1: metric(Metric::Success { k: 1 }),
            hit_at_k: metric(Metric::Success { k: RANK_K }),
            mrr: metric(Metric::RR { k: 0 }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::tests::case;
    use crate::results::Status;

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
}
