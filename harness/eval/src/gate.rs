//! The CI gate: thresholds (command line, and each corpus's `gate` section) and a baseline
//! turned into a verdict with one line per reason. Exit 0 when it passes, 1 when it fails.
//!
//! - Command-line thresholds apply to the whole run; a corpus's `gate` section to its suite.
//! - Unexpected failures: at most `max_failed` (default 0 when no threshold anywhere sets
//!   one), so a case broken on purpose fails the gate. A case that failed in the baseline
//!   too is not unexpected: recording a run as the baseline accepts its failures.
//! - With a baseline, what [`crate::baseline`] (that is, `compare`) finds: every newly
//!   failing case, and pass/fail, outcome or latency regressions larger than the noise.
//! - An xpass (a known failure that now passes) is reported as a note, never a failure.

use crate::baseline::BaselineDiff;
use crate::case::Status;
use crate::gate_settings::{Thresholds, Verdict};
use crate::metrics::GroupMetrics;
use crate::report::numbers::pct;
use crate::results::{ResultsDocument, RunResults};
use std::collections::BTreeSet;

/// The `gate:` section of a gate file (`replay --gate FILE`): a YAML document holding the
/// keys of a corpus's `gate:` section, so a set of traces is gated as a corpus is.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct GateFile {
    gate: Thresholds,
}

/// Reads a gate file: its errors name the file and line, in the words of a corpus's.
pub fn read_gate_file(path: &std::path::Path) -> crate::error::Result<Thresholds> {
    use crate::corpus::yaml_error;
    use crate::error::{HarnessError, Origin};
    let text = std::fs::read_to_string(path).map_err(|e| HarnessError::file(path, e))?;
    if yaml_error::is_blank(&text) {
        return Err(HarnessError::invalid_at(
            Origin::file(path),
            "the gate file is empty: it holds a `gate:` section with the keys of a corpus's",
        ));
    }
    let gate = serde_saphyr::from_str_with_options::<GateFile>(&text, yaml_error::options())
        .map(|f| f.gate)
        .map_err(|e| {
            let (line, _, message) = yaml_error::located(&e, &text);
            HarnessError::invalid_at(Origin::at(path, line, None), message)
        })?;
    gate.check(&text)
        .map_err(|(line, m)| HarnessError::invalid_at(Origin::at(path, line, None), m))?;
    Ok(gate)
}

/// Judges `run` against the command-line thresholds, its corpora's gate sections and an
/// optional baseline.
pub fn evaluate(run: &RunResults, cli: &Thresholds, baseline: Option<&BaselineDiff>) -> Verdict {
    let mut v = Verdict::default();
    let any_max_failed = cli.max_failed.is_some()
        || run
            .corpora
            .iter()
            .any(|c| c.gate.as_ref().is_some_and(|g| g.max_failed.is_some()));
    let overall = Thresholds {
        max_failed: cli
            .max_failed
            .or(if any_max_failed { None } else { Some(0) }),
        ..cli.clone()
    };
    let none = Default::default();
    let accepted = baseline.map_or(&none, |b| &b.accepted_failures);
    check(&mut v, "all", &run.summary, &overall, run, accepted);
    let mut seen = Vec::new();
    for corpus in &run.corpora {
        let Some(gate) = &corpus.gate else { continue };
        if seen.contains(&corpus.suite) {
            continue;
        }
        seen.push(corpus.suite.clone());
        if let Some(m) = run.suites.get(&corpus.suite) {
            check(&mut v, &corpus.suite, m, gate, run, accepted);
        }
    }
    gate_budgets(&mut v, run, cli);
    add_baseline(&mut v, baseline);
    for c in run.cases.iter().filter(|c| c.status == Status::Xpass) {
        v.notes.push(format!(
            "XPASS {}/{}: passes although marked known_failure ({}); remove the mark",
            c.suite,
            c.id,
            c.known_failure.as_deref().unwrap_or("")
        ));
    }
    v
}

