//! The charts of report.html, as inline SVG built by hand: a latency histogram on a log
//! scale with the budget as a line, horizontal rate bars (0–100%) and grouped count bars.
//! A few rectangles, lines and text labels each; every drawn number carries `data-metric`
//! and `data-value` like the page's tables.

use super::escape::esc;
use super::numbers::pct;
use std::fmt::Write;

/// One bar: its value, colour and the results.json path of the value.
pub(crate) type Bar = (f64, &'static str, String);

/// A labelled group of bars.
pub(crate) type BarGroup = (String, Vec<Bar>);

pub(crate) const PASS: &str = "#2f8f4e";
pub(crate) const IE: &str = "#e08a1e";
pub(crate) const FAIL: &str = "#c23b33";
pub(crate) const BEFORE: &str = "#8a93a3";
pub(crate) const AFTER: &str = "#2f6fbf";
pub(crate) const BUDGET: &str = "#c23b33";

/// A latency histogram on a log scale (bins of a fifth of a decade), with the budget as a
/// vertical line.
/// `budget_metric` is the budget's path in results.json, when it is there.
pub fn latency_histogram(
    latencies_ms: &[f64],
    budget_ms: f64,
    budget_metric: Option<&str>,
    caption: &str,
) -> String {
    let (w, h, left, right, top, bottom) = (900.0, 260.0, 48.0, 36.0, 28.0, 44.0);
    let values: Vec<f64> = latencies_ms.iter().map(|v| v.max(0.001)).collect();
    let lo = values
        .iter()
        .cloned()
        .fold(budget_ms, f64::min)
        .log10()
        .floor();
    let mut hi = values
        .iter()
        .cloned()
        .fold(budget_ms, f64::max)
        .log10()
        .ceil()
        .max(lo + 1.0);
    // the budget line and its label stay inside the plot, not on its right edge
    if budget_ms.max(0.001).log10() > hi - 0.5 {
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
    // the budget
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

/// One labelled row of horizontal bars (values 0..1 as percentages).
pub(crate) struct RateRow {
    pub label: String,
    pub bars: Vec<Bar>,
}

/// Horizontal bars of rates (0–100%), a group of bars per row.
pub(crate) fn rate_bars(rows: &[RateRow], legend: &[(&str, &str)], caption: &str) -> String {
    let label_w = 230.0;
    let (w, right, top) = (900.0, 70.0, 10.0);
    let bar_h = 14.0;
    let per_row = rows.iter().map(|r| r.bars.len()).max().unwrap_or(1) as f64 * bar_h + 12.0;
    let h = top + rows.len() as f64 * per_row + 30.0;
    let plot_w = w - label_w - right;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h:.0}\" width=\"{w}\" height=\"{h:.0}\" role=\"img\" aria-label=\"{}\">\n",
        esc(caption)
    );
    for frac in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let x = label_w + frac * plot_w;
        let _ = writeln!(
            s,
            "<line class=\"grid\" x1=\"{x:.1}\" y1=\"{top}\" x2=\"{x:.1}\" y2=\"{:.1}\"/><text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{:.0}%</text>",
            h - 24.0,
            h - 8.0,
            frac * 100.0
        );
    }
    for (i, row) in rows.iter().enumerate() {
        let y0 = top + i as f64 * per_row + 4.0;
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            label_w - 8.0,
            y0 + row.bars.len() as f64 * bar_h / 2.0 + 4.0,
            esc(&row.label)
        );
        for (j, (value, color, metric)) in row.bars.iter().enumerate() {
            let y = y0 + j as f64 * bar_h;
            let bw = value.clamp(0.0, 1.0) * plot_w;
            let _ = writeln!(
                s,
                "<rect x=\"{label_w}\" y=\"{y:.1}\" width=\"{bw:.1}\" height=\"{:.1}\" fill=\"{color}\"/><text x=\"{:.1}\" y=\"{:.1}\" data-metric=\"{}\" data-value=\"{value}\">{}</text>",
                bar_h - 2.0,
                label_w + bw + 4.0,
                y + bar_h - 4.0,
                esc(metric),
                pct(*value)
            );
        }
    }
    s.push_str("</svg>\n");
    s + &legend_html(legend)
}

fn legend_html(legend: &[(&str, &str)]) -> String {
    let mut s = String::from("<p class=\"legend\">");
    for (color, label) in legend {
        let _ = write!(
            s,
            "<span class=\"swatch\" style=\"background:{color}\"></span>{}",
            esc(label)
        );
    }
    s.push_str("</p>\n");
    s
}

/// Vertical grouped bars of counts.
pub(crate) fn count_bars(
    groups: &[(String, Vec<Bar>)],
    legend: &[(&str, &str)],
    caption: &str,
    per_group_scale: bool,
) -> String {
    let (w, h, left, right, top, bottom) = (900.0, 240.0, 48.0, 20.0, 24.0, 36.0);
    // counts of one kind share a scale; quantiles of different size each get their own
    let global = groups
        .iter()
        .flat_map(|(_, b)| b.iter().map(|(v, _, _)| *v))
        .fold(1.0, f64::max);
    let plot_w = w - left - right;
    let plot_h = h - top - bottom;
    let group_w = plot_w / groups.len().max(1) as f64;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-label=\"{}\">\n",
        esc(caption)
    );
    let _ = writeln!(
        s,
        "<line class=\"axis\" x1=\"{left}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/>",
        top + plot_h,
        w - right,
        top + plot_h
    );
    for (g, (label, bars)) in groups.iter().enumerate() {
        let gx = left + g as f64 * group_w;
        let bw = (group_w * 0.7) / bars.len().max(1) as f64;
        let max = if per_group_scale {
            bars.iter()
                .map(|(v, _, _)| *v)
                .fold(f64::MIN_POSITIVE, f64::max)
        } else {
            global
        };
        for (j, (value, color, metric)) in bars.iter().enumerate() {
            let bh = value / max * plot_h;
            let x = gx + group_w * 0.15 + j as f64 * bw;
            let y = top + plot_h - bh;
            let _ = writeln!(
                s,
                "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{bh:.1}\" fill=\"{color}\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" data-metric=\"{}\" data-value=\"{value}\">{value}</text>",
                bw - 3.0,
                x + (bw - 3.0) / 2.0,
                y - 4.0,
                esc(metric)
            );
        }
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            gx + group_w / 2.0,
            h - 12.0,
            esc(label)
        );
    }
    s.push_str("</svg>\n");
    s + &legend_html(legend)
}
