//! The YAML shape of a corpus file (README.md, "Writing a corpus"), as serde types. Every struct
//! denies unknown keys, so a typo is an error naming the keys allowed.

use serde::{Deserialize, Serialize};
use serde_saphyr::Spanned;
use std::collections::BTreeMap;

/// One corpus file: a suite of cases against one fixture.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CorpusFile {
    pub suite: Spanned<String>,
    pub fixture: Spanned<FixtureSpec>,
    #[serde(default)]
    pub budget: Budget,
    #[serde(default)]
    pub gate: Option<GateSpec>,
    pub cases: Vec<CaseSpec>,
}

/// What the cases run against; exactly one of `root`, `store`, `paths` or `git` (with
/// `rev`), a path relative to the corpus file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FixtureSpec {
    /// A source tree (`code`, `grep`, `ask`, and `path` over its files).
    pub root: Option<String>,
    /// An item store: todo.json or JSON Lines (`task`, `name`, `outline`, `get`).
    pub store: Option<String>,
    /// A list of paths, one a line (`path`).
    pub paths: Option<String>,
    /// A git repository (bare, mirror or clone): the source tree of commit `rev`,
    /// materialized once into a cache ([`super::git`]).
    pub git: Option<String>,
    /// The commit of `git` (any revision git resolves: a commit id, a tag, `HEAD~3`).
    pub rev: Option<String>,
}

/// Performance budgets of a suite, checked in the reports.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Budget {
    /// 95th percentile latency of a case, in milliseconds.
    pub p95_ms: f64,
    /// Latency per 1000 items searched, in milliseconds (the specs' 1000 tasks < 100 ms).
    pub per_1000_items_ms: f64,
    /// Default `expect.max_bytes` of every case (the specs' 10 matches < 5 KB).
    pub max_output_bytes: Option<u64>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            p95_ms: 100.0,
            per_1000_items_ms: 100.0,
            max_output_bytes: None,
        }
    }
}

/// Thresholds a suite must meet (a corpus's `gate:` section), or a replay (`replay --gate
/// FILE`). `max_ie_rate` is read as `max_insufficient_evidence_rate`, the name documented.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GateSpec {
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
}

impl GateSpec {
    /// Each value within its range: a rate from 0 to 1, milliseconds 0 or more. The error
    /// is the line of the key in `text` (0 when not found) and the message naming it.
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

/// One query and what a correct engine returns for it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseSpec {
    pub id: Spanned<String>,
    #[serde(default)]
    pub query: String,
    pub mode: Spanned<String>,
    /// The mode's options, named as on the command line.
    #[serde(default)]
    pub args: Option<Spanned<BTreeMap<String, serde_json::Value>>>,
    #[serde(default)]
    pub expect: Option<Spanned<ExpectSpec>>,
    #[serde(default)]
    pub tags: Vec<String>,
    /// This case's own fixture, instead of the corpus's (a commit's parent, for a corpus
    /// built from history).
    #[serde(default)]
    pub fixture: Option<Spanned<FixtureSpec>>,
    /// Why this case is expected to fail; a pass is reported as XPASS.
    #[serde(default)]
    pub known_failure: Option<String>,
}

/// The outcome a case expects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExpectedOutcome {
    Success,
    InsufficientEvidence,
    NoMatch,
    /// The engine reports an error (or the `failure` outcome).
    #[serde(alias = "failure")]
    Error,
}

impl ExpectedOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            ExpectedOutcome::Success => "success",
            ExpectedOutcome::InsufficientEvidence => "insufficient_evidence",
            ExpectedOutcome::NoMatch => "no_match",
            ExpectedOutcome::Error => "error",
        }
    }
}

/// Expectations of one case; every one given must hold for the case to pass.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectSpec {
    pub outcome: Option<ExpectedOutcome>,
    /// Key (id or path) of the rank-1 result.
    pub top: Option<String>,
    /// Keys that must appear within the first `within` results.
    #[serde(default)]
    pub contains: Vec<String>,
    /// Rank window of `contains` (default: the request's limit).
    pub within: Option<usize>,
    /// Keys that must not appear anywhere in the results.
    #[serde(default)]
    pub excludes: Vec<String>,
    /// `find name`'s fuzzy_match_quality (good / weak).
    pub quality: Option<String>,
    /// Most bytes the JSON envelope of the response may take.
    pub max_bytes: Option<u64>,
}
