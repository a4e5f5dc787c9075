//! A run against a baseline results.json (`run --baseline`, `gate --baseline`): the headline
//! rates before and after, every case whose expectations stopped or started holding, and
//! the reasons a gate fails. All of it is [`crate::compare`]'s comparison of the two
//! documents (one diff, one set of tests): newly failing cases, pass/fail and outcome flips
//! beyond noise (exact McNemar), latency p50/p95 slower beyond noise (paired bootstrap) and
//! by more than [`crate::compare::LATENCY_TOLERANCE`].

use crate::compare::{compare, CaseChange, ChangeKind, Comparison};
use crate::results::ResultsDocument;
use serde::Serialize;
use std::path::Path;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BaselineDiff {
    pub path: String,
    pub git_revision: Option<String>,
    pub pass_rate_before: f64,
    pub pass_rate_after: f64,
    pub insufficient_evidence_rate_before: f64,
    pub insufficient_evidence_rate_after: f64,
    /// Cases that held (pass or xpass) in the baseline and do not now, and new cases that
    /// fail.
    pub regressed: Vec<CaseChange>,
    /// Cases that did not hold in the baseline and do now.
    pub fixed: Vec<CaseChange>,
    /// Cases only in this run, and only in the baseline.
    pub added: usize,
    pub removed: usize,
    /// Why a gate against the baseline fails, one line per reason (empty: it passes).
    pub failures: Vec<String>,
    /// What the gate says without failing (timings of another machine or build).
    pub notes: Vec<String>,
    /// Cases (suite, id) that failed in the baseline: recording a run as the baseline
    /// accepts its failures, so they are not unexpected while they fail the same way.
    #[serde(skip)]
    pub accepted_failures: std::collections::BTreeSet<(String, String)>,
}

/// Compares `current` with `baseline` (read from `path`). Latency is gated only when both
/// runs recorded one machine instance and build, or when `gate_latency` asks for it.
pub fn diff(
    baseline: &ResultsDocument,
    path: &str,
    current: &ResultsDocument,
    gate_latency: bool,
) -> BaselineDiff {
    let mut cmp: Comparison = compare(baseline, current, Path::new(path), Path::new("this run"));
    if gate_latency {
        cmp.latency_note = None;
    }
    let of = |kind: ChangeKind| -> Vec<CaseChange> {
        cmp.changes
            .iter()
            .filter(|c| c.kind == kind)
            .cloned()
            .collect()
    };
    let rate = |d: &ResultsDocument, name: &str| d.summary_number(name).unwrap_or(0.0);
    BaselineDiff {
        path: path.to_string(),
        git_revision: baseline.git_revision.clone(),
        pass_rate_before: rate(baseline, "pass_rate"),
        pass_rate_after: rate(current, "pass_rate"),
        insufficient_evidence_rate_before: rate(baseline, "insufficient_evidence_rate"),
        insufficient_evidence_rate_after: rate(current, "insufficient_evidence_rate"),
        regressed: of(ChangeKind::Regression),
        fixed: of(ChangeKind::Fixed),
        added: cmp.after_cases - cmp.paired_cases,
        removed: cmp.before_cases - cmp.paired_cases,
        failures: cmp.baseline_failures(),
        notes: cmp.baseline_notes(),
        accepted_failures: baseline
            .cases
            .iter()
            .filter(|c| c.status == crate::case::Status::Fail)
            .map(|c| c.key())
            .collect(),
    }
}

impl BaselineDiff {
    /// Whether the gate against this baseline fails.
    pub fn has_regressions(&self) -> bool {
        !self.failures.is_empty()
    }
}
