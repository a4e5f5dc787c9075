//! Trace replay: every recorded question through today's `ask` cascade against its fixture,
//! recorded outcome beside replayed outcome, and the transition (fixed, regressed,
//! unchanged).
//!
//! Memory stays bounded whatever the size of the trace set: traces are read as a stream
//! and replayed in batches (in parallel inside a batch, in input order across batches);
//! each replayed case goes straight to the report spools, and only aggregates stay in
//! memory (counts, per-question transition groups, and one `f32` per trace for the
//! latency and candidate quantiles).

use crate::clusters::normalise_question;
use crate::trace::{BadLine, Trace, TraceItem, TraceOutcome, TraceStream};
use findbench_engine::modes::ask::{AskRequest, AskResponse};
use findbench_engine::{
    Engine, EngineError, Fixture, Outcome, Profile, Request, Response, Tree, TreeOptions,
};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Traces replayed per parallel batch: big enough to keep every core busy, small enough
/// that a batch's results are a few hundred kilobytes.
pub const BATCH: usize = 2048;

/// How replayed outcome compares with the recording.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
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

/// One cascade step of `--explain`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExplainStep {
    pub tool: String,
    pub input: String,
    pub candidates: usize,
    pub note: String,
}

/// Why a question ended as it did: the plan, each step, each candidate's score and reason.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Explanation {
    pub term: Option<String>,
    #[serde(rename = "impl")]
    pub impl_query: bool,
    pub steps: Vec<ExplainStep>,
    pub candidates: Vec<ExplainCandidate>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExplainCandidate {
    pub path: String,
    pub score: f64,
    pub reason: String,
}

/// One replayed trace: a case of the replay's `results.json`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReplayCase {
    /// The trace_id.
    pub id: String,
    pub suite: String,
    pub mode: &'static str,
    /// pass when the replayed outcome is a success.
    pub status: &'static str,
    /// Replayed outcome.
    pub outcome: TraceOutcome,
    pub recorded_outcome: TraceOutcome,
    pub transition: Transition,
    pub query: String,
    pub fixture: String,
    pub timestamp: String,
    pub candidates: usize,
    pub recorded_candidates: u64,
    pub tools: Vec<String>,
    pub recorded_tools: Vec<String>,
    pub iterations: usize,
    pub recorded_iterations: u32,
    pub selected: Option<String>,
    pub duration_ms: f64,
    pub recorded_duration_ms: f64,
    /// Bytes of the `ask` answer: what the agent's context received.
    pub output_bytes: usize,
    pub reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explain: Option<Explanation>,
}

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
    /// Suite name of the cases in the reports.
    pub suite: String,
}

/// Loaded fixtures, each loaded once and shared by every trace that names it.
struct Fixtures {
    loaded: HashMap<String, Result<Fixture, String>>,
}

impl Fixtures {
    fn resolve(&mut self, options: &ReplayOptions, name: &str) -> &Result<Fixture, String> {
        let key = if options.root.is_some() { "" } else { name };
        self.loaded.entry(key.to_string()).or_insert_with(|| {
            let dir = match &options.root {
                Some(root) => root.clone(),
                None => options.fixtures_dir.join(name),
            };
            if !dir.is_dir() {
                return Err(format!(
                    "fixture `{name}` not found: {} is not a directory",
                    dir.display()
                ));
            }
            Tree::load(&dir, &TreeOptions::default())
                .map(|t| Fixture::Tree(Arc::new(t)))
                .map_err(|e| format!("fixture `{name}` does not load: {e}"))
        })
    }
}

fn outcome_of(o: Outcome) -> TraceOutcome {
    match o {
        Outcome::Success => TraceOutcome::Success,
        Outcome::InsufficientEvidence | Outcome::NoMatch => TraceOutcome::InsufficientEvidence,
        Outcome::Failure => TraceOutcome::Failure,
    }
}

fn tool_name(tool: &impl Serialize) -> String {
    match serde_json::to_value(tool) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => "?".into(),
    }
}

