//! report.html of a compare: the headline, rates before and after, McNemar flips, latency
//! by paired bootstrap, the failure clusters that moved and the cases that flipped.

use super::elements::html_table;
use super::page::page;
use crate::compare::{ChangeKind, Comparison};
use crate::report::console::compare_headline;
use crate::report::escape::esc;
use crate::report::numbers::{fmt_delta, fmt_value};
use crate::report::svg::count_bars::count_bars;
use crate::report::svg::palette::{BarGroup, AFTER, BEFORE};
use crate::report::svg::rate_bars::{rate_bars, RateRow};
use crate::report::table::Align;
use std::fmt::Write;

/// Red for a change beyond the noise in the wrong direction, green in the right one.
fn verdict_class(verdict: &str, better: bool) -> &'static str {
    match (verdict.contains("larger than noise"), better) {
        (false, _) => "",
        (true, true) => "verdict-good",
        (true, false) => "verdict-bad",
    }
}

/// Whether a rise of this summary metric is good (pass, success, hits) or bad (the other
/// rates: insufficient evidence, failure, no match, zero candidates).
fn higher_is_better(name: &str) -> bool {
    let leaf = name.rsplit('.').next().unwrap_or(name);
    leaf.starts_with("pass")
        || leaf.starts_with("success")
        || leaf.starts_with("hit")
        || leaf == "mrr"
}

