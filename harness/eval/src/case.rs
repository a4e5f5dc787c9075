//! The case model: one case's result ([`CaseResult`], its [`Status`] and tool [`Call`]s) and
//! what a replayed trace adds to it ([`TraceOutcome`], [`Transition`], [`Explanation`]).
//! The metrics read it, `case_codec` writes and reads it, and the results document
//! ([`crate::results`]) is made of it.

use serde::{Deserialize, Serialize};
use std::fmt;

/// How a case ended against its expectations.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Every expectation held.
    Pass,
    /// An expectation failed.
    #[default]
    Fail,
    /// An expectation failed, as the case's `known_failure` says it will.
    Xfail,
    /// Every expectation held although the case is marked `known_failure`.
    Xpass,
    /// The engine does not answer the case's mode (`run --engine`): listed with its reason,
    /// counted apart, never judged (no pass rate, gate or comparison counts it).
    #[serde(rename = "n/a")]
    NotApplicable,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Xfail => "xfail",
            Status::Xpass => "xpass",
            Status::NotApplicable => "n/a",
        }
    }

    /// Pass or xpass: the case's expectations held.
    pub fn held(self) -> bool {
        matches!(self, Status::Pass | Status::Xpass)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One case's result: a corpus case of `run`, or a replayed trace of `replay` (then `id` is
/// the trace_id and the `recorded_*` fields and `transition` are set). One schema for both
/// (schemas/results.schema.json); the fields the schema requires (`id`, `status`,
/// `outcome`, `duration_ms`) are required when reading, everything else has a default, so
/// `compare` and `gate --baseline` read results of either kind and of older versions.
/// Written with every field ([`crate::case_json`]): a reader never derives one.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct CaseResult {
    pub id: String,
    /// The engine that answered (`findbench`, or an engine file's name); empty in results
    /// written before engines were recorded, which were findbench's.
    #[serde(default)]
    pub engine: String,
    #[serde(default)]
    pub suite: String,
    #[serde(default)]
    pub mode: String,
    #[serde(default)]
    pub query: String,
    pub status: Status,
    /// success, no_match, insufficient_evidence, failure, error (the engine refused), or
    /// n/a (the engine does not answer the case's mode).
    pub outcome: String,
    #[serde(default)]
    pub expected_outcome: Option<String>,
    /// Candidates the mode considered a match (before its limit).
    #[serde(default)]
    pub candidates: usize,
    /// Keys (ids or paths) returned, best first.
    #[serde(default)]
    pub ranked: Vec<String>,
    /// The keys the case names (`top`, then `contains`): its relevant items.
    #[serde(default)]
    pub expected: Vec<String>,
    /// 1-based rank of the first expected key in `ranked`; null when absent or none named.
    #[serde(default)]
    pub rank: Option<usize>,
    /// Where in the answer document (its JSON, as `output_bytes` counts it) the first
    /// expected key ends, in bytes; null when none is in it or the case names none
    /// (`metrics::recall`).
    #[serde(default)]
    pub first_hit_bytes: Option<u64>,
    /// Wall time of the engine call.
    pub duration_ms: f64,
    /// Bytes of the JSON envelope `findbench find` prints for this response (replay: of
    /// the `ask` answer).
    #[serde(default)]
    pub output_bytes: u64,
    /// Bytes of dumping the whole fixture instead.
    #[serde(default)]
    pub dump_bytes: u64,
    /// Bytes an agent reads to see the evidence: the answer, then each returned file in
    /// rank order up to the first expected one (or the whole fixture when none is
    /// returned). Set for cases that name their items (engines::run::evidence_bytes).
    #[serde(default)]
    pub evidence_bytes: Option<u64>,
    /// Items (or files, or paths) the query searched.
    #[serde(default)]
    pub items: usize,
    /// Tools the case used, in order (`ask` runs several; a direct mode is one tool).
    #[serde(default)]
    pub tools: Vec<String>,
    #[serde(default)]
    pub iterations: u32,
    #[serde(default)]
    pub failed_tools: u32,
    /// Each tool call in order, with its input and what it found (`tools` holds their
    /// names). Empty in results written before calls were recorded.
    #[serde(default)]
    pub calls: Vec<Call>,
    /// Why the case failed (or, for an xpass, that it passed); null for a pass.
    #[serde(default)]
    pub reason: Option<String>,
    #[serde(default)]
    pub known_failure: Option<String>,
    #[serde(default)]
    pub tags: Vec<String>,
    /// Where the case is defined (a corpus file; empty for a replayed trace).
    #[serde(default)]
    pub file: String,
    #[serde(default)]
    pub line: usize,
    /// Replay: the outcome recorded in production.
    #[serde(default)]
    pub recorded_outcome: Option<TraceOutcome>,
    /// Replay: fixed, regressed or unchanged against the recording.
    #[serde(default)]
    pub transition: Option<Transition>,
    /// Replay: the trace's fixture name and time.
    #[serde(default)]
    pub fixture: Option<String>,
    #[serde(default)]
    pub timestamp: Option<String>,
    /// Replay: what the recording says of candidates, tools, iterations and time.
    #[serde(default)]
    pub recorded_candidates: Option<u64>,
    #[serde(default)]
    pub recorded_tools: Option<Vec<String>>,
    #[serde(default)]
    pub recorded_iterations: Option<u32>,
    #[serde(default)]
    pub recorded_duration_ms: Option<f64>,
    /// Replay: the bytes the agent's own calls returned (an imported trace records them):
    /// its tools, and the later calls the trace lists.
    #[serde(default)]
    pub recorded_output_bytes: Option<u64>,
    /// Replay, a trace that names `expected` files: the bytes the agent read to reach one.
    /// With the trace's later calls (an imported trace's), its search and every later search
    /// and file read up to and including the first read of an expected file; without, its
    /// tools up to the end of the first that returned anything. Null when it never reached
    /// one or the sizes are not recorded.
    #[serde(default)]
    pub recorded_first_hit_bytes: Option<u64>,
    /// Replay, a trace that names `expected` files: the searches the agent ran before its
    /// first useful one (earlier searches of its turn, then its own calls before it).
    #[serde(default)]
    pub recorded_searches_before_hit: Option<u32>,
    /// `ask`: the file read as evidence.
    #[serde(default)]
    pub selected: Option<String>,
    /// Replay `--explain`: the plan, each cascade step and each candidate's reason.
    #[serde(default)]
    pub explain: Option<Explanation>,
    /// Replay: the trace's 1-based position among the traces of the input (all files, in
    /// read order); `findbench merge` puts shards' cases back in this order.
    #[serde(default)]
    pub input_index: Option<u64>,
}

