//! The ranking half of `compare`: whether the change of hit@1, hit@k, MRR and recall within
//! 1, 2, 4 and 8 KB between two runs is larger than the noise, on the judged cases (those
//! naming expected files) present in both. Hits are binary per case, so their flips get
//! the exact McNemar test; a reciprocal rank and recall at a budget are a score per case,
//! so their change gets a paired bootstrap interval of the mean difference. The cases
//! whose expected file moved in the ranking are listed, the most moved first.

use crate::case::CaseResult;
use crate::metrics::rank::{first_relevant_rank, RANK_K};
use crate::metrics::recall::BUDGETS;
use crate::stats::{bootstrap_mean_diff, McNemar, BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED};
use serde::Serialize;

/// One ranking metric's paired test.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankTest {
    /// The summary metric it judges (`rank.hit_at_1`, `rank.recall_at_4kb`, ...).
    pub metric: String,
    /// `McNemar` (hits) or `bootstrap mean` (MRR and recall).
    pub test: String,
    /// Judged cases in both runs.
    pub paired: usize,
    /// McNemar: cases that lost the hit, and that gained it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worsened: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub improved: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_value: Option<f64>,
    /// The mean of after − before over the paired cases, and its 95% interval (bootstrap).
    pub diff: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ci_low: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ci_high: Option<f64>,
    /// Larger than the noise at the 5% level.
    pub significant: bool,
    pub verdict: String,
}

/// A judged case whose first expected file is at another rank after the change.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankMove {
    pub id: String,
    pub suite: String,
    pub query: String,
    /// 1-based rank of the first expected file (null: not in the answer).
    pub before: Option<usize>,
    pub after: Option<usize>,
}

impl RankMove {
    /// Ranks moved down (positive) or up; leaving the answer is a fall past every rank.
    fn fall(&self) -> i64 {
        let at = |r: Option<usize>| r.map_or(i64::from(u32::MAX), |r| r as i64);
        at(self.after) - at(self.before)
    }

    /// `3 -> 1`, `2 -> none`.
    pub fn shown(&self) -> String {
        let r = |r: Option<usize>| r.map_or_else(|| "none".to_string(), |r| r.to_string());
        format!("{} -> {}", r(self.before), r(self.after))
    }
}

fn rank_of(c: &CaseResult) -> Option<usize> {
    c.rank.or_else(|| first_relevant_rank(c))
}

/// The paired tests of the ranking metrics over `pairs` (before, after), on the judged
/// cases; hit@k counts the first `k` (`summary.rank.k` of the runs). Empty when no pair
/// is judged on both sides.
pub fn rank_tests(pairs: &[(&CaseResult, &CaseResult)], k: usize) -> Vec<RankTest> {
    let judged: Vec<(&CaseResult, &CaseResult)> = pairs
        .iter()
        .filter(|(b, a)| !b.expected.is_empty() && !a.expected.is_empty())
        .copied()
        .collect();
    if judged.is_empty() {
        return Vec::new();
    }
    let n = judged.len();
    let mut tests = Vec::new();
    let hit = |metric: &str, good: &dyn Fn(&CaseResult) -> bool| {
        let worsened = judged.iter().filter(|(b, a)| good(b) && !good(a)).count() as u64;
        let improved = judged.iter().filter(|(b, a)| !good(b) && good(a)).count() as u64;
        let t = McNemar::new(worsened, improved);
        let verdict = if worsened + improved == 0 {
            "no change".to_string()
        } else {
            let p = crate::stats::fmt_p(t.p_value);
            match (t.significant(), worsened > improved) {
                (true, true) => format!("worse, larger than noise (p = {p})"),
                (true, false) => format!("better, larger than noise (p = {p})"),
                (false, _) => format!("within noise (p = {p})"),
            }
        };
        RankTest {
            metric: metric.to_string(),
            test: "McNemar".into(),
            paired: n,
            worsened: Some(worsened),
            improved: Some(improved),
            p_value: Some(t.p_value),
            diff: (improved as f64 - worsened as f64) / n as f64,
            ci_low: None,
            ci_high: None,
            significant: worsened + improved > 0 && t.significant(),
            verdict,
        }
    };
    tests.push(hit("rank.hit_at_1", &|c| rank_of(c) == Some(1)));
    tests.push(hit("rank.hit_at_k", &|c| {
        rank_of(c).is_some_and(|r| r <= k)
    }));
    let score = |metric: &str, of: &dyn Fn(&CaseResult) -> f64| {
        let scores: Vec<(f64, f64)> = judged.iter().map(|(b, a)| (of(b), of(a))).collect();
        let d = bootstrap_mean_diff(&scores, BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED);
        let (diff, low, high) = d.map_or((0.0, 0.0, 0.0), |d| (d.diff, d.ci_low, d.ci_high));
        let unchanged = scores.iter().all(|(b, a)| b == a);
        let significant = !unchanged && d.is_some_and(|d| d.significant());
        let verdict = match (unchanged, significant, diff < 0.0) {
            (true, _, _) => "no change".to_string(),
            (false, true, true) => "worse, larger than noise".to_string(),
            (false, true, false) => "better, larger than noise".to_string(),
            (false, false, _) => "within noise".to_string(),
        };
        RankTest {
            metric: metric.to_string(),
            test: "bootstrap mean".into(),
            paired: n,
            worsened: None,
            improved: None,
            p_value: None,
            diff: round4(diff),
            ci_low: Some(round4(low)),
            ci_high: Some(round4(high)),
            significant,
            verdict,
        }
    };
    tests.push(score("rank.mrr", &|c| {
        rank_of(c).map_or(0.0, |r| 1.0 / r as f64)
    }));
    for (name, bytes) in BUDGETS {
        tests.push(score(&format!("rank.recall_at_{name}"), &|c| {
            f64::from(u8::from(c.first_hit_bytes.is_some_and(|h| h <= bytes)))
        }));
    }
    tests
}

