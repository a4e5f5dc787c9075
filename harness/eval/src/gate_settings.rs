//! What a gate is given and what it says: the thresholds of a whole run, the gate settings a
//! run or replay records (so that `merge` gates as the unsharded command did) and the
//! verdict with its lines and exit code. Data only, below the results document that holds
//! the settings and the gate that evaluates them.

use crate::error::exit;
use serde::{Deserialize, Serialize};

/// Thresholds of the whole run (`--min-pass-rate`, `--max-insufficient-evidence-rate`,
/// `--max-p95-ms`, `--max-failed`, and over the cases naming expected files
/// `--min-hit-at-k`, `--min-mrr`, `--min-recall-at-4kb`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Thresholds {
    #[serde(default)]
    pub min_pass_rate: Option<f64>,
    #[serde(default)]
    pub max_ie_rate: Option<f64>,
    #[serde(default)]
    pub max_p95_ms: Option<f64>,
    #[serde(default)]
    pub max_failed: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_hit_at_k: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_mrr: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_recall_at_4kb: Option<f64>,
}

impl Thresholds {
    /// Whether any threshold is set.
    pub fn any(&self) -> bool {
        self.min_pass_rate.is_some()
            || self.max_ie_rate.is_some()
            || self.max_p95_ms.is_some()
            || self.max_failed.is_some()
            || self.min_hit_at_k.is_some()
            || self.min_mrr.is_some()
            || self.min_recall_at_4kb.is_some()
    }
}

/// How a run or replay was gated, recorded in its results.json (`gate`), so `merge` gates
/// the joined shards exactly as the unsharded command would: the command-line thresholds
/// (each corpus's own `gate:` section is in `corpora`), `--exit-zero`, and `run`'s
/// `--baseline` as it was given.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GateSettings {
    #[serde(flatten)]
    pub thresholds: Thresholds,
    #[serde(default)]
    pub exit_zero: bool,
    #[serde(default)]
    pub baseline: Option<String>,
    /// `--gate-latency`: latency against the baseline fails the gate even when the two runs
    /// did not run on one machine instance and build (by default such timings are noted,
    /// not gated: `compare.rs`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub gate_latency: bool,
    /// `replay --hit-k K`: a replayed trace naming expected files passes only with one of
    /// them in its top K (absent: 5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hit_k: Option<usize>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl GateSettings {
    /// The exit code of a command gated by these settings whose verdict is `verdict`.
    pub fn exit_code(&self, verdict: &Verdict) -> i32 {
        if self.exit_zero {
            exit::OK
        } else {
            verdict.exit_code()
        }
    }
}

/// The gate's verdict.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Verdict {
    /// One line per reason the gate fails.
    pub failures: Vec<String>,
    /// Lines worth reading that do not fail the gate (xpasses).
    pub notes: Vec<String>,
    /// How many checks ran.
    pub checks: usize,
    /// How many of them failed (one check can fail for several reasons: a baseline check
    /// lists every case that stopped holding).
    pub failed_checks: usize,
}

impl Verdict {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// Records a check that failed, with its reason.
    pub(crate) fn fail(&mut self, reason: String) {
        self.failures.push(reason);
        self.failed_checks += 1;
    }

    pub fn exit_code(&self) -> i32 {
        if self.passed() {
            exit::OK
        } else {
            exit::FAILED
        }
    }

    /// The lines to print: failures, then notes, then the verdict.
    pub fn lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .failures
            .iter()
            .map(|f| format!("gate: FAIL {f}"))
            .collect();
        out.extend(self.notes.iter().map(|n| format!("gate: note {n}")));
        out.push(if self.passed() {
            format!(
                "gate: passed ({} check{})",
                self.checks,
                plural(self.checks)
            )
        } else {
            format!(
                "gate: failed ({} of {} check{} failed)",
                self.failed_checks,
                self.checks,
                plural(self.checks)
            )
        });
        out
    }
}

pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
