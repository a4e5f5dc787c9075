//! The results of a run: the `results.json` document (schemas/results.schema.json is a contract:
//! keep names stable, add freely).
//!
//! Every metric is recomputable from `cases` plus `corpora` and `cost_model`, so results of
//! several shards of one corpus set can be merged by concatenating their cases and calling
//! [`crate::metrics::compute`] again.

/// The case model results.json is made of, re-exported: readers of results.json find it here.
pub use crate::case::{
    Call, CaseResult, ExplainCandidate, ExplainStep, Explanation, Status, TraceOutcome, Transition,
};
use crate::corpus::{Budget, GateSpec};
use crate::metrics::{CostModel, GroupMetrics};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// `$schema` of results.json, `run` and `replay` alike (schemas/results.schema.json).
pub const RESULTS_SCHEMA: &str = "results.schema.json";

/// The build profile of this binary: timings of a debug and a release build are not
/// comparable, so results.json records it.
pub fn build_profile() -> &'static str {
    if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    }
}

/// The machine a run ran on (`run` and `replay` alike).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    pub os: String,
    pub arch: String,
    pub cpus: usize,
    #[serde(default)]
    pub hostname: Option<String>,
}

impl Machine {
    pub fn current() -> Machine {
        Machine {
            os: std::env::consts::OS.to_string(),
            arch: std::env::consts::ARCH.to_string(),
            cpus: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
            hostname: std::fs::read_to_string("/proc/sys/kernel/hostname")
                .ok()
                .or_else(|| std::env::var("HOSTNAME").ok())
                .map(|h| h.trim().to_string())
                .filter(|h| !h.is_empty()),
        }
    }
}

/// A fixture as the reports describe it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FixtureInfo {
    pub kind: String,
    pub path: String,
    pub items: usize,
    pub dump_bytes: u64,
}

/// One corpus file of the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorpusInfo {
    pub path: String,
    pub suite: String,
    /// sha256 of the file, hex.
    pub sha256: String,
    /// Cases of this file that ran (after `--filter`).
    pub cases: usize,
    pub fixture: FixtureInfo,
    pub budget: Budget,
    #[serde(default)]
    pub gate: Option<GateSpec>,
}

/// The whole results.json document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunResults {
    #[serde(rename = "$schema")]
    pub schema: String,
    /// `run` (a corpus run) or `replay` (a trace replay).
    pub kind: String,
    pub findbench_version: String,
    pub engine_version: String,
    /// `git rev-parse HEAD` of the working directory, when it is a git checkout.
    pub git_revision: Option<String>,
    /// Ranking profile name.
    pub profile: String,
    pub machine: Machine,
    /// `debug` or `release` (absent in results written before it was recorded).
    #[serde(default)]
    pub build: Option<String>,
    /// Worker threads (`--jobs`).
    pub threads: usize,
    pub started_at: String,
    pub duration_ms: f64,
    #[serde(default)]
    pub filters: Vec<String>,
    /// `--shard K/N`: this run holds only its shard's cases (`findbench merge` joins them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<crate::shard::Shard>,
    pub cost_model: CostModel,
    pub corpora: Vec<CorpusInfo>,
    pub summary: GroupMetrics,
    pub suites: BTreeMap<String, GroupMetrics>,
    pub modes: BTreeMap<String, GroupMetrics>,
    pub tags: BTreeMap<String, GroupMetrics>,
    pub cases: Vec<CaseResult>,
    /// Every `--engine` of the run, the primary first (whose results the fields above
    /// are); absent when the run named none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub engines: Vec<crate::engines::EngineReport>,
}

impl RunResults {
    /// Every case of every engine: the primary's, then each other engine's.
    pub fn all_cases(&self) -> impl Iterator<Item = &CaseResult> {
        self.cases
            .iter()
            .chain(self.engines.iter().flat_map(|e| e.cases.iter()))
    }

    /// The budget of a suite (the default budget when the suite is unknown).
    pub fn budget_of(&self, suite: &str) -> Budget {
        self.corpora
            .iter()
            .find(|c| c.suite == suite)
            .map(|c| c.budget)
            .unwrap_or_default()
    }

    /// Reads a results.json, or the results.json inside a directory.
    pub fn read(path: &std::path::Path) -> crate::error::Result<RunResults> {
        use crate::error::HarnessError;
        let file = if path.is_dir() {
            path.join("results.json")
        } else {
            path.to_path_buf()
        };
        let bytes = std::fs::read(&file)
            .map_err(|e| HarnessError::file(&file, format!("cannot read results: {e}")))?;
        serde_json::from_slice(&bytes).map_err(|e| {
            HarnessError::invalid_at(
                crate::error::Origin::at(&file, e.line(), None),
                format!("not a findbench results.json: {e}"),
            )
        })
    }
}

