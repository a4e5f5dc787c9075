//! Horizontal bars of rates (0–100%), a group of bars per row.

use super::legend::legend_html;
use super::palette::Bar;
use crate::report::escape::esc;
use crate::report::numbers::pct;
use std::fmt::Write;

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
