//! What a replayed case holds whichever way it was replayed (a recorded call through its
//! tool, a question through `ask`): the recording beside the replay, and the replayed
//! outcome settled into status, transition and, for a trace with `expected` files, the
//! judgement.

use crate::replay::options::{ReplayFixture, ReplayOptions};
use crate::trace::{Trace, TraceOutcome};
use findbench_eval::case::{CaseResult, Status, Transition};

/// A case of `trace` replayed as `mode` in `duration_ms` on `fixture`, with the recording
/// filled in; the replay fills in what it found.
pub(super) fn replayed_case(
    trace: &Trace,
    fixture: &Result<ReplayFixture, String>,
    options: &ReplayOptions,
    mode: String,
    duration_ms: f64,
) -> CaseResult {
    CaseResult {
        id: trace.trace_id.clone(),
        engine: "findbench".into(),
        suite: options.suite.clone(),
        mode,
        query: trace.query.clone(),
        duration_ms,
        items: fixture.as_ref().map_or(0, |f| f.items),
        dump_bytes: fixture.as_ref().map_or(0, |f| f.dump_bytes),
        recorded_outcome: Some(trace.outcome),
        fixture: Some(trace.fixture.clone()),
        timestamp: Some(trace.timestamp.clone()),
        recorded_candidates: Some(trace.tools.last().map_or(0, |t| t.candidates)),
        recorded_tools: Some(trace.tools.iter().map(|t| t.name.clone()).collect()),
        recorded_iterations: Some(trace.iterations),
        // an imported agent log times no retrieval and says 0: unknown, not instant
        recorded_duration_ms: (trace.duration_ms > 0.0).then_some(trace.duration_ms),
        ..CaseResult::default()
    }
}

/// `case` with its replayed `outcome`: the transition from the recorded outcome, judged
/// ([`crate::replay::judge`]: the recorded tool sizes, and with `expected` files
/// `document`, findbench's answer), and passing on a success that, when the trace names
/// expected files, has one of them within the first `hit_k` of its answer.
pub(super) fn settled(
    mut case: CaseResult,
    trace: &Trace,
    outcome: TraceOutcome,
    document: Option<&[u8]>,
    hit_k: usize,
) -> CaseResult {
    case.outcome = outcome.as_str().to_string();
    case.status = if outcome == TraceOutcome::Success {
        Status::Pass
    } else {
        Status::Fail
    };
    case.transition = Some(Transition::of(trace.outcome, outcome));
    crate::replay::judge::judge(&mut case, trace, document);
    if !case.expected.is_empty() && case.rank.is_none_or(|r| r > hit_k) {
        case.status = Status::Fail;
    }
    case
}
