//! Codex CLI rollouts: `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`, lines `{timestamp,
//! type, payload}`; older rollouts write a response item as the line itself (no `payload`)
//! after a first line holding the session's `id` and `timestamp`.
//!
//! | entry | what is read |
//! |---|---|
//! | `session_meta` | `id`, `cwd`, `timestamp`, and `git.commit_hash` (the fixture is then that commit of `cwd`) |
//! | `turn_context` | `cwd`: where later relative paths point |
//! | `response_item` `message`, role `user` | a question of the person's (`input_text`), except the `<environment_context>` (its `<cwd>` is read) and `<user_instructions>` Codex writes itself |
//! | `response_item` `function_call` `shell` / `exec_command` / `local_shell_call` | `command` (an argv or a string; `bash -lc SCRIPT` read as SCRIPT) or `cmd`, and `workdir`: a search when it runs `rg`, `grep`, `git grep`, `find` or `fd`, reads for `cat`, `sed -n`, ..., edits for an `apply_patch` |
//! | `response_item` `function_call` / `custom_tool_call` `apply_patch` | the files the patch names (`*** Update File:`, `*** Add File:`, `*** Delete File:`) as edits |
//! | `response_item` `function_call_output` / `custom_tool_call_output` | by `call_id`: the output's bytes and lines (0 when its exit code is not 0), `metadata.exit_code` and `duration_seconds` when it is JSON, or the `Exit code:` / `Process exited with code` and `Wall time:` header lines |
//! | `response_item` `reasoning`, `message` of other roles, `web_search_call`; `event_msg`, `compacted`; an older rollout's `record_type` lines | counted, nothing else |
//!
//! Any other type is counted as `unknown_type`; a line that is not JSON as `not_json`.

use super::log_lines::for_each_line;
use super::search_call::{classify, result_lines};
use super::session::Session;
use super::shell_words;
use super::summary::ProblemKind;
use super::turn::{CallResult, Search, Step, Touch};
use serde_json::{Map, Value};
use std::io::BufRead;
use std::path::Path;

/// Function calls that run a shell command.
const SHELLS: &[&str] = &[
    "shell",
    "exec_command",
    "container.exec",
    "local_shell",
    "shell_command",
];

/// Response items that hold nothing `import` reads.
const IGNORED_ITEMS: &[&str] = &["reasoning", "web_search_call"];

/// Reads one rollout.
pub fn read(path: &Path, reader: &mut dyn BufRead) -> std::io::Result<Session> {
    let mut rollout = Rollout {
        session: Session::new(path),
        cwd_now: None,
    };
    for_each_line(reader, |line, parsed| {
        rollout.session.lines += 1;
        match parsed {
            Ok(Value::Object(entry)) => rollout.entry(line, &entry),
            Ok(_) => rollout
                .session
                .problem(line, ProblemKind::NotJson, "not a JSON object"),
            Err(reason) => rollout.session.problem(line, ProblemKind::NotJson, reason),
        }
    })?;
    Ok(rollout.session)
}

fn text<'a>(v: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

struct Rollout {
    session: Session,
    /// The working directory the last `turn_context` gave.
    cwd_now: Option<String>,
}

impl Rollout {
    fn entry(&mut self, line: usize, entry: &Map<String, Value>) {
        let kind = text(entry, "type");
        let timestamp = text(entry, "timestamp").map(str::to_string);
        match (kind, entry.get("payload").and_then(Value::as_object)) {
            (Some(kind), Some(payload)) => {
                self.session.count_entry(kind);
                match kind {
                    "session_meta" => self.meta(payload),
                    "response_item" => self.item(line, payload, timestamp),
                    "turn_context" => {
                        if let Some(cwd) = text(payload, "cwd") {
                            self.session.note(None, Some(cwd), None);
                            self.cwd_now = Some(cwd.to_string());
                        }
                    }
                    "event_msg" | "compacted" => {}
                    other => self.session.problem(
                        line,
                        ProblemKind::UnknownType,
                        format!("entry type `{other}` is not one Codex rollouts are known to hold"),
                    ),
                }
            }
            // an older rollout: the session's first line, state lines, and items as lines
            (None, _) if entry.contains_key("record_type") => {
                self.session.count_entry("record_type");
            }
            (None, _) if entry.contains_key("id") && self.session.id.is_none() => {
                self.session.count_entry("session_meta");
                self.meta(entry);
            }
            (Some(_), None) => self.item(line, entry, timestamp),
            (None, _) => self.session.problem(
                line,
                ProblemKind::UnknownType,
                "an entry with neither `type` nor `record_type`",
            ),
        }
    }

