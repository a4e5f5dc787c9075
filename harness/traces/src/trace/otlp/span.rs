//! OTLP/JSON spans as read: one export request line into spans (attributes decoded from
//! `AnyValue`, times from fixed64 strings), and why a tool span cannot be used.

use findbench_eval::json_kind::json_kind;
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

/// A list of `KeyValue`s as a map (`at` names the list for an error: a list of the wrong
/// shape makes the line bad).
fn attributes(v: Option<&Value>, at: &dyn Fn() -> String) -> Result<Map<String, Value>, String> {
    let mut out = Map::new();
    for kv in list_at(v, at)? {
        if let (Some(k), Some(val)) = (kv.get("key").and_then(Value::as_str), kv.get("value")) {
            out.insert(k.to_string(), any_value(val));
        }
    }
    Ok(out)
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

/// `value` as a list, when present: a field of the wrong shape makes the line bad rather
/// than silently empty (`where` names it as the line has it).
fn list_at<'a>(value: Option<&'a Value>, at: &dyn Fn() -> String) -> Result<&'a [Value], String> {
    match value {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(other) => Err(format!(
            "not an OTLP ExportTraceServiceRequest: `{}` is {}, not a list",
            at(),
            json_kind(other)
        )),
    }
}

/// `value` as an object (`at` names it).
fn object_at<'a>(value: &'a Value, at: &dyn Fn() -> String) -> Result<&'a Value, String> {
    match value {
        Value::Object(_) => Ok(value),
        other => Err(format!(
            "not an OTLP ExportTraceServiceRequest: `{}` is {}, not an object",
            at(),
            json_kind(other)
        )),
    }
}

/// Reads one line's spans into `out` (or the reason the line is bad, and none of its
/// spans: a line of the wrong shape anywhere is reported whole, never half read).
pub(super) fn spans_of_line(text: &str, line: usize, out: &mut Vec<Span>) -> Result<(), String> {
    let request: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let resource_spans = field(&request, "resourceSpans", "resource_spans")
        .and_then(Value::as_array)
        .ok_or("not an OTLP ExportTraceServiceRequest: no `resourceSpans` array")?;
    let mut spans = Vec::new();
    for (r, rs) in resource_spans.iter().enumerate() {
        let rs = object_at(rs, &|| format!("resourceSpans[{r}]"))?;
        let resource_attributes = match rs.get("resource") {
            None | Some(Value::Null) => None,
            Some(resource) => {
                object_at(resource, &|| format!("resourceSpans[{r}].resource"))?.get("attributes")
            }
        };
        let resource = attributes(resource_attributes, &|| {
            format!("resourceSpans[{r}].resource.attributes")
        })?;
        let service = resource
            .get("service.name")
            .and_then(Value::as_str)
            .map(str::to_string);
        let (scope_key, scopes) = match (
            field(rs, "scopeSpans", "scope_spans"),
            rs.get("instrumentationLibrarySpans"),
        ) {
            (Some(s), _) => ("scopeSpans", Some(s)),
            (None, s) => ("instrumentationLibrarySpans", s),
        };
        let scopes = list_at(scopes, &|| format!("resourceSpans[{r}].{scope_key}"))?;
        for (c, scope) in scopes.iter().enumerate() {
            let at = |rest: &str| format!("resourceSpans[{r}].{scope_key}[{c}]{rest}");
            let scope = object_at(scope, &|| at(""))?;
            for (n, span) in list_at(scope.get("spans"), &|| at(".spans"))?
                .iter()
                .enumerate()
            {
                let span = object_at(span, &|| at(&format!(".spans[{n}]")))?;
                let text = |camel, snake| {
                    field(span, camel, snake)
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string()
                };
                spans.push(Span {
                    line,
                    trace_id: text("traceId", "trace_id"),
                    span_id: text("spanId", "span_id"),
                    parent: text("parentSpanId", "parent_span_id"),
                    name: text("name", "name"),
                    attributes: attributes(span.get("attributes"), &|| {
                        at(&format!(".spans[{n}].attributes"))
                    })?,
                    start: nanos(field(span, "startTimeUnixNano", "start_time_unix_nano")),
                    end: nanos(field(span, "endTimeUnixNano", "end_time_unix_nano")),
                    status_error: status_is_error(span.get("status")),
                    service: service.clone(),
                });
            }
        }
    }
    out.append(&mut spans);
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
