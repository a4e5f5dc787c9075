//! `findbench serve --mcp` on raw stdio, as a careless client drives it: a line that is not
//! JSON gets a JSON-RPC parse error (and the session goes on), a call or a notification
//! before `initialize` does not end the server, and closing stdin ends it even while a
//! call is stuck reading.

mod common;

use common::repo_root;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// Long enough for a loaded machine; a server that misbehaves waits for it in vain.
const PATIENCE: Duration = Duration::from_secs(60);

struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_findbench"))
            .args(["serve", "--mcp"])
            .args(args)
            .current_dir(repo_root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Server {
            stdin: child.stdin.take(),
            child,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(line.as_bytes());
    }

    fn send_bytes(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    fn answer(&self) -> Value {
        let line = self
            .lines
            .recv_timeout(PATIENCE)
            .expect("the server answers");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    }

    fn initialize(&mut self, id: u64) {
        self.send(
            &json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "raw", "version": "1"}}})
            .to_string(),
        );
        let init = self.answer();
        assert_eq!(init["id"], id, "{init}");
        assert!(init["result"]["serverInfo"].is_object(), "{init}");
        self.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    }

    fn call(&mut self, id: u64, tool: &str, arguments: Value) {
        self.send(
            &json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                    "params": {"name": tool, "arguments": arguments}})
            .to_string(),
        );
    }

    /// Closes stdin and waits for the process to end: its exit code, or `None` when it
    /// did not end in time (then it is killed).
    fn close(mut self) -> Option<i32> {
        drop(self.stdin.take());
        let deadline = std::time::Instant::now() + PATIENCE;
        while std::time::Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        None
    }
}

const AGENT_CPP: &str = "corpora/fixtures/agent-cpp";

#[test]
fn a_line_that_is_not_json_gets_a_parse_error_and_the_session_goes_on() {
    let mut server = Server::start(&["--root", AGENT_CPP]);
    server.send("this is not json");
    let error = server.answer();
    assert_eq!(error["jsonrpc"], "2.0");
    assert_eq!(error["id"], Value::Null, "{error}");
    assert_eq!(error["error"]["code"], -32700, "{error}");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("Parse error"),
        "{error}"
    );
    server.initialize(1);
    // half a message, then bytes that are not UTF-8
    server.send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/ca"#);
    assert_eq!(server.answer()["error"]["code"], -32700);
    server.send_bytes(b"\xff\xfe{]");
    assert_eq!(server.answer()["error"]["code"], -32700);
    server.call(3, "find_code", json!({"term": "CommandRouter"}));
    let answer = server.answer();
    assert_eq!(answer["id"], 3, "{answer}");
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert_eq!(server.close(), Some(0));
}

#[test]
fn a_call_or_a_notification_before_initialize_does_not_end_the_server() {
    let mut server = Server::start(&["--root", AGENT_CPP]);
    server.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    server.call(7, "grep", json!({"term": "cursor"}));
    let refused = server.answer();
    assert_eq!(refused["id"], 7, "{refused}");
    assert!(
        refused["error"]["code"].is_i64(),
        "an error answer: {refused}"
    );
    server.initialize(8);
    server.call(9, "grep", json!({"term": "cursor"}));
    let answer = server.answer();
    assert_eq!(answer["id"], 9, "{answer}");
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert_eq!(server.close(), Some(0));
}

#[cfg(unix)]
#[test]
fn closing_stdin_ends_the_server_while_a_call_is_stuck() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "a\n").unwrap();
    // a path list that is a FIFO nobody writes: reading it never ends
    let fifo = dir.path().join("stuck.txt");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: no mkfifo");
        return;
    }
    let mut server = Server::start(&["--root", dir.path().to_str().unwrap()]);
    server.initialize(1);
    server.call(
        2,
        "find_path",
        json!({"query": "a", "paths_from": fifo.to_str().unwrap()}),
    );
    // the call is on its blocking thread now (or about to be): close stdin under it
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        server.close(),
        Some(0),
        "the server ends when its stdin closes"
    );
}
