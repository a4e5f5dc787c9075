//! The agent's side of a replay counts what it read to reach the expected file: an imported
//! Claude Code turn that greps, reads two wrong files, then the right one, costs the agent
//! the grep's output and the three reads, not the grep's output alone; and the replay says
//! it replayed against the tree the traces name.

mod common;

use common::{assert_exit, findbench};
use serde_json::{json, Value};
use std::path::Path;

const CWD: &str = "/home/dev/agent-cpp";
const RIGHT: &str = "src/services/replay_service.cpp";
const QUESTION: &str = "where is replay implemented";

/// One Claude Code transcript line.
fn entry(kind: &str, n: u32, message: Value) -> String {
    json!({
        "type": kind, "sessionId": "s1", "cwd": CWD, "isSidechain": false,
        "uuid": format!("u{n}"), "timestamp": format!("2025-06-10T09:00:{n:02}.000Z"),
        "message": message,
    })
    .to_string()
}

fn tool_use(n: u32, id: &str, name: &str, input: Value) -> String {
    entry(
        "assistant",
        n,
        json!({"role": "assistant",
               "content": [{"type": "tool_use", "id": id, "name": name, "input": input}]}),
    )
}

fn tool_result(n: u32, id: &str, content: &str, is_error: bool) -> String {
    entry(
        "user",
        n,
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id,
                                            "content": content, "is_error": is_error}]}),
    )
}

/// The turn: a grep, reads of `wrong` (each with its output and whether it failed), then
/// the read of [`RIGHT`]. Returns the transcript and the bytes of each call's output.
fn turn(wrong: &[(&str, &str, bool)]) -> (String, Vec<usize>) {
    let grep = format!("Found 3 files\n{CWD}/src/app/command_router.cpp\n{CWD}/{RIGHT}\n");
    let right = "     1\t#include \"services/replay_service.h\"\n     2\tvoid replay() {}\n";
    let mut lines = vec![
        entry("user", 0, json!({"role": "user", "content": QUESTION})),
        tool_use(1, "g1", "Grep", json!({"pattern": "replay"})),
        tool_result(2, "g1", &grep, false),
    ];
    let mut sizes = vec![grep.len()];
    let mut n = 3;
    for (i, (path, output, failed)) in wrong.iter().enumerate() {
        let id = format!("r{i}");
        lines.push(tool_use(n, &id, "Read", json!({"file_path": path})));
        lines.push(tool_result(n + 1, &id, output, *failed));
        sizes.push(output.len());
        n += 2;
    }
    lines.push(tool_use(
        n,
        "r9",
        "Read",
        json!({"file_path": format!("{CWD}/{RIGHT}")}),
    ));
    lines.push(tool_result(n + 1, "r9", right, false));
    sizes.push(right.len());
    (lines.join("\n"), sizes)
}

fn import(dir: &Path, log: &str) -> Vec<Value> {
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    std::fs::write(logs.join("s1.jsonl"), log).unwrap();
    let out = findbench(&[
        "import",
        "claude-code",
        logs.to_str().unwrap(),
        "--root",
        "corpora/fixtures/agent-cpp",
    ]);
    assert_exit(&out, 0);
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The replay's summary and its one case, from `traces`.
fn replay(dir: &Path, traces: &[Value]) -> (Value, Value) {
    let file = dir.join("traces.jsonl");
    let lines: Vec<String> = traces.iter().map(Value::to_string).collect();
    std::fs::write(&file, lines.join("\n")).unwrap();
    let out_dir = dir.join("replay");
    let out = findbench(&[
        "replay",
        file.to_str().unwrap(),
        "--no-progress",
        "-q",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_exit(&out, 0);
    let results: Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("results.json")).unwrap())
            .unwrap();
    let cases = std::fs::read_to_string(out_dir.join("cases.jsonl")).unwrap();
    let case: Value = serde_json::from_str(cases.lines().next().unwrap()).unwrap();
    (results["summary"].clone(), case)
}

#[test]
fn the_agent_is_charged_the_reads_that_reached_the_expected_file() {
    let dir = tempfile::tempdir().unwrap();
    // two wrong files of the tree, then the right one
    let (log, sizes) = turn(&[
        (
            "/home/dev/agent-cpp/src/app/command_router.cpp",
            "     1\tvoid route() {}\n     2\t// dispatches every command\n",
            false,
        ),
        (
            "/home/dev/agent-cpp/src/services/find_service.cpp",
            "     1\tvoid find() {}\n",
            false,
        ),
    ]);
    let mut traces = import(dir.path(), &log);
    assert_eq!(traces.len(), 1);
    let t = &mut traces[0];
    assert_eq!(t["tools"][0]["output_bytes"], sizes[0]);
    assert_eq!(
        t["later_calls"],
        json!([
            {"kind": "read", "path": "src/app/command_router.cpp", "output_bytes": sizes[1]},
            {"kind": "read", "path": "src/services/find_service.cpp", "output_bytes": sizes[2]},
            {"kind": "read", "path": RIGHT, "output_bytes": sizes[3]},
        ])
    );
    // as imported, every file read after the grep is expected: the first read reached one
    let (summary, case) = replay(dir.path(), &traces);
    assert_eq!(case["recorded_first_hit_bytes"], sizes[0] + sizes[1]);
    assert_eq!(case["recorded_output_bytes"], sizes.iter().sum::<usize>());
    assert_eq!(summary["rank"]["recorded"]["judged"], 1);
    // the header names the tree the traces are pinned to, not --fixtures
    let text = findbench(&[
        "replay",
        dir.path().join("traces.jsonl").to_str().unwrap(),
        "-f",
        "text",
        "--no-progress",
    ]);
    let header = String::from_utf8_lossy(&text.stdout);
    let header = header.lines().next().unwrap_or_default();
    assert!(
        header.contains("fixtures/agent-cpp with profile"),
        "{header}"
    );
    // judged by a person who names only the right file: the grep and the three reads
    traces[0]["expected"] = json!([RIGHT]);
    let (_, case) = replay(dir.path(), &traces);
    assert_eq!(
        case["recorded_first_hit_bytes"],
        sizes.iter().sum::<usize>()
    );

    // a file outside the tree and a path that does not exist are not expected as
    // imported, but the agent read them on its way
    let dir = tempfile::tempdir().unwrap();
    let (log, sizes) = turn(&[
        (
            "/usr/include/stdio.h",
            "     1\t#ifndef _STDIO_H\n     2\t#define _STDIO_H 1\n",
            false,
        ),
        (
            "/home/dev/agent-cpp/src/replay.cpp",
            "File does not exist.",
            true,
        ),
    ]);
    let traces = import(dir.path(), &log);
    assert_eq!(traces[0]["expected"], json!([RIGHT]));
    let (summary, case) = replay(dir.path(), &traces);
    assert_eq!(
        case["recorded_first_hit_bytes"],
        sizes.iter().sum::<usize>()
    );
    // within 1 KB: the agent's recall at 1 KB counts the case
    assert!(sizes.iter().sum::<usize>() < 1024);
    assert_eq!(summary["rank"]["recorded"]["recall_at_1kb"], 1.0);
}