/// Any results.json, of `run` or of `replay`, as `compare` and `gate --baseline` read it:
/// the shared case model, the run's identity, and the summary as a JSON object (a run
/// summarises corpora with [`GroupMetrics`], a replay recorded beside replayed outcomes;
/// both have `total`, `passed`, `failed`, `pass_rate` and `insufficient_evidence_rate`).
/// Cases are read in either form ([`crate::case_codec`]: a replay's compact cases, or every
/// field written out).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(try_from = "DocumentWire")]
pub struct ResultsDocument {
    /// `run` or `replay`.
    #[serde(default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub command: Option<String>,
    #[serde(default)]
    pub profile: Option<String>,
    #[serde(default)]
    pub engine_version: Option<String>,
    #[serde(default)]
    pub git_revision: Option<String>,
    #[serde(default)]
    pub machine: Option<Machine>,
    #[serde(default)]
    pub build: Option<String>,
    #[serde(default)]
    pub summary: Map<String, Value>,
    #[serde(default)]
    pub cases: Vec<CaseResult>,
    /// The engines of a `run --engine` (engines::select picks one).
    #[serde(default)]
    pub engines: Vec<EngineDocument>,
}

/// A results document as written: cases in either form, not yet filled in.
#[derive(Deserialize)]
struct DocumentWire {
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    command: Option<String>,
    #[serde(default)]
    profile: Option<String>,
    #[serde(default)]
    engine_version: Option<String>,
    #[serde(default)]
    git_revision: Option<String>,
    #[serde(default)]
    machine: Option<Machine>,
    #[serde(default)]
    build: Option<String>,
    #[serde(default)]
    summary: Map<String, Value>,
    #[serde(default)]
    case_defaults: Option<crate::case_codec::CaseWire>,
    #[serde(default)]
    answers: Vec<crate::case_codec::CaseWire>,
    #[serde(default)]
    cases: Vec<crate::case_codec::CaseWire>,
    #[serde(default)]
    engines: Vec<EngineDocument>,
}

impl TryFrom<DocumentWire> for ResultsDocument {
    type Error = String;

    fn try_from(w: DocumentWire) -> Result<ResultsDocument, String> {
        Ok(ResultsDocument {
            cases: crate::case_codec::decode_cases(w.case_defaults, w.answers, w.cases)?,
            kind: w.kind,
            command: w.command,
            profile: w.profile,
            engine_version: w.engine_version,
            git_revision: w.git_revision,
            machine: w.machine,
            build: w.build,
            summary: w.summary,
            engines: w.engines,
        })
    }
}

/// One engine of a results document, as `compare` reads it.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct EngineDocument {
    pub name: String,
    #[serde(default)]
    pub primary: bool,
    #[serde(default)]
    pub missing: Option<String>,
    #[serde(default)]
    pub summary: Option<Map<String, Value>>,
    #[serde(default)]
    pub cases: Vec<CaseResult>,
}

impl ResultsDocument {
    /// Reads a results.json (or the one inside a directory) of either kind.
    pub fn read(path: &std::path::Path) -> crate::error::Result<ResultsDocument> {
        use crate::error::{HarnessError, Origin};
        let file = if path.is_dir() {
            path.join("results.json")
        } else {
            path.to_path_buf()
        };
        let bytes = std::fs::read(&file).map_err(|e| {
            HarnessError::file(
                &file,
                format!("cannot read results: {e} (pass the results.json a `run` or `replay --out DIR` wrote)"),
            )
        })?;
        let doc: ResultsDocument = serde_json::from_slice(&bytes).map_err(|e| {
            HarnessError::invalid_at(
                Origin::at(&file, e.line(), None),
                format!("not a findbench results.json: {e}"),
            )
        })?;
        if doc.cases.is_empty() && doc.summary.is_empty() {
            return Err(HarnessError::invalid_at(
                Origin::file(&file),
                "no `summary` and no `cases`: not a findbench results.json",
            ));
        }
        Ok(doc)
    }

    /// The document a run in memory would be once written.
    pub fn from_run(run: &RunResults) -> ResultsDocument {
        serde_json::to_value(run)
            .and_then(serde_json::from_value)
            .unwrap_or_default()
    }

    /// A summary number (`pass_rate`, `insufficient_evidence_rate`, ...).
    pub fn summary_number(&self, name: &str) -> Option<f64> {
        self.summary.get(name).and_then(Value::as_f64)
    }
}

/// `git rev-parse HEAD` in the current directory, if git and a checkout are there.
pub fn git_revision() -> Option<String> {
    let out = std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}
