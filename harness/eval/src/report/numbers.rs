//! How reports write numbers for people: rates as percentages, changes signed.

/// `0.968` as `96.8%`.
pub fn pct(rate: f64) -> String {
    format!("{:.1}%", rate * 100.0)
}

/// A summary metric for people: rates as percentages, whole numbers as integers, others to
/// three decimals; `–` when absent.
pub fn fmt_value(name: &str, v: Option<f64>) -> String {
    match v {
        None => "–".into(),
        Some(v) if is_rate(name) => format!("{:.1}%", v * 100.0),
        Some(v) if v.fract() == 0.0 && v.abs() < 1e15 => format!("{}", v as i64),
        Some(v) => format!("{v:.3}"),
    }
}

/// A change of a summary metric: rates in percentage points, signed.
pub fn fmt_delta(name: &str, d: Option<f64>) -> String {
    match d {
        None => "–".into(),
        Some(d) if is_rate(name) => format!("{:+.1} pts", d * 100.0),
        Some(d) if d.fract() == 0.0 && d.abs() < 1e15 => format!("{:+}", d as i64),
        Some(d) => format!("{d:+.3}"),
    }
}

fn is_rate(name: &str) -> bool {
    name.ends_with("rate") || name.ends_with("_pct_fraction")
}
