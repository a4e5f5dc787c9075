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
pub(crate) mod tests {
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

    /// A case of `expect` in a corpus of one case, against a tree of one file.
    pub(crate) fn case_expecting(expect: &str) -> Case {
        use findbench_eval::corpus::load::parse_corpus_str;
        use findbench_eval::corpus::{FixtureKind, LoadedFixture};
        use std::sync::Arc;
        let text = format!(
            "suite: s\nfixture: {{root: .}}\ncases:\n  - id: c\n    query: where is a\n    \
             mode: ask\n    expect: {expect}\n"
        );
        let parsed = parse_corpus_str(std::path::Path::new("c.yaml"), &text).unwrap();
        let pc = parsed.cases.into_iter().next().unwrap();
        let tree = findbench_engine::Tree::from_memory("t", [("a.rs", "fn a() {}\n")]);
        Case {
            suite: parsed.suite,
            id: pc.id,
            query: pc.query,
            mode: pc.mode,
            request: pc.request,
            expect: pc.expect,
            tags: pc.tags,
            known_failure: pc.known_failure,
            file: "c.yaml".into(),
            line: pc.line,
            fixture: Arc::new(LoadedFixture {
                kind: FixtureKind::Root,
                path: ".".into(),
                project: ".".into(),
                fixture: findbench_engine::Fixture::Tree(Arc::new(tree)),
                item_count: 1,
                dump_bytes: 0,
            }),
        }
    }

    #[test]
    fn a_rank_objective_scores_only_the_cases_that_name_expected_keys() {
        let top = case_expecting("{top: a.rs}");
        let contains = case_expecting("{contains: [a.rs]}");
        let outcome_only = case_expecting("{outcome: success}");
        for o in [
            Objective::Mrr,
            Objective::HitAt1,
            Objective::HitAt5,
            Objective::RecallAt4kb,
        ] {
            assert!(o.scores(&top) && o.scores(&contains), "{o:?}");
            assert!(!o.scores(&outcome_only), "{o:?}");
        }
        assert!(Objective::PassRate.scores(&outcome_only) && Objective::PassRate.scores(&top));
    }

    /// A replayed trace is scored at the rank replay judged, not at the place of its
    /// expected key in the ranked list; each cut-off holds at its own value and not past it.
    #[test]
    fn a_trace_is_scored_at_its_judged_rank() {
        let mut r = result(&["b"], &[], Some(4096));
        r.rank = Some(4);
        assert_eq!(Objective::Mrr.score(&r), 0.0);
        assert_eq!(Objective::Mrr.score_trace(&r), 0.25);
        assert_eq!(Objective::HitAt5.score_trace(&r), 1.0);
        assert_eq!(Objective::HitAt1.score_trace(&r), 0.0);
        assert_eq!(Objective::RecallAt4kb.score_trace(&r), 1.0);
        r.rank = Some(1);
        assert_eq!(Objective::HitAt1.score_trace(&r), 1.0);
        r.rank = Some(5);
        assert_eq!(Objective::HitAt5.score_trace(&r), 1.0);
        r.rank = Some(6);
        assert_eq!(Objective::HitAt5.score_trace(&r), 0.0);
        r.first_hit_bytes = Some(4097);
        assert_eq!(Objective::RecallAt4kb.score_trace(&r), 0.0);
        r.rank = None;
        assert_eq!(Objective::Mrr.score_trace(&r), 0.0);
    }

    #[test]
    fn the_mean_of_scores_worked_by_hand() {
        // (1 + 0.5 + 0 + 0.25) / 4
        assert_eq!(mean(&[1.0, 0.5, 0.0, 0.25]), 0.4375);
        assert_eq!(mean(&[0.2]), 0.2);
        assert_eq!(mean(&[]), 0.0);
    }
}
