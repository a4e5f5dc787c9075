//! Claude Code transcripts: `~/.claude/projects/<dir>/<session>.jsonl`, one JSON object a
//! line with `type`, `uuid`, `parentUuid`, `sessionId`, `timestamp`, `cwd`, `gitBranch`,
//! `isSidechain` and `message` {role, content: a string or an array of blocks}.
//!
//! | entry | what is read |
//! |---|---|
//! | `user` with text | a question of the person's: a turn starts (not `isMeta` lines, interruptions or the summary a compaction writes) |
//! | `user` with `tool_result` blocks | the result of the `tool_use` of that `tool_use_id`: its lines (0 when `is_error`) and its bytes; never its text |
//! | `assistant` `tool_use` `Grep` / `Glob` | a search, its `pattern` the input |
//! | `assistant` `tool_use` `Bash` | a search when the command runs `rg`, `grep`, `git grep`, `find` or `fd`; files it prints (`cat`, `sed -n`, ...) are reads |
//! | `assistant` `tool_use` `Read`, `Edit`, `MultiEdit`, `Write`, `NotebookEdit` | a file read or edited (`file_path`, `notebook_path`) |
//! | `isSidechain` lines | a subagent's: its searches and reads belong to the turn of the person's question being worked on (a subagent's own prompt starts a turn only in a file with no question before it) |
//! | `<session-id>/subagents/**/*.jsonl` | a subagent's own transcript, read with the session, merged by time ([`super::claude_subagents`]): its searches belong to the parent's question and are judged against the files the parent read or edited after them; its own reads are not |
//! | `assistant` `tool_use` `mcp__<server>__<tool>` of a findbench tool (`ask`, `find_code`, ...) | a search, the tool's query field the input |
//! | `summary`, `system`, `file-history-snapshot`, `queue-operation`, `progress`, `permission-mode` | counted, nothing else |
//!
//! Any other `type` is counted as `unknown_type`; a line that is not JSON as `not_json`.

use super::search_call::{classify, result_lines};
use super::session::Session;
use super::summary::ProblemKind;
use super::turn::{CallResult, Search, Step, Touch};
use serde_json::{Map, Value};
use std::io::BufRead;
use std::path::Path;

/// Entry types that hold nothing `import` reads.
const IGNORED: &[&str] = &[
    "summary",
    "system",
    "file-history-snapshot",
    "queue-operation",
    "progress",
    "permission-mode",
];

/// Reads one transcript, with its subagents' transcripts beside it
/// ([`super::claude_subagents`]).
pub fn read(path: &Path, reader: &mut dyn BufRead) -> std::io::Result<Session> {
    super::claude_subagents::read_merged(path, reader, |session, line, parsed| match parsed {
        Ok(Value::Object(entry)) => read_entry(session, line, &entry),
        Ok(_) => session.problem(line, ProblemKind::NotJson, "not a JSON object"),
        Err(reason) => session.problem(line, ProblemKind::NotJson, reason),
    })
}

fn text<'a>(v: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

fn read_entry(session: &mut Session, line: usize, entry: &Map<String, Value>) {
    let Some(kind) = text(entry, "type") else {
        session.problem(line, ProblemKind::BadEntry, "an entry without `type`");
        return;
    };
    session.count_entry(kind);
    session.note(
        text(entry, "sessionId"),
        text(entry, "cwd"),
        text(entry, "timestamp"),
    );
    match kind {
        "user" => user(session, line, entry),
        "assistant" => assistant(session, line, entry),
        k if IGNORED.contains(&k) => {}
        other => session.problem(
            line,
            ProblemKind::UnknownType,
            format!("entry type `{other}` is not one Claude Code transcripts are known to hold"),
        ),
    }
}

