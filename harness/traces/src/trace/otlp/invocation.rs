//! One agent invocation's tool spans into a [`Trace`]: the query and fixture from the
//! arguments, each call's candidates from its result, the outcome, times, and a call
//! recorded by `findbench serve` kept to be replayed as that call.

use super::span::Span;
use crate::trace::record::{RecordedCall, ToolCall, Trace, TraceOutcome};
use findbench_eval::tools::{FixtureKind, ToolSpec};
use serde_json::{Map, Value};
use std::time::{Duration, UNIX_EPOCH};

/// Argument keys that carry what the agent searched for, in order of preference.
pub const QUERY_KEYS: &[&str] = &["question", "query", "term", "pattern", "q", "search", "id"];

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
pub fn candidates(result: &Value) -> u64 {
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

pub(super) fn build(key: &str, agent: Option<&Span>, tools: &[&Span]) -> Result<Trace, String> {
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
            output_bytes: s.attr("gen_ai.tool.call.result").map(|r| r.len() as u64),
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
        fixture_source: None,
        expected: None,
        later_calls: None,
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
