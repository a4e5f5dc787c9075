//! `findbench import`: the agent logs under `corpora/fixtures/agent-logs/` (written to each
//! format's public description, see its README) turned into trace lines; every bad line
//! counted by kind and listed at file:line; the exit codes of a bad format and a missing
//! path; `--redact`; and a replay of the import over the agent-cpp code fixture.

mod common;

use common::{assert_exit, assert_schema, findbench, repo_root, stdout_json};
use findbench_traces::trace::Trace;
use serde_json::{json, Value};
use std::process::Output;

const LOGS: &str = "corpora/fixtures/agent-logs";
const CODEX_NEW: &str = "corpora/fixtures/agent-logs/codex/2025/09/12/rollout-2025-09-12T10-00-00-0199a3f2-7c41-7d12-b3e5-2f9c0a6d8e41.jsonl";
const OTEL: &str = "corpora/fixtures/agent-logs/otel/agent-spans.jsonl";
const CLAUDE: &str = "corpora/fixtures/agent-logs/claude-code/-home-dev-agent-cpp/5d1c2a7e-3b8f-4c1d-9e0a-6f2b8c4d1e93.jsonl";

/// The trace lines on stdout, each checked against the schema and as replay reads it.
fn traces(out: &Output) -> Vec<Value> {
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|line| {
            Trace::parse_line(line).unwrap_or_else(|e| panic!("replay refuses {line}: {e}"));
            let v: Value = serde_json::from_str(line).unwrap();
            assert_schema("trace.schema.json", &v);
            v
        })
        .collect()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The `file:line: kind` of each problem listed on stderr.
fn listed(out: &Output) -> Vec<String> {
    stderr(out)
        .lines()
        .filter(|l| l.starts_with(LOGS))
        .map(|l| l.splitn(4, ": ").take(2).collect::<Vec<_>>().join(": "))
        .collect()
}

/// What a test checks of one trace: id, question, the tool call and expected files.
fn brief(t: &Value) -> Value {
    let tool = &t["tools"][0];
    json!([
        t["trace_id"].as_str().unwrap().rsplit('/').next(),
        t["query"],
        tool["name"],
        tool["input"],
        tool["candidates"],
        tool["output_bytes"],
        t["outcome"],
        t["expected"],
    ])
}

#[test]
fn claude_code_transcripts_become_one_trace_per_search() {
    let out = findbench(&["import", "claude-code", &format!("{LOGS}/claude-code")]);
    assert_exit(&out, 0);
    let traces = traces(&out);
    let q1 = "where is the cursor binary parsed?";
    let q2 = "add a flush to the trace writer";
    let edits = json!([
        "src/telemetry/trace_writer.cpp",
        "include/telemetry/trace.h",
        "docs/telemetry/flushing.md"
    ]);
    let got: Vec<Value> = traces.iter().map(brief).collect();
    assert_eq!(
        got,
        [
            json!([
                "toolu_01Grep",
                q1,
                "Grep",
                "cursor_binary",
                2,
                110,
                "success",
                [
                    "src/cursor/cursor_binary.cpp",
                    "src/cursor/terminal_probe.h"
                ]
            ]),
            json!([
                "toolu_03Bash",
                q1,
                "Bash",
                "rg -n 'parse' src include",
                3,
                314,
                "success",
                ["src/cursor/terminal_probe.h"]
            ]),
            json!([
                "toolu_06Glob",
                q2,
                "Glob",
                "**/trace*",
                2,
                96,
                "success",
                edits
            ]),
            // the subagent's searches (sidechain lines) ask the person's question
            json!([
                "toolu_08Grep",
                q2,
                "Grep",
                "write_line",
                0,
                16,
                "insufficient_evidence",
                edits
            ]),
            json!([
                "toolu_09Bash",
                q2,
                "Bash",
                "grep -rn 'ofstream' telemetry",
                1,
                53,
                "success",
                edits
            ]),
        ]
    );
    let first = &traces[0];
    assert_eq!(
        first["trace_id"],
        "5d1c2a7e-3b8f-4c1d-9e0a-6f2b8c4d1e93/toolu_01Grep"
    );
    assert_eq!(first["fixture"], json!({"root": "/home/dev/agent-cpp"}));
    assert_eq!(first["timestamp"], "2025-06-10T09:00:02.000Z");
    assert_eq!(
        (
            first["iterations"].as_u64(),
            traces[4]["iterations"].as_u64()
        ),
        (Some(1), Some(3))
    );
    // the result's time less the call's
    assert_eq!(first["tools"][0]["duration_ms"], 1000.0);
    // tool output is never copied: no line of a result appears in the traces
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("#include"), "{text}");
    assert!(!text.contains("std::ofstream"), "{text}");

    let err = stderr(&out);
    assert!(
        err.contains(
            "import claude-code: 1 files, 26 lines, 2 questions, 6 searches, 5 traces; 4 problems"
        ),
        "{err}"
    );
    assert!(
        err.contains("problems by kind: no_result 1, not_json 1, outside_root 1, unknown_type 1"),
        "{err}"
    );
    assert_eq!(
        listed(&out),
        [
            format!("{CLAUDE}:9: outside_root"),
            format!("{CLAUDE}:24: no_result"),
            format!("{CLAUDE}:25: not_json"),
            format!("{CLAUDE}:26: unknown_type"),
        ]
    );
}

