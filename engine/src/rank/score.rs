//! Scores as reported.

/// A score rounded to three decimals, the precision answers report (so ties a reader sees
/// are ties the order breaks).
pub fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}