/// Judges a results.json that is not a corpus run (a `replay`, or a document of an older
/// or hand-made kind) on what every results.json has: the summary's `pass_rate`,
/// `insufficient_evidence_rate` and p95 latency against the command-line thresholds, and
/// the baseline. There is no default `max_failed` here: a replayed trace that does not
/// succeed is a finding of the replay, not a broken case.
pub fn evaluate_document(
    doc: &ResultsDocument,
    cli: &Thresholds,
    baseline: Option<&BaselineDiff>,
) -> Verdict {
    let mut v = Verdict::default();
    let number = |names: &[&str]| names.iter().find_map(|n| doc.summary_number(n));
    let nested = |a: &str, b: &str| {
        doc.summary
            .get(a)
            .and_then(|x| x.get(b))
            .and_then(serde_json::Value::as_f64)
    };
    if let Some(min) = cli.min_pass_rate {
        v.checks += 1;
        let rate = number(&["pass_rate"]).unwrap_or(0.0);
        if rate < min {
            v.fail(format!(
                "all: pass rate {} is below the minimum {}",
                pct(rate),
                pct(min)
            ));
        }
    }
    if let Some(max) = cli.max_insufficient_evidence_rate {
        v.checks += 1;
        let rate = number(&["insufficient_evidence_rate"]).unwrap_or(0.0);
        if rate > max {
            v.fail(format!(
                "all: insufficient_evidence rate {} is above the maximum {}",
                pct(rate),
                pct(max)
            ));
        }
    }
    if let Some(max) = cli.max_p95_ms {
        v.checks += 1;
        let p95 = number(&["latency_p95_ms"])
            .or_else(|| nested("latency", "p95_ms"))
            .unwrap_or(0.0);
        if p95 > max {
            v.fail(format!(
                "all: p95 latency {p95:.3}ms is above the maximum {max}ms"
            ));
        }
    }
    if let Some(max) = cli.max_failed {
        v.checks += 1;
        // a replay judged before its cases are written has only the summary's count
        let failed = if doc.cases.is_empty() {
            number(&["failed"]).unwrap_or(0.0) as usize
        } else {
            doc.cases
                .iter()
                .filter(|c| c.status == Status::Fail)
                .count()
        };
        if failed > max {
            v.fail(format!(
                "all: {failed} failing cases (at most {max} allowed)"
            ));
        }
    }
    let judged = nested("rank", "judged").unwrap_or(0.0) as usize;
    let rank = |name: &str| nested("rank", name).unwrap_or(0.0);
    check_rank(&mut v, "all", cli, judged, rank);
    add_baseline(&mut v, baseline);
    v
}

/// The ranking thresholds (`min_hit_at_k`, `min_mrr`, `min_recall_at_4kb`) against the
/// `rank` figures of `judged` cases; with none judged, a threshold fails (nothing showed
/// the ranking holds).
fn check_rank(
    v: &mut Verdict,
    scope: &str,
    t: &Thresholds,
    judged: usize,
    figure: impl Fn(&str) -> f64,
) {
    for (name, label, min) in [
        ("hit_at_k", "hit@k", t.min_hit_at_k),
        ("mrr", "MRR", t.min_mrr),
        ("recall_at_4kb", "recall within 4 KB", t.min_recall_at_4kb),
    ] {
        let Some(min) = min else { continue };
        v.checks += 1;
        let got = figure(name);
        if judged == 0 {
            v.fail(format!(
                "{scope}: {label} cannot be checked: no case names expected files (minimum {min})"
            ));
        } else if got < min {
            v.fail(format!(
                "{scope}: {label} {got:.4} is below the minimum {min} ({judged} judged case{})",
                crate::gate_settings::plural(judged)
            ));
        }
    }
}

fn add_baseline(v: &mut Verdict, baseline: Option<&BaselineDiff>) {
    if let Some(b) = baseline {
        v.checks += 1;
        if !b.failures.is_empty() {
            v.failed_checks += 1;
        }
        v.failures.extend(
            b.failures
                .iter()
                .map(|f| format!("baseline {}: {f}", b.path)),
        );
        v.notes
            .extend(b.notes.iter().map(|n| format!("baseline {}: {n}", b.path)));
    }
}