/// report.html of a compare.
pub(super) fn compare(c: &Comparison) -> String {
    let mut b = String::new();
    b.push_str("<section>\n<h2>Headline</h2>\n<ul>\n");
    // the cluster moves are a table below, not a list here
    for line in compare_headline(c)
        .lines()
        .filter(|l| !l.contains(" cluster: "))
    {
        let _ = writeln!(b, "<li>{}</li>", esc(line));
    }
    b.push_str("</ul>\n</section>\n");

    b.push_str("<section>\n<h2>Rates before and after</h2>\n");
    let rates: Vec<RateRow> = c
        .metrics
        .iter()
        .filter(|m| !m.name.contains('.') && m.name.ends_with("rate"))
        .map(|m| RateRow {
            label: m.name.clone(),
            bars: vec![
                (
                    m.before.unwrap_or(0.0),
                    BEFORE,
                    format!("before.summary.{}", m.name),
                ),
                (
                    m.after.unwrap_or(0.0),
                    AFTER,
                    format!("after.summary.{}", m.name),
                ),
            ],
        })
        .collect();
    b.push_str(&rate_bars(
        &rates,
        &[(BEFORE, "before"), (AFTER, "after")],
        "rates before and after",
    ));
    let rows: Vec<Vec<String>> = c
        .metrics
        .iter()
        .filter(|m| !m.name.contains('.') && m.name.ends_with("rate"))
        .map(|m| {
            vec![
                esc(&m.name),
                esc(&fmt_value(&m.name, m.before)),
                esc(&fmt_value(&m.name, m.after)),
                esc(&fmt_delta(&m.name, m.delta)),
                format!(
                    "<span class=\"{}\">{}</span>",
                    verdict_class(
                        &m.verdict,
                        (m.delta.unwrap_or(0.0) > 0.0) == higher_is_better(&m.name)
                    ),
                    esc(&m.verdict)
                ),
            ]
        })
        .collect();
    b.push_str(&html_table(
        &[
            ("metric", Align::Left),
            ("before", Align::Right),
            ("after", Align::Right),
            ("delta", Align::Right),
            ("noise verdict", Align::Left),
        ],
        &rows,
        false,
    ));
    b.push_str("</section>\n");

    b.push_str("<section>\n<h2>Flips (exact McNemar on paired cases)</h2>\n");
    let rows: Vec<Vec<String>> = c
        .flips
        .iter()
        .map(|f| {
            vec![
                esc(&f.property),
                f.worsened.to_string(),
                f.improved.to_string(),
                esc(&crate::compare::fmt_p(f.p_value)),
                format!(
                    "<span class=\"{}\">{}</span>",
                    verdict_class(&f.verdict, f.improved > f.worsened),
                    esc(&f.verdict)
                ),
            ]
        })
        .collect();
    b.push_str(&html_table(
        &[
            ("property", Align::Left),
            ("worsened", Align::Right),
            ("improved", Align::Right),
            ("p-value", Align::Right),
            ("verdict", Align::Left),
        ],
        &rows,
        false,
    ));
    b.push_str("</section>\n");

    if !c.latency.is_empty() {
        b.push_str("<section>\n<h2>Latency before and after (paired bootstrap)</h2>\n");
        if let Some(note) = &c.latency_note {
            let _ = writeln!(b, "<p><em>{}</em></p>", esc(note));
        }
        let groups: Vec<BarGroup> = c
            .latency
            .iter()
            .map(|l| {
                (
                    format!("{} ms: {}", l.quantile, l.verdict),
                    vec![
                        (
                            round3(l.before_ms),
                            BEFORE,
                            format!("latency.{}.before_ms", l.quantile),
                        ),
                        (
                            round3(l.after_ms),
                            AFTER,
                            format!("latency.{}.after_ms", l.quantile),
                        ),
                    ],
                )
            })
            .collect();
        b.push_str(&count_bars(
            &groups,
            &[(BEFORE, "before"), (AFTER, "after")],
            "latency before and after",
            true,
        ));
        b.push_str(
            "<p class=\"legend\">Each quantile is drawn on its own scale; the labels are milliseconds.</p>\n",
        );
        b.push_str("</section>\n");
    }

    if !c.clusters.is_empty() {
        b.push_str("<section>\n<h2>Failure clusters that moved</h2>\n");
        const SHOWN: usize = 15;
        let rows: Vec<Vec<String>> = c
            .clusters
            .iter()
            .take(SHOWN)
            .map(|k| {
                vec![
                    esc(k.kind.as_str()),
                    esc(&k.question),
                    k.cases.to_string(),
                    esc(&k.before),
                    esc(&k.after),
                ]
            })
            .collect();
        b.push_str(&html_table(
            &[
                ("change", Align::Left),
                ("question", Align::Left),
                ("cases", Align::Right),
                ("before", Align::Left),
                ("after", Align::Left),
            ],
            &rows,
            false,
        ));
        if c.clusters.len() > SHOWN {
            let _ = writeln!(
                b,
                "<p>… and {} more in the markdown report.</p>",
                c.clusters.len() - SHOWN
            );
        }
        b.push_str("</section>\n");
    }

    b.push_str("<section>\n<h2>Cases that flipped</h2>\n");
    if c.changes.is_empty() {
        b.push_str("<p>None.</p>\n");
    } else {
        let rows: Vec<Vec<String>> = c
            .changes
            .iter()
            .map(|x| {
                let kind = match x.kind {
                    ChangeKind::Regression => {
                        "<span class=\"verdict-bad\">regression</span>".to_string()
                    }
                    ChangeKind::Fixed => "<span class=\"verdict-good\">fixed</span>".to_string(),
                    k => esc(k.as_str()),
                };
                vec![
                    kind,
                    esc(&x.label()),
                    esc(x.query.as_deref().unwrap_or("")),
                    esc(x.before.as_deref().unwrap_or("–")),
                    esc(x.after.as_deref().unwrap_or("–")),
                ]
            })
            .collect();
        b.push_str(&html_table(
            &[
                ("change", Align::Left),
                ("case", Align::Left),
                ("question", Align::Left),
                ("before", Align::Left),
                ("after", Align::Left),
            ],
            &rows,
            false,
        ));
    }
    b.push_str("</section>\n");
    let meta = format!(
        "before: {} ({}) · after: {} ({}) · {} paired cases",
        c.before_path, c.before_label, c.after_path, c.after_label, c.paired_cases
    );
    page("findbench release report", &meta, &b)
}

fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}
