//! A bad number says what the option takes, whichever door it came through: the command
//! line (a usage error, exit 2), a corpus case's `args` (file, line, case) and an MCP tool
//! call (a tool error), in the same words: "--limit takes a whole number of 1 or more".

mod common;

use common::{assert_exit, findbench, findbench_in, repo_root, stdout_json};
use serde_json::json;

const TODO: &str = "corpora/fixtures/todo.json";
const OUTLINE: &str = "corpora/fixtures/outline.json";
const TREE: &str = "corpora/fixtures/agent-cpp";

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_bad_number_on_the_command_line_says_what_the_option_takes() {
    let cases: [(&[&str], &str); 10] = [
        (
            &["find", "task", "x", "--limit", "-1", "--store", TODO],
            "--limit takes a whole number of 1 or more; got `-1`",
        ),
        (
            &["find", "task", "x", "--limit", "ten", "--store", TODO],
            "--limit takes a whole number of 1 or more; got `ten`",
        ),
        (
            &["find", "name", "x", "-n", "2.5", "--store", TODO],
            "--limit takes a whole number of 1 or more; got `2.5`",
        ),
        (
            &[
                "find", "outline", "x", "--limit", "many", "--store", OUTLINE,
            ],
            "--limit takes a whole number of 1 or more; got `many`",
        ),
        (
            &["find", "code", "x", "--limit", "-5", "--root", TREE],
            "--limit takes a whole number of 1 or more; got `-5`",
        ),
        (
            &["grep", "x", "--limit", "ten", "--root", TREE],
            "--limit takes a whole number of 1 or more; got `ten`",
        ),
        (
            &["ask", "where is x", "--limit", "-1", "--root", TREE],
            "--limit takes a whole number of 1 or more; got `-1`",
        ),
        (
            &["get", "ENG-3", "--depth", "-3", "--store", OUTLINE],
            "--depth takes a whole number of 0 or more; got `-3`",
        ),
        (
            &["clusters", "traces/", "--min", "-1"],
            "--min takes a whole number of 0 or more; got `-1`",
        ),
        (
            &["find", "task", "x", "--threshold", "high", "--store", TODO],
            "--threshold takes a number; got `high`",
        ),
    ];
    for (args, want) in cases {
        let out = findbench(args);
        assert_exit(&out, 2);
        let err = stderr(&out);
        assert!(
            err.starts_with(&format!("error: {want}\n")),
            "{args:?}: want {want:?}, got:\n{err}"
        );
        assert!(!err.contains("invalid digit"), "{err}");
        // asked for JSON, the same words are the error envelope's message
        let mut json_args = args.to_vec();
        json_args.extend(["-f", "json"]);
        let out = findbench(&json_args);
        assert_exit(&out, 2);
        let doc = stdout_json(&out);
        assert_eq!(doc["error"]["message"], want, "{args:?}");
        assert_eq!(doc["error"]["exit_code"], 2);
    }
    // a good number still runs, and 0 is the engine's to reject, naming the default
    assert_exit(
        &findbench(&["get", "ENG-3", "--depth", "0", "--store", OUTLINE]),
        0,
    );
    let out = findbench(&[
        "find", "task", "auth", "--limit", "0", "--store", TODO, "-f", "text",
    ]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("--limit must be at least 1"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_bad_number_in_a_corpus_names_the_file_line_case_and_what_the_arg_takes() {
    let dir = tempfile::tempdir().unwrap();
    let store = repo_root().join(TODO);
    let corpus = format!(
        "suite: s\nfixture: {{store: {}}}\ncases:\n  - id: a\n    query: auth\n    mode: task\n    args: {{limit: ten}}\n    expect: {{top: T002}}\n",
        store.display()
    );
    std::fs::write(dir.path().join("c.yaml"), &corpus).unwrap();
    let out = findbench_in(
        dir.path(),
        &["run", "c.yaml", "--out", "out", "--no-progress"],
    );
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains(
            "c.yaml:7: case `a`: arg `limit` of mode `task` takes a whole number of 1 or more; got the string \"ten\""
        ),
        "{}",
        stderr(&out)
    );
    let corpus = corpus
        .replace("mode: task", "mode: get")
        .replace("limit: ten", "depth: -3");
    std::fs::write(dir.path().join("c.yaml"), &corpus).unwrap();
    let out = findbench_in(
        dir.path(),
        &["run", "c.yaml", "--out", "out", "--no-progress"],
    );
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains(
            "c.yaml:7: case `a`: arg `depth` of mode `get` takes a whole number of 0 or more; got `-3`"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_bad_number_in_an_mcp_call_is_a_tool_error_saying_what_the_argument_takes() {
    let root = repo_root();
    let sandbox = findbench_mcp::Sandbox::new(&[root.join(TREE)], &[root.join(TODO)], &[]).unwrap();
    let service = findbench_mcp::Service::new(sandbox, None);
    for (tool, args, want) in [
        (
            "find_task",
            json!({"query": "auth", "limit": -1}),
            "tool `find_task`: argument `limit` takes a whole number of 1 or more; got `-1`",
        ),
        (
            "grep",
            json!({"term": "x", "limit": "ten"}),
            "tool `grep`: argument `limit` takes a whole number of 1 or more; got the string \"ten\"",
        ),
        (
            "get_item",
            json!({"id": "T1", "depth": -3}),
            "tool `get_item`: argument `depth` takes a whole number of 0 or more; got `-3`",
        ),
    ] {
        let out = service.call(tool, &args);
        assert!(out.is_error, "{tool}: {}", out.document);
        assert_eq!(out.document["error"]["message"], want);
        assert_eq!(out.document["error"]["exit_code"], 2);
    }
}
