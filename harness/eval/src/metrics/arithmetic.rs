//! The arithmetic every metric family shares: rates, means and medians, rounded as the
//! reports show them.

/// `part / total`, 0 when total is 0, rounded to 4 decimals.
pub fn rate(part: usize, total: usize) -> f64 {
    if total == 0 {
        0.0
    } else {
        round(part as f64 / total as f64, 4)
    }
}

/// Mean, 0 for nothing.
pub fn mean(values: impl IntoIterator<Item = f64>) -> f64 {
    let (sum, n) = values
        .into_iter()
        .fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

/// Median (mean of the two middle values for an even count), 0 for nothing.
pub fn median(mut values: Vec<f64>) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

pub fn round(x: f64, decimals: i32) -> f64 {
    let p = 10f64.powi(decimals);
    (x * p).round() / p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_median() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(vec![]), 0.0);
        assert_eq!(mean([1.0, 2.0, 6.0]), 3.0);
        assert_eq!(rate(1, 3), 0.3333);
        assert_eq!(rate(0, 0), 0.0);
    }

    /// Values worked by hand: the middle of five unsorted values, the mean of the middle
    /// two of six, rounding half away from zero.
    #[test]
    fn worked_values() {
        assert_eq!(median(vec![9.0, -1.0, 4.0, 7.0, 2.0]), 4.0);
        assert_eq!(median(vec![6.0, 1.0, 5.0, 2.0, 4.0, 3.0]), 3.5);
        assert_eq!(median(vec![-3.0]), -3.0);
        assert_eq!(mean([]), 0.0);
        assert_eq!(mean([-2.0, 5.0]), 1.5);
        assert_eq!(rate(2, 3), 0.6667);
        assert_eq!(rate(3, 3), 1.0);
        assert_eq!(rate(5, 8), 0.625);
        assert_eq!(round(2.345_67, 2), 2.35);
        assert_eq!(round(-2.345_67, 3), -2.346);
        assert_eq!(round(1234.5, 0), 1235.0);
        assert_eq!(round(0.000_04, 4), 0.0);
    }
}
