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
/// lists them.
pub(crate) fn notable(run: &RunResults) -> Vec<&CaseResult> {
    run.cases
        .iter()
        .filter(|c| c.status != Status::Pass)
        .collect()
}
