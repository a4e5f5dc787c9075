//! Each agent invocation's tool spans as they are, for `import otel`: which searches and
//! which file reads and edits came in what order is the importer's to decide, as it is for
//! the other log formats, so nothing here is summed into a trace. The person's question is
//! the last user message of the `invoke_agent` span's `gen_ai.input.messages` (GenAI
//! semantic conventions: a JSON list of `{role, parts: [{type: "text", content}]}`), when
//! the agent records it.

use super::group::groups;
use super::span::Span;
use crate::trace::item::BadLine;
use serde_json::{Map, Value};
use std::io::BufRead;
use std::path::Path;

/// What one OTLP file holds for an importer.
#[derive(Debug, Default)]
pub struct OtlpSpans {
    pub invocations: Vec<InvocationSpans>,
    /// Lines and spans that could not be used, with file and line.
    pub bad: Vec<BadLine>,
    /// Non-blank lines read.
    pub lines: usize,
    pub spans: usize,
}

/// One agent invocation (an `invoke_agent` span, or a trace without one).
#[derive(Debug, Clone, PartialEq)]
pub struct InvocationSpans {
    /// `traceId/spanId` of the `invoke_agent` span, else the `traceId`.
    pub key: String,
    /// The line of its first span.
    pub line: usize,
    /// The person's question, when the agent span records its input messages.
    pub question: Option<String>,
    /// The resource's `service.name`.
    pub service: Option<String>,
    /// The `invoke_agent` span's start (Unix nanoseconds).
    pub start: Option<u64>,
    /// Its tool spans by start time.
    pub tools: Vec<ToolSpan>,
}

/// One `execute_tool` span.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSpan {
    pub line: usize,
    pub span_id: String,
    /// `gen_ai.tool.name`.
    pub name: String,
    /// `gen_ai.tool.call.arguments`, when a JSON object.
    pub arguments: Option<Map<String, Value>>,
    /// `gen_ai.tool.call.result` as recorded.
    pub result: Option<String>,
    /// `findbench.fixture`, when the span names one.
    pub fixture: Option<String>,
    /// Start and end, Unix nanoseconds.
    pub start: Option<u64>,
    pub end: Option<u64>,
    /// Status ERROR.
    pub error: bool,
}

/// Reads a whole OTLP/JSON file into its invocations' tool spans.
pub fn read_invocations(path: &Path, reader: &mut dyn BufRead) -> std::io::Result<OtlpSpans> {
    let (spans, mut bad, lines) = super::read_spans(path, reader)?;
    let (groups, bad_spans) = groups(path, &spans);
    bad.extend(bad_spans);
    bad.sort_by_key(|b| b.line);
    let invocations = groups
        .into_iter()
        .map(|g| InvocationSpans {
            line: g
                .agent
                .map_or(g.tools[0].line, |a| a.line.min(g.tools[0].line)),
            question: g.agent.and_then(question),
            service: g.tools[0].service.clone(),
            start: g.agent.and_then(|a| a.start),
            tools: g.tools.iter().map(|s| tool_span(s)).collect(),
            key: g.key,
        })
        .collect();
    Ok(OtlpSpans {
        invocations,
        bad,
        lines,
        spans: spans.len(),
    })
}

fn tool_span(s: &Span) -> ToolSpan {
    ToolSpan {
        line: s.line,
        span_id: s.span_id.clone(),
        name: s.attr("gen_ai.tool.name").unwrap_or_default().to_string(),
        arguments: s
            .attr("gen_ai.tool.call.arguments")
            .and_then(|a| serde_json::from_str::<Value>(a).ok())
            .and_then(|v| match v {
                Value::Object(m) => Some(m),
                _ => None,
            }),
        result: s.attr("gen_ai.tool.call.result").map(str::to_string),
        fixture: s.attr("findbench.fixture").map(str::to_string),
        start: s.start,
        end: s.end,
        error: s.status_error,
    }
}

/// The text of the last `user` message of `gen_ai.input.messages`.
fn question(agent: &Span) -> Option<String> {
    let messages: Value = serde_json::from_str(agent.attr("gen_ai.input.messages")?).ok()?;
    messages
        .as_array()?
        .iter()
        .rev()
        .filter(|m| m.get("role").and_then(Value::as_str) == Some("user"))
        .find_map(|m| {
            let text: Vec<&str> = m
                .get("parts")?
                .as_array()?
                .iter()
                .filter(|p| p.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|p| p.get("content").and_then(Value::as_str))
                .collect();
            Some(text.join("\n").trim().to_string()).filter(|t| !t.is_empty())
        })
}
