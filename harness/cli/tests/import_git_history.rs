//! An agent log over a repository's history: the shipped Codex rollout
//! (`corpora/fixtures/agent-logs/codex/`, written to the format's public description) set
//! in a git repository this test builds from the agent-cpp fixture, its `session_meta`
//! naming the first commit. `import` pins the search to that commit, and `replay` judges it
//! on that commit's tree after the file the agent read was renamed on HEAD.

mod common;

use common::{assert_exit, findbench, git, repo_root, stdout_json};
use serde_json::{json, Value};
use std::path::Path;

const ROLLOUT: &str = "corpora/fixtures/agent-logs/codex/2025/09/12/rollout-2025-09-12T10-00-00-0199a3f2-7c41-7d12-b3e5-2f9c0a6d8e41.jsonl";
const READ: &str = "src/telemetry/trace_writer.cpp";

/// Copies the files under `from` into `to`.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

#[test]
fn a_rollout_pinned_to_a_commit_replays_on_that_commits_tree() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("agent-cpp");
    copy_tree(&repo_root().join("corpora/fixtures/agent-cpp"), &repo);
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "agent-cpp"]);
    let first = git(&repo, &["rev-parse", "HEAD"]);
    // HEAD moves on: the file the agent read is renamed
    git(&repo, &["mv", READ, "src/telemetry/writer.cpp"]);
    git(&repo, &["commit", "-q", "-m", "rename the writer"]);

    // the shipped rollout's first question, its session in this repository at `first`
    let shipped = std::fs::read_to_string(repo_root().join(ROLLOUT)).unwrap();
    let sessions = dir.path().join("sessions/2025/09/12");
    std::fs::create_dir_all(&sessions).unwrap();
    let rollout: Vec<String> = shipped
        .lines()
        .take(12)
        .map(|l| {
            l.replace("/home/dev/agent-cpp", repo.to_str().unwrap())
                .replace("4f2c9a1e8b7d6c5f4a3b2c1d0e9f8a7b6c5d4e3f", &first)
        })
        .collect();
    std::fs::write(
        sessions.join("rollout-2025-09-12T10-00-00-0199a3f2.jsonl"),
        rollout.join("\n") + "\n",
    )
    .unwrap();

    let traces = dir.path().join("traces.jsonl");
    let out = findbench(&[
        "import",
        "codex",
        dir.path().join("sessions").to_str().unwrap(),
        "--out",
        traces.to_str().unwrap(),
    ]);
    assert_exit(&out, 0);
    let lines: Vec<Value> = std::fs::read_to_string(&traces)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(
        lines[0]["fixture"],
        json!({"git": repo.to_str().unwrap(), "rev": first})
    );
    assert_eq!(lines[0]["expected"], json!([READ]));

    // judged on the first commit's tree, where the file read still has its name
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
        (Some(1), Some(0)),
        "{doc:#}"
    );
    assert_eq!(doc["summary"]["rank"]["judged"], 1, "{doc:#}");
    assert_eq!(doc["summary"]["rank"]["hit_at_k"], 1.0, "{doc:#}");
}