fn explain(r: &AskResponse) -> Explanation {
    let tools: Vec<String> = r.tools.iter().map(tool_name).collect();
    let term = r.plan.as_ref().map(|p| p.term.clone());
    let impl_query = r.plan.as_ref().is_some_and(|p| p.impl_query);
    let grep_ran = tools.iter().any(|t| t == "grep");
    let mut steps = Vec::new();
    for tool in &tools {
        let input = term.clone().unwrap_or_default();
        let step = match tool.as_str() {
            "find" => {
                // grep runs only when find came back empty
                let n = if grep_ran { 0 } else { r.candidates };
                ExplainStep {
                    tool: "find".into(),
                    input: if impl_query {
                        format!("{input} --impl")
                    } else {
                        input
                    },
                    candidates: n,
                    note: if n == 0 {
                        "no stem, symbol, word or directory of any file matched the term".into()
                    } else {
                        format!(
                            "{n} files matched; best: {}",
                            r.matches.first().map_or("-", |m| m.reason.as_str())
                        )
                    },
                }
            }
            "grep" => ExplainStep {
                tool: "grep".into(),
                input,
                candidates: r.candidates,
                note: if r.candidates == 0 {
                    "no file's text holds the term".into()
                } else {
                    format!("{} files hold the term", r.candidates)
                },
            },
            "read" => ExplainStep {
                tool: "read".into(),
                input: r.selected.clone().unwrap_or_default(),
                candidates: usize::from(r.selected.is_some()),
                note: match &r.selected {
                    Some(p) => format!("read {p} as evidence"),
                    None => "no candidate had readable text".into(),
                },
            },
            other => ExplainStep {
                tool: other.to_string(),
                input,
                candidates: 0,
                note: String::new(),
            },
        };
        steps.push(step);
    }
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

/// Replays one trace against an already loaded fixture (or the reason it could not load).
pub fn replay_trace(
    engine: &Engine,
    fixture: &Result<Fixture, String>,
    trace: &Trace,
    options: &ReplayOptions,
) -> ReplayCase {
    let clock = Instant::now();
    let result = match fixture {
        Ok(f) => engine
            .execute(f, &Request::Ask(AskRequest::new(trace.query.clone())))
            .map_err(|e| e.to_string()),
        Err(e) => Err(e.clone()),
    };
    let elapsed = (clock.elapsed().as_secs_f64() * 1e6).round() / 1e3;
    let recorded_tools: Vec<String> = trace.tools.iter().map(|t| t.name.clone()).collect();
    let recorded_candidates = trace.tools.last().map_or(0, |t| t.candidates);
    let mut case = ReplayCase {
        id: trace.trace_id.clone(),
        suite: options.suite.clone(),
        mode: "ask",
        status: "fail",
        outcome: TraceOutcome::Failure,
        recorded_outcome: trace.outcome,
        transition: Transition::Unchanged,
        query: trace.query.clone(),
        fixture: trace.fixture.clone(),
        timestamp: trace.timestamp.clone(),
        candidates: 0,
        recorded_candidates,
        tools: Vec::new(),
        recorded_tools,
        iterations: 0,
        recorded_iterations: trace.iterations,
        selected: None,
        duration_ms: elapsed,
        recorded_duration_ms: trace.duration_ms,
        output_bytes: 0,
        reason: String::new(),
        explain: None,
    };
    match result {
        Ok(Response::Ask(r)) => {
            case.outcome = outcome_of(r.outcome);
            case.candidates = r.candidates;
            case.tools = r.tools.iter().map(tool_name).collect();
            case.iterations = r.iterations;
            case.selected = r.selected.clone();
            case.output_bytes = serde_json::to_vec(&r).map_or(0, |v| v.len());
            case.reason = match (&r.error, r.matches.first(), &r.selected) {
                (Some(e), _, _) => e.clone(),
                (None, Some(m), Some(_)) => m.reason.clone(),
                (None, _, _) if r.candidates == 0 => "no candidates".into(),
                (None, _, _) => format!("{} candidates, none readable", r.candidates),
            };
            if options.explain {
                case.explain = Some(explain(&r));
            }
        }
        Ok(other) => {
            case.reason = format!("ask answered as `{}`", other.mode().as_str());
        }
        Err(e) => case.reason = e,
    }
    case.status = if case.outcome == TraceOutcome::Success {
        "pass"
    } else {
        "fail"
    };
    case.transition = Transition::of(case.recorded_outcome, case.outcome);
    case
}

/// Replayed cases of one normalised question that share their recorded and replayed
/// outcomes: a cluster a change fixed, broke, or left failing.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TransitionGroup {
    pub question: String,
    pub transition: Transition,
    pub recorded_outcome: TraceOutcome,
    pub outcome: TraceOutcome,
    pub traces: usize,
    pub example_trace_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explain: Option<Explanation>,
}

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
    fn add(&mut self, case: &ReplayCase) {
        self.replayed += 1;
        self.recorded[idx(case.recorded_outcome)] += 1;
        self.outcomes[idx(case.outcome)] += 1;
        self.transitions[tidx(case.transition)] += 1;
        self.durations_ms.push(case.duration_ms as f32);
        self.recorded_durations_ms
            .push(case.recorded_duration_ms as f32);
        self.candidates.push(case.candidates as f32);
        self.tools += case.tools.len();
        self.iterations += case.iterations;
        self.output_bytes += case.output_bytes as u64;
        let key = (
            normalise_question(&case.query),
            case.recorded_outcome,
            case.outcome,
        );
        let order = self.groups.len();
        let entry = self.groups.entry(key.clone()).or_insert_with(|| {
            (
                order,
                TransitionGroup {
                    question: key.0.clone(),
                    transition: case.transition,
                    recorded_outcome: case.recorded_outcome,
                    outcome: case.outcome,
                    traces: 0,
                    example_trace_id: case.id.clone(),
                    explain: case.explain.clone(),
                },
            )
        });
        entry.1.traces += 1;
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
            let r = crate::stats::quantile(&v, p).unwrap_or(0.0);
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

/// Streams `stream` through `ask`, hands every case to `sink` in input order, and returns
/// the totals. `on_bad` sees each bad line (and may stop the replay, as `--strict` does).
pub fn replay_stream(
    stream: &mut TraceStream,
    options: &ReplayOptions,
    mut on_bad: impl FnMut(BadLine) -> Result<(), EngineError>,
    mut sink: impl FnMut(&ReplayCase) -> Result<(), EngineError>,
) -> Result<ReplayTotals, EngineError> {
    let engine = Engine::new(options.profile.clone());
    let mut fixtures = Fixtures {
        loaded: HashMap::new(),
    };
    let filter = options.query.as_deref().map(normalise_question);
    let mut totals = ReplayTotals::default();
    let mut batch: Vec<(Trace, Result<Fixture, String>)> = Vec::with_capacity(BATCH);
    let mut done = false;
    while !done {
        batch.clear();
        while batch.len() < BATCH {
            let Some(item) = stream.next() else {
                done = true;
                break;
            };
            match item? {
                TraceItem::Bad(bad) => {
                    if totals.bad_examples.len() < BAD_EXAMPLES {
                        totals.bad_examples.push(bad.to_string());
                    }
                    on_bad(bad)?;
                }
                TraceItem::Trace(trace) => {
                    if filter
                        .as_ref()
                        .is_some_and(|f| *f != normalise_question(&trace.query))
                    {
                        continue;
                    }
                    // fixtures load here, on one thread, once each
                    let fixture = fixtures.resolve(options, &trace.fixture).clone();
                    batch.push((*trace, fixture));
                }
            }
        }
        let cases: Vec<ReplayCase> = batch
            .par_iter()
            .map(|(trace, fixture)| replay_trace(&engine, fixture, trace, options))
            .collect();
        for case in &cases {
            totals.add(case);
            sink(case)?;
        }
    }
    let counts = stream.counts();
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
            trace("d", "find replay", TraceOutcome::Success, "absent"),
        ];
        std::fs::write(&file, lines.join("\n")).unwrap();
        let options = ReplayOptions {
            fixtures_dir: dir.path().to_path_buf(),
            root: None,
            profile: Profile::default(),
            explain: true,
            query: None,
            suite: "replay".into(),
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
            |c| {
                cases.push(c.clone());
                Ok(())
            },
        )
        .unwrap();
        let got: Vec<(&str, TraceOutcome, Transition)> = cases
            .iter()
            .map(|c| (c.id.as_str(), c.outcome, c.transition))
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
                ("c", TraceOutcome::Failure, Transition::Unchanged),
                ("d", TraceOutcome::Failure, Transition::Regressed),
            ]
        );
        assert_eq!(bad, [3]);
        assert_eq!(totals.bad_lines, 1);
        assert!(
            cases[3].reason.starts_with("fixture `absent` not found"),
            "{}",
            cases[3].reason
        );
        let ex = cases[0].explain.as_ref().unwrap();
        assert_eq!(ex.term.as_deref(), Some("replay"));
        assert_eq!(ex.steps[0].tool, "find");
        assert!(ex.candidates[0].path.ends_with("replay_service.cpp"));
        assert_eq!(cases[0].selected.as_deref(), Some("src/replay_service.cpp"));
        let summary = totals.summary("default");
        assert_eq!(summary["transitions"]["fixed"], 1);
        assert_eq!(summary["transitions"]["regressed"], 2);
        assert_eq!(summary["recorded_insufficient_evidence_rate"], 0.25);
        assert_eq!(summary["insufficient_evidence_rate"], 0.25);
    }
}
