//! The markdown summaries: `summary.md` of a run and of a replay (the release report of
//! `compare` is `compare_markdown.rs`). Tables are drawn by [`super::table`]. In a run's summary.md everything
//! timing-dependent is in the last section, `## Latency`, so the rest is identical across
//! runs of the same inputs.

use super::exporter::{Exporter, ReportContext};
use super::numbers::pct;
use super::replay_document::ReplayReport;
use super::table::{Align, Table};
use crate::case::TraceOutcome;
use crate::error::Result;
use crate::metrics::GroupMetrics;
use crate::replay_summary::ReplaySummary;
use crate::results::RunResults;
use std::collections::BTreeMap;
use std::fmt::Write;

use Align::{Left as L, Right as R};

/// summary.md of a run.
pub struct SummaryMarkdown;

impl Exporter for SummaryMarkdown {
    fn file_name(&self) -> &'static str {
        "summary.md"
    }

    fn render(&self, run: &RunResults, context: &ReportContext<'_>) -> Result<Vec<u8>> {
        Ok(render(run, context).into_bytes())
    }
}

/// summary.md of a replay.
pub struct ReplaySummaryMarkdown;

impl Exporter<ReplayReport> for ReplaySummaryMarkdown {
    fn file_name(&self) -> &'static str {
        "summary.md"
    }

    fn render(&self, r: &ReplayReport, _: &ReportContext<'_>) -> Result<Vec<u8>> {
        Ok(replay(&r.summary).into_bytes())
    }
}

fn groups<'a>(run: &'a RunResults, with_tags: bool) -> Vec<(String, &'a GroupMetrics)> {
    let mut rows: Vec<(String, &GroupMetrics)> = Vec::new();
    let mut add = |prefix: &str, map: &'a BTreeMap<String, GroupMetrics>| {
        for (k, m) in map {
            rows.push((format!("{prefix}{k}"), m));
        }
    };
    add("", &run.suites);
    if run.modes.len() > 1 {
        add("mode: ", &run.modes);
    }
    if with_tags {
        add("tag: ", &run.tags);
    }
    rows.push(("**all**".to_string(), &run.summary));
    rows
}

/// A table with a left-aligned first column and right-aligned others.
fn numeric_table(header: &[&str]) -> Table {
    let columns: Vec<(&str, Align)> = header
        .iter()
        .enumerate()
        .map(|(i, h)| (*h, if i == 0 { L } else { R }))
        .collect();
    Table::new(&columns)
}

/// The short revision shown in headers.
fn short_rev(rev: Option<&str>, len: usize) -> &str {
    rev.map_or("unknown", |r| &r[..r.len().min(len)])
}

