//! A case as one line of `cases.jsonl`, written straight into a byte buffer: the same bytes
//! as serde_json gives for [`crate::case_json`]'s `Serialize` (held by
//! `the_written_line_is_serde_jsons_bytes`), at a fraction of the cost. A million-trace
//! replay writes a gigabyte of these lines; through serde each key is escaped again on every
//! line, here the keys are constants and a string is escaped only when it holds a byte that
//! needs it. Numbers and the rare nested values (`explain`) still go through serde_json, so
//! their formatting is its own.

use crate::case::{Call, CaseResult};
use serde::Serialize;

/// Appends `case` as one line of cases.jsonl to `out`.
pub fn write_case_line(case: &CaseResult, out: &mut Vec<u8>) -> serde_json::Result<()> {
    let w = &mut *out;
    key(w, b"{\"id\":");
    string(w, &case.id);
    key(w, b",\"engine\":");
    string(w, &case.engine);
    key(w, b",\"suite\":");
    string(w, &case.suite);
    key(w, b",\"mode\":");
    string(w, &case.mode);
    key(w, b",\"query\":");
    string(w, &case.query);
    key(w, b",\"status\":");
    string(w, case.status.as_str());
    key(w, b",\"outcome\":");
    string(w, &case.outcome);
    key(w, b",\"expected_outcome\":");
    opt_string(w, case.expected_outcome.as_deref());
    key(w, b",\"candidates\":");
    int(w, case.candidates as u64);
    key(w, b",\"ranked\":");
    strings(w, &case.ranked);
    key(w, b",\"expected\":");
    strings(w, &case.expected);
    key(w, b",\"rank\":");
    opt_int(w, case.rank.map(|r| r as u64));
    key(w, b",\"first_hit_bytes\":");
    opt_int(w, case.first_hit_bytes);
    key(w, b",\"duration_ms\":");
    value(w, &case.duration_ms)?;
    key(w, b",\"output_bytes\":");
    int(w, case.output_bytes);
    key(w, b",\"dump_bytes\":");
    int(w, case.dump_bytes);
    key(w, b",\"evidence_bytes\":");
    opt_int(w, case.evidence_bytes);
    key(w, b",\"items\":");
    int(w, case.items as u64);
    key(w, b",\"tools\":");
    strings(w, &case.tools);
    key(w, b",\"iterations\":");
    int(w, u64::from(case.iterations));
    key(w, b",\"failed_tools\":");
    int(w, u64::from(case.failed_tools));
    key(w, b",\"calls\":");
    calls(w, &case.calls);
    key(w, b",\"reason\":");
    opt_string(w, case.reason.as_deref());
    key(w, b",\"known_failure\":");
    opt_string(w, case.known_failure.as_deref());
    key(w, b",\"tags\":");
    strings(w, &case.tags);
    key(w, b",\"file\":");
    string(w, &case.file);
    key(w, b",\"line\":");
    int(w, case.line as u64);
    if let Some(recorded) = case.recorded_outcome {
        key(w, b",\"recorded_outcome\":");
        string(w, recorded.as_str());
        key(w, b",\"transition\":");
        opt_string(w, case.transition.map(|t| t.as_str()));
        key(w, b",\"fixture\":");
        opt_string(w, case.fixture.as_deref());
        key(w, b",\"timestamp\":");
        opt_string(w, case.timestamp.as_deref());
        key(w, b",\"recorded_candidates\":");
        opt_int(w, case.recorded_candidates);
        key(w, b",\"recorded_tools\":");
        match &case.recorded_tools {
            Some(t) => strings(w, t),
            None => key(w, b"null"),
        }
        key(w, b",\"recorded_iterations\":");
        opt_int(w, case.recorded_iterations.map(u64::from));
        key(w, b",\"recorded_duration_ms\":");
        value(w, &case.recorded_duration_ms)?;
        key(w, b",\"recorded_output_bytes\":");
        opt_int(w, case.recorded_output_bytes);
        key(w, b",\"recorded_first_hit_bytes\":");
        opt_int(w, case.recorded_first_hit_bytes);
        key(w, b",\"recorded_searches_before_hit\":");
        opt_int(w, case.recorded_searches_before_hit.map(u64::from));
        key(w, b",\"selected\":");
        opt_string(w, case.selected.as_deref());
        key(w, b",\"input_index\":");
        opt_int(w, case.input_index);
        if let Some(explain) = &case.explain {
            key(w, b",\"explain\":");
            value(w, explain)?;
        }
    }
    key(w, b"}\n");
    Ok(())
}

fn key(w: &mut Vec<u8>, bytes: &[u8]) {
    w.extend_from_slice(bytes);
}

