//! A run against a baseline results.json (`run --baseline`, `gate --baseline`): the headline
//! rates before and after, and every case whose expectations stopped or started holding.
//! The full before/after release report with significance tests is `compare`'s job.

use crate::results::{RunResults, Status};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StatusChange {
    pub suite: String,
    pub id: String,
    pub before: Status,
    pub after: Status,
    pub reason: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BaselineDiff {
    pub path: String,
    pub git_revision: Option<String>,
    pub pass_rate_before: f64,
    pub pass_rate_after: f64,
    pub insufficient_evidence_rate_before: f64,
    pub insufficient_evidence_rate_after: f64,
    /// Cases that held (pass or xpass) in the baseline and do not now.
    pub regressed: Vec<StatusChange>,
    /// Cases that did not hold in the baseline and do now.
    pub fixed: Vec<StatusChange>,
    /// Cases only in this run, and only in the baseline.
    pub added: usize,
    pub removed: usize,
}

pub fn diff(baseline: &RunResults, path: &str, current: &RunResults) -> BaselineDiff {
    let before: BTreeMap<(&str, &str), _> = baseline
        .cases
        .iter()
        .map(|c| ((c.suite.as_str(), c.id.as_str()), c))
        .collect();
    let mut regressed = Vec::new();
    let mut fixed = Vec::new();
    let mut matched = 0;
    for c in &current.cases {
        let Some(b) = before.get(&(c.suite.as_str(), c.id.as_str())) else {
            continue;
        };
        matched += 1;
        let change = || StatusChange {
            suite: c.suite.clone(),
            id: c.id.clone(),
            before: b.status,
            after: c.status,
            reason: c.reason.clone(),
        };
        match (b.status.held(), c.status.held()) {
            (true, false) => regressed.push(change()),
            (false, true) => fixed.push(change()),
            _ => {}
        }
    }
    BaselineDiff {
        path: path.to_string(),
        git_revision: baseline.git_revision.clone(),
        pass_rate_before: baseline.summary.pass_rate,
        pass_rate_after: current.summary.pass_rate,
        insufficient_evidence_rate_before: baseline.summary.insufficient_evidence_rate,
        insufficient_evidence_rate_after: current.summary.insufficient_evidence_rate,
        regressed,
        fixed,
        added: current.cases.len() - matched,
        removed: baseline.cases.len() - matched,
    }
}

impl BaselineDiff {
    /// Whether any case regressed.
    pub fn has_regressions(&self) -> bool {
        !self.regressed.is_empty()
    }
}
