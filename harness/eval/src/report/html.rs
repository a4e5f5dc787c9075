//! `report.html`: the page a person looks at, for a run, a replay and a compare. One
//! self-contained, XHTML-compatible file: inline CSS and the hand-built inline SVG charts of
//! [`super::svg`] (no chart library, no script, no font or image fetched from anywhere),
//! readable with JavaScript off and printed.
//!
//! Every number drawn from the results carries `data-metric` (its path in results.json,
//! e.g. `suites.names.pass_rate`) and `data-value` (the number itself), so a test can hold
//! the page to results.json.

use super::escape::esc;
use super::exporter::{Exporter, ReportContext};
use super::numbers::{fmt_delta, fmt_value, pct};
use super::svg::{
    count_bars, latency_histogram, rate_bars, BarGroup, RateRow, AFTER, BEFORE, FAIL, IE, PASS,
};
use super::table::Align;
use crate::compare::{ChangeKind, Comparison};
use crate::error::Result;
use crate::metrics::GroupMetrics;
use crate::replay_summary::ReplaySummary;
use crate::results::RunResults;
use std::fmt::Write;

pub struct ReportHtml;

impl Exporter for ReportHtml {
    fn file_name(&self) -> &'static str {
        "report.html"
    }

    fn render(&self, run: &RunResults, context: &ReportContext<'_>) -> Result<Vec<u8>> {
        Ok(self::run(run, context).into_bytes())
    }
}

