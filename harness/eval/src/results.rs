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
use crate::corpus::Budget;
use crate::error::{HarnessError, Origin};
use crate::gate_settings::Thresholds;
use crate::metrics::{CostModel, GroupMetrics};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
    /// This machine since its last boot: a hash of `/etc/machine-id` and the kernel's boot
    /// id (Linux). Hostnames repeat across fresh virtual machines of one image, so two runs'
    /// latencies are compared only when their instances are equal (`compare.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance: Option<String>,
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
            instance: machine_instance(),
        }
    }
}

/// A hash of the machine's id and its boot id; `None` where the kernel gives no boot id.
fn machine_instance() -> Option<String> {
    use sha2::{Digest, Sha256};
    let boot = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").ok()?;
    let machine = std::fs::read_to_string("/etc/machine-id").unwrap_or_default();
    let digest = Sha256::digest(format!("{}\n{}", machine.trim(), boot.trim()));
    Some(digest[..8].iter().map(|b| format!("{b:02x}")).collect())
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
    pub gate: Option<Thresholds>,
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
    /// How the run was gated (thresholds, `--exit-zero`, `--baseline`): `merge` gates the
    /// joined shards the same way. Absent in results written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gate: Option<crate::gate_settings::GateSettings>,
    pub cost_model: CostModel,
    pub corpora: Vec<CorpusInfo>,
    pub summary: GroupMetrics,
    pub suites: BTreeMap<String, GroupMetrics>,
    pub modes: BTreeMap<String, GroupMetrics>,
    pub tags: BTreeMap<String, GroupMetrics>,
    /// The cases.jsonl beside this results.json (`cases.jsonl.gz` with `--out-compress`):
    /// every case of every engine, one a line. Absent in results written before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cases_file: Option<String>,
    #[serde(default)]
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

    /// The budget a suite states (none when the suite is unknown).
    pub fn budget_of(&self, suite: &str) -> Budget {
        self.corpora
            .iter()
            .find(|c| c.suite == suite)
            .map(|c| c.budget)
            .unwrap_or_default()
    }

    /// Reads a results.json, or the results.json inside a directory (its cases from its
    /// `cases_file` when it leaves `cases` out).
    pub fn read(path: &Path) -> crate::error::Result<RunResults> {
        let file = results_path(path);
        let bytes = read_results_bytes(&file)?;
        let has_cases = has_key(&bytes, "cases");
        let mut run: RunResults =
            serde_json::from_slice(&bytes).map_err(|e| not_results_in(&file, &bytes, &e))?;
        if let (false, Some(name)) = (has_cases, &run.cases_file) {
            let primary = run
                .engines
                .iter()
                .find(|e| e.primary)
                .map(|e| e.name.clone());
            run.cases = cases_beside(&file, name, None)?
                .into_iter()
                .filter(|c| primary.as_ref().is_none_or(|p| *p == c.engine))
                .collect();
            if run.cases.len() != run.summary.cases() {
                return Err(crate::cases_file::incomplete(
                    Origin::file(&file.with_file_name(name)),
                    format!(
                        "{} cases where its results.json counts {}",
                        run.cases.len(),
                        run.summary.cases()
                    ),
                ));
            }
        }
        Ok(run)
    }
}

/// The results.json `path` names: the file itself, or `results.json` inside a directory.
pub fn results_path(path: &Path) -> PathBuf {
    if path.is_dir() {
        path.join("results.json")
    } else {
        path.to_path_buf()
    }
}

/// The bytes of a results.json; a file that cannot be read is a file error (exit 3).
fn read_results_bytes(file: &Path) -> crate::error::Result<Vec<u8>> {
    std::fs::read(file).map_err(|e| {
        HarnessError::file(file, format!("cannot read results: {e}"))
            .with_hint(crate::cases_file::HOW_TO_GET_ONE)
    })
}