fn user(session: &mut Session, line: usize, entry: &Map<String, Value>) {
    let Some(content) = entry.get("message").and_then(|m| m.get("content")) else {
        session.problem(
            line,
            ProblemKind::BadEntry,
            "`user` entry without `message.content`",
        );
        return;
    };
    let timestamp = text(entry, "timestamp").map(str::to_string);
    let mut said = Vec::new();
    let mut results = 0;
    match content {
        Value::String(s) => said.push(s.as_str()),
        Value::Array(blocks) => {
            for block in blocks {
                match block.get("type").and_then(Value::as_str) {
                    Some("tool_result") => {
                        results += 1;
                        tool_result(session, line, block, timestamp.clone());
                    }
                    Some("text") => said.extend(block.get("text").and_then(Value::as_str)),
                    _ => {}
                }
            }
        }
        _ => {
            session.problem(
                line,
                ProblemKind::BadEntry,
                "`message.content` is neither text nor blocks",
            );
            return;
        }
    }
    let question = said.join("\n").trim().to_string();
    let flag = |key| entry.get(key).and_then(Value::as_bool) == Some(true);
    // text beside tool results, Claude Code's own notes, an interruption, a compaction's
    // summary: none is a question
    if results > 0
        || question.is_empty()
        || flag("isMeta")
        || flag("isCompactSummary")
        || question.starts_with("[Request interrupted")
        || question.starts_with("This session is being continued from a previous conversation")
    {
        return;
    }
    if flag("isSidechain") && session.in_turn() {
        // a subagent's prompt, written by the agent for the question being worked on
        return;
    }
    session.start_turn(question, timestamp, line);
}

fn tool_result(session: &mut Session, line: usize, block: &Value, timestamp: Option<String>) {
    let Some(id) = block.get("tool_use_id").and_then(Value::as_str) else {
        session.problem(
            line,
            ProblemKind::BadEntry,
            "`tool_result` without `tool_use_id`",
        );
        return;
    };
    let is_error = block.get("is_error").and_then(Value::as_bool) == Some(true);
    let (bytes, lines) = match block.get("content") {
        Some(Value::String(s)) => (s.len() as u64, result_lines(s)),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .fold((0, 0), |(b, l), t| {
                (b + t.len() as u64, l + result_lines(t))
            }),
        _ => (0, 0),
    };
    let result = CallResult {
        candidates: if is_error { 0 } else { lines },
        bytes,
        is_error,
        timestamp,
        duration_ms: None,
    };
    session.resolve(id, result);
}

fn assistant(session: &mut Session, line: usize, entry: &Map<String, Value>) {
    let Some(message) = entry.get("message") else {
        session.problem(
            line,
            ProblemKind::BadEntry,
            "`assistant` entry without `message`",
        );
        return;
    };
    let Some(blocks) = message.get("content").and_then(Value::as_array) else {
        return; // text only
    };
    let timestamp = text(entry, "timestamp").map(str::to_string);
    let cwd = text(entry, "cwd").map(str::to_string);
    for block in blocks {
        if block.get("type").and_then(Value::as_str) != Some("tool_use") {
            continue;
        }
        let (Some(id), Some(name)) = (
            block.get("id").and_then(Value::as_str),
            block.get("name").and_then(Value::as_str),
        ) else {
            session.problem(
                line,
                ProblemKind::BadEntry,
                "`tool_use` without `id` or `name`",
            );
            continue;
        };
        let input = block.get("input").and_then(Value::as_object);
        let arg = |key: &str| input.and_then(|i| text(i, key));
        let source = session.source;
        let search = |input: &str| {
            Step::Search(Search {
                call_id: id.to_string(),
                tool: name.to_string(),
                input: input.to_string(),
                line,
                source,
                timestamp: timestamp.clone(),
                result: None,
            })
        };
        let touch = |path: &str, base: Option<String>| {
            Step::Touch(Touch {
                call_id: id.to_string(),
                path: path.to_string(),
                base,
                line,
                source,
                result: None,
            })
        };
        // a subagent's reads are its exploration: its searches are judged against what the
        // parent went on to read or edit
        let touch = |path: &str, base: Option<String>| (source == 0).then(|| touch(path, base));
        let missing = |key: &str| format!("`{name}` call `{id}` has no `{key}`");
        match name {
            "Grep" | "Glob" => match arg("pattern") {
                Some(p) => session.add(search(p)),
                None => session.problem(line, ProblemKind::BadEntry, missing("pattern")),
            },
            "Read" | "Edit" | "MultiEdit" | "Write" | "NotebookEdit" => {
                match arg("file_path").or_else(|| arg("notebook_path")) {
                    Some(p) => session.add_some(touch(p, cwd.clone())),
                    None => session.problem(line, ProblemKind::BadEntry, missing("file_path")),
                }
            }
            "Bash" => {
                let Some(command) = arg("command") else {
                    session.problem(line, ProblemKind::BadEntry, missing("command"));
                    continue;
                };
                let call = classify(command);
                if let Some(s) = &call.search {
                    session.add(search(s));
                }
                for read in call.reads {
                    let base = join_dir(cwd.as_deref(), &read.dir);
                    session.add_some(touch(&read.path, base));
                }
            }
            mcp if mcp.starts_with("mcp__") => {
                // findbench itself through MCP (`mcp__<server>__ask`): its query field
                let tool = mcp["mcp__".len()..].split_once("__").map_or("", |(_, t)| t);
                let spec = findbench_eval::tools::ToolSpec::named(tool);
                if let Some(query) = spec.and_then(|s| arg(s.query_field)) {
                    session.add(search(query));
                }
            }
            _ => {}
        }
    }
}

