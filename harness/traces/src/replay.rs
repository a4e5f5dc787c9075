//! Trace replay: every recorded question through today's `ask` cascade against its fixture,
//! recorded outcome beside replayed outcome, and the transition (fixed, regressed,
//! unchanged).
//!
//! Memory stays bounded whatever the size of the trace set: traces are read as a stream
//! and replayed in batches (in parallel inside a batch, in input order across batches, the
//! next batch read while one is replayed); each batch of replayed cases goes on to the
//! report writer, and only aggregates stay in memory (counts, per-question transition
//! groups, and one `f32` per trace for the latency and candidate quantiles).

use crate::error::TracesError;
use crate::trace::{BadLine, Trace, TraceItem, TraceOutcome, TraceStream};
use findbench_engine::modes::ask::{AskRequest, AskResponse, Tool};
use findbench_engine::{Engine, Fixture, Outcome, Profile, Request, Response, Tree, TreeOptions};
use findbench_eval::question::normalise_question;
pub use findbench_eval::results::Transition;
use findbench_eval::results::{Call, CaseResult, Status};
use findbench_eval::tools::FixtureKind;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Traces replayed per parallel batch: big enough to keep every core busy, small enough
/// that a batch's results are a few hundred kilobytes.
pub const BATCH: usize = 2048;

pub use findbench_eval::results::{ExplainCandidate, ExplainStep, Explanation};

/// What a replay runs with.
#[derive(Debug, Clone)]
pub struct ReplayOptions {
    /// Fixture `x` of a trace is `fixtures_dir/x`.
    pub fixtures_dir: PathBuf,
    /// Replays every trace against this tree, whatever its `fixture`.
    pub root: Option<PathBuf>,
    pub profile: Profile,
    pub explain: bool,
    /// Replays only traces whose normalised question is this (a cluster).
    pub query: Option<String>,
    /// `--shard K/N`: replay only the traces of this shard (by trace id).
    pub shard: Option<findbench_eval::shard::Shard>,
    /// Suite name of the cases in the reports.
    pub suite: String,
    /// How fixture trees are walked, and whether trees and stores go through the cache
    /// (`--no-cache`).
    pub tree: TreeOptions,
}

/// A fixture loaded for replay, with the sizes every case reports (computed once).
#[derive(Clone)]
pub struct ReplayFixture {
    pub fixture: Fixture,
    pub items: usize,
    pub dump_bytes: u64,
}

/// Loaded fixtures, each loaded once and shared by every trace that names it.
struct Fixtures {
    loaded: HashMap<String, Result<ReplayFixture, String>>,
}

impl Fixtures {
    /// The fixture `name` of `kind`: a tree (or `--root`), or for a recorded MCP call a
    /// store or path list, each under `--fixtures`. A tree that is missing, cannot be listed
    /// or does not load is a file error (exit 3) naming the directory: replaying every trace
    /// as a `failure` would read as a ranking regression. A recorded call's store or path
    /// list that does not load fails that call alone, as the server refused it.
    fn resolve(
        &mut self,
        options: &ReplayOptions,
        trace: &Trace,
        kind: FixtureKind,
    ) -> Result<Result<ReplayFixture, String>, TracesError> {
        let name = trace.fixture.as_str();
        let key = if options.root.is_some()
            && kind == FixtureKind::Root
            && name != crate::replay_call::NO_FIXTURE
        {
            String::new()
        } else {
            format!("{kind:?}:{name}")
        };
        if let Some(f) = self.loaded.get(&key) {
            return Ok(f.clone());
        }
        if kind != FixtureKind::Root || name == crate::replay_call::NO_FIXTURE {
            let loaded = crate::replay_call::load(options, name, kind);
            self.loaded.insert(key, loaded.clone());
            return Ok(loaded);
        }
        let dir = match (&options.root, &trace.fixture_source) {
            (Some(root), _) => root.clone(),
            // a line that names its tree (`findbench import`): the root, or the commit's tree
            (None, Some(source)) => source.tree_dir().map_err(|m| TracesError::File {
                path: name.into(),
                message: format!("fixture `{name}`: {m}"),
                hint: Some("pass the tree to replay against with --root".into()),
            })?,
            (None, None) => options.fixtures_dir.join(name),
        };
        let file_error = |message: String| TracesError::File {
            path: dir.clone(),
            message,
            hint: Some(match &options.root {
                Some(_) => "pass a readable directory with --root".to_string(),
                None => format!(
                    "trace `{}` names fixture `{name}`: pass the directory holding it with \
                     --fixtures (now {})",
                    trace.trace_id,
                    options.fixtures_dir.display()
                ),
            }),
        };
        if !dir.is_dir() {
            return Err(file_error(format!(
                "fixture `{name}` not found: not a directory"
            )));
        }
        std::fs::read_dir(&dir)
            .map_err(|e| file_error(format!("fixture `{name}` cannot be read: {e}")))?;
        let tree = Tree::load(&dir, &options.tree)
            .map_err(|e| file_error(format!("fixture `{name}` does not load: {e}")))?;
        let loaded = Ok(ReplayFixture::new(Fixture::Tree(Arc::new(tree))));
        self.loaded.insert(key, loaded.clone());
        Ok(loaded)
    }
}