#[test]
fn out_and_summary_files_hold_what_stdout_and_stderr_show() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("nested/traces.jsonl");
    let summary = dir.path().join("summary.json");
    let to_stdout = findbench(&["import", "claude-code", CLAUDE]);
    let to_file = findbench(&[
        "import",
        "claude-code",
        CLAUDE,
        "--out",
        out_file.to_str().unwrap(),
        "--summary",
        summary.to_str().unwrap(),
    ]);
    assert_exit(&to_file, 0);
    assert!(to_file.stdout.is_empty());
    assert_eq!(std::fs::read(&out_file).unwrap(), to_stdout.stdout);
    let leftovers: Vec<_> = std::fs::read_dir(out_file.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(doc["format"], "claude-code");
    assert_eq!(
        (doc["traces"].as_u64(), doc["searches"].as_u64()),
        (Some(5), Some(6))
    );
    assert_eq!(
        doc["problems_by_kind"],
        json!({"no_result": 1, "not_json": 1, "outside_root": 1, "unknown_type": 1})
    );
    assert_eq!(doc["problems"][1]["file"], CLAUDE);
    assert_eq!(
        (
            doc["problems"][1]["line"].as_u64(),
            doc["problems"][1]["kind"].as_str()
        ),
        (Some(24), Some("no_result"))
    );
    assert_eq!(doc["entry_types"]["assistant"], 10);
}

#[test]
fn redact_writes_the_question_as_its_hash() {
    let out = findbench(&["import", "claude-code", CLAUDE, "--redact"]);
    assert_exit(&out, 0);
    let traces = traces(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("cursor binary parsed"), "{text}");
    assert!(!text.contains("add a flush"), "{text}");
    let queries: Vec<&str> = traces
        .iter()
        .map(|t| t["query"].as_str().unwrap())
        .collect();
    assert!(
        queries
            .iter()
            .all(|q| q.starts_with("sha256:") && q.len() == 7 + 64),
        "{queries:?}"
    );
    // equal questions, equal hashes: clusters still group them
    assert_eq!(queries[0], queries[1]);
    assert_ne!(queries[1], queries[2]);
}

