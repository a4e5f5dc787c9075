//! What a gate is given and what it says: the thresholds of a whole run, the gate settings a
//! run or replay records (so that `merge` gates as the unsharded command did) and the
//! verdict with its lines and exit code. Data only, below the results document that holds
//! the settings and the gate that evaluates them.

use crate::error::exit;
use serde::{Deserialize, Serialize};

/// Thresholds a gate checks: a corpus's `gate:` section (its suite), a gate file's
/// (`replay --gate FILE`), and the command line's (`--min-pass-rate`,
/// `--max-insufficient-evidence-rate`, `--max-p95-ms`, `--max-failed`, and over the cases
/// naming expected files `--min-hit-at-k`, `--min-mrr`, `--min-recall-at-4kb`), all one
/// set of names. `max_ie_rate` is read as `max_insufficient_evidence_rate`. Unknown keys
/// are refused, so a typo in a `gate:` section is an error naming the keys allowed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Thresholds {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_pass_rate: Option<f64>,
    #[serde(
        default,
        alias = "max_ie_rate",
        skip_serializing_if = "Option::is_none"
    )]
    pub max_insufficient_evidence_rate: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_p95_ms: Option<f64>,
    /// Most cases allowed to fail unexpectedly (known failures aside).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_failed: Option<usize>,
    /// Least share of judged cases (those naming expected files) with one in the top k.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_hit_at_k: Option<f64>,
    /// Least mean reciprocal rank of the first expected file over judged cases.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_mrr: Option<f64>,
    /// Least share of judged cases whose first expected file is within 4 KB of the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_recall_at_4kb: Option<f64>,
    /// Fail a suite whose latency exceeds a budget its corpus states (`--gate-budgets`);
    /// unset, budgets are reported and not gated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gate_budgets: Option<bool>,
}

impl Thresholds {
    /// Whether any threshold is set.
    pub fn any(&self) -> bool {
        *self != Thresholds::default()
    }

    /// These thresholds, each unset one taken from `other` (a gate file's under the
    /// command line's).
    pub fn or(&self, other: &Thresholds) -> Thresholds {
        Thresholds {
            min_pass_rate: self.min_pass_rate.or(other.min_pass_rate),
            max_insufficient_evidence_rate: self
                .max_insufficient_evidence_rate
                .or(other.max_insufficient_evidence_rate),
            max_p95_ms: self.max_p95_ms.or(other.max_p95_ms),
            max_failed: self.max_failed.or(other.max_failed),
            min_hit_at_k: self.min_hit_at_k.or(other.min_hit_at_k),
            min_mrr: self.min_mrr.or(other.min_mrr),
            min_recall_at_4kb: self.min_recall_at_4kb.or(other.min_recall_at_4kb),
            gate_budgets: self.gate_budgets.or(other.gate_budgets),
        }
    }

    /// Each value within its range: a rate from 0 to 1, milliseconds 0 or more. The error
    /// is the line of the key in `text`, the YAML it was read from (0 when not found), and
    /// the message naming the key as written.
    pub fn check(&self, text: &str) -> Result<(), (usize, String)> {
        let line_of = |keys: &[&str]| {
            text.lines()
                .position(|l| keys.iter().any(|k| l.contains(&format!("{k}:"))))
                .map_or(0, |i| i + 1)
        };
        let rates = [
            (&["min_pass_rate"][..], self.min_pass_rate),
            (
                &["max_insufficient_evidence_rate", "max_ie_rate"][..],
                self.max_insufficient_evidence_rate,
            ),
            (&["min_hit_at_k"][..], self.min_hit_at_k),
            (&["min_mrr"][..], self.min_mrr),
            (&["min_recall_at_4kb"][..], self.min_recall_at_4kb),
        ];
        for (keys, value) in rates {
            if let Some(v) = value.filter(|v| !(0.0..=1.0).contains(v)) {
                let line = line_of(keys);
                return Err((
                    line,
                    format!(
                        "gate: `{}` is {v}: a rate from 0 to 1 (0.95 is 95%)",
                        keys.iter()
                            .find(|k| text.contains(&format!("{k}:")))
                            .unwrap_or(&keys[0])
                    ),
                ));
            }
        }
        if let Some(v) = self.max_p95_ms.filter(|v| !(*v >= 0.0 && v.is_finite())) {
            return Err((
                line_of(&["max_p95_ms"]),
                format!("gate: `max_p95_ms` is {v}: milliseconds, 0 or more"),
            ));
        }
        Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A corpus's `gate:` section, a gate file and a results.json's recorded settings are
    /// read by the one struct: the documented name, the short one, and a results.json
    /// written with nulls.
    #[test]
    fn one_set_of_thresholds_reads_every_spelling() {
        let section: Thresholds =
            serde_json::from_str(r#"{"max_ie_rate": 0.2, "min_hit_at_k": 0.5}"#).unwrap();
        let long: Thresholds =
            serde_json::from_str(r#"{"max_insufficient_evidence_rate": 0.2, "min_hit_at_k": 0.5}"#)
                .unwrap();
        assert_eq!(section, long);
        assert_eq!(section.max_insufficient_evidence_rate, Some(0.2));
        let typo = serde_json::from_str::<Thresholds>(r#"{"min_pass_rat": 0.9}"#).unwrap_err();
        assert!(typo.to_string().contains("min_pass_rat"), "{typo}");
        let recorded: GateSettings = serde_json::from_str(
            r#"{"min_pass_rate": null, "max_ie_rate": 0.3, "max_p95_ms": null, "max_failed": 2,
                "exit_zero": true, "baseline": null, "hit_k": 3}"#,
        )
        .unwrap();
        assert_eq!(
            recorded.thresholds.max_insufficient_evidence_rate,
            Some(0.3)
        );
        assert_eq!(recorded.thresholds.max_failed, Some(2));
        assert!(recorded.exit_zero && recorded.hit_k == Some(3));
        // written under the documented name only, unset thresholds left out
        let written = serde_json::to_value(&recorded).unwrap();
        assert_eq!(written["max_insufficient_evidence_rate"], 0.3);
        assert!(written.get("max_ie_rate").is_none() && written.get("min_pass_rate").is_none());
        let back: GateSettings = serde_json::from_value(written).unwrap();
        assert_eq!(back, recorded);
        // the command line over a gate file
        let cli = Thresholds {
            min_hit_at_k: Some(0.9),
            ..Thresholds::default()
        };
        let both = cli.or(&section);
        assert_eq!(
            (both.min_hit_at_k, both.max_insufficient_evidence_rate),
            (Some(0.9), Some(0.2))
        );
        assert!(both.any() && !Thresholds::default().any());
    }
}
