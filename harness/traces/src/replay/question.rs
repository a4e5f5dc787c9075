//! Replaying a trace's question through today's `ask` cascade: the replayed outcome, the
//! calls made, and with `--explain` the plan, each step and each candidate's reason.

use crate::replay::answer_bytes::json_len;
use crate::replay::case::{replayed_case, settled};
use crate::replay::memo::Memo;
use crate::replay::options::{ReplayFixture, ReplayOptions};
use crate::trace::{Trace, TraceOutcome};
use findbench_engine::modes::ask::{AskRequest, AskResponse, Tool};
use findbench_engine::{Engine, Outcome, Request, Response};
use findbench_eval::case::{Call, CaseResult, ExplainCandidate, ExplainStep, Explanation};
use std::time::Instant;

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

/// Replays a trace's question through `ask` against its loaded fixture (or the reason it
/// could not load): a case of the shared results model, with the recording beside the
/// replay. A question asked before on the same fixture reuses that answer (`memo`).
pub fn replay_ask(
    engine: &Engine,
    fixture: &Result<ReplayFixture, String>,
    trace: &Trace,
    options: &ReplayOptions,
    memo: &Memo,
) -> CaseResult {
    let clock = Instant::now();
    let answered = fixture.as_ref().map_err(Clone::clone).map(|f| {
        memo.answer(
            engine,
            f,
            &Request::Ask(AskRequest::new(trace.query.clone())),
        )
    });
    let result = answered
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|a| a.result.as_ref().map_err(Clone::clone));
    let elapsed = match &answered {
        Ok(a) => a.duration_ms,
        Err(_) => (clock.elapsed().as_secs_f64() * 1e6).round() / 1e3,
    };
    let mut outcome = TraceOutcome::Failure;
    let mut document = None;
    let mut case = replayed_case(trace, fixture, options, "ask".into(), elapsed);
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
            (case.output_bytes, document) = if crate::replay::judge::is_judged(trace) {
                crate::replay::judge::measured(r, trace)
            } else {
                let bytes = answered
                    .as_ref()
                    .map_or(0, |a| a.output_bytes(|| json_len(r)));
                (bytes, None)
            };
            if options.explain {
                case.explain = Some(explain(r));
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
    settled(case, trace, outcome, document.as_deref(), options.hit_k)
}
