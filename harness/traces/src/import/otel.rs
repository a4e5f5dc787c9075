//! OpenTelemetry GenAI spans (OTLP/JSON), read as the other agent logs are: each agent
//! invocation (an `invoke_agent` span, or a trace without one) is a turn, its question the
//! person's last message (`gen_ai.input.messages` of the agent span) or else its first
//! search's input, and each `execute_tool` span a step in start order. A search becomes a
//! trace line whose `expected` are the files the later tool spans of the invocation read or
//! edited ([`super::to_trace`]); its `trace_id` is the invocation's key `/` the span id.
//!
//! | tool span | read as |
//! |---|---|
//! | a shell tool (`bash`, `shell`, `exec_command`, ...) with `command` | a search when it runs `rg`, `grep`, `find`, `fd`; files it prints are reads ([`super::search_call`]) |
//! | arguments holding `question`, `query`, `pattern`, `term`, `q`, `search` or `regex` | a search, that argument its input (an MCP call to findbench itself, `mcp__<server>__ask`, is one) |
//! | a name holding `read`, `edit`, `write`, `view`, `open`, `patch`, `replace` or `create`, with `file_path`, `path`, `filePath`, `notebook_path`, `target_file` or `file` | a file read or edited |
//!
//! A result is `gen_ai.tool.call.result`: its candidates as `replay` counts them when it is
//! JSON, else its lines; status ERROR is an error. The fixture is `--root`, else the
//! directory an absolute `root`, `workdir` or `cwd` argument names (the one relative paths
//! are relative to), else a `root` or `store` argument, `findbench.fixture` or the
//! resource's `service.name` (a fixture name; relative paths are then taken as they are). A span the reader cannot use is a problem
//! with its `file:line`: a line that is not JSON is `not_json`, one that is not an export
//! request `unknown_type`, any other `bad_span`.

use super::options::ImportOptions;
use super::search_call::{classify, result_lines};
use super::session::Session;
use super::summary::{FileImport, Problem, ProblemKind};
use super::turn::{CallResult, Search, Step, Touch};
use crate::trace::otlp::{self, InvocationSpans, ToolSpan};
use serde_json::{Map, Value};
use std::io::BufRead;
use std::path::Path;
use std::time::{Duration, UNIX_EPOCH};

/// Argument keys that hold what a search looked for, in order of preference.
const SEARCH_KEYS: &[&str] = &[
    "question", "query", "pattern", "term", "q", "search", "regex",
];

/// Argument keys that name the file a read or edit is of.
const FILE_KEYS: &[&str] = &[
    "file_path",
    "path",
    "filePath",
    "notebook_path",
    "target_file",
    "file",
];

/// Words of a tool's name that make a call naming a file a read or an edit.
const TOUCH_WORDS: &[&str] = &[
    "read", "edit", "write", "view", "open", "patch", "replace", "create",
];

/// Tools that run a shell command line.
const SHELL_TOOLS: &[&str] = &[
    "bash",
    "shell",
    "exec_command",
    "local_shell",
    "run_terminal_cmd",
    "run_shell_command",
];

/// Reads one OTLP/JSON file.
pub fn read(
    path: &Path,
    reader: &mut dyn BufRead,
    options: &ImportOptions,
) -> std::io::Result<FileImport> {
    let file = otlp::read_invocations(path, reader)?;
    let mut out = FileImport {
        lines: file.lines,
        ..FileImport::default()
    };
    out.entry_types.insert("span".into(), file.spans);
    for bad in file.bad {
        let kind = if bad.reason.starts_with("not JSON") || bad.reason.starts_with("not UTF-8") {
            ProblemKind::NotJson
        } else if bad.reason.starts_with("not an OTLP") {
            ProblemKind::UnknownType
        } else {
            ProblemKind::BadSpan
        };
        out.problems.push(Problem {
            file: bad.file,
            line: bad.line,
            kind,
            detail: bad.reason,
        });
    }
    for invocation in &file.invocations {
        let mut one = super::to_trace::traces(session(path, invocation), options);
        out.turns += one.turns;
        out.searches += one.searches;
        out.traces.append(&mut one.traces);
        out.problems.append(&mut one.problems);
    }
    out.problems.sort_by_key(|p| p.line);
    Ok(out)
}

