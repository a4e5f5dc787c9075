//! A latency histogram on a log scale with the stated budget as a vertical line.

use super::palette::{AFTER, BUDGET};
use crate::report::escape::esc;
use std::fmt::Write;

/// A latency histogram on a log scale (bins of a fifth of a decade), with the budget as a
/// vertical line when one is stated.
/// `budget_metric` is the budget's path in results.json, when it is there.
pub fn latency_histogram(
    latencies_ms: &[f64],
    budget_ms: Option<f64>,
    budget_metric: Option<&str>,
    caption: &str,
) -> String {
    let (w, h, left, right, top, bottom) = (900.0, 260.0, 48.0, 36.0, 28.0, 44.0);
    let values: Vec<f64> = latencies_ms.iter().map(|v| v.max(0.001)).collect();
    // the decades the values and the budget span (0.1 to 1 ms when there is neither)
    let shown = || values.iter().copied().chain(budget_ms);
    let lo = shown().fold(f64::INFINITY, f64::min);
    let lo = if lo.is_finite() {
        lo.log10().floor()
    } else {
        -1.0
    };
    let hi = shown().fold(f64::NEG_INFINITY, f64::max);
    let mut hi = if hi.is_finite() {
        hi.log10().ceil()
    } else {
        0.0
    }
    .max(lo + 1.0);
    // the budget line and its label stay inside the plot, not on its right edge
    if budget_ms.is_some_and(|b| b.max(0.001).log10() > hi - 0.5) {
        hi += 1.0;
    }
    const PER_DECADE: f64 = 5.0;
    let bins = ((hi - lo) * PER_DECADE).round() as usize;
    let mut counts = vec![0usize; bins];
    for v in &values {
        let i = ((v.log10() - lo) * PER_DECADE).floor() as isize;
        counts[i.clamp(0, bins as isize - 1) as usize] += 1;
    }
    let max = counts.iter().copied().max().unwrap_or(0).max(1) as f64;
    let plot_w = w - left - right;
    let plot_h = h - top - bottom;
    let x_of = |log: f64| left + (log - lo) / (hi - lo) * plot_w;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-label=\"{}\">\n",
        esc(caption)
    );
    // grid and y axis: count ticks
    for frac in [0.25, 0.5, 0.75, 1.0] {
        let y = top + plot_h * (1.0 - frac);
        let _ = writeln!(
            s,
            "<line class=\"grid\" x1=\"{left}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            w - right,
            left - 6.0,
            y + 4.0,
            (max * frac).round()
        );
    }
    let bar_w = plot_w / bins as f64;
    for (i, c) in counts.iter().enumerate() {
        if *c == 0 {
            continue;
        }
        let bh = *c as f64 / max * plot_h;
        let x = left + i as f64 * bar_w;
        let y = top + plot_h - bh;
        let _ = writeln!(
            s,
            "<rect x=\"{:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{bh:.1}\" fill=\"{AFTER}\" data-count=\"{c}\"><title>{c} cases</title></rect><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{c}</text>",
            x + 1.0,
            (bar_w - 2.0).max(1.0),
            x + bar_w / 2.0,
            y - 4.0
        );
    }
    // x axis: decades
    let _ = writeln!(
        s,
        "<line class=\"axis\" x1=\"{left}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/>",
        top + plot_h,
        w - right,
        top + plot_h
    );
    let mut d = lo;
    while d <= hi + 1e-9 {
        let x = x_of(d);
        let label = fmt_ms(10f64.powf(d));
        let _ = writeln!(
            s,
            "<line class=\"axis\" x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\"/><text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{label} ms</text>",
            top + plot_h,
            top + plot_h + 5.0,
            top + plot_h + 19.0
        );
        d += 1.0;
    }
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">latency per case (log scale)</text>",
        left + plot_w / 2.0,
        h - 6.0
    );
    // the budget, when one is stated
    let Some(budget_ms) = budget_ms else {
        s.push_str("</svg>\n");
        return s;
    };
    let bx = x_of(budget_ms.max(0.001).log10());
    let _ = writeln!(
        s,
        "<line x1=\"{bx:.1}\" y1=\"{:.1}\" x2=\"{bx:.1}\" y2=\"{:.1}\" stroke=\"{BUDGET}\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" style=\"fill:{BUDGET}\"{}>p95 budget {} ms</text>",
        top - 6.0,
        top + plot_h,
        bx - 4.0,
        top + 8.0,
        budget_metric
            .map(|m| format!(" data-metric=\"{}\" data-value=\"{budget_ms}\"", esc(m)))
            .unwrap_or_default(),
        fmt_ms(budget_ms)
    );
    s.push_str("</svg>\n");
    s
}

fn fmt_ms(v: f64) -> String {
    if v >= 1.0 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').to_string()
    }
}
