//! A replayed trace that names `expected` files (an imported agent trace names the files
//! the agent went on to read or edit) is judged as a corpus case is: the rank of the first
//! expected file in what findbench returned, and where in findbench's answer it ends
//! (`first_hit_bytes`). Beside it, what the agent's own calls cost (the recording keeps
//! sizes, not output): the bytes its tools returned, and those it read before it reached an
//! expected file. An imported trace lists the agent's later calls of the turn
//! (`later_calls`): its search, then every later search and file read up to and including
//! the read of an expected file. A trace without them counts its own tools up to the end
//! of the first that returned anything (its first useful search). The searches before that
//! useful one are counted either way.

use crate::replay::answer_bytes::json_len;
use crate::trace::Trace;
use findbench_eval::case::CaseResult;
use findbench_eval::metrics::recall::first_hit_bytes;

/// The expected files of a trace, when it names any.
fn expected(trace: &Trace) -> Option<&[String]> {
    trace.expected.as_deref().filter(|e| !e.is_empty())
}

/// Whether a trace names the files its answer is judged against.
pub(crate) fn is_judged(trace: &Trace) -> bool {
    expected(trace).is_some()
}

/// An answer's size in bytes, and its JSON when the trace is judged (its first hit is
/// looked for there; an unjudged answer is only counted, never kept).
pub(crate) fn measured(answer: &impl serde::Serialize, trace: &Trace) -> (u64, Option<Vec<u8>>) {
    match expected(trace) {
        Some(_) => {
            let bytes = serde_json::to_vec(answer).unwrap_or_default();
            (bytes.len() as u64, Some(bytes))
        }
        None => (json_len(answer), None),
    }
}

/// Fills in `case` what the trace's recorded tool sizes say, and, when the trace names
/// expected files, judges `document` (findbench's answer) and the agent's calls.
pub(crate) fn judge(case: &mut CaseResult, trace: &Trace, document: Option<&[u8]>) {
    let sizes: Vec<Option<u64>> = trace.tools.iter().map(|t| t.output_bytes).collect();
    let own = sizes.iter().copied().sum::<Option<u64>>();
    let later = trace.later_calls.as_deref();
    case.recorded_output_bytes = match later {
        // what the agent read from its search on: the later calls need the search's size
        Some(calls) => own.map(|b| b + calls.iter().map(|c| c.output_bytes).sum::<u64>()),
        None => sizes
            .iter()
            .any(Option::is_some)
            .then(|| sizes.iter().flatten().sum()),
    };
    let Some(expected) = expected(trace) else {
        return;
    };
    case.expected = expected.to_vec();
    case.rank = case
        .ranked
        .iter()
        .position(|k| expected.contains(k))
        .map(|i| i + 1);
    case.first_hit_bytes = document.and_then(|d| first_hit_bytes(d, expected, None));
    let useful = trace.tools.iter().position(|t| t.candidates > 0);
    // the turn's searches before this trace's own, then its own before the useful one
    let earlier = (trace.iterations as usize).saturating_sub(trace.tools.len());
    case.recorded_searches_before_hit =
        useful.map(|k| u32::try_from(earlier + k).unwrap_or(u32::MAX));
    case.recorded_first_hit_bytes = match later {
        Some(calls) => own.and_then(|own| reached(own, calls, expected)),
        None => useful.and_then(|k| sizes[..=k].iter().copied().sum::<Option<u64>>()),
    };
}

