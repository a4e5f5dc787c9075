//! The summary `findbench run` prints to stdout, in the spec's runner style
//! ("Passed: 28 / 28", "Rate: 100.0%", "Avg tools/query: 2.50", ...), then a per-suite table
//! and every case that did not simply pass; and the headline `compare` prints.

use super::numbers::{fmt_delta, fmt_value, pct};
use super::table::{Align, Table};
use crate::baseline::BaselineDiff;
use crate::compare::{ChangeKind, Comparison};
use crate::results::RunResults;
use std::fmt::Write;

use Align::{Left as L, Right as R};

pub fn render(run: &RunResults, baseline: Option<&BaselineDiff>) -> String {
    let m = &run.summary;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "findbench run: {} suite{}, {} cases, jobs {}, profile {}",
        run.suites.len(),
        if run.suites.len() == 1 { "" } else { "s" },
        m.total,
        run.threads,
        run.profile
    );
    let _ = writeln!(out);
    let _ = writeln!(out, "Passed: {} / {}", m.passed + m.xpass, m.total);
    let _ = writeln!(out, "Rate: {}", pct(m.pass_rate));
    let _ = writeln!(out, "Avg tools/query: {:.2}", m.tools.per_query);
    let _ = writeln!(out, "Avg iterations: {:.2}", m.tools.iterations);
    let _ = writeln!(out, "Avg duration: {:.3}ms", m.latency.mean_ms);
    let _ = writeln!(out, "Dup tools: {}", m.tools.duplicate);
    let _ = writeln!(out, "Fail tools: {}", m.tools.failed);
    let _ = writeln!(
        out,
        "Failed: {}   Known failures (xfail): {}   XPASS: {}",
        m.failed, m.xfail, m.xpass
    );
    let _ = writeln!(
        out,
        "Outcomes: success {}, no_match {}, insufficient_evidence {} ({}), failure {}",
        m.outcomes.success,
        m.outcomes.no_match,
        m.outcomes.insufficient_evidence,
        pct(m.insufficient_evidence_rate),
        m.outcomes.failure
    );
    let _ = writeln!(
        out,
        "Candidates: mean {:.2}, median {}, zero {}",
        m.candidates.mean,
        m.candidates.median,
        pct(m.candidates.zero_rate)
    );
    if m.rank.judged > 0 {
        let _ = writeln!(
            out,
            "Ranking: hit@1 {}, hit@{} {}, MRR {:.3} ({} cases name their items)",
            pct(m.rank.hit_at_1),
            m.rank.k,
            pct(m.rank.hit_at_k),
            m.rank.mrr,
            m.rank.judged
        );
    }
    let c = &m.context;
    let _ = writeln!(
        out,
        "Context: {:.0} bytes a call against {:.0} for the whole fixture ({:.2}% less); \
         ${:.2}/day saved at ${:.2} per million tokens, {} calls a day",
        c.output_bytes_mean,
        c.dump_bytes_mean,
        c.reduction_pct,
        c.daily_saved_usd,
        run.cost_model.price_per_million_tokens,
        run.cost_model.calls_per_day
    );
    let l = &m.latency;
    let _ = writeln!(
        out,
        "Latency: p50 {:.3}ms, p95 {:.3}ms, p99 {:.3}ms, max {:.3}ms; {:.3}ms per 1000 items{}",
        l.p50_ms,
        l.p95_ms,
        l.p99_ms,
        l.max_ms,
        l.per_1000_items_ms,
        l.budget_per_1000_items_ms
            .map_or(String::new(), |b| format!(" (budget {b}ms)"))
    );
    let _ = writeln!(out);
    let mut t = Table::new(&[
        ("suite", L),
        ("cases", R),
        ("passed", R),
        ("failed", R),
        ("xfail", R),
        ("xpass", R),
        ("rate", R),
        ("IE rate", R),
        ("tools/q", R),
        ("p95 ms", R),
    ]);
    for (name, s) in &run.suites {
        let mut row = vec![name.clone()];
        row.extend(super::rows::count_cells(s));
        row.push(format!("{:.2}", s.tools.per_query));
        row.push(format!("{:.3}", s.latency.p95_ms));
        t.row(row);
    }
    out.push_str(&t.console());
    let notable = super::rows::notable(run);
    if !notable.is_empty() {
        let _ = writeln!(out);
        for c in notable {
            let _ = writeln!(
                out,
                "{:<5} {}/{}: {}",
                c.status.as_str().to_uppercase(),
                c.suite,
                c.id,
                c.reason.as_deref().unwrap_or("")
            );
        }
    }
    if let Some(b) = baseline {
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "Against baseline {}: rate {} -> {}, {} regressed, {} fixed",
            b.path,
            pct(b.pass_rate_before),
            pct(b.pass_rate_after),
            b.regressed.len(),
            b.fixed.len()
        );
        for r in &b.regressed {
            let _ = writeln!(
                out,
                "REGRESSED {}: {} -> {}",
                r.label(),
                r.before.as_deref().unwrap_or("not in baseline"),
                r.after.as_deref().unwrap_or("-")
            );
        }
    }
    out
}

/// The lines a terminal shows of a comparison: the headline rates, the flips and the
/// cluster moves (also the Headline section of the markdown report).
pub fn compare_headline(c: &Comparison) -> String {
    let mut t = String::new();
    for name in [
        "recorded_insufficient_evidence_rate",
        "insufficient_evidence_rate",
        "pass_rate",
    ] {
        if let Some(m) = c.metric(name) {
            let _ = writeln!(
                t,
                "{name}: {} -> {} ({}){}",
                fmt_value(name, m.before),
                fmt_value(name, m.after),
                fmt_delta(name, m.delta),
                if m.verdict.is_empty() {
                    String::new()
                } else {
                    format!(", {}", m.verdict)
                }
            );
        }
    }
    // the headline keeps the two flips a release is judged on; the report has them all
    for f in c
        .flips
        .iter()
        .filter(|f| f.property == "pass/fail" || f.property == "outcome insufficient_evidence")
    {
        let _ = writeln!(
            t,
            "{} flips: {} worsened, {} improved: {}",
            f.property, f.worsened, f.improved, f.verdict
        );
    }
    for l in &c.latency {
        let _ = writeln!(
            t,
            "latency {}: {:.3} -> {:.3} ms ({:+.3} ms, 95% CI [{:+.3}, {:+.3}]): {}",
            l.quantile, l.before_ms, l.after_ms, l.diff_ms, l.ci_low_ms, l.ci_high_ms, l.verdict
        );
    }
    t.push_str(&super::compare_ranking::headline(c));
    for k in &c.clusters {
        let _ = writeln!(
            t,
            "{} cluster: \"{}\" x{}: {} -> {}",
            k.kind.as_str(),
            k.question,
            k.cases,
            k.before,
            k.after
        );
    }
    let count = |k: ChangeKind| c.changes.iter().filter(|x| x.kind == k).count();
    let _ = writeln!(
        t,
        "cases: {} regressions, {} fixed, {} changed, {} added, {} removed",
        count(ChangeKind::Regression),
        count(ChangeKind::Fixed),
        count(ChangeKind::Changed),
        count(ChangeKind::Added),
        count(ChangeKind::Removed)
    );
    t
}
