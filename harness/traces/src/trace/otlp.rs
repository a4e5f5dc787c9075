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
//! A file is read whole before its traces are yielded, since an invocation's spans may be
//! spread over several export batches (lines).

use super::item::{BadLine, TraceItem};
use super::record::{RecordedCall, ToolCall, Trace, TraceOutcome};
use findbench_eval::tools::{FixtureKind, ToolSpec};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::io::BufRead;
use std::path::Path;
use std::time::{Duration, UNIX_EPOCH};

/// Argument keys that carry what the agent searched for, in order of preference.
pub const QUERY_KEYS: &[&str] = &["question", "query", "term", "pattern", "q", "search", "id"];

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

/// One span as read, with the line it was on.
#[derive(Debug, Clone)]
struct Span {
    line: usize,
    trace_id: String,
    span_id: String,
    parent: String,
    name: String,
    attributes: Map<String, Value>,
    start: Option<u64>,
    end: Option<u64>,
    status_error: bool,
    service: Option<String>,
}

impl Span {
    fn attr(&self, key: &str) -> Option<&str> {
        self.attributes.get(key).and_then(Value::as_str)
    }

    fn operation(&self) -> &str {
        match self.attr("gen_ai.operation.name") {
            Some(op) => op,
            None => self.name.split(' ').next().unwrap_or(""),
        }
    }
}

/// An OTLP `AnyValue` as JSON (strings stay strings; int64 arrives as a string).
fn any_value(v: &Value) -> Value {
    let Some(obj) = v.as_object() else {
        return Value::Null;
    };
    if let Some(s) = obj.get("stringValue") {
        return s.clone();
    }
    if let Some(i) = obj.get("intValue") {
        return match i {
            Value::String(s) => s.parse::<i64>().map_or(i.clone(), Value::from),
            other => other.clone(),
        };
    }
    for key in ["boolValue", "doubleValue"] {
        if let Some(x) = obj.get(key) {
            return x.clone();
        }
    }
    if let Some(arr) = obj
        .get("arrayValue")
        .and_then(|a| a.get("values"))
        .and_then(Value::as_array)
    {
        return Value::Array(arr.iter().map(any_value).collect());
    }
    Value::Null
}

fn attributes(v: Option<&Value>) -> Map<String, Value> {
    let mut out = Map::new();
    for kv in v.and_then(Value::as_array).into_iter().flatten() {
        if let (Some(k), Some(val)) = (kv.get("key").and_then(Value::as_str), kv.get("value")) {
            out.insert(k.to_string(), any_value(val));
        }
    }
    out
}

/// OTLP/JSON writes fixed64 nanoseconds as a decimal string (a number is accepted too).
fn nanos(v: Option<&Value>) -> Option<u64> {
    match v? {
        Value::String(s) => s.parse().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}

fn field<'a>(v: &'a Value, camel: &str, snake: &str) -> Option<&'a Value> {
    v.get(camel).or_else(|| v.get(snake))
}

fn status_is_error(status: Option<&Value>) -> bool {
    match status.and_then(|s| s.get("code")) {
        Some(Value::Number(n)) => n.as_u64() == Some(2),
        Some(Value::String(s)) => s == "STATUS_CODE_ERROR" || s == "ERROR",
        _ => false,
    }
}