/// Failed cases of `scope` in `run`: those not `accepted` (failing in the baseline too),
/// and how many were.
fn failed_cases(
    run: &RunResults,
    scope: &str,
    accepted: &BTreeSet<(String, String)>,
) -> (Vec<String>, usize) {
    let mut unexpected = Vec::new();
    let mut known = 0;
    for c in run
        .cases
        .iter()
        .filter(|c| c.status == Status::Fail && (scope == "all" || c.suite == scope))
    {
        if accepted.contains(&c.key()) {
            known += 1;
        } else {
            unexpected.push(format!("{}/{}", c.suite, c.id));
        }
    }
    (unexpected, known)
}

/// Each suite whose corpus states a budget, gated on it when asked (`--gate-budgets`, or
/// `gate_budgets: true` in the corpus's gate section): a budget is one machine's figure,
/// so by default it is reported and not gated.
fn gate_budgets(v: &mut Verdict, run: &RunResults, cli: &Thresholds) {
    for (suite, m) in &run.suites {
        let asked = cli.gate_budgets == Some(true)
            || run.corpora.iter().any(|c| {
                &c.suite == suite && c.gate.as_ref().and_then(|g| g.gate_budgets) == Some(true)
            });
        let stated =
            m.latency.budget_p95_ms.is_some() || m.latency.budget_per_1000_items_ms.is_some();
        if !asked || !stated {
            continue;
        }
        v.checks += 1;
        let over = m.latency.over_budget();
        if !over.is_empty() {
            v.fail(format!(
                "{suite}: latency over its stated budget: {}",
                over.join("; ")
            ));
        }
    }
}

fn check(
    v: &mut Verdict,
    scope: &str,
    m: &GroupMetrics,
    t: &Thresholds,
    run: &RunResults,
    accepted: &BTreeSet<(String, String)>,
) {
    check_rank(v, scope, t, m.rank.judged, |name| match name {
        "hit_at_k" => m.rank.hit_at_k,
        "mrr" => m.rank.mrr,
        _ => m.rank.recall.recall_at_4kb,
    });
    if let Some(min) = t.min_pass_rate {
        v.checks += 1;
        if m.pass_rate < min {
            v.fail(format!(
                "{scope}: pass rate {} is below the minimum {} ({} of {} cases held)",
                pct(m.pass_rate),
                pct(min),
                m.passed + m.xpass,
                m.total
            ));
        }
    }
    if let Some(max) = t.max_insufficient_evidence_rate {
        v.checks += 1;
        if m.insufficient_evidence_rate > max {
            v.fail(format!(
                "{scope}: insufficient_evidence rate {} is above the maximum {} ({} cases)",
                pct(m.insufficient_evidence_rate),
                pct(max),
                m.outcomes.insufficient_evidence
            ));
        }
    }
    if let Some(max) = t.max_p95_ms {
        v.checks += 1;
        if m.latency.p95_ms > max {
            v.fail(format!(
                "{scope}: p95 latency {:.3}ms is above the maximum {max}ms",
                m.latency.p95_ms
            ));
        }
    }
    if let Some(max) = t.max_failed {
        v.checks += 1;
        // the cases themselves when the run holds them (a merged run's summary alone: none)
        let (ids, known) = failed_cases(run, scope, accepted);
        let failed = if run.cases.is_empty() {
            m.failed
        } else {
            ids.len()
        };
        if known > 0 && scope == "all" {
            v.notes.push(format!(
                "{known} failing case{} accepted: failed in the baseline too",
                if known == 1 { "" } else { "s" }
            ));
        }
        if failed > max {
            let shown: Vec<&str> = ids.iter().take(10).map(String::as_str).collect();
            v.fail(format!(
                "{scope}: {failed} unexpected failure{} (at most {max} allowed): {}{}",
                if failed == 1 { "" } else { "s" },
                shown.join(", "),
                if ids.len() > shown.len() { ", ..." } else { "" }
            ));
        }
    }
}
