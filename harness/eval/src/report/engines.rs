//! The engines side by side (`run --engine A --engine B`): one row per engine, then one
//! row per suite and engine, rendered with `tabled` for the console and for summary.md.
//! A suite an engine answers no case of is "n/a"; an engine whose tool is missing is
//! shown once, with why.

use super::numbers::pct;
use crate::case::CaseResult;
use crate::engines::EngineReport;
use crate::metrics::{mean, GroupMetrics};
use crate::results::RunResults;
use std::fmt::Write;
use tabled::builder::Builder;
use tabled::settings::object::Columns;
use tabled::settings::{Alignment, Style};

const HEADER: [&str; 13] = [
    "cases",
    "n/a",
    "pass rate",
    "hit@1",
    "hit@5",
    "MRR",
    "≤ 4 KB",
    "IE rate",
    "bytes returned",
    "bytes to evidence",
    "p50 ms",
    "p95 ms",
    "",
];

/// The console tables (empty when the run named no engines).
pub fn console(run: &RunResults) -> String {
    render(run, false)
}

/// The summary.md section (empty when the run named no engines).
pub fn markdown(run: &RunResults) -> String {
    render(run, true)
}

/// The cases an engine ran: the primary's are the run's own.
pub fn cases_of<'a>(run: &'a RunResults, engine: &'a EngineReport) -> Vec<&'a CaseResult> {
    if engine.primary {
        run.cases.iter().collect()
    } else {
        engine.cases.iter().collect()
    }
}

/// Mean bytes an agent reads to see the evidence, over the cases that name their items.
pub fn evidence_mean(cases: &[&CaseResult]) -> Option<f64> {
    let values: Vec<f64> = cases
        .iter()
        .filter_map(|c| c.evidence_bytes.map(|b| b as f64))
        .collect();
    (!values.is_empty()).then(|| mean(values))
}

fn metric_cells(m: &GroupMetrics, evidence: Option<f64>) -> Vec<String> {
    let judged = m.rank.judged > 0;
    let ranked = |v: String| if judged { v } else { "-".to_string() };
    vec![
        pct(m.pass_rate),
        ranked(pct(m.rank.hit_at_1)),
        ranked(pct(m.rank.hit_at_k)),
        ranked(format!("{:.3}", m.rank.mrr)),
        ranked(pct(m.rank.recall.recall_at_4kb)),
        pct(m.insufficient_evidence_rate),
        format!("{:.0}", m.context.output_bytes_mean),
        evidence.map_or("-".to_string(), |e| format!("{e:.0}")),
        format!("{:.3}", m.latency.p50_ms),
        format!("{:.3}", m.latency.p95_ms),
    ]
}

