//! Every metric of a run (docs/arch-harness.md, "Modules"), computed from case results alone, overall and per
//! suite, mode and tag. One module per family:
//!
//! - this module: passed / failed / xfail / xpass and the pass rate;
//! - [`outcome`]: outcome counts and rates, candidates, tools and iterations;
//! - [`latency`]: percentiles and latency per 1000 items against the budget;
//! - [`bytes`]: output bytes against the whole-fixture dump, tokens and daily cost;
//! - [`rank`]: hit@1, hit@k and MRR of cases that name their expected items, and
//!   [`recall`]: the share of them whose first expected key is within 1, 2, 4 or 8 KB;
//!   [`several`]: recall@5 and nDCG@10 of those naming several expected keys;
//! - `arithmetic`: the rates, means, medians and rounding they share.

mod arithmetic;
pub mod bytes;
pub mod latency;
pub mod outcome;
pub mod rank;
pub mod recall;
pub mod several;

pub use arithmetic::{mean, median, rate, round};
pub use bytes::{ContextMetrics, CostModel};
pub use latency::LatencyMetrics;
pub use outcome::{CandidateMetrics, OutcomeMetrics, ToolMetrics};
pub use rank::RankMetrics;

use crate::case::{CaseResult, Status};
use crate::corpus::Budget;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The metrics of one group of cases (the whole run, a suite, a mode or a tag).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupMetrics {
    /// Cases judged: every case of the group but the n/a ones, which no figure here counts.
    pub total: usize,
    /// Cases of modes the engine does not answer (`run --engine`): listed, not judged.
    /// Written only when there are some: absent is 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub not_applicable: usize,
    pub passed: usize,
    pub failed: usize,
    pub xfail: usize,
    pub xpass: usize,
    /// (passed + xpass) / total: the share of cases whose expectations held. Known failures
    /// count against it, as in the spec's benchmark runner (30 / 32 = 93.8%).
    pub pass_rate: f64,
    /// Cases whose outcome was insufficient_evidence, over total.
    pub insufficient_evidence_rate: f64,
    pub outcomes: OutcomeMetrics,
    pub candidates: CandidateMetrics,
    pub tools: ToolMetrics,
    pub latency: LatencyMetrics,
    pub context: ContextMetrics,
    pub rank: RankMetrics,
}

