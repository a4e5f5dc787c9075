//! What every report lists alike: a group's counting cells and the cases that did not
//! simply pass.

use super::numbers::pct;
use crate::case::{CaseResult, Status};
use crate::metrics::GroupMetrics;
use crate::results::RunResults;

/// The counting columns of a group's row, in the order every table shows them: cases,
/// passed (xpass included), failed, xfail, xpass, pass rate, insufficient-evidence rate.
pub(crate) fn count_cells(g: &GroupMetrics) -> [String; 7] {
    [
        g.total.to_string(),
        (g.passed + g.xpass).to_string(),
        g.failed.to_string(),
        g.xfail.to_string(),
        g.xpass.to_string(),
        pct(g.pass_rate),
        pct(g.insufficient_evidence_rate),
    ]
}

/// The cases that did not simply pass (fail, xfail, xpass), in report order: every report
/// lists them. An n/a case is not among them: [`not_applicable`] counts those by reason.
pub(crate) fn notable(run: &RunResults) -> Vec<&CaseResult> {
    run.cases
        .iter()
        .filter(|c| !matches!(c.status, Status::Pass | Status::NotApplicable))
        .collect()
}

/// The n/a cases of every engine of the run, counted by (engine, reason), in the order
/// first met: what summary.md, report.html and the console show of them.
pub(crate) fn not_applicable(run: &RunResults) -> Vec<(&str, &str, usize)> {
    let mut rows: Vec<(&str, &str, usize)> = Vec::new();
    for c in run.all_cases().filter(|c| c.not_applicable()) {
        let reason = c.reason.as_deref().unwrap_or("");
        match rows
            .iter_mut()
            .find(|(e, r, _)| *e == c.engine && *r == reason)
        {
            Some(row) => row.2 += 1,
            None => rows.push((c.engine.as_str(), reason, 1)),
        }
    }
    rows
}