/// One tool call of a case: the tool, its input, and the candidates it found (for a
/// `read`, 1 when the file held evidence).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Call {
    pub tool: String,
    #[serde(default)]
    pub input: String,
    #[serde(default)]
    pub candidates: usize,
}

impl Call {
    pub fn new(tool: impl Into<String>, input: impl Into<String>, candidates: usize) -> Call {
        Call {
            tool: tool.into(),
            input: input.into(),
            candidates,
        }
    }
}

impl CaseResult {
    /// Passing for flip counting: `pass`, and `xpass` (it did pass).
    pub fn passing(&self) -> bool {
        self.status.held()
    }

    /// A case its engine does not answer: listed, never judged.
    pub fn not_applicable(&self) -> bool {
        self.status == Status::NotApplicable
    }

    /// How cases of two runs pair up: (suite, id).
    pub fn key(&self) -> (String, String) {
        (self.suite.clone(), self.id.clone())
    }

    /// `status (outcome)`, or the status alone.
    pub fn state(&self) -> String {
        match self.outcome_str() {
            Some(o) => format!("{} ({o})", self.status),
            None => self.status.to_string(),
        }
    }

    /// The outcome, unless the document left it empty.
    pub fn outcome_str(&self) -> Option<&str> {
        Some(self.outcome.as_str()).filter(|o| !o.is_empty())
    }

    /// Calls that repeat an earlier call of the case: the same tool on the same input,
    /// work already done (each repeat counts). The same tool on another input (`find` of
    /// each word of a term, `read` of the next candidate) is not a duplicate. Results
    /// written before calls were recorded have names only: a repeated name counts there.
    pub fn duplicate_tools(&self) -> usize {
        let keys: Vec<(&str, &str)> = if self.calls.is_empty() {
            self.tools.iter().map(|t| (t.as_str(), "")).collect()
        } else {
            self.calls
                .iter()
                .map(|c| (c.tool.as_str(), c.input.as_str()))
                .collect()
        };
        let mut seen = std::collections::HashSet::new();
        keys.into_iter().filter(|k| !seen.insert(*k)).count()
    }
}

/// How a replayed outcome compares with the recording (replay cases only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Transition {
    /// Recorded not a success, replayed a success.
    Fixed,
    /// Recorded a success, replayed not.
    Regressed,
    Unchanged,
}

impl Transition {
    pub fn of(recorded: TraceOutcome, replayed: TraceOutcome) -> Transition {
        use TraceOutcome::Success;
        match (recorded == Success, replayed == Success) {
            (false, true) => Transition::Fixed,
            (true, false) => Transition::Regressed,
            _ => Transition::Unchanged,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Transition::Fixed => "fixed",
            Transition::Regressed => "regressed",
            Transition::Unchanged => "unchanged",
        }
    }
}

/// How a retrieval ended (the `ask` outcomes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TraceOutcome {
    Success,
    InsufficientEvidence,
    Failure,
}

impl TraceOutcome {
    pub const ALL: [TraceOutcome; 3] = [
        TraceOutcome::Success,
        TraceOutcome::InsufficientEvidence,
        TraceOutcome::Failure,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            TraceOutcome::Success => "success",
            TraceOutcome::InsufficientEvidence => "insufficient_evidence",
            TraceOutcome::Failure => "failure",
        }
    }

    pub fn parse(s: &str) -> Option<TraceOutcome> {
        TraceOutcome::ALL.into_iter().find(|o| o.as_str() == s)
    }
}

impl std::fmt::Display for TraceOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One cascade step of `--explain`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExplainStep {
    pub tool: String,
    pub input: String,
    pub candidates: usize,
    pub note: String,
}

/// Why a question ended as it did: the plan, each step, each candidate's score and reason.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Explanation {
    pub term: Option<String>,
    #[serde(rename = "impl")]
    pub impl_query: bool,
    pub steps: Vec<ExplainStep>,
    pub candidates: Vec<ExplainCandidate>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExplainCandidate {
    pub path: String,
    pub score: f64,
    pub reason: String,
}