/// Reads one line's spans (or the reason the line is bad).
fn spans_of_line(text: &str, line: usize, out: &mut Vec<Span>) -> Result<(), String> {
    let request: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let resource_spans = field(&request, "resourceSpans", "resource_spans")
        .and_then(Value::as_array)
        .ok_or("not an OTLP ExportTraceServiceRequest: no `resourceSpans` array")?;
    for rs in resource_spans {
        let resource = attributes(rs.get("resource").and_then(|r| r.get("attributes")));
        let service = resource
            .get("service.name")
            .and_then(Value::as_str)
            .map(str::to_string);
        let scopes = field(rs, "scopeSpans", "scope_spans")
            .or_else(|| rs.get("instrumentationLibrarySpans"))
            .and_then(Value::as_array);
        for scope in scopes.into_iter().flatten() {
            for span in scope
                .get("spans")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let text = |camel, snake| {
                    field(span, camel, snake)
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string()
                };
                out.push(Span {
                    line,
                    trace_id: text("traceId", "trace_id"),
                    span_id: text("spanId", "span_id"),
                    parent: text("parentSpanId", "parent_span_id"),
                    name: text("name", "name"),
                    attributes: attributes(span.get("attributes")),
                    start: nanos(field(span, "startTimeUnixNano", "start_time_unix_nano")),
                    end: nanos(field(span, "endTimeUnixNano", "end_time_unix_nano")),
                    status_error: status_is_error(span.get("status")),
                    service: service.clone(),
                });
            }
        }
    }
    Ok(())
}

/// Why a tool span cannot be used, if it cannot.
fn tool_span_problem(span: &Span) -> Option<String> {
    let what = format!("execute_tool span `{}`", span.span_id);
    if span.trace_id.is_empty() {
        return Some(format!("{what} has no traceId"));
    }
    if span
        .attr("gen_ai.tool.name")
        .is_none_or(|n| n.trim().is_empty())
    {
        return Some(format!("{what} has no `gen_ai.tool.name`"));
    }
    match (span.start, span.end) {
        (Some(s), Some(e)) if e >= s => {}
        (Some(s), Some(e)) => {
            return Some(format!("{what} ends before it starts (start {s}, end {e})"))
        }
        _ => {
            return Some(format!(
                "{what} has no readable startTimeUnixNano/endTimeUnixNano"
            ))
        }
    }
    if let Some(args) = span.attributes.get("gen_ai.tool.call.arguments") {
        match args {
            Value::String(s) if serde_json::from_str::<Value>(s).is_err() => {
                return Some(format!("{what}: `gen_ai.tool.call.arguments` is not JSON"))
            }
            Value::String(_) => {}
            _ => {
                return Some(format!(
                    "{what}: `gen_ai.tool.call.arguments` is not a string"
                ))
            }
        }
    }
    None
}

fn arguments(span: &Span) -> Option<Map<String, Value>> {
    let s = span.attr("gen_ai.tool.call.arguments")?;
    match serde_json::from_str::<Value>(s).ok()? {
        Value::Object(m) => Some(m),
        _ => None,
    }
}

fn query_of(args: &Map<String, Value>) -> Option<String> {
    QUERY_KEYS.iter().find_map(|k| {
        args.get(*k)
            .and_then(Value::as_str)
            .filter(|s| !s.trim().is_empty())
            .map(str::to_string)
    })
}

/// The result document of a tool span, when it is JSON.
fn result(span: &Span) -> Option<Value> {
    serde_json::from_str(span.attr("gen_ai.tool.call.result")?).ok()
}

/// Candidates a tool result reports: `candidates`, `summary.total_matches`, or the length
/// of `matches` / `results` (or of the result itself when it is a list).
fn candidates(result: &Value) -> u64 {
    if let Some(n) = result.get("candidates").and_then(Value::as_u64) {
        return n;
    }
    if let Some(n) = result
        .get("summary")
        .and_then(|s| s.get("total_matches"))
        .and_then(Value::as_u64)
    {
        return n;
    }
    for key in ["matches", "results"] {
        if let Some(list) = result.get(key).and_then(Value::as_array) {
            return list.len() as u64;
        }
    }
    result.as_array().map_or(0, |l| l.len() as u64)
}

fn outcome_word(word: &str) -> Option<TraceOutcome> {
    match word {
        "success" => Some(TraceOutcome::Success),
        "insufficient_evidence" | "no_match" => Some(TraceOutcome::InsufficientEvidence),
        "failure" | "error" => Some(TraceOutcome::Failure),
        _ => None,
    }
}

fn rfc3339(nanos: u64) -> String {
    humantime::format_rfc3339_millis(UNIX_EPOCH + Duration::from_nanos(nanos)).to_string()
}