/// An invocation as a session of one turn.
fn session(path: &Path, invocation: &InvocationSpans) -> Session {
    let mut session = Session::new(path);
    session.id = Some(invocation.key.clone());
    let arg = |key: &str| {
        invocation.tools.iter().find_map(|t| {
            t.arguments
                .as_ref()
                .and_then(|a| a.get(key))
                .and_then(Value::as_str)
                .filter(|v| !v.trim().is_empty())
        })
    };
    let absolute = |v: Option<&str>| v.filter(|p| Path::new(p).is_absolute()).map(str::to_string);
    match absolute(arg("root")).or_else(|| absolute(arg("workdir").or_else(|| arg("cwd")))) {
        Some(dir) => session.cwd = Some(dir),
        None => {
            session.fixture_name = arg("root")
                .or_else(|| arg("store"))
                .map(str::to_string)
                .or_else(|| invocation.tools.iter().find_map(|t| t.fixture.clone()))
                .or_else(|| invocation.service.clone());
        }
    }
    let steps: Vec<(&ToolSpan, Vec<Step>)> =
        invocation.tools.iter().map(|t| (t, steps(t))).collect();
    let question = invocation.question.clone().or_else(|| {
        steps.iter().flat_map(|(_, s)| s).find_map(|s| match s {
            Step::Search(s) => Some(s.input.clone()),
            Step::Touch(_) => None,
        })
    });
    let Some(question) = question else {
        return session; // no search: nothing to replay
    };
    let started = invocation
        .start
        .or_else(|| invocation.tools.first().and_then(|t| t.start));
    session.started = started.map(rfc3339);
    session.start_turn(question, session.started.clone(), invocation.line);
    for (tool, steps) in steps {
        for step in steps {
            session.add(step);
        }
        session.resolve(&tool.span_id, result(tool));
    }
    session
}

/// The name a tool is known by: an MCP tool's own name without `mcp__<server>__`, in
/// lower case.
fn base_name(name: &str) -> String {
    let name = match name.strip_prefix("mcp__") {
        Some(rest) => rest.split_once("__").map_or(rest, |(_, tool)| tool),
        None => name,
    };
    name.to_ascii_lowercase()
}

/// What a tool span did for retrieval: a search, reads and edits, or nothing.
fn steps(tool: &ToolSpan) -> Vec<Step> {
    let empty = Map::new();
    let args = tool.arguments.as_ref().unwrap_or(&empty);
    let text = |key: &str| {
        args.get(key)
            .and_then(Value::as_str)
            .filter(|v| !v.trim().is_empty())
    };
    let timestamp = tool.start.map(rfc3339);
    let search = |input: &str| {
        Step::Search(Search {
            call_id: tool.span_id.clone(),
            tool: tool.name.clone(),
            input: input.to_string(),
            line: tool.line,
            source: 0,
            timestamp: timestamp.clone(),
            result: None,
        })
    };
    let touch = |path: &str, base: Option<String>| {
        Step::Touch(Touch {
            call_id: tool.span_id.clone(),
            path: path.to_string(),
            base,
            line: tool.line,
            source: 0,
            result: None,
        })
    };
    let name = base_name(&tool.name);
    if SHELL_TOOLS.contains(&name.as_str()) {
        if let Some(script) = command_line(args.get("command")) {
            let call = classify(&script);
            let base = text("workdir").or_else(|| text("cwd"));
            let mut out: Vec<Step> = call.search.iter().map(|s| search(s)).collect();
            for read in call.reads {
                let base = super::claude_code::join_dir(base, &read.dir);
                out.push(touch(&read.path, base));
            }
            return out;
        }
    }
    if let Some(input) = SEARCH_KEYS.iter().find_map(|k| text(k)) {
        return vec![search(input)];
    }
    if TOUCH_WORDS.iter().any(|w| name.contains(w)) {
        if let Some(path) = FILE_KEYS.iter().find_map(|k| text(k)) {
            return vec![touch(path, None)];
        }
    }
    Vec::new()
}

/// A shell tool's `command`: a string, or an argv (`bash -lc SCRIPT` read as the script).
fn command_line(command: Option<&Value>) -> Option<String> {
    match command? {
        Value::String(s) => Some(s.clone()),
        Value::Array(argv) => {
            let words: Vec<&str> = argv.iter().filter_map(Value::as_str).collect();
            match words.as_slice() {
                [shell, flag, script] if shell.ends_with("sh") && flag.starts_with('-') => {
                    Some(script.to_string())
                }
                _ => Some(words.join(" ")),
            }
        }
        _ => None,
    }
}

