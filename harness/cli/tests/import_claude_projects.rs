//! `findbench import claude-code` of a whole `~/.claude/projects` tree: each project's
//! sessions under their own root, a session read with its subagents' transcripts
//! (`<session-id>/subagents/agent-*.jsonl`, `subagents/workflows/<id>/`), a subagent's
//! searches judged against what the parent read or edited after them, an MCP call to
//! findbench itself counted as a search, and a compaction, an unknown entry kind and bad
//! lines (in the session and in a subagent's file) reported with their file and line.

mod common;

use common::{assert_exit, findbench, repo_root, stdout_json};
use serde_json::{json, Value};

const PROJECTS: &str = "corpora/fixtures/agent-logs/claude-projects";
const SESSION: &str = "corpora/fixtures/agent-logs/claude-projects/-home-dev-agent-cpp/7e0c9a52-4d1b-4f3e-8a6c-2b9d0e1f3a57";

fn lines(out: &std::process::Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `file:line: kind` of each problem listed on stderr.
fn problems(out: &std::process::Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.starts_with(PROJECTS))
        .map(|l| l.splitn(3, ": ").take(2).collect::<Vec<_>>().join(": "))
        .collect()
}

#[test]
fn a_projects_tree_imports_each_session_with_its_subagents_under_its_own_root() {
    let out = findbench(&["import", "claude-code", PROJECTS]);
    assert_exit(&out, 0);
    let got: Vec<Value> = lines(&out)
        .iter()
        .map(|t| {
            json!([
                t["trace_id"],
                t["query"],
                t["fixture"]["root"],
                t["tools"][0]["name"],
                t["tools"][0]["input"],
                t["iterations"],
                t["expected"]
            ])
        })
        .collect();
    let parent = "where does the replay service load its checkpoints?";
    let expected_by_parent = json!([
        "src/services/checkpoint_service.cpp",
        "src/services/replay_service.cpp"
    ]);
    assert_eq!(
        got,
        [
            // the Explore subagent's Grep, in the parent's question; its own Read of
            // replay_service.h is not expected, the parent's Read and Edit after it are
            json!([
                "7e0c9a52-4d1b-4f3e-8a6c-2b9d0e1f3a57/toolu_11Grep",
                parent,
                "/home/dev/agent-cpp",
                "Grep",
                "load_checkpoint",
                1,
                expected_by_parent
            ]),
            // a workflow's subagent, merged by time between the other's calls
            json!([
                "7e0c9a52-4d1b-4f3e-8a6c-2b9d0e1f3a57/toolu_21Glob",
                parent,
                "/home/dev/agent-cpp",
                "Glob",
                "**/*checkpoint*",
                2,
                expected_by_parent
            ]),
            // after the compaction (its summary starts no turn), findbench through MCP
            json!([
                "7e0c9a52-4d1b-4f3e-8a6c-2b9d0e1f3a57/toolu_04Ask",
                "which test covers the find service?",
                "/home/dev/agent-cpp",
                "mcp__findbench__ask",
                "which test covers the find service",
                1,
                ["tests/find_service_test.cpp"]
            ]),
            // the other project, under its own directory
            json!([
                "0b5e8d21-9c3a-4e7f-b1d2-6a4c8e0f2d19/toolu_31Grep",
                "where are tasks parsed?",
                "/home/dev/todo-app",
                "Grep",
                "parse_task",
                1,
                ["src/tasks.rs"]
            ]),
        ]
    );
    assert_eq!(
        problems(&out),
        [
            format!("{SESSION}.jsonl:16: unknown_type"),
            format!("{SESSION}.jsonl:17: not_json"),
            format!("{SESSION}/subagents/agent-a1b2c3d.jsonl:6: not_json"),
        ]
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("2 files, 31 lines, 3 questions, 4 searches, 4 traces; 3 problems"),
        "{err}"
    );
}

#[test]
fn a_session_file_alone_brings_its_subagents_and_they_replay_over_the_fixture() {
    let dir = tempfile::tempdir().unwrap();
    let traces = dir.path().join("t.jsonl");
    let session = format!("{SESSION}.jsonl");
    let out = findbench(&[
        "import",
        "claude-code",
        &session,
        "--root",
        "corpora/fixtures/agent-cpp",
        "--out",
        traces.to_str().unwrap(),
    ]);
    assert_exit(&out, 0);
    let out = findbench(&[
        "replay",
        traces.to_str().unwrap(),
        "-f",
        "json",
        "--no-progress",
    ]);
    let doc = stdout_json(&out);
    assert_eq!(
        (doc["traces"].as_u64(), doc["bad_lines"].as_u64()),
        (Some(3), Some(0)),
        "{doc:#}"
    );
    assert_eq!(doc["summary"]["rank"]["judged"], 3, "{doc:#}");
    // the subagent's own file given alone is read as a session of its own
    let alone = findbench(&[
        "import",
        "claude-code",
        &format!("{SESSION}/subagents/agent-a1b2c3d.jsonl"),
    ]);
    assert_exit(&alone, 0);
    assert_eq!(lines(&alone).len(), 1);
    assert!(repo_root().join(SESSION).is_dir());
}
