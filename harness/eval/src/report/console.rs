//! The summary `findbench run` prints to stdout, in the spec's runner style
//! ("Passed: 28 / 28", "Rate: 100.0%", "Avg tools/query: 2.50", ...), then a per-suite table
//! and every case that did not simply pass.

use super::pct;
use crate::baseline::BaselineDiff;
use crate::results::{RunResults, Status};
use std::fmt::Write;

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
        "Latency: p50 {:.3}ms, p95 {:.3}ms, p99 {:.3}ms, max {:.3}ms; {:.3}ms per 1000 items (budget {}ms)",
        l.p50_ms, l.p95_ms, l.p99_ms, l.max_ms, l.per_1000_items_ms, l.budget_per_1000_items_ms
    );
    let _ = writeln!(out);
    let name_w = run
        .suites
        .keys()
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    let _ = writeln!(
        out,
        "{:<name_w$}  {:>5}  {:>6}  {:>6}  {:>5}  {:>5}  {:>6}  {:>7}  {:>7}  {:>8}",
        "suite",
        "cases",
        "passed",
        "failed",
        "xfail",
        "xpass",
        "rate",
        "IE rate",
        "tools/q",
        "p95 ms"
    );
    for (name, s) in &run.suites {
        let _ = writeln!(
            out,
            "{:<name_w$}  {:>5}  {:>6}  {:>6}  {:>5}  {:>5}  {:>6}  {:>7}  {:>7.2}  {:>8.3}",
            name,
            s.total,
            s.passed + s.xpass,
            s.failed,
            s.xfail,
            s.xpass,
            pct(s.pass_rate),
            pct(s.insufficient_evidence_rate),
            s.tools.per_query,
            s.latency.p95_ms
        );
    }
    let notable: Vec<_> = run
        .cases
        .iter()
        .filter(|c| c.status != Status::Pass)
        .collect();
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
