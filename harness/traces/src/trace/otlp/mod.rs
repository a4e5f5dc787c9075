//! OpenTelemetry traces in: OTLP/JSON as the collector's file exporter writes it (one
//! `ExportTraceServiceRequest` per line), following the GenAI semantic conventions.
//!
//! `execute_tool` spans are grouped per agent invocation (their `invoke_agent` ancestor, or
//! else their trace id), and each group becomes one [`Trace`]:
//!
//! | trace field | from |
//! |---|---|
//! | `trace_id` | the span's `traceId` (`traceId/spanId` of the `invoke_agent` span when there is one) |
//! | `timestamp` | `invoke_agent` start, else the first tool span's start |
//! | `query` | the first tool call whose `gen_ai.tool.call.arguments` holds `question`, `query`, `term`, `pattern`, `q`, `search` or `id` |
//! | `fixture` | that call's `root` or `store` argument, else the `findbench.fixture` attribute, else the resource's `service.name` |
//! | `tools` | every `execute_tool` span by start time: `gen_ai.tool.name`, the query-like argument, candidates from `gen_ai.tool.call.result`, end − start |
//! | `outcome` | `failure` when the invocation or its last tool span has status ERROR or the last result says `success: false`; else the last result's `outcome`; else `success` when any tool found candidates, `insufficient_evidence` when none did |
//! | `iterations` | the number of tool spans |
//! | `duration_ms` | `invoke_agent` end − start, else last tool end − first tool start |
//!
//! A span that lacks what is needed (a tool name, readable start and end times, arguments
//! that are JSON) and a group with no query or no tool call are reported like bad lines,
//! with the file and the line the span is on, and counted; the rest of the file goes on.
//! A line of the wrong shape (`scopeSpans`, `spans` or `attributes` not a list, an entry
//! not an object) is a bad line whole, named by the field, never read as empty.
//! A file is read whole before its traces are yielded, since an invocation's spans may be
//! spread over several export batches (lines).
//!
//! One file per job: `span` reads a line's spans, `group` groups them per invocation,
//! `invocation` makes each group a trace (what `replay --from otlp` reads), `tool_spans`
//! gives each group's tool spans as they are (what `import otel` reads); this module
//! detects the format and reads a file.

mod group;
mod invocation;
mod span;
mod tool_spans;

pub use invocation::{candidates as result_candidates, QUERY_KEYS};
pub use tool_spans::{read_invocations, InvocationSpans, OtlpSpans, ToolSpan};

use super::item::{BadLine, TraceItem};
use group::group;
use span::{spans_of_line, Span};
use std::io::BufRead;
use std::path::Path;

/// Whether a file's first non-blank line opens an OTLP/JSON export request (its first key
/// is `resourceSpans`, as the collector and protobuf's JSON mapping write it) rather than a
/// findbench trace.
pub fn looks_like_otlp(first_bytes: &[u8]) -> bool {
    let text = first_bytes
        .strip_prefix(b"\xef\xbb\xbf")
        .unwrap_or(first_bytes);
    let mut rest = text.iter().skip_while(|b| b.is_ascii_whitespace());
    if rest.next() != Some(&b'{') {
        return false;
    }
    let tail: Vec<u8> = rest
        .skip_while(|b| b.is_ascii_whitespace())
        .take(16)
        .copied()
        .collect();
    tail.starts_with(b"\"resourceSpans\"") || tail.starts_with(b"\"resource_spans\"")
}

/// What one OTLP file gave: its traces and bad spans in file order, and counts.
#[derive(Debug, Default)]
pub struct OtlpFile {
    pub items: Vec<TraceItem>,
    /// Non-blank lines read.
    pub lines: usize,
    pub spans: usize,
}