/// A tool span's result as sizes: candidates as `replay` counts a JSON result, else the
/// lines of the text; none on status ERROR.
fn result(tool: &ToolSpan) -> CallResult {
    let text = tool.result.as_deref().unwrap_or("");
    let candidates = match serde_json::from_str::<Value>(text) {
        _ if tool.error => 0,
        Ok(v @ (Value::Object(_) | Value::Array(_))) => otlp::result_candidates(&v),
        _ => result_lines(text),
    };
    CallResult {
        candidates,
        bytes: text.len() as u64,
        is_error: tool.error,
        timestamp: tool.end.map(rfc3339),
        duration_ms: match (tool.start, tool.end) {
            (Some(s), Some(e)) if e >= s => Some(((e - s) as f64 / 1e3).round() / 1e3),
            _ => None,
        },
    }
}

fn rfc3339(nanos: u64) -> String {
    humantime::format_rfc3339_millis(UNIX_EPOCH + Duration::from_nanos(nanos)).to_string()
}

#[cfg(test)]
mod tests {
    use super::super::to_trace::redacted;
    use super::*;
    use std::path::PathBuf;

    const SPANS: &str = r#"{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"agent-cpp"}}]},"scopeSpans":[{"scope":{"name":"agent"},"spans":[{"traceId":"t1","spanId":"a","parentSpanId":"","name":"execute_tool grep","startTimeUnixNano":"1750000000000000000","endTimeUnixNano":"1750000000002000000","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"execute_tool"}},{"key":"gen_ai.tool.name","value":{"stringValue":"grep"}},{"key":"gen_ai.tool.call.arguments","value":{"stringValue":"{\"pattern\":\"cursor_binary\"}"}},{"key":"gen_ai.tool.call.result","value":{"stringValue":"{\"matches\":[{\"path\":\"src/a.cpp\"}]}"}}]}]}]}]}"#;

    #[test]
    fn spans_become_traces_with_the_root_the_redaction_and_result_sizes() {
        let text = format!("{SPANS}\nnot json\n{{\"foo\":1}}\n");
        let options = ImportOptions {
            root: Some(PathBuf::from("/srv/agent-cpp")),
            redact: true,
        };
        let out = read(Path::new("o.jsonl"), &mut text.as_bytes(), &options).unwrap();
        assert_eq!((out.lines, out.turns, out.searches), (3, 1, 1));
        let t = &out.traces[0];
        assert_eq!(t.fixture, "/srv/agent-cpp");
        assert_eq!(t.query, redacted("cursor_binary"));
        assert_eq!(t.tools[0].candidates, 1);
        assert_eq!(t.tools[0].output_bytes, Some(34));
        let kinds: Vec<(usize, ProblemKind)> =
            out.problems.iter().map(|p| (p.line, p.kind)).collect();
        assert_eq!(
            kinds,
            [(2, ProblemKind::NotJson), (3, ProblemKind::UnknownType)]
        );
        let plain = read(
            Path::new("o.jsonl"),
            &mut SPANS.as_bytes(),
            &ImportOptions::default(),
        )
        .unwrap();
        assert_eq!(plain.traces[0].fixture, "agent-cpp");
        assert_eq!(plain.traces[0].query, "cursor_binary");
    }

    #[test]
    fn mcp_names_shell_argv_and_file_tools_are_told_apart() {
        assert_eq!(base_name("mcp__findbench__find_code"), "find_code");
        assert_eq!(base_name("Read"), "read");
        let argv = serde_json::json!(["bash", "-lc", "rg -n x src"]);
        assert_eq!(command_line(Some(&argv)).as_deref(), Some("rg -n x src"));
        let span = |name: &str, args: serde_json::Value| ToolSpan {
            line: 1,
            span_id: "s".into(),
            name: name.into(),
            arguments: args.as_object().cloned(),
            result: None,
            fixture: None,
            start: None,
            end: None,
            error: false,
        };
        let kinds = |name: &str, args| -> Vec<&'static str> {
            steps(&span(name, args))
                .iter()
                .map(|s| match s {
                    Step::Search(_) => "search",
                    Step::Touch(_) => "touch",
                })
                .collect()
        };
        // a Grep names a directory too: its pattern makes it a search
        assert_eq!(
            kinds("Grep", serde_json::json!({"pattern": "x", "path": "src"})),
            ["search"]
        );
        assert_eq!(
            kinds("str_replace_editor", serde_json::json!({"path": "a.rs"})),
            ["touch"]
        );
        // listing a directory reads no file
        assert!(kinds("list_dir", serde_json::json!({"path": "src"})).is_empty());
        assert_eq!(
            kinds(
                "exec_command",
                serde_json::json!({"command": "rg x && cat a.rs"})
            ),
            ["search", "touch"]
        );
    }
}