impl ReplayFixture {
    pub fn new(fixture: Fixture) -> ReplayFixture {
        ReplayFixture {
            items: fixture.item_count(),
            dump_bytes: fixture.dump_bytes() as u64,
            fixture,
        }
    }
}

fn outcome_of(o: Outcome) -> TraceOutcome {
    match o {
        Outcome::Success => TraceOutcome::Success,
        Outcome::InsufficientEvidence | Outcome::NoMatch => TraceOutcome::InsufficientEvidence,
        Outcome::Failure => TraceOutcome::Failure,
    }
}

fn explain(r: &AskResponse) -> Explanation {
    let term = r.plan.as_ref().map(|p| p.term.clone());
    let impl_query = r.plan.as_ref().is_some_and(|p| p.impl_query);
    // the search whose candidates became the matches: the last one before the reads
    let last_search = r.calls.iter().rposition(|c| c.tool != Tool::Read);
    let mut reads = r.reads.iter();
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let mut steps: Vec<ExplainStep> = r
        .calls
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let n = c.candidates;
            let best = match r.matches.first() {
                Some(m) if Some(i) == last_search && n > 0 => format!("; best: {}", m.reason),
                _ => String::new(),
            };
            let note = match c.tool {
                Tool::Find if n == 0 => {
                    "no stem, symbol, word or directory of any file matched the term".into()
                }
                Tool::Find => format!("{n} file{} matched{best}", plural(n)),
                Tool::Grep if n == 0 => "no file's text holds the term".into(),
                Tool::Grep => format!("{n} file{} hold the term{best}", plural(n)),
                Tool::Rank if n == 0 => "no file holds a word of the question".into(),
                Tool::Rank => format!("{n} file{} hold words of the question{best}", plural(n)),
                Tool::Read => match reads.next() {
                    Some(read) if read.evidence => format!("evidence: {}", read.note),
                    Some(read) => format!("not evidence: {}", read.note),
                    None => "no candidate held evidence".into(),
                },
            };
            ExplainStep {
                tool: c.tool.as_str().to_string(),
                input: c.input.clone(),
                candidates: n,
                note,
            }
        })
        .collect();
    if r.plan.is_none() {
        steps.push(ExplainStep {
            tool: "plan".into(),
            input: r.question.clone(),
            candidates: 0,
            note: r
                .error
                .clone()
                .unwrap_or_else(|| "no term to search for".into()),
        });
    }
    Explanation {
        term,
        impl_query,
        steps,
        candidates: r
            .matches
            .iter()
            .map(|m| ExplainCandidate {
                path: m.path.clone(),
                score: m.score,
                reason: m.reason.clone(),
            })
            .collect(),
    }
}

/// Bytes of `value` as JSON, counted as they are written (nothing is kept).
pub(crate) fn json_len(value: &impl serde::Serialize) -> u64 {
    struct Count(u64);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len() as u64;
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    match serde_json::to_writer(&mut count, value) {
        Ok(()) => count.0,
        Err(_) => 0,
    }
}