fn render(run: &RunResults, markdown: bool) -> String {
    if run.engines.is_empty() {
        return String::new();
    }
    let mut out = String::new();
    let mut overall = Builder::default();
    overall.push_record(
        std::iter::once("engine")
            .chain(HEADER[..12].iter().copied())
            .map(str::to_string),
    );
    for e in &run.engines {
        let name = if e.primary {
            format!("{} (gated)", e.name)
        } else {
            e.name.clone()
        };
        let mut row = vec![name];
        match (&e.missing, &e.summary) {
            (Some(_), _) => {
                row.push("-".into());
                row.push("-".into());
                row.extend(std::iter::repeat_n("not installed".to_string(), 10));
            }
            (None, Some(m)) => {
                row.push(e.cases_run.to_string());
                row.push(e.not_applicable.to_string());
                row.extend(metric_cells(m, evidence_mean(&cases_of(run, e))));
            }
            (None, None) => {
                row.push("0".into());
                row.push(e.not_applicable.to_string());
                row.extend(std::iter::repeat_n("n/a".to_string(), 10));
            }
        }
        overall.push_record(row);
    }
    let mut suites = Builder::default();
    suites.push_record(
        ["suite", "engine"]
            .into_iter()
            .chain(HEADER[..1].iter().copied())
            .chain(HEADER[2..12].iter().copied())
            .map(str::to_string),
    );
    let mut suite_names: Vec<&String> = run.suites.keys().collect();
    for e in &run.engines {
        for s in e.suites.keys() {
            if !suite_names.contains(&s) {
                suite_names.push(s);
            }
        }
    }
    suite_names.sort();
    for suite in suite_names {
        let mut not_applicable: Vec<&str> = Vec::new();
        for e in run.engines.iter().filter(|e| e.missing.is_none()) {
            let Some(m) = e.suites.get(suite) else {
                not_applicable.push(&e.name);
                continue;
            };
            let cases: Vec<&CaseResult> = cases_of(run, e)
                .into_iter()
                .filter(|c| &c.suite == suite)
                .collect();
            let mut row = vec![suite.clone(), e.name.clone(), m.total.to_string()];
            row.extend(metric_cells(m, evidence_mean(&cases)));
            suites.push_record(row);
        }
        // the engines that answer no case of the suite share one row
        if !not_applicable.is_empty() {
            let mut row = vec![suite.clone(), not_applicable.join(", "), "0".into()];
            row.extend(std::iter::repeat_n("n/a".to_string(), 10));
            suites.push_record(row);
        }
    }
    let finish = |b: Builder, first_numeric: usize| {
        let mut t = b.build();
        if markdown {
            t.with(Style::markdown());
        } else {
            t.with(Style::blank());
        }
        t.modify(Columns::new(first_numeric..), Alignment::right());
        t.to_string()
    };
    let missing: Vec<&EngineReport> = run.engines.iter().filter(|e| e.missing.is_some()).collect();
    let explain = "Pass rate, hit@1, hit@5 and MRR as for findbench; ≤ 4 KB: the share of cases \
         that name their items whose first expected key ends within the first 4 KB of what \
         the tool printed; bytes returned is what the \
         tool prints (findbench: its JSON envelope); bytes to evidence adds the files an agent \
         opens in rank order up to the first expected one (code, grep, ask), or the whole \
         fixture when none is returned; ms is the whole call (an external tool's process \
         included). n/a: a mode the engine does not answer.";
    if markdown {
        let _ = writeln!(out);
        let _ = writeln!(out, "## Engines");
        let _ = writeln!(out);
        let _ = writeln!(out, "{explain}");
        let _ = writeln!(out);
        let _ = writeln!(out, "{}", finish(overall, 1));
        let _ = writeln!(out);
        for e in &missing {
            let _ = writeln!(
                out,
                "- `{}` did not run: {}",
                e.name,
                e.missing.as_deref().unwrap_or("")
            );
        }
        if !missing.is_empty() {
            let _ = writeln!(out);
        }
        let _ = writeln!(out, "### Engines per suite");
        let _ = writeln!(out);
        let _ = writeln!(out, "{}", finish(suites, 2));
        let _ = writeln!(out);
        let not_applicable = super::rows::not_applicable(run);
        if !not_applicable.is_empty() {
            let _ = writeln!(out, "### Cases an engine does not answer (n/a)");
            let _ = writeln!(out);
            let _ = writeln!(
                out,
                "Listed in cases.jsonl, results.json and junit.xml (skipped), counted in the \
                 n/a column; no pass rate, gate or comparison counts them."
            );
            let _ = writeln!(out);
            for (_, reason, n) in not_applicable {
                let _ = writeln!(out, "- {n} n/a: {reason}");
            }
            let _ = writeln!(out);
        }
    } else {
        let _ = writeln!(out, "Engines:");
        let _ = writeln!(out, "{}", finish(overall, 1));
        for e in &missing {
            let _ = writeln!(
                out,
                "engine {} did not run: {}",
                e.name,
                e.missing.as_deref().unwrap_or("")
            );
        }
        let _ = writeln!(out);
        let _ = writeln!(out, "{}", finish(suites, 2));
        for (_, reason, n) in super::rows::not_applicable(run) {
            let _ = writeln!(out, "{n} n/a: {reason}");
        }
    }
    out
}