/// The bytes the agent had read when a call of `calls` first reached one of `expected`,
/// `own` (its search) included; none when no call did.
fn reached(own: u64, calls: &[crate::trace::LaterCall], expected: &[String]) -> Option<u64> {
    let mut bytes = own;
    for call in calls {
        bytes += call.output_bytes;
        if call.path.as_ref().is_some_and(|p| expected.contains(p)) {
            return Some(bytes);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{LaterCall, LaterCallKind, ToolCall, TraceOutcome};

    fn call(candidates: u64, bytes: Option<u64>) -> ToolCall {
        ToolCall {
            name: "grep".into(),
            input: "x".into(),
            candidates,
            duration_ms: 1.0,
            output_bytes: bytes,
        }
    }

    fn trace(tools: Vec<ToolCall>, iterations: u32, expected: Option<Vec<&str>>) -> Trace {
        Trace {
            trace_id: "t".into(),
            timestamp: "2026-01-01T00:00:00Z".into(),
            query: "q".into(),
            fixture: "f".into(),
            fixture_source: None,
            tools,
            outcome: TraceOutcome::Success,
            iterations,
            duration_ms: 1.0,
            expected: expected.map(|e| e.into_iter().map(String::from).collect()),
            later_calls: None,
            call: None,
        }
    }

    #[test]
    fn a_judged_trace_gets_findbench_and_the_agent_side_by_side() {
        let t = trace(
            vec![call(0, Some(40)), call(3, Some(2000)), call(1, Some(9))],
            5,
            Some(vec!["src/a.cpp"]),
        );
        let mut case = CaseResult {
            ranked: vec!["src/b.cpp".into(), "src/a.cpp".into()],
            ..CaseResult::default()
        };
        let doc = br#"{"matches":[{"path":"src/b.cpp"},{"path":"src/a.cpp"}]}"#;
        judge(&mut case, &t, Some(doc));
        assert_eq!(case.rank, Some(2));
        assert_eq!(case.first_hit_bytes, Some(51));
        assert_eq!(case.recorded_output_bytes, Some(2049));
        // the second call is the first that returned anything: two earlier turn searches
        // (5 iterations, 3 of them this trace's) and the first call before it
        assert_eq!(case.recorded_searches_before_hit, Some(3));
        assert_eq!(case.recorded_first_hit_bytes, Some(2040));
    }

    #[test]
    fn unknown_sizes_and_no_useful_search_leave_the_agent_side_empty() {
        let mut case = CaseResult::default();
        judge(
            &mut case,
            &trace(vec![call(2, None)], 1, Some(vec!["a"])),
            None,
        );
        assert_eq!(
            (case.recorded_output_bytes, case.recorded_first_hit_bytes),
            (None, None)
        );
        assert_eq!(case.recorded_searches_before_hit, Some(0));
        assert_eq!(case.first_hit_bytes, None);
        let mut case = CaseResult::default();
        judge(
            &mut case,
            &trace(vec![call(0, Some(5))], 1, Some(vec!["a"])),
            None,
        );
        assert_eq!(case.recorded_searches_before_hit, None);
        assert_eq!(case.recorded_output_bytes, Some(5));
        // a trace that names nothing is not judged
        let mut case = CaseResult::default();
        judge(&mut case, &trace(vec![call(1, Some(5))], 1, None), None);
        assert!(case.expected.is_empty() && case.recorded_searches_before_hit.is_none());
    }

    fn read(path: Option<&str>, bytes: u64) -> LaterCall {
        LaterCall {
            kind: LaterCallKind::Read,
            path: path.map(String::from),
            output_bytes: bytes,
        }
    }

    #[test]
    fn the_agent_reads_up_to_the_expected_file_count_with_its_searches() {
        // grep, two wrong files, another grep, then the expected file, then one more read
        let mut t = trace(vec![call(4, Some(300))], 1, Some(vec!["src/right.cpp"]));
        t.later_calls = Some(vec![
            read(Some("src/wrong_a.cpp"), 2000),
            read(Some("src/wrong_b.cpp"), 1500),
            LaterCall {
                kind: LaterCallKind::Search,
                path: None,
                output_bytes: 120,
            },
            read(Some("src/right.cpp"), 900),
            read(Some("src/after.cpp"), 50),
        ]);
        let mut case = CaseResult::default();
        judge(&mut case, &t, None);
        assert_eq!(
            case.recorded_first_hit_bytes,
            Some(300 + 2000 + 1500 + 120 + 900)
        );
        assert_eq!(
            case.recorded_output_bytes,
            Some(300 + 2000 + 1500 + 120 + 900 + 50)
        );
        assert_eq!(case.recorded_searches_before_hit, Some(0));
        // a search that found nothing still starts what the agent read to reach the file
        t.tools = vec![call(0, Some(10))];
        let mut case = CaseResult::default();
        judge(&mut case, &t, None);
        assert_eq!(
            case.recorded_first_hit_bytes,
            Some(10 + 2000 + 1500 + 120 + 900)
        );
        assert_eq!(case.recorded_searches_before_hit, None);
        // never reached, or the search's own size unknown: unknown
        t.expected = Some(vec!["src/never_read.cpp".into()]);
        let mut case = CaseResult::default();
        judge(&mut case, &t, None);
        assert_eq!(case.recorded_first_hit_bytes, None);
        t.expected = Some(vec!["src/right.cpp".into()]);
        t.tools = vec![call(4, None)];
        let mut case = CaseResult::default();
        judge(&mut case, &t, None);
        assert_eq!(
            (case.recorded_first_hit_bytes, case.recorded_output_bytes),
            (None, None)
        );
    }
}