const STYLE: &str = r#"
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: #1d2330; background: #fff; margin: 2rem auto; max-width: 1100px; padding: 0 1.5rem; }
h1 { font-size: 1.6rem; margin: 0 0 .3rem; }
h2 { font-size: 1.15rem; margin: 2rem 0 .6rem; padding-bottom: .25rem; border-bottom: 1px solid #d7dbe3; }
p.meta { color: #555e6e; margin: 0 0 1rem; }
.headline { display: flex; flex-wrap: wrap; gap: .8rem; margin: 1rem 0; }
.stat { border: 1px solid #d7dbe3; border-radius: 6px; padding: .5rem .9rem; min-width: 8rem; }
.stat b { display: block; font-size: 1.5rem; }
.stat .label { color: #555e6e; font-size: .85rem; }
.bad b { color: #b3261e; } .good b { color: #1e7b34; }
table { border-collapse: collapse; margin: .4rem 0 1rem; font-size: .9rem; }
th, td { border: 1px solid #d7dbe3; padding: .25rem .55rem; text-align: left; vertical-align: top; }
th { background: #f2f4f8; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.total td { font-weight: 600; }
svg { display: block; max-width: 100%; height: auto; margin: .4rem 0 1rem; }
svg text { font: 12px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; fill: #1d2330; }
svg .axis { stroke: #8a93a3; stroke-width: 1; }
svg .grid { stroke: #e3e6ec; stroke-width: 1; }
.legend { font-size: .85rem; color: #555e6e; }
.swatch { display: inline-block; width: .8em; height: .8em; margin: 0 .3em 0 .8em; vertical-align: -.05em; }
.verdict-bad { color: #b3261e; font-weight: 600; } .verdict-good { color: #1e7b34; font-weight: 600; }
@media print { body { margin: 0; max-width: none; } section { break-inside: avoid; } h2 { break-after: avoid; } }
"#;

fn page(title: &str, meta: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n<p class=\"meta\">{}</p>\n{body}</body>\n</html>\n",
        esc(title),
        esc(title),
        esc(meta)
    )
}

/// A number with its results.json path.
fn num(metric: &str, value: f64, shown: &str) -> String {
    format!(
        "<span data-metric=\"{}\" data-value=\"{value}\">{}</span>",
        esc(metric),
        esc(shown)
    )
}

fn stat(class: &str, label: &str, metric: &str, value: f64, shown: &str) -> String {
    format!(
        "<div class=\"stat {class}\"><b>{}</b><span class=\"label\">{}</span></div>",
        num(metric, value, shown),
        esc(label)
    )
}

/// An HTML table from a [`Table`]-like header and rows of (already escaped) cells.
fn html_table(header: &[(&str, Align)], rows: &[Vec<String>], total_last: bool) -> String {
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

// ---------------------------------------------------------------- run

fn group_rows(run: &RunResults) -> Vec<(String, String, &GroupMetrics)> {
    let mut rows: Vec<(String, String, &GroupMetrics)> = run
        .suites
        .iter()
        .map(|(k, m)| (k.clone(), format!("suites.{k}"), m))
        .collect();
    rows.push(("all".into(), "summary".into(), &run.summary));
    rows
}

/// report.html of a run.
pub fn run(run: &RunResults, context: &ReportContext<'_>) -> String {
    let m = &run.summary;
    let mut b = String::new();
    b.push_str("<div class=\"headline\">");
    b.push_str(&stat(
        if m.failed > 0 { "bad" } else { "good" },
        &format!("passed of {} cases", m.total),
        "summary.pass_rate",
        m.pass_rate,
        &pct(m.pass_rate),
    ));
    b.push_str(&stat(
        if m.failed > 0 { "bad" } else { "" },
        "failed unexpectedly",
        "summary.failed",
        m.failed as f64,
        &m.failed.to_string(),
    ));
    b.push_str(&stat(
        "",
        "known failures (xfail)",
        "summary.xfail",
        m.xfail as f64,
        &m.xfail.to_string(),
    ));
    b.push_str(&stat(
        "",
        "insufficient evidence",
        "summary.insufficient_evidence_rate",
        m.insufficient_evidence_rate,
        &pct(m.insufficient_evidence_rate),
    ));
    b.push_str(&stat(
        if m.latency.within_budget { "" } else { "bad" },
        &format!("p95 latency (budget {} ms)", m.latency.budget_p95_ms),
        "summary.latency.p95_ms",
        m.latency.p95_ms,
        &format!("{:.1} ms", m.latency.p95_ms),
    ));
    b.push_str("</div>\n");

    b.push_str("<section>\n<h2>Pass rate and insufficient-evidence rate per suite</h2>\n");
    let rows: Vec<RateRow> = group_rows(run)
        .into_iter()
        .map(|(name, path, g)| RateRow {
            label: format!("{name} ({} cases)", g.total),
            bars: vec![
                (g.pass_rate, PASS, format!("{path}.pass_rate")),
                (
                    g.insufficient_evidence_rate,
                    IE,
                    format!("{path}.insufficient_evidence_rate"),
                ),
            ],
        })
        .collect();
    b.push_str(&rate_bars(
        &rows,
        &[(PASS, "pass rate"), (IE, "insufficient_evidence rate")],
        "pass and insufficient evidence rate per suite",
    ));
    b.push_str("</section>\n");

    b.push_str("<section>\n<h2>Summary per suite</h2>\n");
    let header = [
        ("suite", Align::Left),
        ("cases", Align::Right),
        ("passed", Align::Right),
        ("failed", Align::Right),
        ("xfail", Align::Right),
        ("pass rate", Align::Right),
        ("IE rate", Align::Right),
        ("hit@1", Align::Right),
        ("MRR", Align::Right),
        ("p95 ms", Align::Right),
        ("budget", Align::Left),
    ];
    let rows: Vec<Vec<String>> = group_rows(run)
        .into_iter()
        .map(|(name, path, g)| {
            vec![
                esc(&name),
                num(
                    &format!("{path}.total"),
                    g.total as f64,
                    &g.total.to_string(),
                ),
                num(
                    &format!("{path}.passed"),
                    g.passed as f64,
                    &(g.passed + g.xpass).to_string(),
                ),
                num(
                    &format!("{path}.failed"),
                    g.failed as f64,
                    &g.failed.to_string(),
                ),
                num(
                    &format!("{path}.xfail"),
                    g.xfail as f64,
                    &g.xfail.to_string(),
                ),
                num(&format!("{path}.pass_rate"), g.pass_rate, &pct(g.pass_rate)),
                num(
                    &format!("{path}.insufficient_evidence_rate"),
                    g.insufficient_evidence_rate,
                    &pct(g.insufficient_evidence_rate),
                ),
                if g.rank.judged > 0 {
                    num(
                        &format!("{path}.rank.hit_at_1"),
                        g.rank.hit_at_1,
                        &pct(g.rank.hit_at_1),
                    )
                } else {
                    "–".into()
                },
                if g.rank.judged > 0 {
                    num(
                        &format!("{path}.rank.mrr"),
                        g.rank.mrr,
                        &format!("{:.3}", g.rank.mrr),
                    )
                } else {
                    "–".into()
                },
                num(
                    &format!("{path}.latency.p95_ms"),
                    g.latency.p95_ms,
                    &format!("{:.3}", g.latency.p95_ms),
                ),
                if g.latency.within_budget {
                    "within".into()
                } else {
                    "<span class=\"verdict-bad\">over</span>".into()
                },
            ]
        })
        .collect();
    b.push_str(&html_table(&header, &rows, true));
    b.push_str("</section>\n");

    b.push_str("<section>\n<h2>Latency</h2>\n");
    let latencies: Vec<f64> = run.cases.iter().map(|c| c.duration_ms).collect();
    b.push_str(&latency_histogram(
        &latencies,
        m.latency.budget_p95_ms,
        Some("summary.latency.budget_p95_ms"),
        "latency histogram with the p95 budget",
    ));
    let _ = writeln!(
        b,
        "<p>p50 {} ms · p95 {} ms · p99 {} ms · max {} ms, one timed engine call per case, {} on {} {} ({} CPUs).</p>",
        num("summary.latency.p50_ms", m.latency.p50_ms, &format!("{:.3}", m.latency.p50_ms)),
        num("summary.latency.p95_ms", m.latency.p95_ms, &format!("{:.3}", m.latency.p95_ms)),
        num("summary.latency.p99_ms", m.latency.p99_ms, &format!("{:.3}", m.latency.p99_ms)),
        num("summary.latency.max_ms", m.latency.max_ms, &format!("{:.3}", m.latency.max_ms)),
        esc(run.build.as_deref().unwrap_or("unknown build")),
        esc(&run.machine.os),
        esc(&run.machine.arch),
        run.machine.cpus
    );
    b.push_str("</section>\n");

    let notable = super::rows::notable(run);
    if !notable.is_empty() {
        b.push_str("<section>\n<h2>Cases that did not simply pass</h2>\n");
        let rows: Vec<Vec<String>> = notable
            .iter()
            .map(|c| {
                vec![
                    esc(&c.status.as_str().to_uppercase()),
                    esc(&format!("{}/{}", c.suite, c.id)),
                    esc(&c.query),
                    esc(&c.outcome),
                    esc(c.reason.as_deref().unwrap_or("")),
                ]
            })
            .collect();
        b.push_str(&html_table(
            &[
                ("status", Align::Left),
                ("case", Align::Left),
                ("query", Align::Left),
                ("outcome", Align::Left),
                ("reason", Align::Left),
            ],
            &rows,
            false,
        ));
        b.push_str("</section>\n");
    }
    if let Some(d) = context.baseline {
        let _ = writeln!(
            b,
            "<section>\n<h2>Against baseline</h2>\n<p>Baseline <code>{}</code>: pass rate {} → {}; {} regressed, {} fixed.</p>\n</section>",
            esc(&d.path),
            pct(d.pass_rate_before),
            pct(d.pass_rate_after),
            d.regressed.len(),
            d.fixed.len()
        );
    }
    let meta = format!(
        "findbench {} · engine {} · profile {} · git {} · {} corpus file{}{}",
        run.findbench_version,
        run.engine_version,
        run.profile,
        run.git_revision
            .as_deref()
            .map_or("unknown", |r| &r[..r.len().min(12)]),
        run.corpora.len(),
        if run.corpora.len() == 1 { "" } else { "s" },
        run.shard
            .map(|s| format!(" · shard {s}"))
            .unwrap_or_default()
    );
    page("findbench run", &meta, &b)
}

// ---------------------------------------------------------------- replay

/// report.html of a replay; `latencies_ms` are the replayed cases' times.
pub fn replay(r: &ReplaySummary, latencies_ms: &[f64]) -> String {
    let mut b = String::new();
    let n = r.replayed;
    let rate = |k: &str| r.number(k);
    b.push_str("<div class=\"headline\">");
    b.push_str(&stat(
        "",
        "traces replayed",
        "summary.total",
        n as f64,
        &n.to_string(),
    ));
    for (label, key, class) in [
        (
            "recorded insufficient evidence",
            "recorded_insufficient_evidence_rate",
            "",
        ),
        (
            "replayed insufficient evidence",
            "insufficient_evidence_rate",
            "good",
        ),
        ("replayed success", "success_rate", ""),
    ] {
        b.push_str(&stat(
            class,
            label,
            &format!("summary.{key}"),
            rate(key),
            &pct(rate(key)),
        ));
    }
    for (label, key, class) in [
        ("fixed", "fixed", "good"),
        ("regressed", "regressed", "bad"),
    ] {
        let v = r.summary["transitions"][key].as_f64().unwrap_or(0.0);
        b.push_str(&stat(
            if v > 0.0 { class } else { "" },
            label,
            &format!("summary.transitions.{key}"),
            v,
            &format!("{v}"),
        ));
    }
    b.push_str("</div>\n");

    b.push_str("<section>\n<h2>Recorded against replayed outcomes</h2>\n");
    let color = |o: &str| match o {
        "success" => PASS,
        "insufficient_evidence" => IE,
        _ => FAIL,
    };
    let groups: Vec<BarGroup> = r
        .outcomes
        .iter()
        .map(|c| {
            let o = c.outcome.as_str();
            (
                o.to_string(),
                vec![
                    (
                        c.recorded as f64,
                        BEFORE,
                        format!("summary.recorded_outcomes.{o}"),
                    ),
                    (c.replayed as f64, color(o), format!("summary.outcomes.{o}")),
                ],
            )
        })
        .collect();
    b.push_str(&count_bars(
        &groups,
        &[
            (BEFORE, "recorded (grey)"),
            (PASS, "replayed, coloured by outcome"),
        ],
        "recorded and replayed outcomes",
        false,
    ));
    let rows: Vec<Vec<String>> = r
        .outcomes
        .iter()
        .map(|c| {
            let o = c.outcome.as_str();
            vec![
                esc(o),
                num(
                    &format!("summary.recorded_outcomes.{o}"),
                    c.recorded as f64,
                    &c.recorded.to_string(),
                ),
                num(
                    &format!("summary.outcomes.{o}"),
                    c.replayed as f64,
                    &c.replayed.to_string(),
                ),
            ]
        })
        .collect();
    b.push_str(&html_table(
        &[
            ("outcome", Align::Left),
            ("recorded", Align::Right),
            ("replayed", Align::Right),
        ],
        &rows,
        false,
    ));
    b.push_str("</section>\n");

    b.push_str("<section>\n<h2>Top failure clusters</h2>\n");
    let listed: Vec<_> = r.groups.iter().filter(|g| g.notable()).take(10).collect();
    if listed.is_empty() {
        b.push_str("<p>None: every trace succeeded, as recorded.</p>\n");
    } else {
        let rows: Vec<Vec<String>> = listed
            .iter()
            .map(|g| {
                vec![
                    esc(g.transition.as_str()),
                    esc(&g.question),
                    g.traces.to_string(),
                    esc(g.recorded_outcome.as_str()),
                    esc(g.outcome.as_str()),
                    esc(&g.example_trace_id),
                ]
            })
            .collect();
        b.push_str(&html_table(
            &[
                ("transition", Align::Left),
                ("question", Align::Left),
                ("traces", Align::Right),
                ("recorded", Align::Left),
                ("replayed", Align::Left),
                ("example", Align::Left),
            ],
            &rows,
            false,
        ));
    }
    b.push_str("</section>\n");

    b.push_str("<section>\n<h2>Latency</h2>\n");
    let budget = crate::corpus::Budget::default().p95_ms;
    b.push_str(&latency_histogram(
        latencies_ms,
        budget,
        None,
        "replayed latency histogram with the p95 budget",
    ));
    let _ = writeln!(
        b,
        "<p>replayed p50 {} ms · p95 {} ms; recorded p50 {} ms · p95 {} ms (the production agent's whole retrieval).</p>",
        num("summary.latency_p50_ms", rate("latency_p50_ms"), &format!("{:.3}", rate("latency_p50_ms"))),
        num("summary.latency_p95_ms", rate("latency_p95_ms"), &format!("{:.3}", rate("latency_p95_ms"))),
        num("summary.recorded_latency_p50_ms", rate("recorded_latency_p50_ms"), &format!("{:.3}", rate("recorded_latency_p50_ms"))),
        num("summary.recorded_latency_p95_ms", rate("recorded_latency_p95_ms"), &format!("{:.3}", rate("recorded_latency_p95_ms"))),
    );
    b.push_str("</section>\n");
    let h = &r.header;
    let meta = format!(
        "{} traces from {} ({} bad line{}) against {} · engine {} · profile {}{}",
        n,
        h.inputs.join(", "),
        r.bad_lines,
        if r.bad_lines == 1 { "" } else { "s" },
        h.fixtures,
        h.engine_version,
        h.profile,
        h.shard.map(|s| format!(" · shard {s}")).unwrap_or_default()
    );
    page(
        &format!("findbench replay: profile {}", h.profile),
        &meta,
        &b,
    )
}

// ---------------------------------------------------------------- compare

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
pub fn compare(c: &Comparison) -> String {
    let mut b = String::new();
    b.push_str("<section>\n<h2>Headline</h2>\n<ul>\n");
    // the cluster moves are a table below, not a list here
    for line in super::console::compare_headline(c)
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
