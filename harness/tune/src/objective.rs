//! What a tuning run maximises: one score per case, averaged over the cases that take
//! part. The rank objectives score the cases that name expected keys (`top`, `contains`,
//! a trace's `expected`) as `metrics/rank.rs` and `metrics/recall.rs` do; `pass_rate`
//! scores every case by whether its expectations held.

use findbench_eval::case::{CaseResult, Status};
use findbench_eval::corpus::Case;
use findbench_eval::metrics::rank::first_relevant_rank;

/// The objective of `--objective`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Objective {
    /// Mean reciprocal rank of the first expected key.
    Mrr,
    /// Share of cases whose first result is expected.
    HitAt1,
    /// Share of cases with an expected key in the first five.
    HitAt5,
    /// Share of cases whose first expected key ends within 4 KB of the answer.
    RecallAt4kb,
    /// Share of cases whose every expectation held (pass, or a known failure that passed).
    PassRate,
}

impl Objective {
    pub const ALL: [Objective; 5] = [
        Objective::Mrr,
        Objective::HitAt1,
        Objective::HitAt5,
        Objective::RecallAt4kb,
        Objective::PassRate,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Objective::Mrr => "mrr",
            Objective::HitAt1 => "hit@1",
            Objective::HitAt5 => "hit@5",
            Objective::RecallAt4kb => "recall@4kb",
            Objective::PassRate => "pass_rate",
        }
    }

    /// The objective named `name`, or a sentence listing the names.
    pub fn parse(name: &str) -> Result<Objective, String> {
        Objective::ALL
            .into_iter()
            .find(|o| o.as_str() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Objective::ALL.iter().map(|o| o.as_str()).collect();
                format!(
                    "unknown objective `{name}`: the objectives are {}",
                    names.join(", ")
                )
            })
    }

    /// Whether `case` takes part: a rank objective needs expected keys.
    pub fn scores(self, case: &Case) -> bool {
        match self {
            Objective::PassRate => true,
            _ => !case.expect.relevant().is_empty(),
        }
    }

    /// The score of one case's result, in `[0, 1]`.
    pub fn score(self, result: &CaseResult) -> f64 {
        self.score_ranked(result, || first_relevant_rank(result))
    }

    /// The score of a replayed trace's result: its rank as replay judged it (the first
    /// expected file's position in the answer, as replay's `rank` totals count it).
    pub fn score_trace(self, result: &CaseResult) -> f64 {
        self.score_ranked(result, || result.rank)
    }

    fn score_ranked(self, result: &CaseResult, rank: impl Fn() -> Option<usize>) -> f64 {
        let flag = |b: bool| f64::from(u8::from(b));
        match self {
            Objective::Mrr => rank().map_or(0.0, |r| 1.0 / r as f64),
            Objective::HitAt1 => flag(rank() == Some(1)),
            Objective::HitAt5 => flag(rank().is_some_and(|r| r <= 5)),
            Objective::RecallAt4kb => flag(result.first_hit_bytes.is_some_and(|b| b <= 4096)),
            Objective::PassRate => flag(matches!(result.status, Status::Pass | Status::Xpass)),
        }
    }
}

/// The mean of `scores` (0 for none).
pub fn mean(scores: &[f64]) -> f64 {
    if scores.is_empty() {
        0.0
    } else {
        scores.iter().sum::<f64>() / scores.len() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(expected: &[&str], ranked: &[&str], first_hit: Option<u64>) -> CaseResult {
        CaseResult {
            expected: expected.iter().map(|s| s.to_string()).collect(),
            ranked: ranked.iter().map(|s| s.to_string()).collect(),
            first_hit_bytes: first_hit,
            ..CaseResult::default()
        }
    }

    #[test]
    fn each_objective_scores_a_case_as_the_run_metrics_do() {
        let r = result(&["b"], &["a", "a", "b"], Some(5000));
        assert_eq!(Objective::Mrr.score(&r), 0.5);
        assert_eq!(Objective::HitAt1.score(&r), 0.0);
        assert_eq!(Objective::HitAt5.score(&r), 1.0);
        assert_eq!(Objective::RecallAt4kb.score(&r), 0.0);
        let none = result(&["b"], &[], None);
        assert_eq!(Objective::Mrr.score(&none), 0.0);
        let mut passed = result(&[], &[], None);
        passed.status = Status::Xpass;
        assert_eq!(Objective::PassRate.score(&passed), 1.0);
        passed.status = Status::Xfail;
        assert_eq!(Objective::PassRate.score(&passed), 0.0);
    }

    #[test]
    fn objectives_parse_by_their_names_only() {
        for o in Objective::ALL {
            assert_eq!(Objective::parse(o.as_str()), Ok(o));
        }
        let err = Objective::parse("ndcg").unwrap_err();
        assert!(
            err.contains("unknown objective `ndcg`") && err.contains("hit@5"),
            "{err}"
        );
    }
}