impl GroupMetrics {
    /// Metrics of `cases` under `budget` and `cost`; the n/a cases are counted apart and
    /// judged nowhere.
    pub fn of(cases: &[&CaseResult], budget: &Budget, cost: &CostModel) -> GroupMetrics {
        let (not_applicable, judged): (Vec<&CaseResult>, Vec<&CaseResult>) =
            cases.iter().copied().partition(|c| c.not_applicable());
        let cases = judged.as_slice();
        let count = |s: Status| cases.iter().filter(|c| c.status == s).count();
        let total = cases.len();
        let (passed, failed, xfail, xpass) = (
            count(Status::Pass),
            count(Status::Fail),
            count(Status::Xfail),
            count(Status::Xpass),
        );
        let outcomes = OutcomeMetrics::of(cases);
        GroupMetrics {
            total,
            not_applicable: not_applicable.len(),
            passed,
            failed,
            xfail,
            xpass,
            pass_rate: rate(passed + xpass, total),
            insufficient_evidence_rate: outcomes.insufficient_evidence_rate,
            outcomes,
            candidates: CandidateMetrics::of(cases),
            tools: ToolMetrics::of(cases),
            latency: LatencyMetrics::of(cases, budget),
            context: ContextMetrics::of(cases, budget, cost),
            rank: RankMetrics::of(cases),
        }
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl GroupMetrics {
    /// Every case of the group, judged or n/a: what its cases file holds.
    pub fn cases(&self) -> usize {
        self.total + self.not_applicable
    }
}

/// The metrics of a run: overall, and per suite, mode and tag.
#[derive(Debug, Clone, PartialEq)]
pub struct RunMetrics {
    pub summary: GroupMetrics,
    pub suites: BTreeMap<String, GroupMetrics>,
    pub modes: BTreeMap<String, GroupMetrics>,
    pub tags: BTreeMap<String, GroupMetrics>,
}

/// The stricter of two stated budgets, or the one stated.
fn strictest<T>(a: Option<T>, b: Option<T>, min: fn(T, T) -> T) -> Option<T> {
    match (a, b) {
        (Some(x), Some(y)) => Some(min(x, y)),
        (x, y) => x.or(y),
    }
}

/// Computes every group. `budgets` gives each suite's stated budget; a group spanning
/// several suites is held to the strictest of those stated.
pub fn compute(
    cases: &[CaseResult],
    budgets: &BTreeMap<String, Budget>,
    cost: &CostModel,
) -> RunMetrics {
    let budget_of = |group: &[&CaseResult]| -> Budget {
        let mut out: Option<Budget> = None;
        for c in group {
            let b = budgets.get(&c.suite).copied().unwrap_or_default();
            out = Some(match out {
                None => b,
                Some(o) => Budget {
                    p95_ms: strictest(o.p95_ms, b.p95_ms, f64::min),
                    per_1000_items_ms: strictest(
                        o.per_1000_items_ms,
                        b.per_1000_items_ms,
                        f64::min,
                    ),
                    max_output_bytes: strictest(o.max_output_bytes, b.max_output_bytes, u64::min),
                },
            });
        }
        out.unwrap_or_default()
    };
    let all: Vec<&CaseResult> = cases.iter().collect();
    let group = |key: &dyn Fn(&CaseResult) -> Vec<String>| -> BTreeMap<String, GroupMetrics> {
        let mut groups: BTreeMap<String, Vec<&CaseResult>> = BTreeMap::new();
        for c in cases {
            for k in key(c) {
                groups.entry(k).or_default().push(c);
            }
        }
        groups
            .into_iter()
            // a suite, mode or tag whose every case is n/a has nothing to judge
            .filter(|(_, v)| v.iter().any(|c| !c.not_applicable()))
            .map(|(k, v)| {
                let m = GroupMetrics::of(&v, &budget_of(&v), cost);
                (k, m)
            })
            .collect()
    };
    RunMetrics {
        summary: GroupMetrics::of(&all, &budget_of(&all), cost),
        suites: group(&|c| vec![c.suite.clone()]),
        modes: group(&|c| vec![c.mode.clone()]),
        tags: group(&|c| {
            let mut t = c.tags.clone();
            t.sort();
            t.dedup();
            t
        }),
    }
}

#[cfg(test)]
mod reference_tests;

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A hand-made case result: `ms` duration, `cand` candidates, `ranked` keys.
    pub fn case(id: &str, status: Status, outcome: &str, ms: f64) -> CaseResult {
        CaseResult {
            id: id.into(),
            suite: "s".into(),
            mode: "task".into(),
            query: "q".into(),
            status,
            outcome: outcome.into(),
            expected_outcome: None,
            candidates: 0,
            ranked: vec![],
            expected: vec![],
            rank: None,
            duration_ms: ms,
            output_bytes: 0,
            dump_bytes: 0,
            items: 1000,
            tools: vec!["task".into()],
            iterations: 1,
            failed_tools: 0,
            reason: None,
            known_failure: None,
            tags: vec![],
            file: "c.yaml".into(),
            line: 1,
            ..CaseResult::default()
        }
    }

    #[test]
    fn pass_rates_count_xpass_as_held_and_xfail_against() {
        let cases = [
            case("a", Status::Pass, "success", 1.0),
            case("b", Status::Pass, "success", 1.0),
            case("c", Status::Fail, "no_match", 1.0),
            case("d", Status::Xfail, "insufficient_evidence", 1.0),
            case("e", Status::Xpass, "success", 1.0),
        ];
        let refs: Vec<&CaseResult> = cases.iter().collect();
        let m = GroupMetrics::of(&refs, &Budget::default(), &CostModel::default());
        assert_eq!(
            (m.total, m.passed, m.failed, m.xfail, m.xpass),
            (5, 2, 1, 1, 1)
        );
        assert_eq!(m.pass_rate, 0.6);
        assert_eq!(m.insufficient_evidence_rate, 0.2);
        assert_eq!(m.outcomes.success, 3);
        assert_eq!(m.outcomes.no_match_rate, 0.2);
    }

    #[test]
    fn n_a_cases_are_counted_apart_and_judged_nowhere() {
        let mut na = case("n", Status::NotApplicable, "n/a", 0.0);
        na.suite = "store".into();
        na.expected = vec!["T1".into()];
        let mut fail = case("f", Status::Fail, "no_match", 1.0);
        fail.expected = vec!["x".into()];
        let cases = [case("a", Status::Pass, "success", 1.0), fail, na];
        let m = compute(&cases, &BTreeMap::new(), &CostModel::default());
        assert_eq!(
            (m.summary.total, m.summary.not_applicable, m.summary.cases()),
            (2, 1, 3)
        );
        assert_eq!(m.summary.pass_rate, 0.5);
        assert_eq!(m.summary.rank.judged, 1);
        assert_eq!(m.summary.outcomes.success + m.summary.outcomes.no_match, 2);
        // a suite whose every case is n/a has nothing to judge: no group, no gate on it
        assert!(!m.suites.contains_key("store"), "{:?}", m.suites.keys());
        assert_eq!(m.suites["s"].total, 2);
    }

    #[test]
    fn groups_by_suite_mode_and_tag() {
        let mut a = case("a", Status::Pass, "success", 1.0);
        a.tags = vec!["typo".into(), "id".into()];
        let mut b = case("b", Status::Fail, "success", 1.0);
        b.suite = "t".into();
        b.tags = vec!["typo".into()];
        let m = compute(&[a, b], &BTreeMap::new(), &CostModel::default());
        assert_eq!(m.suites["s"].pass_rate, 1.0);
        assert_eq!(m.suites["t"].pass_rate, 0.0);
        assert_eq!(m.tags["typo"].total, 2);
        assert_eq!(m.tags["typo"].pass_rate, 0.5);
        assert_eq!(m.tags["id"].total, 1);
        assert_eq!(m.modes["task"].total, 2);
        assert_eq!(m.summary.total, 2);
    }
}