    fn meta(&mut self, meta: &Map<String, Value>) {
        self.session
            .note(text(meta, "id"), text(meta, "cwd"), text(meta, "timestamp"));
        let commit = meta
            .get("git")
            .and_then(|g| g.get("commit_hash"))
            .and_then(Value::as_str)
            .filter(|c| !c.trim().is_empty());
        if self.session.commit.is_none() {
            self.session.commit = commit.map(str::to_string);
        }
        if let Some(cwd) = text(meta, "cwd") {
            self.cwd_now = Some(cwd.to_string());
        }
    }

    fn item(&mut self, line: usize, item: &Map<String, Value>, timestamp: Option<String>) {
        let Some(kind) = text(item, "type") else {
            let detail = "`response_item` without a `type`";
            self.session.problem(line, ProblemKind::BadEntry, detail);
            return;
        };
        self.session.count_entry(&format!("response_item/{kind}"));
        match kind {
            "message" => self.message(line, item, timestamp),
            "function_call" | "custom_tool_call" => self.call(line, item, timestamp),
            "local_shell_call" => {
                let Some(id) = call_id(item) else {
                    return self.no_call_id(line, kind);
                };
                let action = item.get("action");
                let command = action.and_then(|a| a.get("command"));
                let workdir = action
                    .and_then(|a| a.get("working_directory"))
                    .and_then(Value::as_str);
                self.shell(line, id, "local_shell", command, workdir, timestamp);
            }
            "function_call_output" | "custom_tool_call_output" => {
                self.output(line, item, timestamp)
            }
            k if IGNORED_ITEMS.contains(&k) => {}
            other => self.session.problem(
                line,
                ProblemKind::UnknownType,
                format!("response item type `{other}` is not one Codex rollouts are known to hold"),
            ),
        }
    }