fn ms(from: u64, to: u64) -> f64 {
    (to.saturating_sub(from) as f64 / 1e3).round() / 1e3
}

/// Reads a whole OTLP/JSON file into traces and bad spans, in file order.
pub fn read_file(path: &Path, reader: &mut dyn BufRead) -> std::io::Result<OtlpFile> {
    let mut file = OtlpFile::default();
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
        file.lines += 1;
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
    file.spans = spans.len();
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

/// Groups spans into traces (each with the line of its first span) and bad spans.
fn group(path: &Path, spans: &[Span]) -> (Vec<(usize, Trace)>, Vec<BadLine>) {
    let by_id: HashMap<(&str, &str), &Span> = spans
        .iter()
        .map(|s| ((s.trace_id.as_str(), s.span_id.as_str()), s))
        .collect();
    let bad_at = |span: &Span, reason: String| BadLine {
        file: path.to_path_buf(),
        line: span.line,
        reason,
    };
    let mut bads = Vec::new();
    // group key -> (invoke_agent span, tool spans)
    let mut order: Vec<String> = Vec::new();
    let mut groups: HashMap<String, (Option<&Span>, Vec<&Span>)> = HashMap::new();
    // invocations one of whose tool spans was reported bad: that report stands for them
    let mut had_bad: std::collections::HashSet<String> = Default::default();
    for span in spans {
        match span.operation() {
            "invoke_agent" => {
                let key = format!("{}/{}", span.trace_id, span.span_id);
                let entry = groups.entry(key.clone()).or_insert_with(|| {
                    order.push(key.clone());
                    (None, Vec::new())
                });
                entry.0 = Some(span);
            }
            "execute_tool" => {
                // the nearest invoke_agent ancestor, else the trace
                let mut key = span.trace_id.clone();
                let mut parent = span.parent.as_str();
                let mut hops = 0;
                while !parent.is_empty() && hops < 64 {
                    let Some(p) = by_id.get(&(span.trace_id.as_str(), parent)) else {
                        break;
                    };
                    if p.operation() == "invoke_agent" {
                        key = format!("{}/{}", p.trace_id, p.span_id);
                        break;
                    }
                    parent = p.parent.as_str();
                    hops += 1;
                }
                if let Some(reason) = tool_span_problem(span) {
                    bads.push(bad_at(span, reason));
                    had_bad.insert(key);
                    continue;
                }
                let entry = groups.entry(key.clone()).or_insert_with(|| {
                    order.push(key.clone());
                    (None, Vec::new())
                });
                entry.1.push(span);
            }
            _ => {}
        }
    }
    let mut traces = Vec::new();
    for key in order {
        let (agent, mut tools) = groups.remove(&key).unwrap_or_default();
        tools.sort_by_key(|s| (s.start, s.line));
        let Some(first) = tools.first() else {
            if let Some(agent) = agent.filter(|_| !had_bad.contains(&key)) {
                bads.push(bad_at(
                    agent,
                    format!(
                        "invoke_agent span `{}` has no usable execute_tool span: no retrieval to replay",
                        agent.span_id
                    ),
                ));
            }
            continue;
        };
        match build(&key, agent, &tools) {
            Ok(trace) => traces.push((agent.map_or(first.line, |a| a.line.min(first.line)), trace)),
            Err(reason) => bads.push(bad_at(first, reason)),
        }
    }
    (traces, bads)
}

fn build(key: &str, agent: Option<&Span>, tools: &[&Span]) -> Result<Trace, String> {
    let with_query = tools
        .iter()
        .find_map(|s| arguments(s).and_then(|a| query_of(&a).map(|q| (s, a, q))));
    let Some((query_span, query_args, query)) = with_query else {
        return Err(format!(
            "invocation `{key}`: no execute_tool span's arguments hold a query ({})",
            QUERY_KEYS.join(", ")
        ));
    };
    let fixture = ["root", "store"]
        .iter()
        .find_map(|k| {
            query_args
                .get(*k)
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .or_else(|| query_span.attr("findbench.fixture").map(str::to_string))
        .or_else(|| query_span.service.clone())
        .unwrap_or_else(|| "default".to_string());
    let results: Vec<Option<Value>> = tools.iter().map(|s| result(s)).collect();
    let calls: Vec<ToolCall> = tools
        .iter()
        .zip(&results)
        .map(|(s, r)| ToolCall {
            name: s.attr("gen_ai.tool.name").unwrap_or_default().to_string(),
            input: arguments(s)
                .and_then(|a| query_of(&a))
                .or_else(|| s.attr("gen_ai.tool.call.arguments").map(str::to_string))
                .unwrap_or_default(),
            candidates: r.as_ref().map_or(0, candidates),
            duration_ms: ms(s.start.unwrap_or(0), s.end.unwrap_or(0)),
        })
        .collect();
    let last = tools
        .iter()
        .max_by_key(|s| (s.end, s.line))
        .expect("non-empty");
    let last_result = results[tools
        .iter()
        .position(|s| std::ptr::eq(*s, *last))
        .unwrap_or(0)]
    .as_ref();
    let said = results.iter().rev().flatten().find_map(|r| {
        r.get("outcome")
            .and_then(Value::as_str)
            .and_then(outcome_word)
    });
    let outcome = if agent.is_some_and(|a| a.status_error)
        || last.status_error
        || last_result.and_then(|r| r.get("success")) == Some(&Value::Bool(false))
    {
        TraceOutcome::Failure
    } else if let Some(o) = said {
        o
    } else if calls.iter().any(|c| c.candidates > 0) {
        TraceOutcome::Success
    } else {
        TraceOutcome::InsufficientEvidence
    };
    let first_start = tools.iter().filter_map(|s| s.start).min().unwrap_or(0);
    let last_end = tools
        .iter()
        .filter_map(|s| s.end)
        .max()
        .unwrap_or(first_start);
    let (start, end) = match agent {
        Some(a) => match (a.start, a.end) {
            (Some(s), Some(e)) if e >= s => (s, e),
            _ => (first_start, last_end),
        },
        None => (first_start, last_end),
    };
    // a call recorded by `findbench serve --record-format otlp`: replay it as that call
    let call = match tools {
        [only]
            if only.service.as_deref() == Some("findbench")
                && ToolSpec::named(only.attr("gen_ai.tool.name").unwrap_or("")).is_some() =>
        {
            Some(RecordedCall {
                tool: only
                    .attr("gen_ai.tool.name")
                    .unwrap_or_default()
                    .to_string(),
                arguments: arguments(only).map_or(Value::Null, Value::Object),
                fixture_kind: match only.attr("findbench.fixture_kind") {
                    Some("store") => Some(FixtureKind::Store),
                    Some("paths") => Some(FixtureKind::Paths),
                    Some("root") => Some(FixtureKind::Root),
                    _ => None,
                },
            })
        }
        _ => None,
    };
    let fixture = match &call {
        Some(_) => only_fixture(tools[0]),
        None => fixture,
    };
    Ok(Trace {
        trace_id: key.to_string(),
        timestamp: rfc3339(start),
        query,
        fixture,
        iterations: u32::try_from(calls.len()).unwrap_or(u32::MAX),
        tools: calls,
        outcome,
        duration_ms: ms(start, end),
        call,
    })
}

/// The fixture of a findbench-recorded call: its `findbench.fixture`, or `-` when the
/// server refused the call before it reached one.
fn only_fixture(span: &Span) -> String {
    span.attr("findbench.fixture").unwrap_or("-").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
    fn detection_by_content() {
        assert!(looks_like_otlp(b"\n{\"resourceSpans\":[]}\n"));
        assert!(looks_like_otlp(b"\xef\xbb\xbf{ \"resource_spans\": []}"));
        assert!(!looks_like_otlp(
            br#"{"trace_id":"t","query":"resourceSpans"}"#
        ));
    }
}
