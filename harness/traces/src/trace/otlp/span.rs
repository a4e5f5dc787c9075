//! OTLP/JSON spans as read: one export request line into spans (attributes decoded from
//! `AnyValue`, times from fixed64 strings), and why a tool span cannot be used.

use serde_json::{Map, Value};

#[derive(Debug, Clone)]
pub(super) struct Span {
    pub(super) line: usize,
    pub(super) trace_id: String,
    pub(super) span_id: String,
    pub(super) parent: String,
    pub(super) name: String,
    pub(super) attributes: Map<String, Value>,
    pub(super) start: Option<u64>,
    pub(super) end: Option<u64>,
    pub(super) status_error: bool,
    pub(super) service: Option<String>,
}

impl Span {
    pub(super) fn attr(&self, key: &str) -> Option<&str> {
        self.attributes.get(key).and_then(Value::as_str)
    }

    pub(super) fn operation(&self) -> &str {
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
pub(super) fn spans_of_line(text: &str, line: usize, out: &mut Vec<Span>) -> Result<(), String> {
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
pub(super) fn tool_span_problem(span: &Span) -> Option<String> {
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