#[test]
fn an_unknown_format_is_exit_2_naming_the_formats_and_a_missing_path_exit_3() {
    let out = findbench(&["import", "cursor", CLAUDE]);
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert!(
        err.contains("claude-code") && err.contains("codex"),
        "{err}"
    );
    let out = findbench(&["import", "claude-code", "no/such/logs"]);
    assert_exit(&out, 3);
    assert!(stderr(&out).contains("no/such/logs"), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    let out = findbench(&["import", "claude-code", CLAUDE, "--root", "no/such/tree"]);
    assert_exit(&out, 3);
    assert!(
        stderr(&out).contains("--root is not a directory"),
        "{}",
        stderr(&out)
    );
}

/// Imports `path` with `--root` pointing at the agent-cpp fixture, replays it, and returns
/// the replay's JSON document.
fn import_and_replay(format: &str, path: &str, expect_traces: u64) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let traces = dir.path().join("imported.jsonl");
    let out = findbench(&[
        "import",
        format,
        path,
        "--root",
        "corpora/fixtures/agent-cpp",
        "--out",
        traces.to_str().unwrap(),
    ]);
    assert_exit(&out, 0);
    let root = repo_root()
        .join("corpora/fixtures/agent-cpp")
        .canonicalize()
        .unwrap();
    let first: Value = serde_json::from_str(
        std::fs::read_to_string(&traces)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(first["fixture"], json!({"root": root.to_str().unwrap()}));
    let out = findbench(&[
        "replay",
        traces.to_str().unwrap(),
        "-f",
        "json",
        "--no-progress",
    ]);
    // the gate decides 0 or 1; a trace the replay cannot read would be 2
    let code = out.status.code();
    assert!(
        matches!(code, Some(0 | 1)),
        "exit {code:?}: {}",
        stderr(&out)
    );
    let doc = stdout_json(&out);
    assert_eq!(doc["traces"], expect_traces, "{doc:#}");
    assert_eq!(doc["bad_lines"], 0, "{doc:#}");
    doc
}

#[test]
fn an_import_replays_over_the_code_fixture_it_names() {
    let doc = import_and_replay("claude-code", CLAUDE, 5);
    assert_eq!(
        doc["summary"]["recorded_outcomes"]["insufficient_evidence"], 1,
        "{doc:#}"
    );
    // without --root the session's own directory is named, and it is not on this machine
    let dir = tempfile::tempdir().unwrap();
    let traces = dir.path().join("t.jsonl");
    let out = findbench(&[
        "import",
        "claude-code",
        CLAUDE,
        "--out",
        traces.to_str().unwrap(),
    ]);
    assert_exit(&out, 0);
    let out = findbench(&[
        "replay",
        traces.to_str().unwrap(),
        "-f",
        "text",
        "--no-progress",
    ]);
    assert_exit(&out, 3);
    assert!(stderr(&out).contains("--root"), "{}", stderr(&out));
}

#[test]
fn codex_rollouts_new_and_old_become_traces_pinned_to_their_commit() {
    let out = findbench(&["import", "codex", &format!("{LOGS}/codex")]);
    assert_exit(&out, 0);
    let traces = traces(&out);
    let got: Vec<Value> = traces.iter().map(brief).collect();
    let q1 = "where is the trace writer flushed?";
    let q2 = "make it flush after every line";
    assert_eq!(
        got,
        [
            // the older rollout (2025/05/07) sorts first; its directory is the one its
            // <environment_context> names
            json!([
                "call_fd_old",
                "which file probes the terminal?",
                "shell",
                "fd probe",
                2,
                123,
                "success",
                ["src/cursor/terminal_probe.cpp"]
            ]),
            json!([
                "call_rg1",
                q1,
                "shell",
                "rg -n \"ofstream|flush\" src include",
                1,
                122,
                "success",
                ["src/telemetry/trace_writer.cpp"]
            ]),
            // exit code 1: nothing found; the patch before it is not after it
            json!([
                "call_gg1",
                q2,
                "shell",
                "git grep -n TraceWriter",
                0,
                63,
                "insufficient_evidence",
                ["include/telemetry/trace.h"]
            ]),
            json!([
                "call_find1",
                q2,
                "shell",
                "find . -name '*trace*' -not -path './build/*'",
                3,
                155,
                "success",
                ["include/telemetry/trace.h"]
            ]),
        ]
    );
    assert_eq!(
        traces[1]["fixture"],
        json!({"git": "/home/dev/agent-cpp", "rev": "4f2c9a1e8b7d6c5f4a3b2c1d0e9f8a7b6c5d4e3f"})
    );
    assert_eq!(
        traces[0]["fixture"],
        json!({"git": "/home/dev/agent-cpp", "rev": "9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e"})
    );
    // metadata.duration_seconds, when the output gives it
    assert_eq!(traces[1]["tools"][0]["duration_ms"], 400.0);
    assert_eq!(traces[1]["timestamp"], "2025-09-12T10:00:03.000Z");
    assert_eq!(traces[0]["timestamp"], "2025-05-07T17:24:21.123Z");
    let err = stderr(&out);
    assert!(
        err.contains(
            "import codex: 2 files, 36 lines, 3 questions, 5 searches, 4 traces; 5 problems"
        ),
        "{err}"
    );
    assert!(
        err.contains("problems by kind: bad_entry 1, no_result 1, not_json 1, unknown_type 2"),
        "{err}"
    );
    assert_eq!(
        listed(&out),
        [
            format!("{CODEX_NEW}:22: no_result"),
            format!("{CODEX_NEW}:23: not_json"),
            format!("{CODEX_NEW}:24: unknown_type"),
            format!("{CODEX_NEW}:25: unknown_type"),
            format!("{CODEX_NEW}:26: bad_entry"),
        ]
    );
}

#[test]
fn a_codex_import_with_root_replays_over_the_code_fixture() {
    let doc = import_and_replay("codex", &format!("{LOGS}/codex"), 4);
    assert_eq!(doc["summary"]["recorded_outcomes"]["success"], 3, "{doc:#}");
}

#[test]
fn otel_spans_come_out_as_one_trace_line_per_search_judged_by_the_later_reads() {
    let out = findbench(&["import", "otel", &format!("{LOGS}/otel")]);
    assert_exit(&out, 0);
    let traces = traces(&out);
    assert_eq!(traces.len(), 2);
    let t = &traces[0];
    // the invocation's key, then the search's span
    assert_eq!(
        t["trace_id"],
        "5b8efff798038103d269b633813fc60c/eee19b7ec3c1b174/a1b2c3d4e5f60001"
    );
    assert_eq!(t["query"], "cursor binary");
    assert_eq!(t["fixture"], "agent-cpp");
    assert_eq!(
        t["tools"],
        json!([
            {"name": "find_code", "input": "cursor binary", "candidates": 2, "duration_ms": 32.0,
             "output_bytes": 113}
        ])
    );
    assert_eq!(
        (t["outcome"].as_str(), t["duration_ms"].as_f64()),
        (Some("success"), Some(32.0))
    );
    // the read_file span after the search (on the next line of the file) is what it needed
    assert_eq!(t["expected"], json!(["src/cursor/cursor_binary.cpp"]));
    assert_eq!(traces[1]["outcome"], "insufficient_evidence");
    assert_eq!(traces[1]["expected"], json!([]));
    assert_eq!(
        listed(&out),
        [
            format!("{OTEL}:3: not_json"),
            format!("{OTEL}:5: unknown_type"),
            format!("{OTEL}:6: bad_span"),
        ]
    );
    // --redact and --root apply as to the other formats
    let out = findbench(&[
        "import",
        "otel",
        OTEL,
        "--redact",
        "--root",
        "corpora/fixtures/agent-cpp",
    ]);
    assert_exit(&out, 0);
    let traces = self::traces(&out);
    assert!(traces[0]["query"].as_str().unwrap().starts_with("sha256:"));
    assert!(traces[0]["fixture"]["root"]
        .as_str()
        .unwrap()
        .ends_with("agent-cpp"));
}

#[test]
fn an_otel_import_replays_like_the_spans_themselves() {
    let doc = import_and_replay("otel", OTEL, 2);
    let direct = findbench(&["replay", OTEL, "-f", "json", "--no-progress"]);
    let direct = stdout_json(&direct);
    assert_eq!(
        doc["summary"]["recorded_outcomes"], direct["summary"]["recorded_outcomes"],
        "{doc:#}"
    );
}

#[test]
fn a_log_of_another_format_is_exit_2_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("t.jsonl");
    let o = out_file.to_str().unwrap();
    let out = findbench(&["import", "codex", CLAUDE, "--out", o]);
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert!(
        err.contains(&format!("{CLAUDE}: this is a claude-code log, not codex"))
            && err.contains(&format!("findbench import claude-code {CLAUDE}")),
        "{err}"
    );
    assert!(!err.contains("unknown_type"), "{err}");
    assert!(!out_file.exists());
    let out = findbench(&["import", "claude-code", CODEX_NEW]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("this is a codex log, not claude-code"),
        "{}",
        stderr(&out)
    );
    // a directory of the other format's logs: the first one is named
    let out = findbench(&["import", "claude-code", &format!("{LOGS}/codex")]);
    assert_exit(&out, 2);
    let out = findbench(&["import", "codex", OTEL]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("this is a otel log"),
        "{}",
        stderr(&out)
    );
}

