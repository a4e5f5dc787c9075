//! Outcome counts and rates, candidate counts, and the tool sequence of each query (the
//! spec's runner lines: "Avg tools/query", "Avg iterations", "Dup tools", "Fail tools").

use super::arithmetic::{mean, median, rate, round};
use crate::case::CaseResult;
use serde::{Deserialize, Serialize};

/// How the queries ended: the engine's outcome, or `error` when it refused the request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutcomeMetrics {
    pub success: usize,
    pub no_match: usize,
    pub insufficient_evidence: usize,
    /// The engine's `failure` outcome plus requests it refused with an error.
    pub failure: usize,
    pub success_rate: f64,
    pub no_match_rate: f64,
    pub insufficient_evidence_rate: f64,
    pub failure_rate: f64,
}

impl OutcomeMetrics {
    pub fn of(cases: &[&CaseResult]) -> OutcomeMetrics {
        let n = cases.len();
        let count = |names: &[&str]| {
            cases
                .iter()
                .filter(|c| names.contains(&c.outcome.as_str()))
                .count()
        };
        let success = count(&["success"]);
        let no_match = count(&["no_match"]);
        let insufficient_evidence = count(&["insufficient_evidence"]);
        let failure = count(&["failure", "error"]);
        OutcomeMetrics {
            success,
            no_match,
            insufficient_evidence,
            failure,
            success_rate: rate(success, n),
            no_match_rate: rate(no_match, n),
            insufficient_evidence_rate: rate(insufficient_evidence, n),
            failure_rate: rate(failure, n),
        }
    }
}

/// Candidates per query (matches the mode considered before its limit).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CandidateMetrics {
    pub mean: f64,
    pub median: f64,
    /// Share of queries with no candidate at all.
    pub zero_rate: f64,
}

impl CandidateMetrics {
    pub fn of(cases: &[&CaseResult]) -> CandidateMetrics {
        let values: Vec<f64> = cases.iter().map(|c| c.candidates as f64).collect();
        CandidateMetrics {
            mean: round(mean(values.iter().copied()), 2),
            median: round(median(values), 2),
            zero_rate: rate(
                cases.iter().filter(|c| c.candidates == 0).count(),
                cases.len(),
            ),
        }
    }
}

/// The tools each query ran: one for a direct mode, the cascade for `ask`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolMetrics {
    /// Mean tools per query.
    pub per_query: f64,
    /// Mean iterations per query.
    pub iterations: f64,
    /// Repeated tools within one query's sequence, summed over queries.
    pub duplicate: usize,
    /// Tool calls that failed, summed over queries.
    pub failed: usize,
}

impl ToolMetrics {
    pub fn of(cases: &[&CaseResult]) -> ToolMetrics {
        ToolMetrics {
            per_query: round(mean(cases.iter().map(|c| c.tools.len() as f64)), 2),
            iterations: round(mean(cases.iter().map(|c| c.iterations as f64)), 2),
            duplicate: cases.iter().map(|c| c.duplicate_tools()).sum(),
            failed: cases.iter().map(|c| c.failed_tools as usize).sum(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::{Call, Status};
    use crate::metrics::tests::case;

    #[test]
    fn candidates_and_tools() {
        let mut a = case("a", Status::Pass, "success", 1.0);
        a.candidates = 4;
        a.tools = vec!["code".into(), "read".into()];
        a.iterations = 2;
        let mut b = case("b", Status::Pass, "success", 1.0);
        b.candidates = 0;
        b.tools = vec!["code".into(), "grep".into(), "grep".into(), "read".into()];
        b.iterations = 3;
        b.failed_tools = 1;
        let mut c = case("c", Status::Pass, "error", 1.0);
        c.candidates = 1;
        let refs = [&a, &b, &c];
        let m = CandidateMetrics::of(&refs);
        assert_eq!((m.mean, m.median, m.zero_rate), (1.67, 1.0, 0.3333));
        let t = ToolMetrics::of(&refs);
        assert_eq!(
            (t.per_query, t.iterations, t.duplicate, t.failed),
            (2.33, 2.0, 1, 1)
        );
        let o = OutcomeMetrics::of(&refs);
        assert_eq!((o.success, o.failure, o.failure_rate), (2, 1, 0.3333));
    }

    fn calls(calls: &[(&str, &str)]) -> CaseResult {
        let mut c = case("c", Status::Pass, "success", 1.0);
        c.mode = "ask".into();
        c.tools = calls.iter().map(|(t, _)| t.to_string()).collect();
        c.calls = calls.iter().map(|(t, i)| Call::new(*t, *i, 1)).collect();
        c
    }

    #[test]
    fn a_duplicate_is_the_same_tool_on_the_same_input() {
        // the per-word finds of a fallback and reads of successive candidates: same names,
        // other inputs, no duplicate
        let fallback = calls(&[
            ("find", "cursor[ _-]?binary"),
            ("find", "cursor"),
            ("find", "binary"),
            ("grep", "cursor[ _-]?binary"),
            ("read", "a.md"),
            ("read", "b.md"),
        ]);
        assert_eq!(fallback.duplicate_tools(), 0);
        // the same tool on the same input is wasted work, each repeat counted
        let repeated = calls(&[
            ("find", "cursor"),
            ("grep", "cursor"),
            ("find", "cursor"),
            ("find", "cursor"),
            ("read", "a.md"),
            ("read", "a.md"),
        ]);
        assert_eq!(repeated.duplicate_tools(), 3);
        let t = ToolMetrics::of(&[&fallback, &repeated]);
        assert_eq!((t.per_query, t.duplicate), (6.0, 3));
        // results written before calls were recorded: names are all there is
        let mut legacy = fallback.clone();
        legacy.calls.clear();
        assert_eq!(legacy.duplicate_tools(), 3);
    }
}