/// Replays one trace against an already loaded fixture (or the reason it could not load):
/// a case of the shared results model, with the recording beside the replay.
pub fn replay_trace(
    engine: &Engine,
    fixture: &Result<ReplayFixture, String>,
    trace: &Trace,
    options: &ReplayOptions,
) -> CaseResult {
    if let Some(call) = &trace.call {
        return crate::replay_call::replay_call(engine, fixture, trace, call, options);
    }
    let clock = Instant::now();
    let result = match fixture {
        Ok(f) => engine
            .execute(
                &f.fixture,
                &Request::Ask(AskRequest::new(trace.query.clone())),
            )
            .map_err(|e| e.to_string()),
        Err(e) => Err(e.clone()),
    };
    let elapsed = (clock.elapsed().as_secs_f64() * 1e6).round() / 1e3;
    let mut outcome = TraceOutcome::Failure;
    let mut case = CaseResult {
        id: trace.trace_id.clone(),
        suite: options.suite.clone(),
        mode: "ask".into(),
        query: trace.query.clone(),
        duration_ms: elapsed,
        items: fixture.as_ref().map_or(0, |f| f.items),
        dump_bytes: fixture.as_ref().map_or(0, |f| f.dump_bytes),
        iterations: 0,
        recorded_outcome: Some(trace.outcome),
        fixture: Some(trace.fixture.clone()),
        timestamp: Some(trace.timestamp.clone()),
        recorded_candidates: Some(trace.tools.last().map_or(0, |t| t.candidates)),
        recorded_tools: Some(trace.tools.iter().map(|t| t.name.clone()).collect()),
        recorded_iterations: Some(trace.iterations),
        recorded_duration_ms: Some(trace.duration_ms),
        ..CaseResult::default()
    };
    let reason = match result {
        Ok(Response::Ask(r)) => {
            outcome = outcome_of(r.outcome);
            case.candidates = r.candidates;
            case.ranked = r.matches.iter().map(|m| m.path.clone()).collect();
            case.tools = r.tools.iter().map(|t| t.as_str().to_string()).collect();
            case.calls = r
                .calls
                .iter()
                .map(|c| Call::new(c.tool.as_str(), c.input.as_str(), c.candidates))
                .collect();
            case.iterations = u32::try_from(r.iterations).unwrap_or(u32::MAX);
            case.selected = r.selected.clone();
            case.output_bytes = json_len(&r);
            if options.explain {
                case.explain = Some(explain(&r));
            }
            match (&r.error, r.matches.first(), &r.selected) {
                (Some(e), _, _) => e.clone(),
                (None, Some(m), Some(_)) => m.reason.clone(),
                (None, _, _) if r.candidates == 0 => "no candidates".into(),
                (None, _, _) => format!("{} candidates, none readable", r.candidates),
            }
        }
        Ok(other) => format!("ask answered as `{}`", other.mode().as_str()),
        Err(e) => e,
    };
    case.reason = Some(reason);
    case.outcome = outcome.as_str().to_string();
    case.status = if outcome == TraceOutcome::Success {
        Status::Pass
    } else {
        Status::Fail
    };
    case.transition = Some(Transition::of(trace.outcome, outcome));
    case
}

/// The replayed outcome of a replay case (`outcome` is always one of the three).
fn replayed_outcome(case: &CaseResult) -> TraceOutcome {
    TraceOutcome::parse(&case.outcome).unwrap_or(TraceOutcome::Failure)
}

pub use findbench_eval::replay_summary::TransitionGroup;

/// Everything a replay aggregates, in memory independent of the number of traces except
/// for one `f32` per trace per quantile series.
#[derive(Debug, Default)]
pub struct ReplayTotals {
    pub files: usize,
    pub lines: usize,
    pub traces: usize,
    pub replayed: usize,
    pub bad_lines: usize,
    /// The first bad lines, as `file:line: reason`.
    pub bad_examples: Vec<String>,
    pub recorded: [usize; 3],
    pub outcomes: [usize; 3],
    pub transitions: [usize; 3],
    pub durations_ms: Vec<f32>,
    pub recorded_durations_ms: Vec<f32>,
    pub candidates: Vec<f32>,
    pub tools: usize,
    pub iterations: usize,
    pub output_bytes: u64,
    groups: HashMap<(String, TraceOutcome, TraceOutcome), (usize, TransitionGroup)>,
}

