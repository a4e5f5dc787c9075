//! Recording any repository: calls the MCP server answers on a git work tree outside
//! `--fixtures` are pinned to the repository and its HEAD commit (`{git, rev}`), so
//! `findbench replay` reproduces them from anywhere, later commits notwithstanding; an
//! uncommitted edit is recorded as `dirty` and counted in the replay's reports; `--map`
//! reads a recording on another checkout.

mod common;

use common::{assert_exit, findbench_in, git, repo_root, results_cases, stdout_json};
use findbench_mcp::{build_service, ServeOptions};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A small repository with one commit.
fn repository(dir: &Path) -> PathBuf {
    let repo = dir.join("project");
    std::fs::create_dir_all(repo.join("src/replay")).unwrap();
    std::fs::write(
        repo.join("src/replay/replay_service.cpp"),
        "// replays recorded sessions\nclass ReplayService { void run(); };\n",
    )
    .unwrap();
    std::fs::write(
        repo.join("src/cursor_binary.py"),
        "def cursor_binary_marker():\n    return 'the cursor binary'\n",
    )
    .unwrap();
    std::fs::write(repo.join("README.md"), "Project notes.\n").unwrap();
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "first"]);
    repo.canonicalize().unwrap()
}

/// The calls an agent makes, recorded through the server's call path.
fn record(repo: &Path, record: &Path, calls: &[(&str, Value)]) {
    let service = build_service(&ServeOptions {
        roots: vec![repo.to_path_buf()],
        record: Some(record.to_path_buf()),
        fixtures_base: Some(repo_root().join("corpora/fixtures")),
        ..ServeOptions::default()
    })
    .expect("the service starts");
    for (tool, args) in calls {
        let out = service.call(tool, args);
        assert!(!out.is_error, "{tool}: {}", out.document);
    }
}

fn recorded_lines(record: &Path) -> Vec<Value> {
    let mut lines = Vec::new();
    for entry in std::fs::read_dir(record).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        lines.extend(
            text.lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap()),
        );
    }
    lines
}

fn replay(cwd: &Path, args: &[&str]) -> (Value, Vec<Value>, std::process::Output) {
    let out_dir = cwd.join(format!("out-{}", args.len()));
    let _ = std::fs::remove_dir_all(&out_dir);
    let mut argv = vec!["replay"];
    argv.extend_from_slice(args);
    argv.extend_from_slice(&["--out", out_dir.to_str().unwrap(), "-f", "json"]);
    let out = findbench_in(cwd, &argv);
    if out.status.code() != Some(0) {
        return (Value::Null, Vec::new(), out);
    }
    let cases = results_cases(&out_dir);
    (stdout_json(&out)["summary"].clone(), cases, out)
}

const CALLS: &[(&str, &str)] = &[
    ("ask", "where is replay implemented"),
    ("ask", "find cursor binary"),
    ("grep", "cursor binary"),
];

fn calls() -> Vec<(&'static str, Value)> {
    CALLS
        .iter()
        .map(|(tool, q)| match *tool {
            "ask" => (*tool, json!({"question": q})),
            _ => (*tool, json!({"term": q})),
        })
        .chain([("find_code", json!({"term": "ReplayService", "impl": true}))])
        .collect()
}