fn round4(v: f64) -> f64 {
    (v * 1e4).round() / 1e4
}

/// The judged cases of `pairs` whose first expected file moved, the largest fall first,
/// then the largest rise, each in document order.
pub fn rank_moves(pairs: &[(&CaseResult, &CaseResult)]) -> Vec<RankMove> {
    let mut moves: Vec<RankMove> = pairs
        .iter()
        .filter(|(b, a)| !b.expected.is_empty() && !a.expected.is_empty())
        .filter_map(|(b, a)| {
            let (before, after) = (rank_of(b), rank_of(a));
            (before != after).then(|| RankMove {
                id: a.id.clone(),
                suite: a.suite.clone(),
                query: a.query.clone(),
                before,
                after,
            })
        })
        .collect();
    // stable: document order among equal moves
    moves.sort_by_key(|m| std::cmp::Reverse(m.fall()));
    moves
}

/// The k of the runs' hit@k (`summary.rank.k`; the after run's when they differ).
pub fn hit_k(summaries: [&serde_json::Map<String, serde_json::Value>; 2]) -> usize {
    summaries
        .iter()
        .rev()
        .find_map(|s| s.get("rank")?.get("k")?.as_u64())
        .map_or(RANK_K, |k| k as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(id: &str, rank: Option<usize>, hit: Option<u64>) -> CaseResult {
        CaseResult {
            id: id.into(),
            expected: vec!["a.rs".into()],
            rank,
            first_hit_bytes: hit,
            ..CaseResult::default()
        }
    }

    fn tests_of(before: &[CaseResult], after: &[CaseResult]) -> Vec<RankTest> {
        let pairs: Vec<_> = before.iter().zip(after).collect();
        rank_tests(&pairs, 5)
    }

    #[test]
    fn twelve_lost_first_places_are_beyond_noise_and_one_is_not() {
        let before: Vec<_> = (0..12)
            .map(|i| judged(&i.to_string(), Some(1), Some(300)))
            .collect();
        let after: Vec<_> = (0..12)
            .map(|i| judged(&i.to_string(), Some(3), Some(5000)))
            .collect();
        let t = tests_of(&before, &after);
        let by = |m: &str| t.iter().find(|x| x.metric == m).unwrap();
        let h1 = by("rank.hit_at_1");
        assert_eq!((h1.worsened, h1.improved), (Some(12), Some(0)));
        assert!(h1.significant, "{h1:?}");
        assert!(h1
            .verdict
            .starts_with("worse, larger than noise (p = 0.0005)"));
        assert_eq!(by("rank.hit_at_k").verdict, "no change");
        let mrr = by("rank.mrr");
        assert_eq!(mrr.diff, -0.6667);
        assert!(mrr.significant && mrr.verdict == "worse, larger than noise");
        assert!(by("rank.recall_at_4kb").significant);
        assert_eq!(by("rank.recall_at_8kb").verdict, "no change");

        let mut one = before.clone();
        one[0] = judged("0", Some(2), Some(300));
        let t = tests_of(&before, &one);
        let h1 = t.iter().find(|x| x.metric == "rank.hit_at_1").unwrap();
        assert!(!h1.significant);
        assert_eq!(h1.verdict, "within noise (p = 1.0000)");
    }

    #[test]
    fn moves_list_the_largest_fall_first_and_skip_unjudged_cases() {
        let before = [
            judged("up", Some(4), None),
            judged("same", Some(1), None),
            judged("gone", Some(2), None),
            judged("down", Some(1), None),
            CaseResult::default(),
        ];
        let after = [
            judged("up", Some(1), None),
            judged("same", Some(1), None),
            judged("gone", None, None),
            judged("down", Some(2), None),
            CaseResult::default(),
        ];
        let pairs: Vec<_> = before.iter().zip(&after).collect();
        let moves = rank_moves(&pairs);
        let shown: Vec<(&str, String)> = moves.iter().map(|m| (m.id.as_str(), m.shown())).collect();
        assert_eq!(
            shown,
            [
                ("gone", "2 -> none".to_string()),
                ("down", "1 -> 2".to_string()),
                ("up", "4 -> 1".to_string())
            ]
        );
    }
}
