//! The YAML shape of a corpus file (README.md, "Writing a corpus"), as serde types. Every struct
//! denies unknown keys, so a typo is an error naming the keys allowed.

use crate::gate_settings::Thresholds;
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
    /// The suite's thresholds (`harness/eval/src/gate_settings.rs`).
    pub gate: Option<Thresholds>,
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

/// Performance budgets a suite states (its corpus's `budget:` section). The reports mark
/// a suite over a stated latency budget and say which; a budget not stated is none. The
/// latency gate is a `max_p95_ms` threshold (`harness/eval/src/gate_settings.rs`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Budget {
    /// 95th percentile latency of a case, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p95_ms: Option<f64>,
    /// 95th percentile latency per 1000 items searched, in milliseconds (the specs' 1000
    /// tasks < 100 ms).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_1000_items_ms: Option<f64>,
    /// Default `expect.max_bytes` of every case (the specs' 10 matches < 5 KB).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_output_bytes: Option<u64>,
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
