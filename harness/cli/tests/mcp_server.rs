//! `findbench serve --mcp` driven by rmcp's own client over stdio: the tool list, every tool
//! answering with the CLI's document, tool errors that leave the server serving, the sandbox
//! (a secret file just outside the root is never read), and `--record` replayed.

mod common;

use common::{assert_exit, assert_schema, findbench, repo_root, stdout_json};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Stdio;

type Client = RunningService<RoleClient, ()>;

async fn start(dir: &Path, args: &[&str]) -> Client {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_findbench"));
    cmd.arg("serve").arg("--mcp").args(args).current_dir(dir);
    let (transport, _) = TokioChildProcess::builder(cmd)
        .stderr(Stdio::null())
        .spawn()
        .expect("server starts");
    ().serve(transport).await.expect("MCP initialisation")
}

async fn call(client: &Client, tool: &str, args: Value) -> CallToolResult {
    let Value::Object(map) = args else {
        panic!("arguments must be an object")
    };
    client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(map))
        .await
        .unwrap_or_else(|e| panic!("{tool}: protocol error {e}"))
}

fn document(result: &CallToolResult) -> Value {
    result
        .structured_content
        .clone()
        .expect("the result carries the document as structured content")
}

/// The document without what differs from run to run: times and durations.
fn untimed(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                map.remove("timestamp");
                map.remove("duration_ms");
                map.values_mut().for_each(strip);
            }
            Value::Array(list) => list.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

const AGENT_CPP: &str = "corpora/fixtures/agent-cpp";
const TODO: &str = "corpora/fixtures/todo.json";
const OUTLINE: &str = "corpora/fixtures/outline.json";
const LIFE: &str = "corpora/fixtures/life.json";

