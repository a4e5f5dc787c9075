//! What a replay aggregates as its cases go by: counts, per-question transition groups,
//! and one `f32` per trace for the latency and candidate quantiles; the `summary` of its
//! results.json.

use crate::trace::{FixtureSource, TraceOutcome};
use findbench_eval::case::{CaseResult, Transition};
use findbench_eval::question::{normalise_question, turn_key};
use findbench_eval::replay_summary::TransitionGroup;
use std::collections::HashMap;

/// The replayed outcome of a replay case (`outcome` is always one of the three).
pub(crate) fn replayed_outcome(case: &CaseResult) -> TraceOutcome {
    TraceOutcome::parse(&case.outcome).unwrap_or(TraceOutcome::Failure)
}

/// Everything a replay aggregates, in memory independent of the number of traces except
/// for one `f32` per trace per quantile series.
#[derive(Debug, Default)]
pub struct ReplayTotals {
    pub files: usize,
    pub lines: usize,
    pub traces: usize,
    pub replayed: usize,
    /// Replayed cases that pass: a success, and for a trace naming expected files, one of
    /// them within the first k of the answer.
    pub passed: usize,
    pub bad_lines: usize,
    /// The first bad lines, as `file:line: reason`.
    pub bad_examples: Vec<String>,
    pub recorded: [usize; 3],
    pub outcomes: [usize; 3],
    pub transitions: [usize; 3],
    pub durations_ms: Vec<f32>,
    /// The recorded times that are known (an imported log's are not).
    pub recorded_durations_ms: Vec<f32>,
    pub candidates: Vec<f32>,
    pub tools: usize,
    pub iterations: usize,
    pub output_bytes: u64,
    /// The judged traces' ranking, recall within a budget, and the agent's side.
    pub rank: crate::replay::rank::RankTotals,
    /// Traces recorded on a work tree with uncommitted changes (replayed against its commit).
    pub dirty: usize,
    /// Each user question ([`turn_key`]) and whether one of its searches passed: a turn's
    /// searches count once in the pass rate unless `per_search`.
    turns: HashMap<u64, bool>,
    /// Count every search as a case of its own (`replay --per-search`).
    pub per_search: bool,
    /// The trees replayed against (a directory, or `repository@commit` for traces pinned
    /// to one), sorted.
    pub against: Vec<String>,
    /// Per-question groups in the order of their first trace, found by normalised question
    /// and outcomes ...
    groups: Vec<TransitionGroup>,
    by_question: HashMap<(String, TraceOutcome, TraceOutcome), usize>,
    /// ... or, for a question asked before in the same words (most traces), by those words
    /// and [`slot`]: normalising each trace's question again cost more than the rest of
    /// its counting. At most [`RAW_QUESTIONS`] wordings, forgotten together when full.
    by_raw: HashMap<String, [u32; 9]>,
}

/// Wordings [`ReplayTotals`] remembers the group of.
const RAW_QUESTIONS: usize = 65_536;

/// No group yet for this wording and these outcomes.
const NO_GROUP: u32 = u32::MAX;

