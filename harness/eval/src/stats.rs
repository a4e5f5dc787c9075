//! Paired statistics for release reports: is a change larger than the noise?
//!
//! Why not `elinor`: its paired tests (Student t, bootstrap, randomised) compare the *means*
//! of a per-query score. A release report needs two other things: an exact McNemar test on
//! binary pass/fail flips, and a bootstrap interval of the difference of latency
//! *quantiles* (p50, p95), which elinor does not offer; it would also bring `statrs` and
//! `rand` in for a few dozen lines. Both are written here and checked against values
//! computed by hand.

/// The exact McNemar test on the discordant pairs of a paired binary outcome.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct McNemar {
    /// Pairs that went from good to bad (e.g. pass → fail).
    pub worsened: u64,
    /// Pairs that went from bad to good.
    pub improved: u64,
    /// Two-sided exact p-value: under "no change" each discordant pair is a fair coin.
    pub p_value: f64,
}

impl McNemar {
    pub fn new(worsened: u64, improved: u64) -> McNemar {
        McNemar {
            worsened,
            improved,
            p_value: mcnemar_exact(worsened, improved),
        }
    }

    /// Larger than noise at the 5% level.
    pub fn significant(&self) -> bool {
        self.p_value < ALPHA
    }
}

/// A p-value as the reports print it: four decimals, or scientific below 0.0001.
pub fn fmt_p(p: f64) -> String {
    if p < 0.0001 {
        format!("{p:.1e}")
    } else {
        format!("{p:.4}")
    }
}

/// Significance level of every verdict in the reports.
pub const ALPHA: f64 = 0.05;

/// Two-sided exact McNemar p-value: `min(1, 2 · P[X ≤ min(b, c)])` for `X ~ Binomial(b + c,
/// 1/2)`. Summed in log space so thousands of discordant pairs do not underflow.
pub fn mcnemar_exact(b: u64, c: u64) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    let k = b.min(c);
    let ln_half_n = -(n as f64) * std::f64::consts::LN_2;
    let mut ln_choose = 0.0_f64; // ln C(n, 0)
    let mut tail = 0.0_f64;
    for i in 0..=k {
        if i > 0 {
            ln_choose += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        tail += (ln_choose + ln_half_n).exp();
    }
    (2.0 * tail).min(1.0)
}

/// Quantile by linear interpolation between closest ranks (Hyndman–Fan type 7, the
/// default of R and numpy). `sorted` must be sorted ascending and non-empty.
pub fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    debug_assert!(!sorted.is_empty());
    let h = (sorted.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = h.ceil() as usize;
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// Quantile of unsorted values; `None` when empty.
pub fn quantile(values: &[f64], q: f64) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    Some(quantile_sorted(&v, q))
}

/// A bootstrap 95% interval of `quantile(after) − quantile(before)` over paired samples.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QuantileDiff {
    pub q: f64,
    pub before: f64,
    pub after: f64,
    /// `after − before` on the samples themselves.
    pub diff: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub resamples: usize,
}

impl QuantileDiff {
    /// Larger than noise: the interval does not contain 0.
    pub fn significant(&self) -> bool {
        self.ci_low > 0.0 || self.ci_high < 0.0
    }
}

/// Resamples used by the reports; enough for a stable 95% percentile interval.
pub const BOOTSTRAP_RESAMPLES: usize = 2000;
/// Fixed seed: the same inputs give the same report.
pub const BOOTSTRAP_SEED: u64 = 0x05ee_df1d_be4c;

/// Paired percentile bootstrap: resamples cases (pairs) with replacement, so a case's
/// before and after times stay together and the case mix is what varies.
pub fn bootstrap_quantile_diff(
    pairs: &[(f64, f64)],
    q: f64,
    resamples: usize,
    seed: u64,
) -> Option<QuantileDiff> {
    if pairs.is_empty() || resamples == 0 {
        return None;
    }
    let before: Vec<f64> = pairs.iter().map(|p| p.0).collect();
    let after: Vec<f64> = pairs.iter().map(|p| p.1).collect();
    let b0 = quantile(&before, q)?;
    let a0 = quantile(&after, q)?;
    let mut rng = SplitMix64(seed);
    let n = pairs.len();
    let (mut rb, mut ra) = (vec![0.0; n], vec![0.0; n]);
    let mut diffs = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        for i in 0..n {
            let (b, a) = pairs[rng.below(n as u64) as usize];
            rb[i] = b;
            ra[i] = a;
        }
        rb.sort_by(f64::total_cmp);
        ra.sort_by(f64::total_cmp);
        diffs.push(quantile_sorted(&ra, q) - quantile_sorted(&rb, q));
    }
    diffs.sort_by(f64::total_cmp);
    Some(QuantileDiff {
        q,
        before: b0,
        after: a0,
        diff: a0 - b0,
        ci_low: quantile_sorted(&diffs, 0.025),
        ci_high: quantile_sorted(&diffs, 0.975),
        resamples,
    })
}

