//! Spans grouped per agent invocation (their `invoke_agent` ancestor, or else their trace
//! id): each group a trace, each unusable span or empty invocation a bad line.

use super::invocation::build;
use super::span::{tool_span_problem, Span};
use crate::trace::item::BadLine;
use crate::trace::record::Trace;
use std::collections::HashMap;
use std::path::Path;

/// One agent invocation's spans: its `invoke_agent` span when there is one, and its tool
/// spans by start time (never empty).
pub(super) struct Group<'a> {
    pub(super) key: String,
    pub(super) agent: Option<&'a Span>,
    pub(super) tools: Vec<&'a Span>,
}

/// Groups spans into traces (each with the line of its first span) and bad spans.
pub(super) fn group(path: &Path, spans: &[Span]) -> (Vec<(usize, Trace)>, Vec<BadLine>) {
    let (groups, mut bads) = groups(path, spans);
    let mut traces = Vec::new();
    for g in groups {
        let first = g.tools[0];
        match build(&g.key, g.agent, &g.tools) {
            Ok(trace) => traces.push((
                g.agent.map_or(first.line, |a| a.line.min(first.line)),
                trace,
            )),
            Err(reason) => bads.push(BadLine {
                file: path.to_path_buf(),
                line: first.line,
                reason,
            }),
        }
    }
    (traces, bads)
}

/// Spans grouped per invocation, in the order each group first appears, and the bad spans
/// (a tool span that cannot be used, an invocation with no usable tool span).
pub(super) fn groups<'a>(path: &Path, spans: &'a [Span]) -> (Vec<Group<'a>>, Vec<BadLine>) {
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
    let mut out = Vec::new();
    for key in order {
        let (agent, mut tools) = groups.remove(&key).unwrap_or_default();
        tools.sort_by_key(|s| (s.start, s.line));
        if tools.is_empty() {
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
        }
        out.push(Group { key, agent, tools });
    }
    (out, bads)
}