/// A (recorded, replayed) outcome pair as an index.
fn slot(recorded: TraceOutcome, outcome: TraceOutcome) -> usize {
    idx(recorded) * 3 + idx(outcome)
}

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
        let passed = case.status == findbench_eval::case::Status::Pass;
        self.passed += usize::from(passed);
        *self
            .turns
            .entry(turn_key(&case.id, &case.query))
            .or_default() |= passed;
        self.recorded[idx(recorded)] += 1;
        self.outcomes[idx(outcome)] += 1;
        self.transitions[tidx(transition)] += 1;
        self.durations_ms.push(case.duration_ms as f32);
        if let Some(ms) = case.recorded_duration_ms {
            self.recorded_durations_ms.push(ms as f32);
        }
        self.candidates.push(case.candidates as f32);
        self.tools += case.tools.len();
        self.iterations += case.iterations as usize;
        self.output_bytes += case.output_bytes;
        self.rank.add(case);
        if case
            .fixture
            .as_deref()
            .is_some_and(FixtureSource::label_is_dirty)
        {
            self.dirty += 1;
        }
        let slot = slot(recorded, outcome);
        let known = self.by_raw.get(case.query.as_str()).map(|s| s[slot]);
        if let Some(g) = known.filter(|g| *g != NO_GROUP) {
            self.groups[g as usize].traces += 1;
            return;
        }
        let key = (normalise_question(&case.query), recorded, outcome);
        let g = match self.by_question.get(&key) {
            Some(&g) => {
                self.groups[g].traces += 1;
                g
            }
            None => {
                self.groups.push(TransitionGroup {
                    question: key.0.clone(),
                    transition,
                    recorded_outcome: recorded,
                    outcome,
                    traces: 1,
                    example_trace_id: case.id.clone(),
                    explain: case.explain.clone(),
                });
                self.by_question.insert(key, self.groups.len() - 1);
                self.groups.len() - 1
            }
        };
        let Ok(g) = u32::try_from(g) else {
            return;
        };
        if known.is_none() && self.by_raw.len() >= RAW_QUESTIONS {
            self.by_raw.clear();
        }
        self.by_raw
            .entry(case.query.clone())
            .or_insert([NO_GROUP; 9])[slot] = g;
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
        let mut v: Vec<(usize, &TransitionGroup)> = self.groups.iter().enumerate().collect();
        v.sort_by(|a, b| {
            a.1.transition
                .cmp(&b.1.transition)
                .then(b.1.traces.cmp(&a.1.traces))
                .then(a.0.cmp(&b.0))
        });
        v.into_iter().map(|(_, g)| g.clone()).collect()
    }

    /// What the traces were replayed against, in words: the tree, or how many and the
    /// first few (`fallback` when none loaded).
    pub fn against_text(&self, fallback: &str) -> String {
        const SHOWN: usize = 3;
        match self.against.as_slice() {
            [] => fallback.to_string(),
            [one] => one.clone(),
            many => format!(
                "{} trees ({}{})",
                many.len(),
                many[..many.len().min(SHOWN)].join(", "),
                if many.len() > SHOWN { ", ..." } else { "" }
            ),
        }
    }

    /// The line a replay's text and markdown reports print when some traces were recorded
    /// on a work tree with uncommitted changes.
    pub fn dirty_note(&self) -> Option<String> {
        dirty_note(self.dirty)
    }

    /// The `summary` object of results.json.
    pub fn summary(&self, profile: &str) -> serde_json::Value {
        let n = self.replayed;
        let q = |v: &[f32], p: f64| -> f64 {
            let v: Vec<f64> = v.iter().map(|x| *x as f64).collect();
            let r = findbench_eval::stats::quantile(&v, p).unwrap_or(0.0);
            (r * 1e3).round() / 1e3
        };
        let known = |v: f64| (!self.recorded_durations_ms.is_empty()).then_some(v);
        let zero = self.candidates.iter().filter(|c| **c == 0.0).count();
        let mean = |total: f64| if n == 0 { 0.0 } else { total / n as f64 };
        let candidates_total: f64 = self.candidates.iter().map(|c| *c as f64).sum();
        let success = self.outcome_count(TraceOutcome::Success);
        // a question searched three times is one case, unless each search is asked for
        let questions = self.turns.len();
        let questions_passed = self.turns.values().filter(|p| **p).count();
        let (cases, passed) = if self.per_search {
            (n, self.passed)
        } else {
            (questions, questions_passed)
        };
        let mut summary = serde_json::json!({
            "profile": profile,
            "total": n,
            "counted_by": if self.per_search { "search" } else { "question" },
            "questions": questions,
            "passed": passed,
            "failed": cases - passed,
            "xfail": 0,
            "xpass": 0,
            "pass_rate": Self::rate(passed, cases),
            "search_pass_rate": Self::rate(self.passed, n),
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
            // null when no trace recorded its time (imported agent logs)
            "recorded_latency_p50_ms": known(q(&self.recorded_durations_ms, 0.5)),
            "recorded_latency_p95_ms": known(q(&self.recorded_durations_ms, 0.95)),
            "rank": self.rank.summary(),
        });
        // only when there are some: the summary of every other replay stays as it was
        if self.dirty > 0 {
            summary["dirty_traces"] = self.dirty.into();
        }
        summary
    }
}

/// The note on `dirty` traces recorded on a work tree with uncommitted changes; none for 0.
pub fn dirty_note(dirty: usize) -> Option<String> {
    (dirty > 0).then(|| {
        format!(
            "{dirty} trace{} recorded on a work tree with uncommitted changes: replayed \
             against its last commit, which may not hold what the agent saw",
            if dirty == 1 { " was" } else { "s were" }
        )
    })
}
