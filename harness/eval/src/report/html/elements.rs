//! The pieces every section of report.html is built from: a number that carries its
//! results.json path, a headline figure, a table.

use crate::report::escape::esc;
use crate::report::table::Align;
use std::fmt::Write;

/// A number with its results.json path.
pub(super) fn num(metric: &str, value: f64, shown: &str) -> String {
    format!(
        "<span data-metric=\"{}\" data-value=\"{value}\">{}</span>",
        esc(metric),
        esc(shown)
    )
}

pub(super) fn stat(class: &str, label: &str, metric: &str, value: f64, shown: &str) -> String {
    format!(
        "<div class=\"stat {class}\"><b>{}</b><span class=\"label\">{}</span></div>",
        num(metric, value, shown),
        esc(label)
    )
}

/// An HTML table from a [`Table`]-like header and rows of (already escaped) cells.
pub(super) fn html_table(
    header: &[(&str, Align)],
    rows: &[Vec<String>],
    total_last: bool,
) -> String {
    let mut t = String::from("<table>\n<thead><tr>");
    for (h, _) in header {
        let _ = write!(t, "<th>{}</th>", esc(h));
    }
    t.push_str("</tr></thead>\n<tbody>\n");
    for (i, row) in rows.iter().enumerate() {
        let class = if total_last && i + 1 == rows.len() {
            " class=\"total\""
        } else {
            ""
        };
        let _ = write!(t, "<tr{class}>");
        for (cell, (_, a)) in row.iter().zip(header) {
            let class = if *a == Align::Right {
                " class=\"n\""
            } else {
                ""
            };
            let _ = write!(t, "<td{class}>{cell}</td>");
        }
        t.push_str("</tr>\n");
    }
    t.push_str("</tbody>\n</table>\n");
    t
}

/// The ranking within a context budget ([`crate::report::ranking`]) as a table, every
/// measured cell carrying its results.json path.
pub(super) fn ranking_table(header: &[String], rows: &[crate::report::ranking::Row]) -> String {
    let columns: Vec<(&str, Align)> = header
        .iter()
        .enumerate()
        .map(|(i, h)| (h.as_str(), if i == 0 { Align::Left } else { Align::Right }))
        .collect();
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            std::iter::once(esc(&r.label))
                .chain(r.cells.iter().map(|c| match c.value {
                    Some(v) => num(&c.metric, v, &c.shown),
                    None => esc(&c.shown),
                }))
                .collect()
        })
        .collect();
    html_table(&columns, &cells, false)
}

/// The recall chart and table of a run or replay, as a section.
pub(super) fn ranking_section(
    header: &[String],
    rows: &[crate::report::ranking::Row],
    series: &[crate::report::svg::recall_curve::RecallSeries],
    about: &str,
) -> String {
    let mut b = String::from("<section>\n<h2>Recall within a context budget</h2>\n");
    b.push_str(&crate::report::svg::recall_curve::recall_curve(
        series,
        "recall against the context budget",
    ));
    b.push_str(&ranking_table(header, rows));
    let _ = writeln!(b, "<p>{}</p>\n</section>", esc(about));
    b
}
