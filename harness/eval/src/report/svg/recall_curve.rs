//! Recall against the context budget: one line per series (the pooled run, each engine, or
//! findbench beside the agent), the share of judged cases whose first expected key is
//! within 1, 2, 4 and 8 KB of the answer, on a doubling budget axis.

use super::legend::legend_html;
use crate::metrics::recall::BUDGETS;
use crate::report::escape::esc;
use crate::report::numbers::pct;
use std::fmt::Write;

/// One line of the chart: its label and colour, its four values (in
/// [`BUDGETS`] order) and the results.json path they are under (`summary.rank`: each point
/// is `summary.rank.recall_at_1kb` ...).
pub(crate) struct RecallSeries {
    pub label: String,
    pub color: &'static str,
    pub values: [f64; 4],
    pub metric: String,
}

/// The chart, with its legend under it.
pub(crate) fn recall_curve(series: &[RecallSeries], caption: &str) -> String {
    let (w, h, left, right, top, bottom) = (900.0, 260.0, 56.0, 36.0, 16.0, 44.0);
    let plot_w = w - left - right;
    let plot_h = h - top - bottom;
    let x_of = |i: usize| left + plot_w * i as f64 / (BUDGETS.len() - 1) as f64;
    let y_of = |v: f64| top + plot_h * (1.0 - v.clamp(0.0, 1.0));
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-label=\"{}\">\n",
        esc(caption)
    );
    for frac in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let y = y_of(frac);
        let _ = writeln!(
            s,
            "<line class=\"grid\" x1=\"{left}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{:.0}%</text>",
            w - right,
            left - 6.0,
            y + 4.0,
            frac * 100.0
        );
    }
    for (i, (name, _)) in BUDGETS.iter().enumerate() {
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">≤ {}</text>",
            x_of(i),
            h - bottom + 18.0,
            name.replace("kb", " KB")
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">bytes of the answer read (the context budget)</text>",
        left + plot_w / 2.0,
        h - 6.0
    );
    for line in series {
        let points: Vec<String> = line
            .values
            .iter()
            .enumerate()
            .map(|(i, v)| format!("{:.1},{:.1}", x_of(i), y_of(*v)))
            .collect();
        let _ = writeln!(
            s,
            "<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>",
            line.color,
            points.join(" ")
        );
        for (i, v) in line.values.iter().enumerate() {
            let _ = writeln!(
                s,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.5\" fill=\"{}\" data-metric=\"{}.recall_at_{}\" data-value=\"{v}\"><title>{}</title></circle>",
                x_of(i),
                y_of(*v),
                line.color,
                esc(&line.metric),
                BUDGETS[i].0,
                pct(*v)
            );
        }
    }
    s.push_str("</svg>\n");
    let legend: Vec<(&str, &str)> = series.iter().map(|l| (l.color, l.label.as_str())).collect();
    s + &legend_html(&legend)
}