/// One rule for empty input: nothing to work on is invalid input (exit 2), naming the files,
/// and nothing is written.
#[test]
fn empty_input_is_invalid_input_to_import_replay_and_clusters() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let e = empty.to_str().unwrap();
    let out_file = dir.path().join("t.jsonl");
    let out = findbench(&[
        "import",
        "claude-code",
        e,
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains(&format!("no search to import: {e} held none")),
        "{}",
        stderr(&out)
    );
    assert!(!out_file.exists());
    // a session that only talked: read, and still nothing to import
    let talk = dir.path().join("talk.jsonl");
    std::fs::write(
        &talk,
        r#"{"type":"user","sessionId":"s","cwd":"/tmp","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"hello"}}"#,
    )
    .unwrap();
    assert_exit(
        &findbench(&["import", "claude-code", talk.to_str().unwrap()]),
        2,
    );
    for command in ["replay", "clusters"] {
        let out = findbench(
            &[command, e, "-f", "text", "--no-progress"][..if command == "replay" { 5 } else { 4 }],
        );
        assert_exit(&out, 2);
        assert!(
            stderr(&out).contains("held no trace line"),
            "{command}: {}",
            stderr(&out)
        );
    }
}

/// Written by the OpenTelemetry Python SDK (`scripts/gen_otlp_agent_session.py`).
const OTEL_SDK: &str = "corpora/fixtures/agent-logs/otel-sdk/agent-session.jsonl";