#[test]
fn a_recording_on_any_repository_replays_its_commit_from_anywhere() {
    let dir = tempfile::tempdir().unwrap();
    let repo = repository(dir.path());
    let head = git(&repo, &["rev-parse", "HEAD"]);
    let rec = dir.path().join("rec");
    record(&repo, &rec, &calls());

    let lines = recorded_lines(&rec);
    assert_eq!(lines.len(), 4);
    for line in &lines {
        common::assert_schema("trace.schema.json", line);
        assert_eq!(
            line["fixture"],
            json!({"git": repo.display().to_string(), "rev": head}),
            "a call on a clean work tree is pinned to its commit"
        );
    }

    // from another directory, with no flag: every case as recorded
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let (summary, cases, out) = replay(&elsewhere, &[rec.to_str().unwrap()]);
    assert_exit(&out, 0);
    assert_eq!(summary["total"], 4);
    assert_eq!(summary["transitions"]["unchanged"], 4, "{summary:#}");
    assert_eq!(summary["outcomes"]["success"], 4, "{summary:#}");
    assert!(summary.get("dirty_traces").is_none());
    let answers: Vec<Value> = cases.iter().map(|c| c["ranked"].clone()).collect();

    // the work tree moves on: the replayed file goes, in a new commit
    std::fs::remove_file(repo.join("src/cursor_binary.py")).unwrap();
    std::fs::remove_dir_all(repo.join("src/replay")).unwrap();
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "second"]);
    let (summary, cases, out) = replay(&elsewhere, &[rec.to_str().unwrap()]);
    assert_exit(&out, 0);
    assert_eq!(summary["transitions"]["unchanged"], 4, "{summary:#}");
    let again: Vec<Value> = cases.iter().map(|c| c["ranked"].clone()).collect();
    assert_eq!(again, answers, "the pinned commit is what replays");
    // while the work tree as it is now no longer answers
    let (summary, _, out) = replay(
        &elsewhere,
        &[rec.to_str().unwrap(), "--root", repo.to_str().unwrap()],
    );
    assert_exit(&out, 0);
    assert_eq!(summary["transitions"]["regressed"], 4, "{summary:#}");

    // another checkout of the same repository, the recorded one gone: --map points at it
    let clone = dir.path().join("clone");
    git(
        dir.path(),
        &[
            "clone",
            "-q",
            repo.to_str().unwrap(),
            clone.to_str().unwrap(),
        ],
    );
    let moved = dir.path().join("project-moved");
    std::fs::rename(&repo, &moved).unwrap();
    let cache = dir.path().join("cache");
    let isolated = |args: &[&str]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_findbench"));
        cmd.arg("replay")
            .args(args)
            .args(["-f", "json"])
            .current_dir(&elsewhere)
            // a cache of its own: the commit's tree is materialized anew from the checkout
            .env("FINDBENCH_CACHE", &cache);
        cmd.output().unwrap()
    };
    let out = isolated(&[rec.to_str().unwrap()]);
    assert_exit(&out, 3);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("--map"),
        "the error says how to point elsewhere: {out:?}"
    );
    let map = format!("{}={}", repo.display(), clone.display());
    let out = isolated(&[rec.to_str().unwrap(), "--map", &map]);
    assert_exit(&out, 0);
    assert_eq!(stdout_json(&out)["summary"]["transitions"]["unchanged"], 4);
}

#[test]
fn calls_on_a_dirty_work_tree_are_marked_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let repo = repository(dir.path());
    // a subdirectory root is pinned by its path inside the commit
    let sub = repo.join("src");
    std::fs::write(sub.join("notes.txt"), "uncommitted cursor binary notes\n").unwrap();
    let rec = dir.path().join("rec");
    record(
        &sub,
        &rec,
        &[("ask", json!({"question": "find cursor binary"}))],
    );
    let lines = recorded_lines(&rec);
    assert_eq!(lines[0]["fixture"]["path"], "src");
    assert_eq!(lines[0]["fixture"]["dirty"], true);
    common::assert_schema("trace.schema.json", &lines[0]);

    let out_dir = dir.path().join("out");
    let out = findbench_in(
        dir.path(),
        &[
            "replay",
            rec.to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
            "-f",
            "text",
        ],
    );
    assert_exit(&out, 0);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("1 trace was recorded on a work tree with uncommitted changes"),
        "{text}"
    );
    let md = std::fs::read_to_string(out_dir.join("summary.md")).unwrap();
    assert!(md.contains("uncommitted changes"), "{md}");
    let results: Value =
        serde_json::from_slice(&std::fs::read(out_dir.join("results.json")).unwrap()).unwrap();
    assert_eq!(results["summary"]["dirty_traces"], 1);
    common::assert_schema("results.schema.json", &results);
}