/// summary.md of a run.
fn render(run: &RunResults, context: &ReportContext<'_>) -> String {
    let m = &run.summary;
    let mut o = String::new();
    let _ = writeln!(o, "# findbench run");
    let _ = writeln!(o);
    let _ = writeln!(
        o,
        "findbench {} · engine {} · profile `{}` · git `{}` · {} corpus file{}",
        run.findbench_version,
        run.engine_version,
        run.profile,
        short_rev(run.git_revision.as_deref(), 12),
        run.corpora.len(),
        if run.corpora.len() == 1 { "" } else { "s" },
    );
    if !run.filters.is_empty() {
        let _ = writeln!(o, "Filtered to: {}", run.filters.join(", "));
    }
    let _ = writeln!(o);
    let _ = writeln!(
        o,
        "**Passed: {} / {}** · Rate: {} · Failed: {} · XFAIL: {} · XPASS: {} · Insufficient evidence: {}",
        m.passed + m.xpass,
        m.total,
        pct(m.pass_rate),
        m.failed,
        m.xfail,
        m.xpass,
        pct(m.insufficient_evidence_rate)
    );
    if m.not_applicable > 0 {
        let _ = writeln!(
            o,
            "\n{} n/a: cases of modes the engine does not answer, judged nowhere (see Engines)",
            m.not_applicable
        );
    }
    let _ = writeln!(o);

    let _ = writeln!(o, "## Cases");
    let _ = writeln!(o);
    let mut t = numeric_table(&[
        "group",
        "cases",
        "passed",
        "failed",
        "xfail",
        "xpass",
        "pass rate",
        "IE rate",
        "tools/query",
        "iterations",
        "dup tools",
        "fail tools",
    ]);
    for (name, g) in groups(run, true) {
        let mut row = vec![name];
        row.extend(super::rows::count_cells(g));
        row.extend([
            format!("{:.2}", g.tools.per_query),
            format!("{:.2}", g.tools.iterations),
            g.tools.duplicate.to_string(),
            g.tools.failed.to_string(),
        ]);
        t.row(row);
    }
    o.push_str(&t.markdown());
    let _ = writeln!(o);

    let _ = writeln!(o, "## Outcomes and candidates");
    let _ = writeln!(o);
    let mut t = numeric_table(&[
        "group",
        "success",
        "no_match",
        "insufficient_evidence",
        "failure",
        "candidates mean",
        "median",
        "zero",
    ]);
    for (name, g) in groups(run, false) {
        let x = &g.outcomes;
        t.row([
            name,
            format!("{} ({})", x.success, pct(x.success_rate)),
            format!("{} ({})", x.no_match, pct(x.no_match_rate)),
            format!(
                "{} ({})",
                x.insufficient_evidence,
                pct(x.insufficient_evidence_rate)
            ),
            format!("{} ({})", x.failure, pct(x.failure_rate)),
            format!("{:.2}", g.candidates.mean),
            g.candidates.median.to_string(),
            pct(g.candidates.zero_rate),
        ]);
    }
    o.push_str(&t.markdown());
    let _ = writeln!(o);

    if m.rank.judged > 0 {
        let _ = writeln!(o, "## Ranking");
        let _ = writeln!(o);
        let _ = writeln!(
            o,
            "Cases that name their expected items; a case that returns nothing scores 0. \
             ≤ N KB: the share whose first expected key ends within the first N KB of the \
             answer (recall within a context budget)."
        );
        let _ = writeln!(o);
        let rows = super::ranking::run_rows(run);
        o.push_str(&super::ranking::markdown(
            &super::ranking::run_header(m.rank.k),
            &rows,
        ));
        let _ = writeln!(o);
    }

    let cost = &run.cost_model;
    let _ = writeln!(o, "## Context saved");
    let _ = writeln!(o);
    let _ = writeln!(
        o,
        "Output bytes are the JSON envelope `findbench find` prints; the whole fixture is what an agent reads without a find tool. \
         Tokens = bytes / {}; cost at ${:.2} per million tokens and {} calls a day.",
        cost.bytes_per_token, cost.price_per_million_tokens, cost.calls_per_day
    );
    let _ = writeln!(o);
    let mut t = numeric_table(&[
        "group",
        "output bytes (mean)",
        "max",
        "whole fixture bytes",
        "reduction",
        "tokens/call",
        "$/day dump",
        "$/day find",
        "$/day saved",
        "over byte budget",
    ]);
    for (name, g) in groups(run, false) {
        let c = &g.context;
        t.row([
            name,
            format!("{:.0}", c.output_bytes_mean),
            c.output_bytes_max.to_string(),
            format!("{:.0}", c.dump_bytes_mean),
            format!("{:.2}%", c.reduction_pct),
            format!("{:.0}", c.tokens_per_call),
            format!("{:.2}", c.daily_cost_dump_usd),
            format!("{:.2}", c.daily_cost_find_usd),
            format!("{:.2}", c.daily_saved_usd),
            c.over_budget.to_string(),
        ]);
    }
    o.push_str(&t.markdown());
    let _ = writeln!(o);

    let notable = super::rows::notable(run);
    if !notable.is_empty() {
        let _ = writeln!(o, "## Cases that did not simply pass");
        let _ = writeln!(o);
        let mut t = Table::new(&[
            ("status", L),
            ("suite", L),
            ("case", L),
            ("query", L),
            ("outcome", L),
            ("reason", L),
            ("known failure", L),
        ]);
        for c in notable {
            t.row([
                c.status.as_str().to_uppercase(),
                c.suite.clone(),
                format!("`{}`", c.id),
                c.query.clone(),
                c.outcome.clone(),
                c.reason.clone().unwrap_or_default(),
                c.known_failure.clone().unwrap_or_default(),
            ]);
        }
        o.push_str(&t.markdown());
        let _ = writeln!(o);
    }

    if let Some(b) = context.baseline {
        let _ = writeln!(o, "## Against baseline");
        let _ = writeln!(o);
        let _ = writeln!(
            o,
            "Baseline `{}` (git `{}`): pass rate {} → {}, insufficient evidence {} → {}; {} regressed, {} fixed, {} new, {} gone.",
            b.path,
            short_rev(b.git_revision.as_deref(), 12),
            pct(b.pass_rate_before),
            pct(b.pass_rate_after),
            pct(b.insufficient_evidence_rate_before),
            pct(b.insufficient_evidence_rate_after),
            b.regressed.len(),
            b.fixed.len(),
            b.added,
            b.removed
        );
        let _ = writeln!(o);
        if !b.regressed.is_empty() || !b.fixed.is_empty() {
            let mut t = Table::new(&[
                ("change", L),
                ("suite", L),
                ("case", L),
                ("before", L),
                ("after", L),
                ("reason", L),
            ]);
            for (kind, list) in [("regressed", &b.regressed), ("fixed", &b.fixed)] {
                for c in list {
                    t.row([
                        kind.to_string(),
                        c.suite.clone(),
                        format!("`{}`", c.id),
                        c.before.clone().unwrap_or_else(|| "–".into()),
                        c.after.clone().unwrap_or_else(|| "–".into()),
                        c.reason.clone().unwrap_or_default(),
                    ]);
                }
            }
            o.push_str(&t.markdown());
            let _ = writeln!(o);
        }
    }

    let _ = writeln!(o, "## Latency");
    let _ = writeln!(o);
    let mut t = numeric_table(&[
        "group",
        "mean ms",
        "p50 ms",
        "p95 ms",
        "p99 ms",
        "max ms",
        "ms per 1000 items",
        "budget p95 / per 1000 ms",
        "within budget",
    ]);
    t.align(8, L);
    for (name, g) in groups(run, false) {
        let l = &g.latency;
        t.row([
            name,
            format!("{:.3}", l.mean_ms),
            format!("{:.3}", l.p50_ms),
            format!("{:.3}", l.p95_ms),
            format!("{:.3}", l.p99_ms),
            format!("{:.3}", l.max_ms),
            format!("{:.3}", l.per_1000_items_ms),
            format!(
                "{} / {}",
                l.budget_p95_ms.map_or("–".into(), |b| b.to_string()),
                l.budget_per_1000_items_ms
                    .map_or("–".into(), |b| b.to_string())
            ),
            within_budget(l),
        ]);
    }
    o.push_str(&t.markdown());
    let _ = writeln!(o);
    let _ = writeln!(
        o,
        "Run on {} {} ({} CPUs), {} thread{}, {:.0} ms.",
        run.machine.os,
        run.machine.arch,
        run.machine.cpus,
        run.threads,
        if run.threads == 1 { "" } else { "s" },
        run.duration_ms
    );
    // engines side by side (timings in them, so after Latency)
    o.push_str(&super::engines::markdown(run));
    o
}