#[test]
fn otel_sdk_spans_give_each_search_the_files_read_or_edited_after_it() {
    let out = findbench(&[
        "import",
        "otel",
        OTEL_SDK,
        "--root",
        "corpora/fixtures/agent-cpp",
    ]);
    assert_exit(&out, 0);
    let got: Vec<(String, String, String, Value)> = traces(&out)
        .iter()
        .map(|t| {
            (
                t["query"].as_str().unwrap().to_string(),
                t["tools"][0]["name"].as_str().unwrap().to_string(),
                t["tools"][0]["input"].as_str().unwrap().to_string(),
                t["expected"].clone(),
            )
        })
        .collect();
    let want = |q: &str, tool: &str, input: &str, expected: Value| {
        (q.to_string(), tool.to_string(), input.to_string(), expected)
    };
    assert_eq!(
        got,
        [
            // the Read and Edit after the Grep, on the next export line
            want(
                "where is the replay service implemented?",
                "Grep",
                "replay",
                json!(["src/services/replay_service.cpp"])
            ),
            // findbench itself through MCP is a search; the failed Read is not expected
            want(
                "where are trace lines written?",
                "mcp__findbench__ask",
                "where are trace lines written",
                json!(["src/telemetry/trace_writer.cpp"])
            ),
            want(
                "where are trace lines written?",
                "Bash",
                "rg -n trace_writer src",
                json!(["src/telemetry/trace_writer.cpp"])
            ),
            want(
                "is there a kubernetes autoscaler?",
                "Glob",
                "**/kubernetes*",
                json!([])
            ),
        ]
    );
    assert_eq!(listed(&out), [format!("{OTEL_SDK}:4: bad_span")]);
    // the judged searches replay over the fixture the session ran in
    let doc = import_and_replay("otel", OTEL_SDK, 4);
    assert_eq!(doc["summary"]["rank"]["judged"], 3, "{doc:#}");
}