/// A bootstrap 95% interval of the mean of `after − before` over paired samples (a
/// per-case score before and after a change: the held-out gain `findbench tune` reports).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeanDiff {
    /// The mean of `after − before` on the samples themselves.
    pub diff: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub resamples: usize,
}

impl MeanDiff {
    /// Larger than noise: the interval does not contain 0.
    pub fn significant(&self) -> bool {
        self.ci_low > 0.0 || self.ci_high < 0.0
    }
}

/// Paired percentile bootstrap of a mean difference: resamples the pairs with replacement
/// (each resample's mean of `after − before`, summed in draw order) and takes the 2.5% and
/// 97.5% quantiles of those means.
pub fn bootstrap_mean_diff(pairs: &[(f64, f64)], resamples: usize, seed: u64) -> Option<MeanDiff> {
    if pairs.is_empty() || resamples == 0 {
        return None;
    }
    let n = pairs.len();
    let diff = pairs.iter().map(|(b, a)| a - b).sum::<f64>() / n as f64;
    let mut rng = SplitMix64(seed);
    let mut means = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        let mut total = 0.0;
        for _ in 0..n {
            let (b, a) = pairs[rng.below(n as u64) as usize];
            total += a - b;
        }
        means.push(total / n as f64);
    }
    means.sort_by(f64::total_cmp);
    Some(MeanDiff {
        diff,
        ci_low: quantile_sorted(&means, 0.025),
        ci_high: quantile_sorted(&means, 0.975),
        resamples,
    })
}

