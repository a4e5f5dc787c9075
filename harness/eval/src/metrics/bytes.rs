//! Context bytes: what a find call puts in an agent's context against dumping the whole
//! fixture, in bytes, tokens and dollars a day.
//!
//! The default cost model reproduces task-find.md appendix B: dumping a 355 KB store
//! (355,000 bytes, 88,750 tokens at 4 bytes a token) 100 times a day at $1.20 per million
//! input tokens costs $10.65 a day; 3 KB of find output, $0.09.

use super::arithmetic::{mean, round};
use crate::case::CaseResult;
use crate::corpus::Budget;
use serde::{Deserialize, Serialize};

/// The stated price and call rate the daily cost is computed at.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CostModel {
    /// US dollars per million input tokens.
    pub price_per_million_tokens: f64,
    /// Find calls an agent makes a day.
    pub calls_per_day: f64,
    /// Bytes per token (the usual estimate for English and JSON is 4).
    pub bytes_per_token: f64,
}

impl Default for CostModel {
    fn default() -> Self {
        CostModel {
            price_per_million_tokens: 1.20,
            calls_per_day: 100.0,
            bytes_per_token: 4.0,
        }
    }
}

impl CostModel {
    pub fn tokens(&self, bytes: f64) -> f64 {
        bytes / self.bytes_per_token
    }

    /// Dollars a day of putting `bytes` into the context on every call.
    pub fn daily_cost(&self, bytes: f64) -> f64 {
        self.tokens(bytes) * self.calls_per_day * self.price_per_million_tokens / 1e6
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContextMetrics {
    /// Mean bytes of the JSON envelope a call prints.
    pub output_bytes_mean: f64,
    pub output_bytes_max: u64,
    /// Mean bytes of dumping the whole fixture (the `list --format json` equivalent).
    pub dump_bytes_mean: f64,
    /// 100 x (1 - output / dump), over the group's totals.
    pub reduction_pct: f64,
    pub tokens_per_call: f64,
    pub dump_tokens_per_call: f64,
    pub daily_cost_dump_usd: f64,
    pub daily_cost_find_usd: f64,
    pub daily_saved_usd: f64,
    /// The budget's `max_output_bytes`, and how many calls went over it.
    pub budget_max_output_bytes: Option<u64>,
    pub over_budget: usize,
}

impl ContextMetrics {
    pub fn of(cases: &[&CaseResult], budget: &Budget, cost: &CostModel) -> ContextMetrics {
        let output = mean(cases.iter().map(|c| c.output_bytes as f64));
        let dump = mean(cases.iter().map(|c| c.dump_bytes as f64));
        let reduction = if dump > 0.0 {
            100.0 * (1.0 - output / dump)
        } else {
            0.0
        };
        let (cost_dump, cost_find) = (cost.daily_cost(dump), cost.daily_cost(output));
        ContextMetrics {
            output_bytes_mean: round(output, 1),
            output_bytes_max: cases.iter().map(|c| c.output_bytes).max().unwrap_or(0),
            dump_bytes_mean: round(dump, 1),
            reduction_pct: round(reduction, 2),
            tokens_per_call: round(cost.tokens(output), 1),
            dump_tokens_per_call: round(cost.tokens(dump), 1),
            daily_cost_dump_usd: round(cost_dump, 4),
            daily_cost_find_usd: round(cost_find, 4),
            daily_saved_usd: round(cost_dump - cost_find, 4),
            budget_max_output_bytes: budget.max_output_bytes,
            over_budget: budget.max_output_bytes.map_or(0, |max| {
                cases.iter().filter(|c| c.output_bytes > max).count()
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::Status;
    use crate::metrics::tests::case;

    #[test]
    fn defaults_reproduce_the_spec_appendix() {
        let cost = CostModel::default();
        // 355 KB x 100 calls a day = 35.5 MB a day = ~$10.65 a day
        assert!((cost.daily_cost(355_000.0) - 10.65).abs() < 1e-9);
        // 3 KB x 100 = 300 KB a day = ~$0.09 a day
        assert!((cost.daily_cost(3_000.0) - 0.09).abs() < 1e-9);
    }

    #[test]
    fn reduction_tokens_and_savings() {
        let mut a = case("a", Status::Pass, "success", 1.0);
        a.output_bytes = 2_000;
        a.dump_bytes = 355_000;
        let mut b = case("b", Status::Pass, "success", 1.0);
        b.output_bytes = 4_000;
        b.dump_bytes = 355_000;
        let budget = Budget {
            max_output_bytes: Some(3_000),
            ..Budget::default()
        };
        let m = ContextMetrics::of(&[&a, &b], &budget, &CostModel::default());
        assert_eq!(m.output_bytes_mean, 3_000.0);
        assert_eq!(m.output_bytes_max, 4_000);
        assert_eq!(m.tokens_per_call, 750.0);
        assert_eq!(m.dump_tokens_per_call, 88_750.0);
        assert_eq!(m.reduction_pct, 99.15);
        assert_eq!(m.daily_cost_dump_usd, 10.65);
        assert_eq!(m.daily_cost_find_usd, 0.09);
        assert_eq!(m.daily_saved_usd, 10.56);
        assert_eq!(m.over_budget, 1);
    }

    /// Worked by hand: of 1000, 3000, 4000 and 5000 bytes under a 3000-byte budget, two
    /// calls are over it (one at it is within); a group whose fixture dump is empty has
    /// no reduction to report, not an infinite one.
    #[test]
    fn over_budget_counts_the_calls_above_it_and_an_empty_dump_reduces_nothing() {
        let sized = |id: &str, output: u64, dump: u64| {
            let mut c = case(id, Status::Pass, "success", 1.0);
            c.output_bytes = output;
            c.dump_bytes = dump;
            c
        };
        let cases = [
            sized("a", 1_000, 8_000),
            sized("b", 3_000, 8_000),
            sized("c", 4_000, 8_000),
            sized("d", 5_000, 8_000),
        ];
        let refs: Vec<&CaseResult> = cases.iter().collect();
        let budget = Budget {
            max_output_bytes: Some(3_000),
            ..Budget::default()
        };
        let m = ContextMetrics::of(&refs, &budget, &CostModel::default());
        assert_eq!(m.over_budget, 2);
        // mean output 3250 of a mean dump of 8000: 100 x (1 - 3250 / 8000) = 59.375
        assert_eq!(m.reduction_pct, 59.38);
        assert_eq!(m.output_bytes_max, 5_000);
        // no budget: nothing is over it
        let m = ContextMetrics::of(&refs, &Budget::default(), &CostModel::default());
        assert_eq!((m.budget_max_output_bytes, m.over_budget), (None, 0));
        let empty_dump = sized("e", 500, 0);
        let m = ContextMetrics::of(&[&empty_dump], &budget, &CostModel::default());
        assert_eq!(m.reduction_pct, 0.0);
        assert_eq!(m.dump_tokens_per_call, 0.0);
        assert_eq!(m.tokens_per_call, 125.0);
    }
}
