//! What the reports of a trace replay show besides its cases: the results.json header, the
//! outcome counts recorded beside replayed, the transition groups and the bad lines. The
//! traces crate fills it from its streaming totals; `report/` renders it (summary.md,
//! summary.csv, report.html) with the same exporters as a corpus run.

use crate::results::{Explanation, Machine, TraceOutcome, Transition};
use serde::{Deserialize, Serialize};

/// What results.json of a replay says about the run besides its cases.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReplayHeader {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub kind: String,
    pub command: String,
    pub findbench_version: String,
    pub engine_version: String,
    pub git_revision: Option<String>,
    pub profile: String,
    pub machine: Machine,
    /// `debug` or `release`: timings of the two are not comparable.
    pub build: String,
    pub threads: usize,
    pub started_at: String,
    pub duration_ms: f64,
    pub inputs: Vec<String>,
    /// Trace files read (the inputs expanded).
    #[serde(default)]
    pub input_files: usize,
    pub fixtures: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// `--shard K/N`: this replay holds only its shard's traces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<crate::shard::Shard>,
    /// How the replay was gated (its thresholds, `--exit-zero`): `merge` gates the joined
    /// shards the same way. Absent in results written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gate: Option<crate::gate_settings::GateSettings>,
}

/// Replayed cases of one normalised question that share their recorded and replayed
/// outcomes: a cluster a change fixed, broke, or left failing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TransitionGroup {
    pub question: String,
    pub transition: Transition,
    pub recorded_outcome: TraceOutcome,
    pub outcome: TraceOutcome,
    pub traces: usize,
    pub example_trace_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explain: Option<Explanation>,
}

impl TransitionGroup {
    /// Changed against the recording, or still not a success: what a report lists.
    pub fn notable(&self) -> bool {
        self.transition != Transition::Unchanged || self.outcome != TraceOutcome::Success
    }
}

/// One outcome, recorded and replayed counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutcomeCounts {
    pub outcome: TraceOutcome,
    pub recorded: usize,
    pub replayed: usize,
}

/// Everything the replay reports render besides the cases.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplaySummary {
    pub header: ReplayHeader,
    /// The `summary` object of results.json.
    pub summary: serde_json::Value,
    pub groups: Vec<TransitionGroup>,
    /// One row per outcome, in [`TraceOutcome::ALL`] order.
    pub outcomes: Vec<OutcomeCounts>,
    pub replayed: usize,
    pub files: usize,
    pub bad_lines: usize,
    /// The first bad lines, as `file:line: reason`.
    pub bad_examples: Vec<String>,
}

impl ReplaySummary {
    pub fn recorded(&self, o: TraceOutcome) -> usize {
        self.outcomes
            .iter()
            .find(|c| c.outcome == o)
            .map_or(0, |c| c.recorded)
    }

    pub fn replayed_count(&self, o: TraceOutcome) -> usize {
        self.outcomes
            .iter()
            .find(|c| c.outcome == o)
            .map_or(0, |c| c.replayed)
    }

    /// A number of the summary object (`0.0` when absent).
    pub fn number(&self, name: &str) -> f64 {
        self.summary[name].as_f64().unwrap_or(0.0)
    }
}