/// A results.json that does not parse, read from `file` again to say where and what in
/// plain words ([`crate::results_error`]): the line, the field's path, what it should hold
/// and what it holds, or where the file ends early.
pub fn not_results(file: &Path, e: &serde_json::Error) -> HarnessError {
    match std::fs::read(file) {
        Ok(bytes) => not_results_in(file, &bytes, e),
        Err(_) => crate::cases_file::incomplete(Origin::at(file, e.line(), None), e),
    }
}

/// [`not_results`] of the document `bytes`.
pub fn not_results_in(file: &Path, bytes: &[u8], e: &serde_json::Error) -> HarnessError {
    let (line, what) = crate::results_error::describe(bytes, e);
    crate::cases_file::incomplete(Origin::at(file, line, None), what)
}

/// An error when a summary figure every results.json has (`total`, `pass_rate`, ...) holds
/// the wrong kind of value, at its line in `bytes` (the file read again when not given).
fn check_summary(
    file: &Path,
    summary: &Map<String, Value>,
    bytes: Option<&[u8]>,
) -> crate::error::Result<()> {
    if crate::results_error::summary_problem(summary, &[]).is_none() {
        return Ok(());
    }
    let read;
    let bytes = match bytes {
        Some(b) => b,
        None => {
            read = std::fs::read(file).unwrap_or_default();
            &read
        }
    };
    match crate::results_error::summary_problem(summary, bytes) {
        Some((line, what)) => Err(crate::cases_file::incomplete(
            Origin::at(file, line, None),
            what,
        )),
        None => Ok(()),
    }
}

/// Whether the top-level object of a results.json has `key` (a document that leaves its
/// cases to its `cases_file` has no `cases`).
fn has_key(bytes: &[u8], key: &str) -> bool {
    serde_json::from_slice::<BTreeMap<String, serde::de::IgnoredAny>>(bytes)
        .map_or(true, |map| map.contains_key(key))
}

/// The cases of the cases file `name` beside the results.json `file`.
fn cases_beside(
    file: &Path,
    name: &str,
    expected: Option<usize>,
) -> crate::error::Result<Vec<CaseResult>> {
    // a bare file name: a path could point a results.json at any file
    if Path::new(name)
        .file_name()
        .is_none_or(|n| n != std::ffi::OsStr::new(name))
    {
        return Err(crate::cases_file::incomplete(
            Origin::file(file),
            format!("`cases_file` `{name}` is not a file name beside it"),
        ));
    }
    crate::cases_file::read_all(&file.with_file_name(name), expected)
}

/// Any results.json, of `run` or of `replay`, as `compare` and `gate --baseline` read it:
/// the shared case model, the run's identity, and the summary as a JSON object (a run
/// summarises corpora with [`GroupMetrics`], a replay recorded beside replayed outcomes;
/// both have `total`, `passed`, `failed`, `pass_rate` and `insufficient_evidence_rate`).
/// Cases are read in either form ([`crate::case_codec`]: a replay's compact cases, or every
/// field written out).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(try_from = "DocumentWire<crate::case_codec::CaseWire, EngineDocument>")]
pub struct ResultsDocument {
    /// The schema the document names (findbench writes every results.json with one).
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
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
    /// The cases.jsonl to read the cases from, when the document leaves `cases` out (a
    /// replay of more than `report::json::INLINE_CASES_MAX` traces); [`Self::read`] does.
    #[serde(skip)]
    pub cases_elsewhere: Option<String>,
}

/// A results document as written: cases in either form, not yet filled in. With
/// `serde::de::IgnoredAny` for `C` and `E`, its head alone (cases and engines skipped, not
/// kept).
#[derive(Deserialize)]
struct DocumentWire<C, E> {
    #[serde(rename = "$schema", default)]
    schema: Option<String>,
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
    #[serde(default = "Option::default")]
    case_defaults: Option<C>,
    #[serde(default = "Vec::new")]
    answers: Vec<C>,
    #[serde(default = "Option::default")]
    cases: Option<Vec<C>>,
    #[serde(default)]
    cases_file: Option<String>,
    #[serde(default = "Vec::new")]
    engines: Vec<E>,
}

