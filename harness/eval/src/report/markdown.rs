//! `summary.md`: the tables a release report pastes. Everything timing-dependent is in the
//! last section, `## Latency`, so the rest is identical across runs of the same inputs.

use super::{pct, Exporter, ReportContext};
use crate::error::Result;
use crate::metrics::GroupMetrics;
use crate::results::{RunResults, Status};
use std::collections::BTreeMap;
use std::fmt::Write;

pub struct SummaryMarkdown;

impl Exporter for SummaryMarkdown {
    fn file_name(&self) -> &'static str {
        "summary.md"
    }

    fn render(&self, run: &RunResults, context: &ReportContext<'_>) -> Result<Vec<u8>> {
        Ok(render(run, context).into_bytes())
    }
}

/// Escapes a table cell.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
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

pub fn render(run: &RunResults, context: &ReportContext<'_>) -> String {
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
        run.git_revision
            .as_deref()
            .map_or("unknown", |r| &r[..r.len().min(12)]),
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
    let _ = writeln!(o);

    let _ = writeln!(o, "## Cases");
    let _ = writeln!(o);
    let _ = writeln!(o, "| group | cases | passed | failed | xfail | xpass | pass rate | IE rate | tools/query | iterations | dup tools | fail tools |");
    let _ = writeln!(o, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    for (name, g) in groups(run, true) {
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {:.2} | {:.2} | {} | {} |",
            cell(&name),
            g.total,
            g.passed + g.xpass,
            g.failed,
            g.xfail,
            g.xpass,
            pct(g.pass_rate),
            pct(g.insufficient_evidence_rate),
            g.tools.per_query,
            g.tools.iterations,
            g.tools.duplicate,
            g.tools.failed
        );
    }
    let _ = writeln!(o);

    let _ = writeln!(o, "## Outcomes and candidates");
    let _ = writeln!(o);
    let _ = writeln!(o, "| group | success | no_match | insufficient_evidence | failure | candidates mean | median | zero |");
    let _ = writeln!(o, "|---|--:|--:|--:|--:|--:|--:|--:|");
    for (name, g) in groups(run, false) {
        let x = &g.outcomes;
        let _ = writeln!(
            o,
            "| {} | {} ({}) | {} ({}) | {} ({}) | {} ({}) | {:.2} | {} | {} |",
            cell(&name),
            x.success,
            pct(x.success_rate),
            x.no_match,
            pct(x.no_match_rate),
            x.insufficient_evidence,
            pct(x.insufficient_evidence_rate),
            x.failure,
            pct(x.failure_rate),
            g.candidates.mean,
            g.candidates.median,
            pct(g.candidates.zero_rate)
        );
    }
    let _ = writeln!(o);

    if m.rank.judged > 0 {
        let _ = writeln!(o, "## Ranking");
        let _ = writeln!(o);
        let _ = writeln!(
            o,
            "Cases that name their expected items; a case that returns nothing scores 0."
        );
        let _ = writeln!(o);
        let _ = writeln!(o, "| group | judged | hit@1 | hit@{} | MRR |", m.rank.k);
        let _ = writeln!(o, "|---|--:|--:|--:|--:|");
        for (name, g) in groups(run, false) {
            if g.rank.judged == 0 {
                continue;
            }
            let _ = writeln!(
                o,
                "| {} | {} | {} | {} | {:.3} |",
                cell(&name),
                g.rank.judged,
                pct(g.rank.hit_at_1),
                pct(g.rank.hit_at_k),
                g.rank.mrr
            );
        }
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
    let _ = writeln!(o, "| group | output bytes (mean) | max | whole fixture bytes | reduction | tokens/call | $/day dump | $/day find | $/day saved | over byte budget |");
    let _ = writeln!(o, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    for (name, g) in groups(run, false) {
        let c = &g.context;
        let _ = writeln!(
            o,
            "| {} | {:.0} | {} | {:.0} | {:.2}% | {:.0} | {:.2} | {:.2} | {:.2} | {} |",
            cell(&name),
            c.output_bytes_mean,
            c.output_bytes_max,
            c.dump_bytes_mean,
            c.reduction_pct,
            c.tokens_per_call,
            c.daily_cost_dump_usd,
            c.daily_cost_find_usd,
            c.daily_saved_usd,
            c.over_budget
        );
    }
    let _ = writeln!(o);

    let notable: Vec<_> = run
        .cases
        .iter()
        .filter(|c| c.status != Status::Pass)
        .collect();
    if !notable.is_empty() {
        let _ = writeln!(o, "## Cases that did not simply pass");
        let _ = writeln!(o);
        let _ = writeln!(
            o,
            "| status | suite | case | query | outcome | reason | known failure |"
        );
        let _ = writeln!(o, "|---|---|---|---|---|---|---|");
        for c in notable {
            let _ = writeln!(
                o,
                "| {} | {} | `{}` | {} | {} | {} | {} |",
                c.status.as_str().to_uppercase(),
                cell(&c.suite),
                cell(&c.id),
                cell(&c.query),
                c.outcome,
                cell(c.reason.as_deref().unwrap_or("")),
                cell(c.known_failure.as_deref().unwrap_or(""))
            );
        }
        let _ = writeln!(o);
    }

    if let Some(b) = context.baseline {
        let _ = writeln!(o, "## Against baseline");
        let _ = writeln!(o);
        let _ = writeln!(
            o,
            "Baseline `{}` (git `{}`): pass rate {} → {}, insufficient evidence {} → {}; {} regressed, {} fixed, {} new, {} gone.",
            b.path,
            b.git_revision.as_deref().map_or("unknown", |r| &r[..r.len().min(12)]),
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
            let _ = writeln!(o, "| change | suite | case | before | after | reason |");
            let _ = writeln!(o, "|---|---|---|---|---|---|");
            for (kind, list) in [("regressed", &b.regressed), ("fixed", &b.fixed)] {
                for c in list {
                    let _ = writeln!(
                        o,
                        "| {} | {} | `{}` | {} | {} | {} |",
                        kind,
                        cell(&c.suite),
                        cell(&c.id),
                        c.before.as_deref().unwrap_or("–"),
                        c.after.as_deref().unwrap_or("–"),
                        cell(c.reason.as_deref().unwrap_or(""))
                    );
                }
            }
            let _ = writeln!(o);
        }
    }

    let _ = writeln!(o, "## Latency");
    let _ = writeln!(o);
    let _ = writeln!(o, "| group | mean ms | p50 ms | p95 ms | p99 ms | max ms | ms per 1000 items | budget p95 / per 1000 ms | within budget |");
    let _ = writeln!(o, "|---|--:|--:|--:|--:|--:|--:|--:|---|");
    for (name, g) in groups(run, false) {
        let l = &g.latency;
        let _ = writeln!(
            o,
            "| {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {} / {} | {} |",
            cell(&name),
            l.mean_ms,
            l.p50_ms,
            l.p95_ms,
            l.p99_ms,
            l.max_ms,
            l.per_1000_items_ms,
            l.budget_p95_ms,
            l.budget_per_1000_items_ms,
            if l.within_budget { "yes" } else { "**no**" }
        );
    }
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
    o
}
