//! Vertical grouped bars of counts.

use super::legend::legend_html;
use super::palette::Bar;
use crate::report::escape::esc;
use std::fmt::Write;

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