/// Reads a whole OTLP/JSON file into traces and bad spans, in file order.
pub fn read_file(path: &Path, reader: &mut dyn BufRead) -> std::io::Result<OtlpFile> {
    let (spans, bad, lines) = read_spans(path, reader)?;
    let mut file = OtlpFile {
        lines,
        spans: spans.len(),
        ..OtlpFile::default()
    };
    let (traces, bad_spans) = group(path, &spans);
    // file order: by the line each item comes from
    let mut items: Vec<(usize, TraceItem)> = bad
        .into_iter()
        .chain(bad_spans)
        .map(|b| (b.line, TraceItem::Bad(b)))
        .chain(
            traces
                .into_iter()
                .map(|(l, t)| (l, TraceItem::Trace(Box::new(t)))),
        )
        .collect();
    items.sort_by_key(|(l, _)| *l);
    file.items = items.into_iter().map(|(_, i)| i).collect();
    Ok(file)
}

/// Every span of a file, the lines that could not be read, and the non-blank lines.
fn read_spans(
    path: &Path,
    reader: &mut dyn BufRead,
) -> std::io::Result<(Vec<Span>, Vec<BadLine>, usize)> {
    let mut lines = 0usize;
    let mut spans: Vec<Span> = Vec::new();
    let mut bad: Vec<BadLine> = Vec::new();
    let mut buf = Vec::new();
    let mut line = 0usize;
    loop {
        buf.clear();
        if reader.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        line += 1;
        if buf.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        lines += 1;
        let parsed = std::str::from_utf8(&buf)
            .map_err(|e| format!("not UTF-8 ({e})"))
            .and_then(|t| {
                spans_of_line(
                    t.trim_start_matches('\u{feff}').trim_end(),
                    line,
                    &mut spans,
                )
            });
        if let Err(reason) = parsed {
            bad.push(BadLine {
                file: path.to_path_buf(),
                line,
                reason,
            });
        }
    }
    Ok((spans, bad, lines))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::record::{Trace, TraceOutcome};
    use serde_json::json;
    use serde_json::Value;

    fn kv(key: &str, value: &str) -> Value {
        json!({"key": key, "value": {"stringValue": value}})
    }

    fn span(
        trace: &str,
        id: &str,
        parent: &str,
        op: &str,
        attrs: Vec<Value>,
        t: (u64, u64),
        error: bool,
    ) -> Value {
        let mut attributes = vec![kv("gen_ai.operation.name", op)];
        attributes.extend(attrs);
        json!({"traceId": trace, "spanId": id, "parentSpanId": parent, "name": op,
               "startTimeUnixNano": t.0.to_string(), "endTimeUnixNano": t.1.to_string(),
               "attributes": attributes, "status": {"code": if error {2} else {0}}})
    }

    fn line(spans: Vec<Value>) -> String {
        json!({"resourceSpans": [{"resource": {"attributes": [kv("service.name", "agent-cpp")]},
               "scopeSpans": [{"scope": {"name": "t"}, "spans": spans}]}]})
        .to_string()
    }

    fn tool(
        trace: &str,
        id: &str,
        parent: &str,
        name: &str,
        args: Value,
        result: Value,
        t: (u64, u64),
    ) -> Value {
        span(
            trace,
            id,
            parent,
            "execute_tool",
            vec![
                kv("gen_ai.tool.name", name),
                kv("gen_ai.tool.call.arguments", &args.to_string()),
                kv("gen_ai.tool.call.result", &result.to_string()),
            ],
            t,
            false,
        )
    }

    fn read(text: &str) -> OtlpFile {
        read_file(Path::new("t.jsonl"), &mut text.as_bytes()).unwrap()
    }

    #[test]
    fn groups_tool_spans_per_invocation_across_lines() {
        let s = 1_750_000_000_000_000_000u64;
        let a = tool(
            "t1",
            "a1",
            "ag",
            "find_code",
            json!({"term": "replay", "impl": true}),
            json!({"summary": {"total_matches": 0}, "matches": []}),
            (s + 1_000_000, s + 3_000_000),
        );
        let b = tool(
            "t1",
            "a2",
            "ag",
            "grep",
            json!({"term": "replay"}),
            json!({"matches": [{"path": "x"}]}),
            (s + 4_000_000, s + 6_000_000),
        );
        let agent = span(
            "t1",
            "ag",
            "",
            "invoke_agent",
            vec![],
            (s, s + 10_000_000),
            false,
        );
        let lonely = tool(
            "t2",
            "b1",
            "",
            "search_files",
            json!({"query": "cursor binary"}),
            json!([]),
            (s, s + 2_000_000),
        );
        let text = format!(
            "{}\n{}\n{}\n",
            line(vec![a]),
            line(vec![b, agent]),
            line(vec![lonely])
        );
        let file = read(&text);
        assert_eq!((file.lines, file.spans), (3, 4));
        let traces: Vec<&Trace> = file
            .items
            .iter()
            .map(|i| match i {
                TraceItem::Trace(t) => t.as_ref(),
                TraceItem::Bad(b) => panic!("{b}"),
            })
            .collect();
        assert_eq!(traces.len(), 2);
        let t = traces[0];
        assert_eq!(t.trace_id, "t1/ag");
        assert_eq!(t.query, "replay");
        assert_eq!(t.fixture, "agent-cpp");
        assert_eq!(t.tool_sequence(), "find_code → grep");
        assert_eq!((t.tools[0].candidates, t.tools[1].candidates), (0, 1));
        assert_eq!(t.outcome, TraceOutcome::Success);
        assert_eq!((t.duration_ms, t.tools[0].duration_ms), (10.0, 2.0));
        assert_eq!(t.iterations, 2);
        assert!(t.call.is_none());
        let t = traces[1];
        assert_eq!(
            (t.trace_id.as_str(), t.query.as_str()),
            ("t2", "cursor binary")
        );
        assert_eq!(t.outcome, TraceOutcome::InsufficientEvidence);
    }

    #[test]
    fn outcome_from_status_and_result() {
        let s = 1_000u64;
        let err = span(
            "t3",
            "e",
            "",
            "execute_tool",
            vec![
                kv("gen_ai.tool.name", "ask"),
                kv("gen_ai.tool.call.arguments", r#"{"question":"q"}"#),
            ],
            (s, s + 5),
            true,
        );
        let said = tool(
            "t4",
            "o",
            "",
            "ask",
            json!({"question": "q"}),
            json!({"outcome": "insufficient_evidence", "candidates": 4}),
            (s, s + 5),
        );
        let file = read(&format!("{}\n{}\n", line(vec![err]), line(vec![said])));
        let outcomes: Vec<TraceOutcome> = file
            .items
            .iter()
            .filter_map(|i| match i {
                TraceItem::Trace(t) => Some(t.outcome),
                TraceItem::Bad(_) => None,
            })
            .collect();
        assert_eq!(
            outcomes,
            [TraceOutcome::Failure, TraceOutcome::InsufficientEvidence]
        );
    }

    #[test]
    fn malformed_spans_and_lines_are_reported_with_their_line() {
        let s = 1_000u64;
        let no_name = span(
            "t5",
            "n",
            "",
            "execute_tool",
            vec![kv("gen_ai.tool.call.arguments", r#"{"term":"x"}"#)],
            (s, s + 5),
            false,
        );
        let backwards = tool(
            "t6",
            "b",
            "",
            "grep",
            json!({"term": "x"}),
            json!([]),
            (s + 9, s),
        );
        let bad_args = span(
            "t7",
            "j",
            "",
            "execute_tool",
            vec![
                kv("gen_ai.tool.name", "grep"),
                kv("gen_ai.tool.call.arguments", "{term: x"),
            ],
            (s, s + 5),
            false,
        );
        let no_query = tool(
            "t8",
            "q",
            "",
            "read_file",
            json!({"path": "a.rs"}),
            json!("text"),
            (s, s + 5),
        );
        let empty_agent = span("t9", "ag", "", "invoke_agent", vec![], (s, s + 5), false);
        let text = format!(
            "{}\nnot json\n{}\n{{\"foo\": 1}}\n{}\n{}\n",
            line(vec![no_name, backwards]),
            line(vec![bad_args]),
            line(vec![no_query]),
            line(vec![empty_agent])
        );
        let file = read(&text);
        let bad: Vec<String> = file
            .items
            .iter()
            .map(|i| match i {
                TraceItem::Bad(b) => b.to_string(),
                TraceItem::Trace(t) => panic!("unexpected trace {}", t.trace_id),
            })
            .collect();
        assert_eq!(bad.len(), 7, "{bad:#?}");
        assert!(
            bad[0].starts_with("t.jsonl:1: execute_tool span `n` has no `gen_ai.tool.name`"),
            "{}",
            bad[0]
        );
        assert!(
            bad[1].starts_with("t.jsonl:1: execute_tool span `b` ends before it starts"),
            "{}",
            bad[1]
        );
        assert!(bad[2].starts_with("t.jsonl:2: not JSON"), "{}", bad[2]);
        assert!(
            bad[3].contains(":3: execute_tool span `j`: `gen_ai.tool.call.arguments` is not JSON"),
            "{}",
            bad[3]
        );
        assert!(bad[4].contains(":4: not an OTLP"), "{}", bad[4]);
        assert!(
            bad[5].contains(":5: invocation `t8`: no execute_tool span's arguments hold a query"),
            "{}",
            bad[5]
        );
        assert!(
            bad[6].contains(":6: invoke_agent span `ag` has no usable execute_tool span"),
            "{}",
            bad[6]
        );
    }

    #[test]
    fn a_line_of_the_wrong_shape_is_a_bad_line_never_silently_empty() {
        let s = 1_000u64;
        let good = tool(
            "t1",
            "g",
            "",
            "grep",
            json!({"term": "x"}),
            json!([]),
            (s, s + 5),
        );
        let text = [
            r#"{"resourceSpans": [{"scopeSpans": "oops"}]}"#.to_string(),
            r#"{"resourceSpans": [7]}"#.to_string(),
            r#"{"resourceSpans": [{"scopeSpans": [{"spans": {"a": 1}}]}]}"#.to_string(),
            r#"{"resourceSpans": [{"resource": {"attributes": "x"}, "scopeSpans": []}]}"#
                .to_string(),
            // a good span on a line whose second span is not an object: the line is bad whole
            json!({"resourceSpans": [{"scopeSpans": [{"spans": [good, "nope"]}]}]}).to_string(),
            r#"{"resourceSpans": []}"#.to_string(),
        ]
        .join("\n");
        let file = read(&text);
        let bad: Vec<String> = file
            .items
            .iter()
            .map(|i| match i {
                TraceItem::Bad(b) => b.to_string(),
                TraceItem::Trace(t) => panic!("unexpected trace {}", t.trace_id),
            })
            .collect();
        assert_eq!(
            bad,
            [
                "t.jsonl:1: not an OTLP ExportTraceServiceRequest: `resourceSpans[0].scopeSpans` is a string, not a list",
                "t.jsonl:2: not an OTLP ExportTraceServiceRequest: `resourceSpans[0]` is a number, not an object",
                "t.jsonl:3: not an OTLP ExportTraceServiceRequest: `resourceSpans[0].scopeSpans[0].spans` is an object, not a list",
                "t.jsonl:4: not an OTLP ExportTraceServiceRequest: `resourceSpans[0].resource.attributes` is a string, not a list",
                "t.jsonl:5: not an OTLP ExportTraceServiceRequest: `resourceSpans[0].scopeSpans[0].spans[1]` is a string, not an object",
            ]
        );
        // an empty export request is a line with no spans, not a bad one
        assert_eq!((file.lines, file.spans), (6, 0));
    }

    #[test]
    fn detection_by_content() {
        assert!(looks_like_otlp(b"\n{\"resourceSpans\":[]}\n"));
        assert!(looks_like_otlp(b"\xef\xbb\xbf{ \"resource_spans\": []}"));
        assert!(!looks_like_otlp(
            br#"{"trace_id":"t","query":"resourceSpans"}"#
        ));
    }
}