/// SplitMix64: tiny, seedable, and good enough to draw bootstrap indices and a search's
/// random points; keeps `rand` out of the dependency tree.
#[derive(Debug, Clone)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (Lemire's multiply-shift; the bias is < n / 2^64).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// Uniform in `[0, 1)`: the top 53 bits of a draw.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn mcnemar_matches_hand_computed_binomial_tails() {
        // b=1, c=6: n=7, P[X<=1] = (1 + 7)/128, doubled = 0.125
        assert!(close(mcnemar_exact(1, 6), 0.125));
        assert!(close(mcnemar_exact(6, 1), 0.125));
        // b=0, c=10: 2 · 1/1024
        assert!(close(mcnemar_exact(0, 10), 2.0 / 1024.0));
        // b=2, c=8: n=10, P[X<=2] = (1 + 10 + 45)/1024 = 56/1024, doubled = 0.109375
        assert!(close(mcnemar_exact(2, 8), 0.109375));
        // b=0, c=4: the cursor-binary cluster alone: 2/16 = 0.125, not significant
        assert!(close(mcnemar_exact(0, 4), 0.125));
        // b=0, c=5: 2/32 = 0.0625; c=6: 2/64 = 0.03125, the first significant count
        assert!(close(mcnemar_exact(0, 5), 0.0625));
        assert!(close(mcnemar_exact(0, 6), 0.03125));
        // balanced or empty: no evidence of change
        assert_eq!(mcnemar_exact(3, 3), 1.0);
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        assert!(McNemar::new(0, 6).significant());
        assert!(!McNemar::new(1, 6).significant());
    }

    #[test]
    fn mcnemar_does_not_underflow_on_large_counts() {
        let p = mcnemar_exact(2000, 2000);
        assert!(p > 0.9 && p <= 1.0, "{p}");
        let p = mcnemar_exact(900, 1100);
        // normal approximation: z = 200/sqrt(2000) = 4.47, p ≈ 7.8e-6
        assert!(p > 1e-6 && p < 2e-5, "{p}");
    }

    #[test]
    fn quantiles_interpolate_between_ranks() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert!(close(quantile(&v, 0.5).unwrap(), 2.5));
        // h = 3 · 0.95 = 2.85: 3 + 0.85 · (4 − 3)
        assert!(close(quantile(&v, 0.95).unwrap(), 3.85));
        assert!(close(quantile(&[7.0], 0.95).unwrap(), 7.0));
        assert_eq!(quantile(&[], 0.5), None);
    }

    #[test]
    fn bootstrap_of_a_constant_shift_is_exactly_that_shift() {
        // after = before + 5 for every case: every resample's quantile difference is 5
        let pairs: Vec<(f64, f64)> = (0..40).map(|i| (i as f64, i as f64 + 5.0)).collect();
        for q in [0.5, 0.95] {
            let d = bootstrap_quantile_diff(&pairs, q, 500, 1).unwrap();
            assert!(close(d.diff, 5.0) && close(d.ci_low, 5.0) && close(d.ci_high, 5.0));
            assert!(d.significant());
        }
        // identical runs: [0, 0], not significant
        let same: Vec<(f64, f64)> = (0..40).map(|i| (i as f64, i as f64)).collect();
        let d = bootstrap_quantile_diff(&same, 0.5, 500, 1).unwrap();
        assert_eq!((d.diff, d.ci_low, d.ci_high), (0.0, 0.0, 0.0));
        assert!(!d.significant());
    }

    #[test]
    fn bootstrap_is_deterministic_and_brackets_the_estimate() {
        // noisy, no real change: the interval must contain 0
        let pairs: Vec<(f64, f64)> = (0..60)
            .map(|i| {
                let b = 10.0 + ((i * 37) % 11) as f64;
                let a = 10.0 + ((i * 53) % 11) as f64;
                (b, a)
            })
            .collect();
        let d1 = bootstrap_quantile_diff(&pairs, 0.5, BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED).unwrap();
        let d2 = bootstrap_quantile_diff(&pairs, 0.5, BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED).unwrap();
        assert_eq!(d1, d2);
        assert!(d1.ci_low <= 0.0 && d1.ci_high >= 0.0, "{d1:?}");
        assert!(!d1.significant());
        assert_eq!(bootstrap_quantile_diff(&[], 0.5, 10, 1), None);
        // no resample, no interval (nor a quantile of nothing)
        assert_eq!(bootstrap_quantile_diff(&pairs, 0.5, 0, 1), None);
    }

    // The values below come from `python3 scripts/stats_reference.py`, an implementation
    // written apart from this file (exact fractions for McNemar; the published SplitMix64
    // test vector).

    #[test]
    fn reference_splitmix64_is_the_published_sequence() {
        let mut rng = SplitMix64(1_234_567);
        let drawn: Vec<u64> = (0..5).map(|_| rng.next_u64()).collect();
        assert_eq!(
            drawn,
            [
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423,
                4_593_380_528_125_082_431,
                16_408_922_859_458_223_821
            ]
        );
        let mut rng = SplitMix64(1_234_567);
        let below: Vec<u64> = (0..10).map(|_| rng.below(10)).collect();
        assert_eq!(below, [3, 1, 5, 2, 8, 4, 5, 2, 4, 8]);
    }

    #[test]
    fn reference_mcnemar_p_values_are_the_exact_fractions() {
        assert!(close(mcnemar_exact(3, 12), 9.0 / 256.0));
        assert!(close(mcnemar_exact(10, 21), 75_973_189.0 / 1_073_741_824.0));
        assert!((mcnemar_exact(40, 60) - 0.056_887_933_640_980_79).abs() < 1e-12);
        assert_eq!(mcnemar_exact(7, 7), 1.0);
        assert!(McNemar::new(3, 12).significant());
        assert!(!McNemar::new(40, 60).significant());
    }

    #[test]
    fn reference_bootstrap_intervals_are_the_reference_implementations() {
        let pairs: Vec<(f64, f64)> = (0..12)
            .map(|i| (10.0 + ((i * 7) % 5) as f64, 11.0 + ((i * 3) % 6) as f64))
            .collect();
        let d = bootstrap_quantile_diff(&pairs, 0.5, BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED).unwrap();
        assert!(close(d.diff, 0.5), "{d:?}");
        assert!(close(d.ci_low, -2.0) && close(d.ci_high, 3.0), "{d:?}");
        assert!(!d.significant());
        let d = bootstrap_quantile_diff(&pairs, 0.95, BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED).unwrap();
        assert!(close(d.diff, 0.0), "{d:?}");
        assert!(close(d.ci_low, 0.0) && close(d.ci_high, 1.55), "{d:?}");
        // an interval that touches 0 is not clear of it
        assert!(!d.significant());
    }

    #[test]
    fn reference_bootstrap_of_a_mean_difference_is_the_reference_implementations() {
        let rr = [
            (1.0, 1.0),
            (0.5, 1.0),
            (0.0, 0.5),
            (1.0, 0.5),
            (0.25, 1.0),
            (0.0, 0.0),
            (1.0, 1.0),
            (0.5, 0.5),
            (0.2, 1.0),
            (0.0, 1.0),
        ];
        let d = bootstrap_mean_diff(&rr, BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED).unwrap();
        assert!(close(d.diff, 0.305), "{d:?}");
        assert!(close(d.ci_low, 0.0) && close(d.ci_high, 0.58), "{d:?}");
        // an interval that touches 0 is not clear of it
        assert!(!d.significant());
        // every case gains 0.5: every resample's mean is 0.5
        let shifted: Vec<(f64, f64)> = (0..30)
            .map(|i| (i as f64 / 30.0, i as f64 / 30.0 + 0.5))
            .collect();
        let d = bootstrap_mean_diff(&shifted, 500, 3).unwrap();
        assert!(
            close(d.ci_low, 0.5) && close(d.ci_high, 0.5) && d.significant(),
            "{d:?}"
        );
        assert_eq!(bootstrap_mean_diff(&[], 10, 1), None);
        assert_eq!(bootstrap_mean_diff(&rr, 0, 1), None);
    }

    /// A unit draw is the top 53 bits of the next draw over 2^53: the published sequence's
    /// first two values, shifted by hand (6457827717110365317 >> 11 = 3153236189995295).
    #[test]
    fn reference_a_unit_draw_is_the_top_53_bits() {
        let mut rng = SplitMix64(1_234_567);
        assert_eq!(rng.unit(), 0.350_079_542_021_408_1);
        assert_eq!(rng.unit(), 0.173_644_096_670_912_63);
    }

    #[test]
    fn p_values_print_with_four_decimals_or_scientific_below_a_ten_thousandth() {
        assert_eq!(fmt_p(0.05), "0.0500");
        assert_eq!(fmt_p(1.0), "1.0000");
        assert_eq!(fmt_p(0.0001), "0.0001");
        assert_eq!(fmt_p(0.000_099_9), "1.0e-4");
        assert_eq!(fmt_p(0.000_012_34), "1.2e-5");
    }

    /// A mean difference is clear of noise when its interval lies wholly on one side of 0:
    /// a loss as much as a gain; an interval ending at 0 touches it.
    #[test]
    fn a_mean_difference_is_significant_on_either_side_of_zero_only() {
        let interval = |ci_low: f64, ci_high: f64| MeanDiff {
            diff: (ci_low + ci_high) / 2.0,
            ci_low,
            ci_high,
            resamples: 1,
        };
        assert!(interval(0.1, 0.5).significant());
        assert!(interval(-0.5, -0.1).significant());
        assert!(!interval(-0.5, 0.0).significant());
        assert!(!interval(0.0, 0.5).significant());
        assert!(!interval(-0.5, 0.5).significant());
        assert!(!interval(0.0, 0.0).significant());
        // every case loses 0.25: every resample's mean is -0.25
        let lost: Vec<(f64, f64)> = (0..20)
            .map(|i| (i as f64 / 20.0 + 0.25, i as f64 / 20.0))
            .collect();
        let d = bootstrap_mean_diff(&lost, 200, 5).unwrap();
        assert!(close(d.diff, -0.25) && close(d.ci_low, -0.25) && close(d.ci_high, -0.25));
        assert!(d.significant());
    }

    #[test]
    fn a_quantile_difference_is_significant_on_either_side_of_zero_only() {
        let interval = |ci_low: f64, ci_high: f64| QuantileDiff {
            q: 0.5,
            before: 0.0,
            after: 0.0,
            diff: 0.0,
            ci_low,
            ci_high,
            resamples: 1,
        };
        assert!(interval(0.1, 0.5).significant());
        assert!(interval(-0.5, -0.1).significant());
        assert!(!interval(-0.5, 0.0).significant());
        assert!(!interval(0.0, 0.5).significant());
        assert!(!interval(0.0, 0.0).significant());
    }
}
