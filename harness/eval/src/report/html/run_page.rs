//! report.html of a run: the headline, pass and insufficient-evidence rates per suite, the
//! summary table, the latency histogram, recall against the context budget, the cases that
//! did not simply pass, the cases an engine does not answer, and the baseline.

use super::elements::{html_table, num, ranking_section, stat};
use super::page::page;
use crate::metrics::GroupMetrics;
use crate::report::escape::esc;
use crate::report::exporter::ReportContext;
use crate::report::numbers::pct;
use crate::report::ranking;
use crate::report::rows::notable;
use crate::report::svg::latency_histogram::latency_histogram;
use crate::report::svg::palette::{IE, PASS};
use crate::report::svg::rate_bars::{rate_bars, RateRow};
use crate::report::table::Align;
use crate::results::RunResults;
use std::fmt::Write;

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
pub(super) fn run(run: &RunResults, context: &ReportContext<'_>) -> String {
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
    if m.not_applicable > 0 {
        b.push_str(&stat(
            "",
            "n/a (a mode the engine does not answer)",
            "summary.not_applicable",
            m.not_applicable as f64,
            &m.not_applicable.to_string(),
        ));
    }
    b.push_str(&stat(
        "",
        "insufficient evidence",
        "summary.insufficient_evidence_rate",
        m.insufficient_evidence_rate,
        &pct(m.insufficient_evidence_rate),
    ));
    b.push_str(&stat(
        if m.latency.within_budget { "" } else { "bad" },
        &match m.latency.budget_p95_ms {
            Some(budget) => format!("p95 latency (budget {budget} ms)"),
            None => "p95 latency".to_string(),
        },
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
                budget_cell(&g.latency),
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
        if m.latency.budget_p95_ms.is_some() {
            "latency histogram with the p95 budget"
        } else {
            "latency histogram"
        },
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

    let ranked = ranking::run_rows(run);
    if !ranked.is_empty() {
        b.push_str(&ranking_section(
            &ranking::run_header(m.rank.k),
            &ranked,
            &ranking::run_series(run),
            "Cases that name their expected items. ≤ N KB: the share whose first expected key \
             ends within the first N KB of the answer, as an agent reading it from the start \
             would meet it.",
        ));
    }

    let notable = notable(run);
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
    let not_applicable = crate::report::rows::not_applicable(run);
    if !not_applicable.is_empty() {
        b.push_str("<section>\n<h2>Cases an engine does not answer (n/a)</h2>\n<ul>\n");
        for (_, reason, n) in not_applicable {
            let _ = writeln!(b, "<li>{n} n/a: {}</li>", esc(reason));
        }
        b.push_str("</ul>\n<p>Judged nowhere: no pass rate, gate or comparison counts them.</p>\n</section>\n");
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

/// A suite's budget cell: `over` and each stated budget exceeded, `within` the stated
/// ones, or `–` when the suite states none.
fn budget_cell(l: &crate::metrics::latency::LatencyMetrics) -> String {
    let over = l.over_budget();
    if !over.is_empty() {
        format!(
            "<span class=\"verdict-bad\">over: {}</span>",
            esc(&over.join("; "))
        )
    } else if l.budget_p95_ms.is_some() || l.budget_per_1000_items_ms.is_some() {
        "within".into()
    } else {
        "–".into()
    }
}
