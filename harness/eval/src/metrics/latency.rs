//! Latency percentiles and latency per 1000 items searched, against the suite's budget.
//!
//! Percentiles come from an `hdrhistogram` of microseconds (3 significant digits, so a
//! reported percentile is within 0.1% of the recorded value; values under 2.048 ms are
//! exact). A percentile is the smallest recorded value with at least that share of cases
//! at or below it (nearest rank).

use super::arithmetic::{mean, round};
use crate::case::CaseResult;
use crate::corpus::Budget;
use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LatencyMetrics {
    pub mean_ms: f64,
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    /// 95th percentile of each case's duration scaled to 1000 items searched.
    pub per_1000_items_ms: f64,
    /// The budgets the suite states (null when it states none).
    pub budget_p95_ms: Option<f64>,
    pub budget_per_1000_items_ms: Option<f64>,
    /// No stated budget exceeded (true when none is stated).
    pub within_budget: bool,
}

impl LatencyMetrics {
    pub fn of(cases: &[&CaseResult], budget: &Budget) -> LatencyMetrics {
        let durations: Vec<f64> = cases.iter().map(|c| c.duration_ms).collect();
        let per_1000: Vec<f64> = cases
            .iter()
            .filter(|c| c.items > 0)
            .map(|c| c.duration_ms * 1000.0 / c.items as f64)
            .collect();
        let d = Percentiles::of(&durations);
        let per_1000_items_ms = Percentiles::of(&per_1000).at(0.95);
        let p95_ms = d.at(0.95);
        LatencyMetrics {
            mean_ms: round(mean(durations.iter().copied()), 3),
            p50_ms: d.at(0.50),
            p95_ms,
            p99_ms: d.at(0.99),
            max_ms: d.max(),
            per_1000_items_ms,
            budget_p95_ms: budget.p95_ms,
            budget_per_1000_items_ms: budget.per_1000_items_ms,
            within_budget: budget.p95_ms.is_none_or(|b| p95_ms <= b)
                && budget
                    .per_1000_items_ms
                    .is_none_or(|b| per_1000_items_ms <= b),
        }
    }

    /// Each stated budget exceeded, in words: `p95 120.000 ms > budget.p95_ms 100 ms`.
    /// Empty when within every stated budget, or none is stated.
    pub fn over_budget(&self) -> Vec<String> {
        let mut over = Vec::new();
        if let Some(b) = self.budget_p95_ms.filter(|b| self.p95_ms > *b) {
            over.push(format!("p95 {:.3} ms > budget.p95_ms {b} ms", self.p95_ms));
        }
        if let Some(b) = self
            .budget_per_1000_items_ms
            .filter(|b| self.per_1000_items_ms > *b)
        {
            over.push(format!(
                "{:.3} ms per 1000 items > budget.per_1000_items_ms {b} ms",
                self.per_1000_items_ms
            ));
        }
        over
    }
}

/// Percentiles of millisecond values, via a histogram of microseconds.
pub struct Percentiles {
    hist: Option<Histogram<u64>>,
}

impl Percentiles {
    pub fn of(ms: &[f64]) -> Percentiles {
        if ms.is_empty() {
            return Percentiles { hist: None };
        }
        // 3 significant digits, auto-resizing: no upper bound to guess
        let mut hist = Histogram::<u64>::new(3).ok();
        if let Some(h) = hist.as_mut() {
            for &v in ms {
                let us = (v.max(0.0) * 1000.0).round() as u64;
                let _ = h.record(us);
            }
        }
        Percentiles { hist }
    }

    /// The value at quantile `q` (0..1), in ms rounded to the microsecond; 0 when empty.
    pub fn at(&self, q: f64) -> f64 {
        self.hist.as_ref().map_or(0.0, |h| {
            let v = h.value_at_quantile(q);
            round(h.median_equivalent(v) as f64 / 1000.0, 3)
        })
    }

    pub fn max(&self) -> f64 {
        self.hist.as_ref().map_or(0.0, |h| {
            round(h.median_equivalent(h.max()) as f64 / 1000.0, 3)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::Status;
    use crate::metrics::tests::case;

    #[test]
    fn nearest_rank_percentiles_of_known_values() {
        // 1..=100 ms in steps of 0.01 ms below the exact range, i.e. 0.01 ... 1.00 ms
        let values: Vec<f64> = (1..=100).map(|i| i as f64 / 100.0).collect();
        let p = Percentiles::of(&values);
        assert_eq!(p.at(0.50), 0.50);
        assert_eq!(p.at(0.95), 0.95);
        assert_eq!(p.at(0.99), 0.99);
        assert_eq!(p.max(), 1.0);
        assert_eq!(Percentiles::of(&[]).at(0.5), 0.0);
    }

    #[test]
    fn large_values_stay_within_a_tenth_of_a_percent() {
        let p = Percentiles::of(&[120.0, 250.0, 1000.0]);
        assert!((p.max() - 1000.0).abs() <= 1.0, "{}", p.max());
        assert!((p.at(0.5) - 250.0).abs() <= 0.25, "{}", p.at(0.5));
    }

    #[test]
    fn per_1000_items_against_the_budget() {
        // 0.5 ms over 250 items is 2 ms per 1000 items
        let mut a = case("a", Status::Pass, "success", 0.5);
        a.items = 250;
        let m = LatencyMetrics::of(&[&a], &Budget::default());
        assert_eq!(m.per_1000_items_ms, 2.0);
        // no budget stated: never over, whatever the time
        assert!(m.within_budget && m.over_budget().is_empty());
        assert_eq!(m.budget_p95_ms, None);
        let tight = Budget {
            per_1000_items_ms: Some(1.0),
            p95_ms: Some(100.0),
            ..Budget::default()
        };
        let m = LatencyMetrics::of(&[&a], &tight);
        assert!(!m.within_budget);
        assert_eq!(
            m.over_budget(),
            ["2.000 ms per 1000 items > budget.per_1000_items_ms 1 ms"]
        );
        let slow = Budget {
            p95_ms: Some(0.25),
            ..Budget::default()
        };
        assert_eq!(
            LatencyMetrics::of(&[&a], &slow).over_budget(),
            ["p95 0.500 ms > budget.p95_ms 0.25 ms"]
        );
    }

    /// A case that searched no items has no latency per 1000 items: twenty refused
    /// requests (no items, no time) beside one 0.5 ms search of 250 items leave that
    /// figure at the search's 2 ms, though they make the median duration 0.
    #[test]
    fn a_case_that_searched_no_items_is_left_out_of_the_per_1000_items_figure() {
        let mut searched = case("a", Status::Pass, "success", 0.5);
        searched.items = 250;
        let mut refused = case("r", Status::Pass, "error", 0.0);
        refused.items = 0;
        let mut cases = vec![&searched];
        cases.extend(std::iter::repeat_n(&refused, 20));
        let m = LatencyMetrics::of(&cases, &Budget::default());
        assert_eq!(m.per_1000_items_ms, 2.0);
        assert_eq!((m.p50_ms, m.max_ms), (0.0, 0.5));
        // 0.5 ms over 21 cases
        assert_eq!(m.mean_ms, 0.024);
    }
}
