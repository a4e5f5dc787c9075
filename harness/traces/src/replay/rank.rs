//! The ranking of a replay's judged traces (those that name `expected` files), counted as
//! the cases go by: hit@1, hit@k and MRR of findbench's answers, recall within 1, 2, 4 and
//! 8 KB of them (findbench-eval's `metrics::recall`), and the same recall over the agent's
//! own calls (its searches and the file reads that reached an expected file: `judge.rs`),
//! with the bytes each side returned and the searches the agent ran before its first
//! useful one. The `rank` object of a replay's summary.

use findbench_eval::case::CaseResult;
use findbench_eval::metrics::rank::RANK_K;
use findbench_eval::metrics::recall::BudgetCounts;
use findbench_eval::metrics::{rate, round};
use serde_json::{json, Value};

/// Judged traces counted so far.
#[derive(Debug, Default, Clone)]
pub struct RankTotals {
    /// The k of hit@k (`replay --hit-k`; absent: [`RANK_K`]).
    pub k: Option<usize>,
    hit_1: usize,
    hit_k: usize,
    reciprocal: f64,
    findbench: BudgetCounts,
    findbench_bytes: u64,
    /// Judged traces whose tool output sizes are recorded: the agent's side.
    agent: BudgetCounts,
    agent_bytes: u64,
    /// Judged cases with a useful search, and the searches before it, summed.
    useful: usize,
    searches_before: u64,
}

fn mean(total: f64, n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        round(total / n as f64, 4)
    }
}

impl RankTotals {
    /// Counts `case` when it is judged (names expected files).
    pub fn add(&mut self, case: &CaseResult) {
        if case.expected.is_empty() {
            return;
        }
        self.hit_1 += usize::from(case.rank == Some(1));
        let k = self.k.unwrap_or(RANK_K);
        self.hit_k += usize::from(case.rank.is_some_and(|r| r <= k));
        self.reciprocal += case.rank.map_or(0.0, |r| 1.0 / r as f64);
        self.findbench.add(case.first_hit_bytes);
        self.findbench_bytes += case.output_bytes;
        if let Some(bytes) = case.recorded_output_bytes {
            self.agent.add(case.recorded_first_hit_bytes);
            self.agent_bytes += bytes;
        }
        if let Some(n) = case.recorded_searches_before_hit {
            self.useful += 1;
            self.searches_before += u64::from(n);
        }
    }

    /// Judged traces counted.
    pub fn judged(&self) -> usize {
        self.findbench.judged
    }

    /// The `rank` object of a replay's summary.
    pub fn summary(&self) -> Value {
        let n = self.judged();
        let recall = |c: &BudgetCounts| {
            let r = c.recall();
            json!({
                "recall_at_1kb": r.recall_at_1kb,
                "recall_at_2kb": r.recall_at_2kb,
                "recall_at_4kb": r.recall_at_4kb,
                "recall_at_8kb": r.recall_at_8kb,
            })
        };
        let mut findbench = json!({
            "judged": n,
            "k": self.k.unwrap_or(RANK_K),
            "hit_at_1": rate(self.hit_1, n),
            "hit_at_k": rate(self.hit_k, n),
            "mrr": mean(self.reciprocal, n),
        });
        merge(&mut findbench, recall(&self.findbench));
        findbench["output_bytes_mean"] = mean(self.findbench_bytes as f64, n).into();
        let mut agent = json!({"judged": self.agent.judged});
        merge(&mut agent, recall(&self.agent));
        agent["output_bytes_mean"] = mean(self.agent_bytes as f64, self.agent.judged).into();
        agent["with_useful_search"] = self.useful.into();
        agent["searches_before_hit_mean"] = mean(self.searches_before as f64, self.useful).into();
        findbench["recorded"] = agent;
        findbench
    }
}

fn merge(into: &mut Value, from: Value) {
    if let (Value::Object(a), Value::Object(b)) = (into, from) {
        a.extend(b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(
        rank: Option<usize>,
        hit: Option<u64>,
        agent: Option<(u64, Option<u64>)>,
    ) -> CaseResult {
        CaseResult {
            expected: vec!["a".into()],
            rank,
            first_hit_bytes: hit,
            output_bytes: 1000,
            recorded_output_bytes: agent.map(|a| a.0),
            recorded_first_hit_bytes: agent.and_then(|a| a.1),
            recorded_searches_before_hit: agent.and_then(|a| a.1).map(|_| 2),
            ..CaseResult::default()
        }
    }

    #[test]
    fn findbench_and_the_agent_side_by_side() {
        let mut t = RankTotals::default();
        t.add(&judged(Some(1), Some(300), Some((5000, Some(5000)))));
        t.add(&judged(Some(3), Some(3000), Some((900, Some(900)))));
        t.add(&judged(None, None, None));
        t.add(&CaseResult::default()); // not judged
        let s = t.summary();
        assert_eq!(s["judged"], 3);
        assert_eq!(
            (s["hit_at_1"].as_f64(), s["hit_at_k"].as_f64()),
            (Some(0.3333), Some(0.6667))
        );
        assert_eq!(s["mrr"], 0.4444);
        assert_eq!(s["recall_at_1kb"], 0.3333);
        assert_eq!(s["recall_at_4kb"], 0.6667);
        assert_eq!(s["output_bytes_mean"], 1000.0);
        let a = &s["recorded"];
        assert_eq!(a["judged"], 2);
        assert_eq!(
            (a["recall_at_1kb"].as_f64(), a["recall_at_8kb"].as_f64()),
            (Some(0.5), Some(1.0))
        );
        assert_eq!(a["output_bytes_mean"], 2950.0);
        assert_eq!(
            (
                a["with_useful_search"].as_u64(),
                a["searches_before_hit_mean"].as_f64()
            ),
            (Some(2), Some(2.0))
        );
    }
}