/// Bad lines kept verbatim for the report; the rest are counted.
const BAD_EXAMPLES: usize = 50;

fn idx(o: TraceOutcome) -> usize {
    match o {
        TraceOutcome::Success => 0,
        TraceOutcome::InsufficientEvidence => 1,
        TraceOutcome::Failure => 2,
    }
}

fn tidx(t: Transition) -> usize {
    match t {
        Transition::Fixed => 0,
        Transition::Regressed => 1,
        Transition::Unchanged => 2,
    }
}

impl ReplayTotals {
    /// Counts one replayed case (`findbench merge` rebuilds a replay's totals with it).
    pub fn add(&mut self, case: &CaseResult) {
        let outcome = replayed_outcome(case);
        let recorded = case.recorded_outcome.unwrap_or(outcome);
        let transition = Transition::of(recorded, outcome);
        self.replayed += 1;
        self.recorded[idx(recorded)] += 1;
        self.outcomes[idx(outcome)] += 1;
        self.transitions[tidx(transition)] += 1;
        self.durations_ms.push(case.duration_ms as f32);
        self.recorded_durations_ms
            .push(case.recorded_duration_ms.unwrap_or(0.0) as f32);
        self.candidates.push(case.candidates as f32);
        self.tools += case.tools.len();
        self.iterations += case.iterations as usize;
        self.output_bytes += case.output_bytes;
        let key = (normalise_question(&case.query), recorded, outcome);
        if let Some((_, group)) = self.groups.get_mut(&key) {
            group.traces += 1;
            return;
        }
        let group = TransitionGroup {
            question: key.0.clone(),
            transition,
            recorded_outcome: recorded,
            outcome,
            traces: 1,
            example_trace_id: case.id.clone(),
            explain: case.explain.clone(),
        };
        self.groups.insert(key, (self.groups.len(), group));
    }

    fn rate(n: usize, of: usize) -> f64 {
        if of == 0 {
            0.0
        } else {
            n as f64 / of as f64
        }
    }

    pub fn outcome_count(&self, o: TraceOutcome) -> usize {
        self.outcomes[idx(o)]
    }

    pub fn recorded_count(&self, o: TraceOutcome) -> usize {
        self.recorded[idx(o)]
    }

    pub fn transition_count(&self, t: Transition) -> usize {
        self.transitions[tidx(t)]
    }

    /// Groups by transition (fixed, regressed, unchanged), then largest first, then first
    /// seen: deterministic.
    pub fn groups(&self) -> Vec<TransitionGroup> {
        let mut v: Vec<&(usize, TransitionGroup)> = self.groups.values().collect();
        v.sort_by(|a, b| {
            a.1.transition
                .cmp(&b.1.transition)
                .then(b.1.traces.cmp(&a.1.traces))
                .then(a.0.cmp(&b.0))
        });
        v.into_iter().map(|(_, g)| g.clone()).collect()
    }

