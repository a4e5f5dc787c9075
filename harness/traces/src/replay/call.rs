//! Replaying a call recorded by `findbench serve --record`: the same tool with the same
//! arguments against the fixture it ran on, so replay reproduces exactly what the agent
//! asked (a `find_task` stays a `find_task`), with replay's `--profile` as the engine's.

use crate::replay::answer_bytes::json_len;
use crate::replay::case::{replayed_case, settled};
use crate::replay::memo::Memo;
use crate::replay::options::{ReplayFixture, ReplayOptions};
use crate::trace::{RecordedCall, Trace, TraceOutcome};
use findbench_engine::{Engine, Outcome};
use findbench_eval::call::load_fixture;
use findbench_eval::case::{Call, CaseResult};
use findbench_eval::tools::{FixtureKind, ToolCall};
use std::time::Instant;

/// The `fixture` of a call the server refused before it reached one (bad arguments, a path
/// outside its roots): replay refuses it again.
pub const NO_FIXTURE: &str = "-";

/// Loads a recorded call's store or path list: `fixtures_dir/name`, or the file its
/// `fixture` object names (moved by `--map`; inside the recorded commit for a `{git, rev}`).
pub fn load(
    options: &ReplayOptions,
    trace: &Trace,
    kind: FixtureKind,
) -> Result<ReplayFixture, String> {
    let name = trace.fixture.as_str();
    if name == NO_FIXTURE {
        return Err("the call was refused before it reached a fixture".into());
    }
    let path = match &trace.fixture_source {
        Some(source) => source
            .mapped(&options.map)
            .place()
            .map_err(|e| format!("fixture `{name}`: {e}"))?,
        None => options.fixtures_dir.join(name),
    };
    load_fixture(kind, &path, &options.tree)
        .map(ReplayFixture::new)
        .map_err(|e| format!("fixture `{name}` does not load: {e}"))
}

fn trace_outcome(o: Outcome) -> TraceOutcome {
    match o {
        Outcome::Success => TraceOutcome::Success,
        Outcome::NoMatch | Outcome::InsufficientEvidence => TraceOutcome::InsufficientEvidence,
        Outcome::Failure => TraceOutcome::Failure,
    }
}

/// Replays one recorded call: a case with the recording beside the replay.
pub fn replay_call(
    engine: &Engine,
    fixture: &Result<ReplayFixture, String>,
    trace: &Trace,
    call: &RecordedCall,
    options: &ReplayOptions,
    memo: &Memo,
) -> CaseResult {
    let clock = Instant::now();
    let parsed = ToolCall::parse(&call.tool, &call.arguments).map_err(|e| e.to_string());
    let mode = parsed
        .as_ref()
        .map_or_else(|_| call.tool.clone(), |c| c.mode().as_str().to_string());
    // an equal request answered before on this fixture is reused
    let answered = parsed.and_then(|tool_call| {
        let request = tool_call.request().map_err(|e| e.to_string())?;
        let fixture = fixture.as_ref().map_err(Clone::clone)?;
        Ok(memo.answer(engine, fixture, &request))
    });
    let result = answered
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|a| a.result.as_ref().map_err(Clone::clone));
    let duration_ms = match &answered {
        Ok(a) => a.duration_ms,
        Err(_) => (clock.elapsed().as_secs_f64() * 1e6).round() / 1e3,
    };
    let mut case = CaseResult {
        iterations: 1,
        tools: vec![call.tool.clone()],
        ..replayed_case(trace, fixture, options, mode, duration_ms)
    };
    let mut document = None;
    let outcome = match &result {
        Ok(response) => {
            case.candidates = response.candidates();
            case.ranked = response
                .ranked_keys()
                .into_iter()
                .map(str::to_string)
                .collect();
            case.calls = vec![Call::new(&call.tool, &trace.query, case.candidates)];
            (case.output_bytes, document) = if crate::replay::judge::is_judged(trace) {
                crate::replay::judge::measured(*response, trace)
            } else {
                let bytes = answered
                    .as_ref()
                    .map_or(0, |a| a.output_bytes(|| json_len(*response)));
                (bytes, None)
            };
            case.reason = Some(match case.ranked.first() {
                Some(top) => format!("{} candidates, top {top}", case.candidates),
                None => "no candidates".into(),
            });
            trace_outcome(response.outcome())
        }
        Err(e) => {
            case.reason = Some(e.clone());
            case.failed_tools = 1;
            TraceOutcome::Failure
        }
    };
    settled(case, trace, outcome, document.as_deref(), options.hit_k)
}