/// Each tool with its arguments, and the command line that asks the same.
fn same_questions() -> Vec<(&'static str, Value, Vec<&'static str>)> {
    vec![
        (
            "find_task",
            json!({"query": "auth midleware", "store": TODO}),
            vec!["find", "task", "auth midleware", "--store", TODO],
        ),
        (
            "find_name",
            json!({"query": "half marathon", "domain": "goals", "store": LIFE}),
            vec![
                "find",
                "name",
                "half marathon",
                "--domain",
                "goals",
                "--store",
                LIFE,
            ],
        ),
        (
            "find_outline",
            json!({"query": "token", "store": OUTLINE}),
            vec!["find", "outline", "token", "--store", OUTLINE],
        ),
        (
            "get_item",
            json!({"id": "ENG-3", "children": true, "store": OUTLINE}),
            vec!["get", "ENG-3", "--children", "--store", OUTLINE],
        ),
        (
            "find_code",
            json!({"term": "CommandRouter", "impl": true}),
            vec![
                "find",
                "code",
                "CommandRouter",
                "--impl",
                "--root",
                AGENT_CPP,
            ],
        ),
        (
            "find_path",
            json!({"query": "authmidlware", "limit": 3}),
            vec![
                "find",
                "path",
                "authmidlware",
                "-n",
                "3",
                "--root",
                AGENT_CPP,
            ],
        ),
        (
            "grep",
            json!({"term": "cursor binary"}),
            vec!["grep", "cursor binary", "--root", AGENT_CPP],
        ),
        (
            "ask",
            json!({"question": "where is replay implemented"}),
            vec!["ask", "where is replay implemented", "--root", AGENT_CPP],
        ),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_tool_answers_with_the_cli_document_and_bad_calls_are_tool_errors() {
    let root = repo_root();
    let client = start(
        &root,
        &[
            "--root", AGENT_CPP, "--store", TODO, "--store", OUTLINE, "--store", LIFE,
        ],
    )
    .await;

    let tools = client.list_all_tools().await.unwrap();
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "ask",
            "find_code",
            "find_name",
            "find_outline",
            "find_path",
            "find_task",
            "get_item",
            "grep"
        ]
    );
    for tool in &tools {
        assert_eq!(tool.input_schema["type"], "object", "{}", tool.name);
        assert!(tool.description.as_deref().is_some_and(|d| !d.is_empty()));
    }
    let code = tools.iter().find(|t| t.name == "find_code").unwrap();
    assert_eq!(code.input_schema["required"], json!(["term"]));

    for (tool, args, argv) in same_questions() {
        let result = call(&client, tool, args).await;
        assert_eq!(result.is_error, Some(false), "{tool}: {result:?}");
        let mut cli_args = argv.clone();
        cli_args.extend(["-f", "json"]);
        let out = findbench(&cli_args);
        let cli = stdout_json(&out);
        assert_eq!(
            untimed(document(&result)),
            untimed(cli),
            "{tool}: the server's document differs from `findbench {}`",
            argv.join(" ")
        );
    }

    // a malformed call is a tool error with the envelope's code, message and hint ...
    let bad = call(&client, "find_code", json!({"term": 42})).await;
    assert_eq!(bad.is_error, Some(true));
    let doc = document(&bad);
    assert_eq!(doc["success"], false);
    assert_eq!(doc["error"]["code"], "E_INVALID_INPUT");
    assert_eq!(doc["error"]["exit_code"], 2);
    assert!(doc["error"]["message"]
        .as_str()
        .unwrap()
        .contains("find_code"));
    assert!(doc["error"]["hint"].is_string());
    // an engine check worded for the command line names the tool's argument instead
    let zero = document(&call(&client, "find_task", json!({"query": "x", "limit": 0})).await);
    assert_eq!(zero["error"]["message"], "`limit` must be at least 1");
    assert!(
        !zero["error"]["hint"].as_str().unwrap().contains("--"),
        "{zero}"
    );
    let unknown = call(&client, "find_everything", json!({})).await;
    assert_eq!(unknown.is_error, Some(true));
    assert!(document(&unknown)["error"]["hint"]
        .as_str()
        .unwrap()
        .contains("find_task"));
    let missing = call(
        &client,
        "find_task",
        json!({"query": "x", "store": "corpora/fixtures/none.json"}),
    )
    .await;
    assert_eq!(missing.is_error, Some(true));
    // ... and the next call still works
    let good = call(&client, "ask", json!({"question": "find cursor binary"})).await;
    assert_eq!(good.is_error, Some(false));
    assert_eq!(document(&good)["outcome"], "success");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_reads_nothing_outside_its_roots() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("project");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/lib.rs"), "pub fn visible() {}\n").unwrap();
    std::fs::write(
        root.join("todo.json"),
        r#"{"tasks": [{"id": "T1", "title": "inside"}]}"#,
    )
    .unwrap();
    // the secret: just outside the root, as a tree, a store and a path list would name it
    let secret = dir.path().join("secret.json");
    let token = "TOKEN_8f1c2";
    std::fs::write(
        &secret,
        format!(r#"{{"tasks": [{{"id": "S1", "title": "{token}"}}]}}"#),
    )
    .unwrap();
    std::fs::create_dir_all(dir.path().join("outside")).unwrap();
    std::fs::write(dir.path().join("outside/leak.rs"), format!("// {token}\n")).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&secret, root.join("src/link.json")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("outside"), root.join("escape")).unwrap();
    }
    let client = start(&root, &["--root", ".", "--store", "todo.json"]).await;

    let refused = [
        ("grep", json!({"term": token, "root": ".."})),
        ("grep", json!({"term": token, "root": "src/../../outside"})),
        (
            "find_code",
            json!({"term": "leak", "root": dir.path().join("outside")}),
        ),
        (
            "find_task",
            json!({"query": token, "store": "../secret.json"}),
        ),
        ("find_task", json!({"query": token, "store": secret})),
        (
            "find_path",
            json!({"query": "secret", "paths_from": "../secret.json"}),
        ),
        (
            "find_code",
            json!({"term": "x", "profile": "../secret.json"}),
        ),
        #[cfg(unix)]
        (
            "find_task",
            json!({"query": token, "store": "src/link.json"}),
        ),
        #[cfg(unix)]
        ("grep", json!({"term": token, "root": "escape"})),
    ];
    for (tool, args) in refused {
        let result = call(&client, tool, args.clone()).await;
        assert_eq!(result.is_error, Some(true), "{tool} {args}: {result:?}");
        let doc = document(&result);
        let text = doc.to_string();
        assert!(!text.contains(&format!("\"title\":\"{token}")), "{text}");
        assert_eq!(
            doc["error"]["code"], "E_INVALID_INPUT",
            "{tool} {args}: {text}"
        );
        assert!(
            doc["error"]["message"]
                .as_str()
                .unwrap()
                .contains("outside"),
            "{tool} {args}: {text}"
        );
    }
    // inside the root all is well, and the walk never follows a link out
    let inside = call(&client, "grep", json!({"term": token})).await;
    assert_eq!(inside.is_error, Some(false));
    assert_eq!(
        document(&inside)["summary"]["total_matches"],
        0,
        "{:?}",
        document(&inside)
    );
    let task = call(&client, "find_task", json!({"query": "inside"})).await;
    assert_eq!(document(&task)["matches"][0]["id"], "T1");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_recorded_calls_replay_to_the_same_outcomes() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("record");
    let fixtures = repo_root().join("corpora/fixtures");
    let fixtures_arg = fixtures.to_str().unwrap();
    let client = start(
        &repo_root(),
        &[
            "--root",
            AGENT_CPP,
            "--store",
            TODO,
            "--store",
            OUTLINE,
            "--store",
            LIFE,
            "--record",
            record.to_str().unwrap(),
            "--fixtures",
            fixtures_arg,
        ],
    )
    .await;
    let questions = same_questions();
    let extra: Vec<(&str, Value)> = vec![
        (
            "ask",
            json!({"question": "where is kubernetes autoscaler implemented"}),
        ),
        ("find_task", json!({"query": "zzqx nothing", "store": TODO})),
        ("find_code", json!({"term": 7})),
        ("grep", json!({"term": "x", "root": ".."})),
        ("find_path", json!({"query": "evidencegate"})),
    ];
    let mut expected = std::collections::BTreeMap::new();
    for i in 0..1000 {
        let (tool, args) = if i % 13 < 8 {
            let (tool, args, _) = &questions[i % 13];
            (*tool, args.clone())
        } else {
            extra[i % 13 - 8].clone()
        };
        let result = call(&client, tool, args).await;
        let doc = document(&result);
        let outcome = if result.is_error == Some(true) {
            "failure"
        } else {
            match (doc.get("outcome").and_then(Value::as_str), tool) {
                (Some(o), "ask") => o,
                _ if doc["fuzzy_match_quality"] == "weak" => "insufficient_evidence",
                _ if doc["matches"]
                    .as_array()
                    .or(doc["results"].as_array())
                    .is_some_and(|m| !m.is_empty())
                    || doc["item"].is_object() =>
                {
                    "success"
                }
                _ => "insufficient_evidence",
            }
        };
        *expected.entry(outcome.to_string()).or_insert(0usize) += 1;
    }
    client.cancel().await.unwrap();

    // every line is whole, one per call
    let mut lines = 0;
    for entry in std::fs::read_dir(&record).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        assert!(
            name.starts_with("findbench-") && name.ends_with(".jsonl"),
            "{name}"
        );
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            assert!(v["call"]["tool"].is_string());
            if lines < 13 {
                assert_schema("trace.schema.json", &v);
            }
            lines += 1;
        }
    }
    assert_eq!(lines, 1000);

    let out_dir = dir.path().join("replayed");
    let out = findbench(&[
        "replay",
        record.to_str().unwrap(),
        "--fixtures",
        fixtures_arg,
        "--out",
        out_dir.to_str().unwrap(),
        "-f",
        "json",
    ]);
    assert_exit(&out, 0);
    let summary = &stdout_json(&out)["summary"];
    assert_eq!(summary["total"], 1000);
    assert_eq!(summary["bad_lines"], 0);
    let cases = common::results_cases(&out_dir);
    assert_eq!(cases.len(), 1000);
    for case in &cases {
        assert_eq!(case["recorded_outcome"], case["outcome"], "{case:#}");
    }
    let mut recorded = std::collections::BTreeMap::new();
    for case in &cases {
        *recorded
            .entry(case["recorded_outcome"].as_str().unwrap().to_string())
            .or_insert(0usize) += 1;
    }
    assert_eq!(
        recorded, expected,
        "what the client saw is what was recorded"
    );
    assert_eq!(summary["transitions"]["unchanged"], 1000);
}