fn int(w: &mut Vec<u8>, n: u64) {
    w.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

fn opt_int(w: &mut Vec<u8>, n: Option<u64>) {
    match n {
        Some(n) => int(w, n),
        None => key(w, b"null"),
    }
}

/// A value serde_json writes (floats, nested objects): its formatting, its bytes.
fn value(w: &mut Vec<u8>, v: &impl Serialize) -> serde_json::Result<()> {
    serde_json::to_writer(&mut *w, v)
}

fn opt_string(w: &mut Vec<u8>, s: Option<&str>) {
    match s {
        Some(s) => string(w, s),
        None => key(w, b"null"),
    }
}

fn strings(w: &mut Vec<u8>, list: &[String]) {
    w.push(b'[');
    for (i, s) in list.iter().enumerate() {
        if i > 0 {
            w.push(b',');
        }
        string(w, s);
    }
    w.push(b']');
}

fn calls(w: &mut Vec<u8>, calls: &[Call]) {
    w.push(b'[');
    for (i, c) in calls.iter().enumerate() {
        if i > 0 {
            w.push(b',');
        }
        key(w, b"{\"tool\":");
        string(w, &c.tool);
        key(w, b",\"input\":");
        string(w, &c.input);
        key(w, b",\"candidates\":");
        int(w, c.candidates as u64);
        w.push(b'}');
    }
    w.push(b']');
}

/// Whether serde_json escapes this byte in a string: a quote, a backslash, a control
/// character below 0x20.
fn escaped(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// A JSON string as serde_json writes it: `\"`, `\\`, the five short control escapes,
/// `\u00xx` for the other control characters, everything else (UTF-8 included) as it is.
fn string(w: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    w.push(b'"');
    // most strings need no escape at all: tested without an early exit, which vectorises
    if !bytes.iter().fold(false, |any, &b| any | escaped(b)) {
        w.extend_from_slice(bytes);
        w.push(b'"');
        return;
    }
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if !escaped(b) {
            continue;
        }
        w.extend_from_slice(&bytes[start..i]);
        match b {
            b'"' => w.extend_from_slice(b"\\\""),
            b'\\' => w.extend_from_slice(b"\\\\"),
            b'\n' => w.extend_from_slice(b"\\n"),
            b'\r' => w.extend_from_slice(b"\\r"),
            b'\t' => w.extend_from_slice(b"\\t"),
            0x08 => w.extend_from_slice(b"\\b"),
            0x0c => w.extend_from_slice(b"\\f"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                w.extend_from_slice(b"\\u00");
                w.push(HEX[usize::from(b >> 4)]);
                w.push(HEX[usize::from(b & 0xf)]);
            }
        }
        start = i + 1;
    }
    w.extend_from_slice(&bytes[start..]);
    w.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::{
        ExplainCandidate, ExplainStep, Explanation, Status, TraceOutcome, Transition,
    };

    fn line(case: &CaseResult) -> String {
        let mut out = Vec::new();
        write_case_line(case, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn serde_line(case: &CaseResult) -> String {
        serde_json::to_string(case).unwrap() + "\n"
    }

    #[test]
    fn the_written_line_is_serde_jsons_bytes() {
        let awkward = "q \"quoted\" back\\slash \n\r\t\u{8}\u{c}\u{1}\u{1f}\u{7f} é ✓ 😀 </x>";
        let run = CaseResult {
            id: "c-1".into(),
            engine: "findbench".into(),
            suite: "s".into(),
            mode: "task".into(),
            query: awkward.into(),
            status: Status::Xfail,
            outcome: "success".into(),
            expected_outcome: Some("failure".into()),
            candidates: 12,
            ranked: vec!["a".into(), awkward.into()],
            expected: vec!["b".into()],
            rank: Some(3),
            first_hit_bytes: Some(u64::MAX),
            duration_ms: 0.1 + 0.2,
            output_bytes: 1100,
            dump_bytes: 0,
            evidence_bytes: Some(7),
            items: 39,
            tools: vec!["find".into(), "read".into()],
            iterations: 2,
            failed_tools: 1,
            calls: vec![Call::new("find", awkward, 4), Call::new("read", "", 0)],
            reason: Some(awkward.into()),
            known_failure: Some("kf".into()),
            tags: vec!["t1".into(), "t2".into()],
            file: "corpora/x.yaml".into(),
            line: 12,
            ..CaseResult::default()
        };
        let replayed = CaseResult {
            recorded_outcome: Some(TraceOutcome::InsufficientEvidence),
            transition: Some(Transition::Fixed),
            fixture: Some("agent-cpp".into()),
            timestamp: Some("2026-06-19T00:40:13Z".into()),
            recorded_candidates: Some(0),
            recorded_tools: Some(vec!["find".into(), "grep".into()]),
            recorded_iterations: Some(2),
            recorded_duration_ms: Some(149.6),
            recorded_output_bytes: Some(412),
            recorded_first_hit_bytes: None,
            recorded_searches_before_hit: Some(1),
            selected: Some("src/x.cpp".into()),
            input_index: Some(1_000_000),
            ..run.clone()
        };
        let explained = CaseResult {
            explain: Some(Explanation {
                term: Some("replay".into()),
                impl_query: true,
                steps: vec![ExplainStep {
                    tool: "find".into(),
                    input: awkward.into(),
                    candidates: 2,
                    note: "n".into(),
                }],
                candidates: vec![ExplainCandidate {
                    path: "p".into(),
                    score: 0.5,
                    reason: "r".into(),
                }],
            }),
            ..replayed.clone()
        };
        let odd_numbers = CaseResult {
            duration_ms: f64::NAN,
            recorded_duration_ms: None,
            recorded_tools: None,
            transition: None,
            ..replayed.clone()
        };
        for case in [
            CaseResult::default(),
            run,
            replayed,
            explained,
            odd_numbers,
            CaseResult {
                duration_ms: 1.0,
                recorded_duration_ms: Some(1e21),
                ..CaseResult::default()
            },
        ] {
            assert_eq!(line(&case), serde_line(&case));
        }
        // every control character, one at a time
        for c in (0u8..0x80).map(char::from) {
            let case = CaseResult {
                id: format!("a{c}b"),
                ..CaseResult::default()
            };
            assert_eq!(line(&case), serde_line(&case), "{:?}", c);
        }
    }
}