/// `0.25` of `4` as `25.0%`; `–` of nothing.
fn share(n: usize, of: usize) -> String {
    if of == 0 {
        "–".into()
    } else {
        format!("{:.1}%", n as f64 * 100.0 / of as f64)
    }
}

/// The outcome table of a replay: recorded beside replayed, as the spec's metrics table
/// shows them (summary.md, and the console summary of `replay`).
pub fn replay_outcome_table(r: &ReplaySummary) -> String {
    let n = r.replayed;
    let replayed = format!("replayed ({})", r.header.profile);
    let mut t = Table::new(&[
        ("outcome", L),
        ("recorded", R),
        ("%", R),
        (replayed.as_str(), R),
        ("%", R),
    ]);
    for c in &r.outcomes {
        t.row([
            c.outcome.as_str().to_string(),
            c.recorded.to_string(),
            share(c.recorded, n),
            c.replayed.to_string(),
            share(c.replayed, n),
        ]);
    }
    t.row([
        "total".to_string(),
        n.to_string(),
        String::new(),
        n.to_string(),
    ]);
    t.markdown()
}

/// summary.md of a replay.
fn replay(r: &ReplaySummary) -> String {
    let h = &r.header;
    let s = &r.summary;
    let mut m = String::new();
    let _ = writeln!(m, "# findbench replay: profile `{}`\n", h.profile);
    let _ = writeln!(
        m,
        "{} traces replayed from {} ({} file{}, {} bad line{}) against `{}`; engine {}, {} threads{}.\n",
        r.replayed,
        h.inputs.join(", "),
        r.files,
        if r.files == 1 { "" } else { "s" },
        r.bad_lines,
        if r.bad_lines == 1 { "" } else { "s" },
        h.fixtures,
        h.engine_version,
        h.threads,
        h.git_revision
            .as_deref()
            .map(|g| format!(", git {}", short_rev(Some(g), 10)))
            .unwrap_or_default()
    );
    let _ = writeln!(m, "## Outcomes\n");
    m.push_str(&replay_outcome_table(r));
    let ie = TraceOutcome::InsufficientEvidence;
    let _ = writeln!(
        m,
        "\ninsufficient_evidence rate: **{} recorded → {} replayed**.\n",
        share(r.recorded(ie), r.replayed),
        share(r.replayed_count(ie), r.replayed)
    );
    // `replay` of `serve --record` lines made on a work tree with uncommitted changes
    if let Some(dirty) = s.get("dirty_traces").and_then(serde_json::Value::as_u64) {
        let _ = writeln!(
            m,
            "**{dirty} trace{} recorded on a work tree with uncommitted changes**: replayed \
             against its last commit, which may not hold what the agent saw.\n",
            if dirty == 1 { " was" } else { "s were" }
        );
    }
    let _ = writeln!(m, "## Transitions\n");
    let mut t = Table::new(&[("transition", L), ("traces", R)]);
    for k in ["fixed", "regressed", "unchanged"] {
        t.row([k.to_string(), s["transitions"][k].to_string()]);
    }
    m.push_str(&t.markdown());
    let _ = writeln!(m, "\n## Questions that changed or still fail\n");
    let listed: Vec<_> = r.groups.iter().filter(|g| g.notable()).collect();
    if listed.is_empty() {
        let _ = writeln!(m, "None: every trace succeeded, as recorded.");
    } else {
        let mut t = Table::new(&[
            ("transition", L),
            ("question", L),
            ("traces", R),
            ("recorded", L),
            ("replayed", L),
            ("example", L),
        ]);
        for g in listed {
            t.row([
                g.transition.as_str().to_string(),
                super::shown_question::shown_question(&g.question).into_owned(),
                g.traces.to_string(),
                g.recorded_outcome.as_str().to_string(),
                g.outcome.as_str().to_string(),
                g.example_trace_id.clone(),
            ]);
        }
        m.push_str(&t.markdown());
    }
    let rows = super::ranking::replay_rows(s);
    if !rows.is_empty() {
        let _ = writeln!(m, "\n## Ranking within a context budget\n");
        let _ = writeln!(
            m,
            "Traces that name the files the agent went on to read or edit. ≤ N KB: the share \
             whose first expected file ends within the first N KB of the answer; for the \
             agent, of what it searched and read up to the read of an expected file (an \
             imported trace's later calls), else up to its first search that returned \
             anything.\n"
        );
        m.push_str(&super::ranking::markdown(
            &super::ranking::replay_header(s),
            &rows,
        ));
    }
    let _ = writeln!(m, "\n## Retrieval\n");
    let mut t = Table::new(&[("metric", L), ("value", R)]);
    for k in REPLAY_RETRIEVAL_METRICS {
        // null: not recorded (an imported log times no retrieval)
        let shown = match r.summary[k].as_f64() {
            None => "–".to_string(),
            Some(v) if k.ends_with("rate") => format!("{:.1}%", v * 100.0),
            Some(v) => format!("{v:.3}"),
        };
        t.row([k.to_string(), shown]);
    }
    m.push_str(&t.markdown());
    let _ = writeln!(
        m,
        "\nRecorded latencies are the production agent's whole retrieval; replayed latencies are the engine's cascade alone."
    );
    if !r.bad_examples.is_empty() {
        let _ = writeln!(m, "\n## Bad trace lines ({})\n", r.bad_lines);
        for b in &r.bad_examples {
            let _ = writeln!(m, "- `{}`", b.replace('`', "'"));
        }
    }
    m
}

/// The retrieval metrics a replay's summary.md lists, in order.
pub const REPLAY_RETRIEVAL_METRICS: [&str; 12] = [
    "candidates_mean",
    "candidates_median",
    "zero_candidate_rate",
    "tools_per_query",
    "iterations_mean",
    "output_bytes_mean",
    "latency_p50_ms",
    "latency_p95_ms",
    "latency_p99_ms",
    "latency_max_ms",
    "recorded_latency_p50_ms",
    "recorded_latency_p95_ms",
];

/// The release report of `compare`.
/// The latency table's verdict: `yes`, `**no**` with each stated budget exceeded, or `–`
/// when the group states none.
fn within_budget(l: &crate::metrics::latency::LatencyMetrics) -> String {
    let over = l.over_budget();
    if !over.is_empty() {
        format!("**no**: {}", over.join("; "))
    } else if l.budget_p95_ms.is_some() || l.budget_per_1000_items_ms.is_some() {
        "yes".into()
    } else {
        "–".into()
    }
}