    fn message(&mut self, line: usize, item: &Map<String, Value>, timestamp: Option<String>) {
        if text(item, "role") != Some("user") {
            return;
        }
        let said: Vec<&str> = item
            .get("content")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|c| c.get("type").and_then(Value::as_str) == Some("input_text"))
            .filter_map(|c| c.get("text").and_then(Value::as_str))
            .collect();
        let question = said.join("\n").trim().to_string();
        if let Some(rest) = question.strip_prefix("<environment_context>") {
            // Codex's own note of where it runs: the directory of an older rollout
            if let Some(cwd) = rest
                .split_once("<cwd>")
                .and_then(|(_, r)| r.split_once("</cwd>"))
            {
                self.session.note(None, Some(cwd.0.trim()), None);
                self.cwd_now.get_or_insert_with(|| cwd.0.trim().to_string());
            }
            return;
        }
        if question.is_empty()
            || question.starts_with("<user_instructions>")
            || question.starts_with("# AGENTS.md instructions")
        {
            return;
        }
        self.session.start_turn(question, timestamp, line);
    }

    fn no_call_id(&mut self, line: usize, kind: &str) {
        let detail = format!("`{kind}` without `call_id`");
        self.session.problem(line, ProblemKind::BadEntry, detail);
    }

    fn call(&mut self, line: usize, item: &Map<String, Value>, timestamp: Option<String>) {
        let kind = text(item, "type").unwrap_or("function_call");
        let name = text(item, "name").unwrap_or("");
        let Some(id) = call_id(item) else {
            return self.no_call_id(line, kind);
        };
        // a custom tool's input is the text itself; a function's arguments are JSON text
        let raw = text(item, "arguments")
            .or_else(|| text(item, "input"))
            .unwrap_or("");
        if name == "apply_patch" {
            let args: Option<Value> = serde_json::from_str(raw).ok();
            let patch = args
                .as_ref()
                .and_then(|a| a.get("input").or_else(|| a.get("patch")))
                .and_then(Value::as_str)
                .unwrap_or(raw);
            let base = self.cwd_now.clone();
            self.patch(line, id, patch, base);
            return;
        }
        if !SHELLS.contains(&name) {
            return;
        }
        let args: Value = match serde_json::from_str(raw) {
            Ok(v) => v,
            Err(e) => {
                let detail = format!("arguments of `{name}` call `{id}` are not JSON ({e})");
                self.session.problem(line, ProblemKind::BadEntry, detail);
                return;
            }
        };
        let command = args.get("command").or_else(|| args.get("cmd"));
        let workdir = args.get("workdir").and_then(Value::as_str);
        self.shell(line, id, name, command, workdir, timestamp);
    }

    fn shell(
        &mut self,
        line: usize,
        id: &str,
        tool: &str,
        command: Option<&Value>,
        workdir: Option<&str>,
        timestamp: Option<String>,
    ) {
        let base = super::claude_code::join_dir(self.cwd_now.as_deref(), workdir.unwrap_or(""));
        let script = match command {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Array(argv)) => {
                let argv: Vec<String> = argv
                    .iter()
                    .map(|a| a.as_str().unwrap_or_default().to_string())
                    .collect();
                match argv.as_slice() {
                    [patch_tool, patch, ..] if patch_tool == "apply_patch" => {
                        return self.patch(line, id, patch, base);
                    }
                    [sh, flag, script, ..]
                        if ["bash", "sh", "zsh"].contains(&base_name(sh))
                            && (flag == "-c" || flag == "-lc") =>
                    {
                        script.clone()
                    }
                    _ => shell_words::join(&argv),
                }
            }
            _ => {
                let detail = format!("`{tool}` call `{id}` has no `command`");
                self.session.problem(line, ProblemKind::BadEntry, detail);
                return;
            }
        };
        if script.contains("*** Begin Patch") {
            return self.patch(line, id, &script, base);
        }
        let call = classify(&script);
        if let Some(search) = call.search {
            self.session.add(Step::Search(Search {
                call_id: id.to_string(),
                tool: tool.to_string(),
                input: search,
                line,
                source: 0,
                timestamp,
                result: None,
            }));
        }
        for read in call.reads {
            let base = super::claude_code::join_dir(base.as_deref(), &read.dir);
            self.touch(line, id, &read.path, base);
        }
    }

    fn touch(&mut self, line: usize, id: &str, path: &str, base: Option<String>) {
        self.session.add(Step::Touch(Touch {
            call_id: id.to_string(),
            path: path.to_string(),
            base,
            line,
            source: 0,
            result: None,
        }));
    }

    /// The files an `apply_patch` names, as edits.
    fn patch(&mut self, line: usize, id: &str, patch: &str, base: Option<String>) {
        for l in patch.lines() {
            let named = ["*** Update File:", "*** Add File:", "*** Delete File:"]
                .iter()
                .find_map(|p| l.strip_prefix(p));
            if let Some(path) = named.map(str::trim).filter(|p| !p.is_empty()) {
                self.touch(line, id, path, base.clone());
            }
        }
    }

    fn output(&mut self, line: usize, item: &Map<String, Value>, timestamp: Option<String>) {
        let Some(id) = call_id(item) else {
            return self.no_call_id(line, text(item, "type").unwrap_or("output"));
        };
        let raw = match item.get("output") {
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => String::new(),
        };
        let output = CommandOutput::parse(&raw);
        let is_error = output.exit_code.is_some_and(|c| c != 0);
        let result = CallResult {
            candidates: if is_error {
                0
            } else {
                result_lines(&output.body)
            },
            bytes: raw.len() as u64,
            is_error,
            timestamp,
            duration_ms: output.duration_ms,
        };
        self.session.resolve(id, result);
    }
}

fn call_id(item: &Map<String, Value>) -> Option<&str> {
    text(item, "call_id")
        .or_else(|| text(item, "id"))
        .filter(|s| !s.is_empty())
}