/// `dir` (from a `cd` in the command) against the line's working directory.
pub fn join_dir(cwd: Option<&str>, dir: &str) -> Option<String> {
    match (cwd, dir) {
        (_, d) if d.starts_with('/') => Some(d.to_string()),
        (Some(c), "") => Some(c.to_string()),
        (Some(c), d) => Some(format!("{}/{d}", c.trim_end_matches('/'))),
        (None, "") => None,
        (None, d) => Some(d.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::turn::Turn;

    const CWD: &str = "/home/dev/agent-cpp";

    fn line(kind: &str, extra: &str) -> String {
        format!(
            r#"{{"type":"{kind}","uuid":"u","parentUuid":null,"sessionId":"s1","timestamp":"2025-06-10T09:00:00.000Z","cwd":"{CWD}","gitBranch":"main","isSidechain":false{extra}}}"#
        )
    }

    fn read_text(lines: &[String]) -> Session {
        read(Path::new("t.jsonl"), &mut lines.join("\n").as_bytes()).unwrap()
    }

    fn steps(turn: &Turn) -> Vec<String> {
        turn.steps
            .iter()
            .map(|s| match s {
                Step::Search(s) => format!(
                    "search {} {} {:?}",
                    s.tool,
                    s.input,
                    s.result.as_ref().map(|r| (r.candidates, r.bytes))
                ),
                Step::Touch(t) => format!(
                    "touch {} {:?}",
                    t.path,
                    t.result.as_ref().map(|r| r.is_error)
                ),
            })
            .collect()
    }

    #[test]
    fn questions_tool_uses_and_their_results() {
        let s = read_text(&[
            line(
                "user",
                r#","message":{"role":"user","content":"where is the cursor binary parsed?"}"#,
            ),
            line(
                "assistant",
                r#","message":{"role":"assistant","content":[{"type":"text","text":"Searching."},{"type":"tool_use","id":"g1","name":"Grep","input":{"pattern":"cursor_binary","path":"src"}},{"type":"tool_use","id":"b1","name":"Bash","input":{"command":"rg -n parse_cursor src | head"}},{"type":"tool_use","id":"l1","name":"LS","input":{"path":"src"}}]}"#,
            ),
            line(
                "user",
                r#","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"g1","content":"Found 2 files\n/home/dev/agent-cpp/src/a.cpp\n/home/dev/agent-cpp/src/b.cpp"},{"type":"tool_result","tool_use_id":"b1","content":[{"type":"text","text":"src/a.cpp:3:x"}],"is_error":false},{"type":"tool_result","tool_use_id":"l1","content":"a.cpp"}]}"#,
            ),
            line(
                "assistant",
                r#","message":{"role":"assistant","content":[{"type":"tool_use","id":"r1","name":"Read","input":{"file_path":"/home/dev/agent-cpp/src/a.cpp"}},{"type":"tool_use","id":"e1","name":"Edit","input":{"file_path":"/home/dev/agent-cpp/src/b.cpp","old_string":"a","new_string":"b"}}]}"#,
            ),
            line(
                "user",
                r#","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"r1","content":"     1\tint x;"},{"type":"tool_result","tool_use_id":"e1","content":"String not found","is_error":true}]}"#,
            ),
        ]);
        assert_eq!(
            (s.id.as_deref(), s.cwd.as_deref(), s.commit.as_deref()),
            (Some("s1"), Some(CWD), None)
        );
        assert_eq!(s.turns.len(), 1);
        assert_eq!(s.turns[0].question, "where is the cursor binary parsed?");
        assert_eq!(
            steps(&s.turns[0]),
            [
                "search Grep cursor_binary Some((2, 73))",
                "search Bash rg -n parse_cursor src Some((1, 13))",
                "touch /home/dev/agent-cpp/src/a.cpp Some(false)",
                "touch /home/dev/agent-cpp/src/b.cpp Some(true)",
            ]
        );
        assert!(s.problems.is_empty(), "{:?}", s.problems);
        assert_eq!(s.entry_types["user"], 3);
    }

    #[test]
    fn sidechains_meta_lines_and_bad_entries() {
        let s = read_text(&[
            line(
                "user",
                r#","isMeta":true,"message":{"role":"user","content":"Caveat: local commands"}"#,
            ),
            line(
                "assistant",
                r#","message":{"role":"assistant","content":[{"type":"tool_use","id":"g0","name":"Glob","input":{"pattern":"**/*.h"}}]}"#,
            ),
            line(
                "user",
                r#","message":{"role":"user","content":[{"type":"text","text":"find the trace writer"}]}"#,
            ),
            line("user", r#","isSidechain":true,"message":{"role":"user","content":"Search for the trace writer"}"#)
                .replacen(r#""isSidechain":false,"#, "", 1),
            line(
                "assistant",
                r#","message":{"role":"assistant","content":[{"type":"tool_use","id":"g2","name":"Glob","input":{"pattern":"**/trace_writer*"}}]}"#,
            )
            .replace(r#""isSidechain":false"#, r#""isSidechain":true"#),
            line("summary", r#","summary":"Trace writer""#),
            line("telemetry-beacon", ""),
            "{not json".to_string(),
            line(
                "assistant",
                r#","message":{"role":"assistant","content":[{"type":"tool_use","id":"g3","name":"Grep","input":{"path":"src"}}]}"#,
            ),
        ]);
        assert_eq!(s.turns.len(), 1, "the sidechain's prompt starts no turn");
        assert_eq!(s.turns[0].question, "find the trace writer");
        assert_eq!(steps(&s.turns[0]), ["search Glob **/trace_writer* None"]);
        let problems: Vec<String> = s.problems.iter().map(|p| p.to_string()).collect();
        assert_eq!(problems.len(), 4, "{problems:#?}");
        assert!(problems[0].starts_with("t.jsonl:2: no_question: search `g0`"));
        assert!(problems[1].starts_with("t.jsonl:7: unknown_type: entry type `telemetry-beacon`"));
        assert!(problems[2].starts_with("t.jsonl:8: not_json: not JSON"));
        assert_eq!(
            problems[3],
            "t.jsonl:9: bad_entry: `Grep` call `g3` has no `pattern`"
        );
    }

    #[test]
    fn a_cd_moves_where_relative_reads_point() {
        assert_eq!(join_dir(Some("/r"), "src").as_deref(), Some("/r/src"));
        assert_eq!(join_dir(Some("/r/"), "").as_deref(), Some("/r/"));
        assert_eq!(join_dir(None, "/abs").as_deref(), Some("/abs"));
        assert_eq!(join_dir(None, ""), None);
    }
}