    /// The `summary` object of results.json.
    pub fn summary(&self, profile: &str) -> serde_json::Value {
        let n = self.replayed;
        let q = |v: &[f32], p: f64| -> f64 {
            let v: Vec<f64> = v.iter().map(|x| *x as f64).collect();
            let r = findbench_eval::stats::quantile(&v, p).unwrap_or(0.0);
            (r * 1e3).round() / 1e3
        };
        let zero = self.candidates.iter().filter(|c| **c == 0.0).count();
        let mean = |total: f64| if n == 0 { 0.0 } else { total / n as f64 };
        let candidates_total: f64 = self.candidates.iter().map(|c| *c as f64).sum();
        let success = self.outcome_count(TraceOutcome::Success);
        serde_json::json!({
            "profile": profile,
            "total": n,
            "passed": success,
            "failed": n - success,
            "xfail": 0,
            "xpass": 0,
            "pass_rate": Self::rate(success, n),
            "success_rate": Self::rate(success, n),
            "insufficient_evidence_rate": Self::rate(self.outcome_count(TraceOutcome::InsufficientEvidence), n),
            "failure_rate": Self::rate(self.outcome_count(TraceOutcome::Failure), n),
            "recorded_success_rate": Self::rate(self.recorded_count(TraceOutcome::Success), n),
            "recorded_insufficient_evidence_rate": Self::rate(self.recorded_count(TraceOutcome::InsufficientEvidence), n),
            "recorded_failure_rate": Self::rate(self.recorded_count(TraceOutcome::Failure), n),
            "outcomes": {
                "success": success,
                "insufficient_evidence": self.outcome_count(TraceOutcome::InsufficientEvidence),
                "failure": self.outcome_count(TraceOutcome::Failure),
            },
            "recorded_outcomes": {
                "success": self.recorded_count(TraceOutcome::Success),
                "insufficient_evidence": self.recorded_count(TraceOutcome::InsufficientEvidence),
                "failure": self.recorded_count(TraceOutcome::Failure),
            },
            "transitions": {
                "fixed": self.transition_count(Transition::Fixed),
                "regressed": self.transition_count(Transition::Regressed),
                "unchanged": self.transition_count(Transition::Unchanged),
            },
            "bad_lines": self.bad_lines,
            "candidates_mean": mean(candidates_total),
            "candidates_median": q(&self.candidates, 0.5),
            "zero_candidate_rate": Self::rate(zero, n),
            "tools_per_query": mean(self.tools as f64),
            "iterations_mean": mean(self.iterations as f64),
            "output_bytes_mean": mean(self.output_bytes as f64),
            "latency_p50_ms": q(&self.durations_ms, 0.5),
            "latency_p95_ms": q(&self.durations_ms, 0.95),
            "latency_p99_ms": q(&self.durations_ms, 0.99),
            "latency_max_ms": q(&self.durations_ms, 1.0),
            "recorded_latency_p50_ms": q(&self.recorded_durations_ms, 0.5),
            "recorded_latency_p95_ms": q(&self.recorded_durations_ms, 0.95),
        })
    }
}

/// How far a replay is, as each batch is handed on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReplayProgress {
    /// Traces replayed so far.
    pub replayed: usize,
    /// Bytes read from the trace files, and their sizes summed (none when one is stdin).
    pub bytes_read: u64,
    pub bytes_total: Option<u64>,
}

/// Traces read for one batch, each with its fixture and its position in the input.
type Batch = Vec<(Trace, Result<ReplayFixture, String>, u64)>;

/// Reads batches of traces: filtered (`--query`, `--shard`), bad lines handed to `on_bad`
/// (the first kept as examples), fixtures loaded once each.
struct BatchReader<'a, B> {
    stream: &'a mut TraceStream,
    options: &'a ReplayOptions,
    filter: Option<String>,
    fixtures: Fixtures,
    on_bad: B,
    bad_examples: Vec<String>,
}

impl<B: FnMut(BadLine) -> Result<(), TracesError>> BatchReader<'_, B> {
    /// The next batch of up to [`BATCH`] traces; empty at the end of the input.
    fn next_batch(&mut self) -> Result<Batch, TracesError> {
        let mut batch = Vec::with_capacity(BATCH);
        while batch.len() < BATCH {
            let Some(item) = self.stream.next() else {
                break;
            };
            match item? {
                TraceItem::Bad(bad) => {
                    if self.bad_examples.len() < BAD_EXAMPLES {
                        self.bad_examples.push(bad.to_string());
                    }
                    (self.on_bad)(bad)?;
                }
                TraceItem::Trace(trace) => {
                    // every shard reads every line, so positions agree across shards
                    let position = self.stream.counts().traces as u64;
                    if self
                        .filter
                        .as_ref()
                        .is_some_and(|f| *f != normalise_question(&trace.query))
                        || self
                            .options
                            .shard
                            .is_some_and(|s| !s.holds_trace(&trace.trace_id))
                    {
                        continue;
                    }
                    // fixtures load here, on one thread, once each
                    let kind = trace
                        .call
                        .as_ref()
                        .and_then(|c| c.fixture_kind)
                        .unwrap_or(FixtureKind::Root);
                    let fixture = self.fixtures.resolve(self.options, &trace, kind)?;
                    batch.push((*trace, fixture, position));
                }
            }
        }
        Ok(batch)
    }
}