fn base_name(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

/// A command's output as Codex logs it: JSON `{output, metadata: {exit_code,
/// duration_seconds}}`, or text whose header lines (`Exit code: 1`, `Process exited with
/// code 1`, `Wall time: 0.2 seconds`) end at an `Output:` line, or plain text.
#[derive(Debug, PartialEq)]
struct CommandOutput {
    body: String,
    exit_code: Option<i64>,
    duration_ms: Option<f64>,
}

impl CommandOutput {
    fn parse(raw: &str) -> CommandOutput {
        if let Ok(Value::Object(doc)) = serde_json::from_str::<Value>(raw) {
            if let Some(body) = text(&doc, "output") {
                let meta = doc.get("metadata");
                let number = |key| meta.and_then(|m| m.get(key));
                return CommandOutput {
                    body: body.to_string(),
                    exit_code: number("exit_code").and_then(Value::as_i64),
                    duration_ms: number("duration_seconds")
                        .and_then(Value::as_f64)
                        .map(|s| (s * 1e6).round() / 1e3),
                };
            }
        }
        let mut out = CommandOutput {
            body: raw.to_string(),
            exit_code: None,
            duration_ms: None,
        };
        let mut offset = 0;
        for l in raw.split_inclusive('\n').take(8) {
            offset += l.len();
            let l = l.trim();
            if let Some(code) = l
                .strip_prefix("Exit code:")
                .or_else(|| l.strip_prefix("Process exited with code"))
            {
                out.exit_code = code.trim().parse().ok();
            } else if let Some(time) = l.strip_prefix("Wall time:") {
                out.duration_ms = time
                    .trim()
                    .trim_end_matches("seconds")
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .map(|s| (s * 1e6).round() / 1e3);
            } else if l == "Output:" {
                out.body = raw[offset..].to_string();
                return out;
            }
        }
        // no `Output:` line: the text is the output, whatever it looked like
        CommandOutput {
            body: raw.to_string(),
            exit_code: None,
            duration_ms: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::turn::Turn;

    fn wrapped(kind: &str, payload: &str) -> String {
        format!(r#"{{"timestamp":"2025-09-12T10:00:01.000Z","type":"{kind}","payload":{payload}}}"#)
    }

    fn call(id: &str, name: &str, arguments: &str) -> String {
        wrapped(
            "response_item",
            &format!(
                r#"{{"type":"function_call","name":"{name}","arguments":{},"call_id":"{id}"}}"#,
                serde_json::to_string(arguments).unwrap()
            ),
        )
    }

    fn output(id: &str, output: &str) -> String {
        wrapped(
            "response_item",
            &format!(
                r#"{{"type":"function_call_output","call_id":"{id}","output":{}}}"#,
                serde_json::to_string(output).unwrap()
            ),
        )
    }

    fn user(text: &str) -> String {
        wrapped(
            "response_item",
            &format!(
                r#"{{"type":"message","role":"user","content":[{{"type":"input_text","text":{}}}]}}"#,
                serde_json::to_string(text).unwrap()
            ),
        )
    }

    fn read_text(lines: &[String]) -> Session {
        read(Path::new("r.jsonl"), &mut lines.join("\n").as_bytes()).unwrap()
    }

    fn steps(turn: &Turn) -> Vec<String> {
        turn.steps
            .iter()
            .map(|s| match s {
                Step::Search(s) => format!(
                    "search {} [{}] {:?}",
                    s.tool,
                    s.input,
                    s.result
                        .as_ref()
                        .map(|r| (r.candidates, r.bytes, r.duration_ms))
                ),
                Step::Touch(t) => format!(
                    "touch {} in {:?} {:?}",
                    t.path,
                    t.base,
                    t.result.as_ref().map(|r| r.is_error)
                ),
            })
            .collect()
    }

    #[test]
    fn meta_questions_shell_calls_patches_and_outputs() {
        let meta = r#"{"id":"0199-s","timestamp":"2025-09-12T10:00:00.000Z","cwd":"/home/dev/agent-cpp","originator":"codex_cli_rs","cli_version":"0.36.0","git":{"commit_hash":"4f2c9a1","branch":"main","repository_url":"https://example.com/agent-cpp.git"}}"#;
        let s = read_text(&[
            wrapped("session_meta", meta),
            user("<environment_context>\n  <cwd>/elsewhere</cwd>\n</environment_context>"),
            user("where is the trace writer flushed?"),
            wrapped(
                "turn_context",
                r#"{"cwd":"/home/dev/agent-cpp","model":"gpt-5-codex"}"#,
            ),
            wrapped(
                "response_item",
                r#"{"type":"reasoning","summary":[],"encrypted_content":"x"}"#,
            ),
            call(
                "c1",
                "shell",
                r#"{"command":["bash","-lc","rg -n flush src/telemetry"],"workdir":"/home/dev/agent-cpp"}"#,
            ),
            output(
                "c1",
                r#"{"output":"src/telemetry/trace_writer.cpp:40:  flush();\n","metadata":{"exit_code":0,"duration_seconds":0.25}}"#,
            ),
            call(
                "c2",
                "exec_command",
                r#"{"cmd":"sed -n '1,80p' src/telemetry/trace_writer.cpp"}"#,
            ),
            output(
                "c2",
                "Exit code: 0\nWall time: 0.1 seconds\nOutput:\n#include <x>\n",
            ),
            call("c3", "shell", r#"{"command":["rg","-n","nothing_here"]}"#),
            output(
                "c3",
                r#"{"output":"","metadata":{"exit_code":1,"duration_seconds":0.02}}"#,
            ),
            call(
                "c4",
                "shell",
                r#"{"command":["apply_patch","*** Begin Patch\n*** Update File: src/telemetry/trace_writer.cpp\n@@\n-a\n+b\n*** Add File: docs/flush.md\n+x\n*** End Patch"]}"#,
            ),
            output("c4", r#"{"output":"Success.","metadata":{"exit_code":0}}"#),
            wrapped("event_msg", r#"{"type":"token_count"}"#),
        ]);
        assert_eq!(
            (s.id.as_deref(), s.cwd.as_deref(), s.commit.as_deref()),
            (Some("0199-s"), Some("/home/dev/agent-cpp"), Some("4f2c9a1"))
        );
        assert_eq!(s.turns.len(), 1);
        assert_eq!(s.turns[0].question, "where is the trace writer flushed?");
        let dir = Some("/home/dev/agent-cpp".to_string());
        assert_eq!(
            steps(&s.turns[0]),
            [
                "search shell [rg -n flush src/telemetry] Some((1, 110, Some(250.0)))".to_string(),
                format!("touch src/telemetry/trace_writer.cpp in {dir:?} Some(false)"),
                "search shell [rg -n nothing_here] Some((0, 64, Some(20.0)))".to_string(),
                format!("touch src/telemetry/trace_writer.cpp in {dir:?} Some(false)"),
                format!("touch docs/flush.md in {dir:?} Some(false)"),
            ]
        );
        assert!(s.problems.is_empty(), "{:?}", s.problems);
        assert_eq!(s.entry_types["response_item/function_call"], 4);
    }

    #[test]
    fn an_older_rollout_without_payloads() {
        let s = read_text(&[
            r#"{"id":"old-1","timestamp":"2025-05-07T17:24:21.123Z","instructions":null,"git":{"commit_hash":"abc","branch":"main"}}"#.to_string(),
            r#"{"record_type":"state"}"#.to_string(),
            r#"{"type":"message","id":null,"role":"user","content":[{"type":"input_text","text":"<environment_context>\n<cwd>/home/dev/old</cwd>\n</environment_context>"}]}"#.to_string(),
            r#"{"type":"message","id":null,"role":"user","content":[{"type":"input_text","text":"find the probe"}]}"#.to_string(),
            r#"{"type":"function_call","id":"fc_1","name":"shell","arguments":"{\"command\":[\"fd\",\"probe\"]}","call_id":"call_1"}"#.to_string(),
            r#"{"type":"function_call_output","call_id":"call_1","output":"{\"output\":\"src/cursor/terminal_probe.cpp\\nsrc/cursor/terminal_probe.h\\n\",\"metadata\":{\"exit_code\":0,\"duration_seconds\":0.0}}"}"#.to_string(),
        ]);
        assert_eq!(
            (s.id.as_deref(), s.cwd.as_deref(), s.commit.as_deref()),
            (Some("old-1"), Some("/home/dev/old"), Some("abc"))
        );
        assert_eq!(s.turns[0].question, "find the probe");
        assert_eq!(
            steps(&s.turns[0]),
            ["search shell [fd probe] Some((2, 123, Some(0.0)))"]
        );
        assert_eq!(s.started.as_deref(), Some("2025-05-07T17:24:21.123Z"));
        assert!(s.problems.is_empty(), "{:?}", s.problems);
    }

    #[test]
    fn bad_lines_unknown_types_and_unparsable_arguments() {
        let s = read_text(&[
            user("q"),
            "][".to_string(),
            wrapped("mystery", "{}"),
            wrapped("response_item", r#"{"type":"hologram"}"#),
            call("c9", "shell", "{not json"),
            wrapped(
                "response_item",
                r#"{"type":"function_call","name":"shell","arguments":"{}"}"#,
            ),
        ]);
        let kinds: Vec<(usize, &str)> = s
            .problems
            .iter()
            .map(|p| (p.line, p.kind.as_str()))
            .collect();
        assert_eq!(
            kinds,
            [
                (2, "not_json"),
                (3, "unknown_type"),
                (4, "unknown_type"),
                (5, "bad_entry"),
                (6, "bad_entry")
            ]
        );
    }

    /// A compaction (Codex's `compacted` entry, whose `replacement_history` repeats the
    /// person's question and holds the summary as a user message, and its `event_msg`)
    /// starts no turn: the searches after it are the same question's, judged by what is
    /// read after them.
    #[test]
    fn a_compaction_starts_no_turn() {
        let s = read_text(&[
            user("where is the trace writer flushed?"),
            call("c1", "shell", r#"{"command":["rg","-n","flush"]}"#),
            output(
                "c1",
                r#"{"output":"src/telemetry/trace_writer.cpp:40:  flush();\n","metadata":{"exit_code":0}}"#,
            ),
            wrapped(
                "compacted",
                r#"{"message":"The person asked where the trace writer is flushed.","replacement_history":[{"type":"message","role":"user","content":[{"type":"input_text","text":"where is the trace writer flushed?"}]},{"type":"message","role":"user","content":[{"type":"input_text","text":"Another language model started to solve this problem and produced a summary of its thinking process."}]}]}"#,
            ),
            wrapped("event_msg", r#"{"type":"context_compacted"}"#),
            call("c2", "shell", r#"{"command":["fd","trace_writer"]}"#),
            output(
                "c2",
                r#"{"output":"src/telemetry/trace_writer.cpp\n","metadata":{"exit_code":0}}"#,
            ),
            call(
                "c3",
                "exec_command",
                r#"{"cmd":"sed -n '1,80p' src/telemetry/trace_writer.cpp"}"#,
            ),
            output("c3", "Exit code: 0\nOutput:\n#include <x>\n"),
            user("and where is it opened?"),
        ]);
        assert!(s.problems.is_empty(), "{:?}", s.problems);
        let questions: Vec<&str> = s.turns.iter().map(|t| t.question.as_str()).collect();
        assert_eq!(
            questions,
            [
                "where is the trace writer flushed?",
                "and where is it opened?"
            ]
        );
        assert_eq!(
            steps(&s.turns[0]),
            [
                "search shell [rg -n flush] Some((1, 86, None))".to_string(),
                "search shell [fd trace_writer] Some((1, 72, None))".to_string(),
                "touch src/telemetry/trace_writer.cpp in None Some(false)".to_string(),
            ]
        );
        assert_eq!(s.entry_types["compacted"], 1);
    }

    #[test]
    fn command_output_forms() {
        let json = CommandOutput::parse(r#"{"output":"a\nb\n","metadata":{"exit_code":2}}"#);
        assert_eq!((json.body.as_str(), json.exit_code), ("a\nb\n", Some(2)));
        let text = CommandOutput::parse(
            "Chunk ID: 7\nWall time: 1.5 seconds\nProcess exited with code 1\nOutput:\nx\n",
        );
        assert_eq!(
            (text.body.as_str(), text.exit_code, text.duration_ms),
            ("x\n", Some(1), Some(1500.0))
        );
        let plain = CommandOutput::parse("Exit code: 3 looks like a header\nbut no output line");
        assert_eq!(plain.exit_code, None);
    }
}