impl<C, E> DocumentWire<C, E> {
    /// The document's head with these cases and engines.
    fn with(
        self,
        cases: Vec<CaseResult>,
        cases_elsewhere: Option<String>,
        engines: Vec<EngineDocument>,
    ) -> ResultsDocument {
        ResultsDocument {
            cases,
            cases_elsewhere,
            schema: self.schema,
            kind: self.kind,
            command: self.command,
            profile: self.profile,
            engine_version: self.engine_version,
            git_revision: self.git_revision,
            machine: self.machine,
            build: self.build,
            summary: self.summary,
            engines,
        }
    }
}

impl TryFrom<DocumentWire<crate::case_codec::CaseWire, EngineDocument>> for ResultsDocument {
    type Error = String;

    fn try_from(
        mut w: DocumentWire<crate::case_codec::CaseWire, EngineDocument>,
    ) -> Result<ResultsDocument, String> {
        let cases_elsewhere = w.cases.is_none().then(|| w.cases_file.take()).flatten();
        let cases = crate::case_codec::decode_cases(
            w.case_defaults.take(),
            std::mem::take(&mut w.answers),
            w.cases.take().unwrap_or_default(),
        )?;
        let engines = std::mem::take(&mut w.engines);
        Ok(w.with(cases, cases_elsewhere, engines))
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
    /// Reads a results.json (or the one inside a directory) of either kind, its cases from
    /// its `cases_file` when it leaves `cases` out.
    pub fn read(path: &Path) -> crate::error::Result<ResultsDocument> {
        let file = results_path(path);
        let bytes = read_results_bytes(&file)?;
        let mut doc: ResultsDocument =
            serde_json::from_slice(&bytes).map_err(|e| not_results_in(&file, &bytes, &e))?;
        check_summary(&file, &doc.summary, Some(&bytes))?;
        drop(bytes);
        if let Some(name) = doc.cases_elsewhere.take() {
            // every case the document lists: the judged and the n/a ones
            let count = |name: &str| doc.summary.get(name).and_then(Value::as_u64);
            let total = count("total").map(|n| (n + count("not_applicable").unwrap_or(0)) as usize);
            let primary = doc
                .engines
                .iter()
                .find(|e| e.primary)
                .map(|e| e.name.clone());
            let mut cases =
                cases_beside(&file, &name, primary.is_none().then_some(total).flatten())?;
            if let Some(p) = primary {
                cases.retain(|c| c.engine == p);
            }
            doc.cases = cases;
        }
        if doc.cases.is_empty() && doc.summary.is_empty() {
            return Err(crate::cases_file::incomplete(
                Origin::file(&file),
                "no `summary` and no `cases`",
            ));
        }
        Ok(doc)
    }

    /// The head of a results.json (its identity and summary), its cases left unread: what
    /// a gate on the summary alone needs, whatever the number of cases.
    pub fn read_head(path: &Path) -> crate::error::Result<ResultsDocument> {
        type Head = DocumentWire<serde::de::IgnoredAny, serde::de::IgnoredAny>;
        let file = results_path(path);
        let reader = std::fs::File::open(&file)
            .map(|f| std::io::BufReader::with_capacity(256 * 1024, f))
            .map_err(|e| {
                HarnessError::file(&file, format!("cannot read results: {e}"))
                    .with_hint(crate::cases_file::HOW_TO_GET_ONE)
            })?;
        let h: Head = serde_json::from_reader(reader).map_err(|e| not_results(&file, &e))?;
        check_summary(&file, &h.summary, None)?;
        if h.summary.is_empty() {
            return Err(crate::cases_file::incomplete(
                Origin::file(&file),
                "no `summary`",
            ));
        }
        Ok(h.with(Vec::new(), None, Vec::new()))
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