/// Streams `stream` through `ask`, hands the cases to `sink` a batch at a time in input
/// order (counted in the totals first), and returns the totals. `on_bad` sees each bad
/// line (and may stop the replay, as `--strict` does). While one batch is replayed on the
/// pool, the one before it is counted and handed on and the next one read (`rayon::join`),
/// so neither takes a core from the replay for long.
pub fn replay_stream(
    stream: &mut TraceStream,
    options: &ReplayOptions,
    on_bad: impl FnMut(BadLine) -> Result<(), TracesError> + Send,
    mut sink: impl FnMut(Vec<CaseResult>, ReplayProgress) -> Result<(), TracesError> + Send,
) -> Result<ReplayTotals, TracesError> {
    let engine = Engine::new(options.profile.clone());
    let mut reader = BatchReader {
        stream,
        options,
        filter: options.query.as_deref().map(normalise_question),
        fixtures: Fixtures {
            loaded: HashMap::new(),
        },
        on_bad,
        bad_examples: Vec::new(),
    };
    let mut totals = ReplayTotals::default();
    let mut batch = reader.next_batch()?;
    // replayed, not yet counted nor handed on
    let mut replayed: Option<Vec<CaseResult>> = None;
    while !batch.is_empty() || replayed.is_some() {
        let (cases, next) = rayon::join(
            || {
                batch
                    .par_iter()
                    .map(|(trace, fixture, position)| {
                        let mut case = replay_trace(&engine, fixture, trace, options);
                        case.input_index = Some(*position);
                        case
                    })
                    .collect::<Vec<CaseResult>>()
            },
            || -> Result<Batch, TracesError> {
                if let Some(cases) = replayed.take() {
                    for case in &cases {
                        totals.add(case);
                    }
                    let (bytes_read, bytes_total) = reader.stream.bytes();
                    sink(
                        cases,
                        ReplayProgress {
                            replayed: totals.replayed,
                            bytes_read,
                            bytes_total,
                        },
                    )?;
                }
                if batch.is_empty() {
                    Ok(Vec::new())
                } else {
                    reader.next_batch()
                }
            },
        );
        batch = next?;
        replayed = Some(cases).filter(|c| !c.is_empty());
    }
    let counts = reader.stream.counts();
    totals.bad_examples = reader.bad_examples;
    totals.files = counts.files;
    totals.lines = counts.lines;
    totals.traces = counts.traces;
    totals.bad_lines = counts.bad_lines;
    Ok(totals)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transitions_compare_recorded_and_replayed_success() {
        use TraceOutcome::*;
        assert_eq!(
            Transition::of(InsufficientEvidence, Success),
            Transition::Fixed
        );
        assert_eq!(Transition::of(Failure, Success), Transition::Fixed);
        assert_eq!(
            Transition::of(Success, InsufficientEvidence),
            Transition::Regressed
        );
        assert_eq!(Transition::of(Success, Failure), Transition::Regressed);
        assert_eq!(Transition::of(Success, Success), Transition::Unchanged);
        assert_eq!(
            Transition::of(InsufficientEvidence, Failure),
            Transition::Unchanged
        );
    }

    fn tree_dir() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let fx = dir.path().join("mini");
        std::fs::create_dir_all(fx.join("src")).unwrap();
        std::fs::write(
            fx.join("src/replay_service.cpp"),
            "class ReplayService {};\n",
        )
        .unwrap();
        std::fs::write(fx.join("README.md"), "The cursor binary lives in tools.\n").unwrap();
        dir
    }

    fn trace(id: &str, query: &str, outcome: TraceOutcome, fixture: &str) -> String {
        serde_json::json!({
            "trace_id": id, "timestamp": "2026-06-19T00:00:00Z", "query": query,
            "fixture": fixture, "tools": [], "outcome": outcome.as_str(), "iterations": 0,
            "duration_ms": 5.0
        })
        .to_string()
    }

    #[test]
    fn replays_in_input_order_with_transitions_and_missing_fixtures() {
        let dir = tree_dir();
        let file = dir.path().join("t.jsonl");
        let lines = [
            trace(
                "a",
                "where is replay implemented",
                TraceOutcome::InsufficientEvidence,
                "mini",
            ),
            trace(
                "b",
                "where is kubernetes autoscaler implemented",
                TraceOutcome::Success,
                "mini",
            ),
            "garbage".to_string(),
            trace(
                "c",
                "where is it implemented?",
                TraceOutcome::Failure,
                "mini",
            ),
        ];
        std::fs::write(&file, lines.join("\n")).unwrap();
        let options = ReplayOptions {
            fixtures_dir: dir.path().to_path_buf(),
            root: None,
            profile: Profile::default(),
            explain: true,
            query: None,
            suite: "replay".into(),
            shard: None,
            tree: TreeOptions::default(),
        };
        let mut stream = TraceStream::open(&[file]).unwrap();
        let mut cases = Vec::new();
        let mut bad = Vec::new();
        let totals = replay_stream(
            &mut stream,
            &options,
            |b| {
                bad.push(b.line);
                Ok(())
            },
            |batch, progress| {
                cases.extend(batch);
                assert_eq!(progress.replayed, cases.len());
                Ok(())
            },
        )
        .unwrap();
        let got: Vec<(&str, TraceOutcome, Transition)> = cases
            .iter()
            .map(|c| (c.id.as_str(), replayed_outcome(c), c.transition.unwrap()))
            .collect();
        assert_eq!(
            got,
            [
                ("a", TraceOutcome::Success, Transition::Fixed),
                (
                    "b",
                    TraceOutcome::InsufficientEvidence,
                    Transition::Regressed
                ),
                // no term: `ask`'s no_match, which a trace records as insufficient_evidence
                (
                    "c",
                    TraceOutcome::InsufficientEvidence,
                    Transition::Unchanged
                ),
            ]
        );
        assert_eq!(bad, [3]);
        assert_eq!(totals.bad_lines, 1);
        let ex = cases[0].explain.as_ref().unwrap();
        assert_eq!(ex.term.as_deref(), Some("replay"));
        assert_eq!(ex.steps[0].tool, "find");
        // each step is the call as made, with its own input
        let steps: Vec<(&str, &str)> = ex
            .steps
            .iter()
            .map(|s| (s.tool.as_str(), s.input.as_str()))
            .collect();
        assert_eq!(
            steps,
            [
                ("find", "replay --impl"),
                ("read", "src/replay_service.cpp")
            ]
        );
        assert_eq!(cases[0].calls.len(), 2);
        assert_eq!(cases[0].calls[1].input, "src/replay_service.cpp");
        assert!(ex.candidates[0].path.ends_with("replay_service.cpp"));
        assert_eq!(cases[0].selected.as_deref(), Some("src/replay_service.cpp"));
        let summary = totals.summary("default");
        assert_eq!(summary["transitions"]["fixed"], 1);
        assert_eq!(summary["transitions"]["regressed"], 1);
        assert_eq!(summary["recorded_insufficient_evidence_rate"], 1.0 / 3.0);
        // `b`, and `c` whose no_match counts as insufficient evidence in a trace
        assert_eq!(summary["insufficient_evidence_rate"], 2.0 / 3.0);
    }

    #[test]
    fn a_missing_fixture_is_a_file_error_naming_its_directory() {
        let dir = tree_dir();
        let file = dir.path().join("t.jsonl");
        std::fs::write(
            &file,
            trace("d", "find replay", TraceOutcome::Success, "absent"),
        )
        .unwrap();
        let options = ReplayOptions {
            fixtures_dir: dir.path().to_path_buf(),
            root: None,
            profile: Profile::default(),
            explain: false,
            query: None,
            suite: "replay".into(),
            shard: None,
            tree: TreeOptions::default(),
        };
        let mut stream = TraceStream::open(&[file]).unwrap();
        let err = replay_stream(&mut stream, &options, |_| Ok(()), |_, _| Ok(())).unwrap_err();
        assert_eq!(err.exit_code(), 3);
        let message = err.to_string();
        assert!(message.contains("fixture `absent` not found"), "{message}");
        assert!(
            message.contains(&dir.path().join("absent").display().to_string()),
            "{message}"
        );
    }
}
