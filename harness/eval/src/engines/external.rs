//! Runs one case through an external tool: the command built from the mode's templates,
//! spawned without a shell (unless the engine file declared one), killed with its whole
//! process group at the timeout, its standard output read up to a bound, and its answer
//! parsed. Whatever the tool does (crash, hang, print garbage, not exist) becomes a failed
//! case with a reason; it never stops the run or touches another case.

use super::command::{Answer, ExternalEngine, ModeCommand};
use super::template::Placeholder;
use crate::case::{Call, CaseResult};
use crate::corpus::Case;
use crate::envelope;
use crate::json_kind::json_kind;
use findbench_engine::Outcome;
use serde_json::Value;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Bytes of standard error kept for a failure's reason (its end).
const STDERR_TAIL_BYTES: usize = 2048;
/// How long the output of a tool that exited (or was killed) may still take to arrive, when
/// a process it started outside its group holds the pipe open.
const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// The files a case's placeholders point at, absolute.
#[derive(Debug, Clone, Default)]
pub struct FixturePaths {
    pub root: Option<PathBuf>,
    pub store: Option<PathBuf>,
    /// A path list: the fixture's own, or a listing of the tree written for the run.
    pub paths: Option<PathBuf>,
}

/// How a tool's process ended.
#[derive(Debug)]
pub enum Exit {
    Status(ExitStatus),
    /// Killed at the timeout.
    TimedOut,
    /// Could not be started (not installed, not executable, bad cwd).
    NotStarted(String),
}

/// One run of a tool.
#[derive(Debug)]
pub struct ToolRun {
    pub exit: Exit,
    /// Standard output, up to the bound.
    pub stdout: Vec<u8>,
    /// Bytes the tool wrote to standard output, all of them.
    pub stdout_bytes: u64,
    pub truncated: bool,
    /// The end of standard error.
    pub stderr_tail: String,
    /// Spawn to the end of its output.
    pub elapsed: Duration,
}

/// Runs `argv` (in `cwd`, `stdin` fed from a file), killing its process group after
/// `timeout`; reads at most `max_output` bytes of standard output (and drains the rest).
pub fn execute(
    argv: &[String],
    cwd: Option<&Path>,
    stdin: Option<&Path>,
    timeout: Duration,
    max_output: u64,
) -> ToolRun {
    let clock = Instant::now();
    let not_started = |message: String| ToolRun {
        exit: Exit::NotStarted(message),
        stdout: Vec::new(),
        stdout_bytes: 0,
        truncated: false,
        stderr_tail: String::new(),
        elapsed: clock.elapsed(),
    };
    let Some((program, args)) = argv.split_first() else {
        return not_started("empty command".into());
    };
    let mut command = Command::new(program);
    command
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = cwd {
        command.current_dir(dir);
    }
    match stdin {
        Some(file) => match std::fs::File::open(file) {
            Ok(f) => {
                command.stdin(f);
            }
            Err(e) => return not_started(format!("cannot open stdin {}: {e}", file.display())),
        },
        None => {
            command.stdin(Stdio::null());
        }
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // its own process group, so the timeout kills what a wrapper script started too
        command.process_group(0);
    }
    let mut child = match command.spawn() {
        Ok(c) => c,
        Err(e) => return not_started(format!("cannot start `{program}`: {e}")),
    };
    let pid = child.id();
    let (out_tx, out_rx) = mpsc::channel();
    if let Some(mut out) = child.stdout.take() {
        std::thread::spawn(move || {
            let mut kept = Vec::new();
            let mut total: u64 = 0;
            let mut buf = [0u8; 16 * 1024];
            loop {
                match out.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        let room = max_output.saturating_sub(kept.len() as u64) as usize;
                        kept.extend_from_slice(&buf[..n.min(room)]);
                        total += n as u64;
                    }
                }
            }
            let _ = out_tx.send((kept, total));
        });
    }
    let (err_tx, err_rx) = mpsc::channel();
    if let Some(mut err) = child.stderr.take() {
        std::thread::spawn(move || {
            let mut tail: Vec<u8> = Vec::new();
            let mut buf = [0u8; 4096];
            loop {
                match err.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        tail.extend_from_slice(&buf[..n]);
                        if tail.len() > 2 * STDERR_TAIL_BYTES {
                            tail.drain(..tail.len() - STDERR_TAIL_BYTES);
                        }
                    }
                }
            }
            let _ = err_tx.send(tail);
        });
    }
    let (wait_tx, wait_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = wait_tx.send(child.wait());
    });
    let deadline = clock + timeout;
    let mut exit = match wait_rx.recv_timeout(timeout) {
        Ok(Ok(status)) => Exit::Status(status),
        Ok(Err(e)) => Exit::NotStarted(format!("cannot wait for `{program}`: {e}")),
        Err(_) => {
            kill_group(pid);
            let _ = wait_rx.recv();
            Exit::TimedOut
        }
    };
    // the output ends when every process holding the pipe is gone
    let until = deadline
        .saturating_duration_since(Instant::now())
        .max(DRAIN_GRACE);
    let (stdout, stdout_bytes) = match out_rx.recv_timeout(until) {
        Ok(v) => v,
        Err(_) => {
            kill_group(pid);
            exit = Exit::TimedOut;
            out_rx.recv_timeout(DRAIN_GRACE).unwrap_or_default()
        }
    };
    let elapsed = clock.elapsed();
    let stderr = err_rx.recv_timeout(DRAIN_GRACE).unwrap_or_default();
    let start = stderr.len().saturating_sub(STDERR_TAIL_BYTES);
    ToolRun {
        exit,
        truncated: stdout_bytes > stdout.len() as u64,
        stdout,
        stdout_bytes,
        stderr_tail: String::from_utf8_lossy(&stderr[start..]).trim().to_string(),
        elapsed,
    }
}

/// Kills the process group `pid` leads (the tool and whatever it started).
fn kill_group(pid: u32) {
    #[cfg(unix)]
    {
        if let Ok(pgid) = i32::try_from(pid) {
            // SAFETY: kill(2) with a negative pid signals the process group; it takes no
            // pointers and cannot affect memory safety.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
    }
    #[cfg(windows)]
    {
        // the tree of processes the tool started
        let _ = Command::new("taskkill")
            .args(["/F", "/T", "/PID", &pid.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    #[cfg(not(any(unix, windows)))]
    {
        let _ = pid;
    }
}

/// The answer a tool gave: keys best first, and the outcome it states (JSON only).
#[derive(Debug, PartialEq)]
pub struct ParsedAnswer {
    pub keys: Vec<String>,
    pub outcome: Option<String>,
}

/// Reads `stdout` as `answer` says; paths under `root` are made relative to it, `./` is
/// dropped, and a key repeated is kept at its first rank.
pub fn parse_answer(
    answer: &Answer,
    stdout: &[u8],
    root: Option<&Path>,
) -> Result<ParsedAnswer, String> {
    let text = std::str::from_utf8(stdout).map_err(|e| {
        format!(
            "answer is not UTF-8 text (invalid byte at offset {})",
            e.valid_up_to()
        )
    })?;
    let (raw, outcome): (Vec<String>, Option<String>) = match answer {
        Answer::Lines => (
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect(),
            None,
        ),
        Answer::Json { list, key, outcome } => {
            let doc: Value = serde_json::from_str(text.trim()).map_err(|e| {
                format!(
                    "answer is not JSON ({e}); it starts `{}`",
                    text.trim().chars().take(40).collect::<String>()
                )
            })?;
            let items = lookup(&doc, list)
                .ok_or_else(|| format!("answer has no `{list}`"))?
                .as_array()
                .ok_or_else(|| format!("answer's `{list}` is not a list"))?;
            let mut keys = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let value = match key {
                    Some(k) => lookup(item, k)
                        .ok_or_else(|| format!("item {} of the answer has no `{k}`", i + 1))?,
                    None => item,
                };
                keys.push(match value {
                    Value::String(s) => s.clone(),
                    Value::Number(n) => n.to_string(),
                    other => {
                        return Err(format!(
                            "item {} of the answer is {}, not a path or id",
                            i + 1,
                            json_kind(other)
                        ))
                    }
                });
            }
            let stated = match outcome {
                Some(k) => match lookup(&doc, k) {
                    Some(Value::String(s)) => Some(parse_outcome(s)?),
                    Some(other) => return Err(format!("answer's `{k}` is {}", json_kind(other))),
                    None => None,
                },
                None => None,
            };
            (keys, stated)
        }
    };
    let mut keys: Vec<String> = Vec::with_capacity(raw.len());
    for k in raw {
        let k = relative_key(&k, root);
        if !k.is_empty() && !keys.contains(&k) {
            keys.push(k);
        }
    }
    Ok(ParsedAnswer { keys, outcome })
}

fn parse_outcome(s: &str) -> Result<String, String> {
    match s {
        "success" | "no_match" | "insufficient_evidence" | "failure" => Ok(s.to_string()),
        other => Err(format!(
            "answer's outcome `{other}` is not success, no_match, insufficient_evidence or failure"
        )),
    }
}

/// The value at a dotted key (`results.matches`, `items.0.path`); empty is the value.
fn lookup<'a>(value: &'a Value, dotted: &str) -> Option<&'a Value> {
    if dotted.is_empty() {
        return Some(value);
    }
    dotted.split('.').try_fold(value, |v, part| match v {
        Value::Object(m) => m.get(part),
        Value::Array(a) => part.parse::<usize>().ok().and_then(|i| a.get(i)),
        _ => None,
    })
}

/// A returned path as a corpus names it: relative to the root, `/`-separated, no `./`.
fn relative_key(key: &str, root: Option<&Path>) -> String {
    let mut k = key.replace('\\', "/");
    if let Some(root) = root {
        let prefix = format!("{}/", root.to_string_lossy().replace('\\', "/"));
        if let Some(rest) = k.strip_prefix(&prefix) {
            k = rest.to_string();
        }
    }
    while let Some(rest) = k.strip_prefix("./") {
        k = rest.to_string();
    }
    k
}

/// Runs `case` through `engine`'s `command` and judges the answer.
pub fn run_case(
    engine: &ExternalEngine,
    command: &ModeCommand,
    case: &Case,
    fixture: &FixturePaths,
) -> CaseResult {
    let value = |p: Placeholder| -> Option<String> {
        let path = |p: &Option<PathBuf>| p.as_ref().map(|p| p.to_string_lossy().to_string());
        match p {
            Placeholder::Query => Some(case.query.clone()),
            Placeholder::Root => path(&fixture.root),
            Placeholder::Store => path(&fixture.store),
            Placeholder::Paths => path(&fixture.paths),
            Placeholder::Limit => Some(case_limit(case).to_string()),
            Placeholder::EngineDir => Some(engine.engine_dir.to_string_lossy().to_string()),
        }
    };
    let built = (|| -> Result<_, String> {
        let argv = command
            .argv
            .iter()
            .map(|t| t.expand(&value))
            .collect::<Result<Vec<_>, _>>()?;
        let cwd = command.cwd.as_ref().map(|t| t.expand(&value)).transpose()?;
        let stdin = command
            .stdin
            .as_ref()
            .map(|t| t.expand(&value))
            .transpose()?;
        Ok((argv, cwd, stdin))
    })();
    let mode = case.mode.as_str();
    let mut record = CaseResult {
        engine: engine.name.clone(),
        id: case.id.clone(),
        suite: case.suite.clone(),
        mode: mode.to_string(),
        query: case.query.clone(),
        outcome: "error".into(),
        expected_outcome: case.expect.outcome.map(|o| o.as_str().to_string()),
        expected: case.expect.relevant(),
        dump_bytes: case.fixture.dump_bytes as u64,
        items: case.fixture.item_count,
        tools: vec![mode.to_string()],
        iterations: 1,
        known_failure: case.known_failure.clone(),
        tags: case.tags.clone(),
        file: case.file.display().to_string(),
        line: case.line,
        ..CaseResult::default()
    };
    let answer = match built {
        Err(m) => Err(format!("cannot build the command: {m}")),
        Ok((argv, cwd, stdin)) => {
            let run = execute(
                &argv,
                cwd.as_deref().map(Path::new),
                stdin.as_deref().map(Path::new),
                Duration::from_millis(command.timeout_ms),
                command.max_output_bytes,
            );
            record.duration_ms = envelope::round_ms(run.elapsed);
            record.output_bytes = run.stdout_bytes;
            let root = fixture.root.as_ref().map(|r| r.to_string_lossy());
            record.first_hit_bytes = crate::metrics::recall::first_hit_bytes(
                &run.stdout,
                &record.expected,
                root.as_deref(),
            );
            read_run(command, &run, fixture.root.as_deref())
        }
    };
    let error = match answer {
        Ok(parsed) => {
            record.outcome = match parsed.outcome {
                Some(o) => o,
                None if parsed.keys.is_empty() => command.empty.as_str().to_string(),
                None => Outcome::Success.as_str().to_string(),
            };
            record.candidates = parsed.keys.len();
            record.ranked = parsed.keys;
            None
        }
        Err(reason) => {
            record.failed_tools = 1;
            Some(format!("tool error: {reason}"))
        }
    };
    record.rank = record
        .ranked
        .iter()
        .position(|k| record.expected.contains(k))
        .map(|i| i + 1);
    record.calls = vec![Call::new(mode, case.query.as_str(), record.candidates)];
    crate::runner::judged(case, case_limit(case), record, error.as_deref(), None)
}

/// The answer of a finished run, or why there is none.
fn read_run(
    command: &ModeCommand,
    run: &ToolRun,
    root: Option<&Path>,
) -> Result<ParsedAnswer, String> {
    let stderr = |run: &ToolRun| {
        let last = run.stderr_tail.lines().last().unwrap_or("").trim();
        if last.is_empty() {
            String::new()
        } else {
            format!(": {last}")
        }
    };
    match &run.exit {
        Exit::NotStarted(m) => return Err(m.clone()),
        Exit::TimedOut => {
            return Err(format!(
                "timed out after {} ms (killed)",
                command.timeout_ms
            ))
        }
        Exit::Status(status) => {
            let code = status.code();
            let found_nothing = code.is_some_and(|c| command.no_match_exit.contains(&c));
            if found_nothing && run.stdout.iter().all(u8::is_ascii_whitespace) {
                return Ok(ParsedAnswer {
                    keys: Vec::new(),
                    outcome: None,
                });
            }
            if !status.success() && !found_nothing {
                return Err(match code {
                    Some(c) => format!("exited with status {c}{}", stderr(run)),
                    None => format!("killed by a signal{}", stderr(run)),
                });
            }
        }
    }
    if run.truncated {
        return Err(format!(
            "answer over {} bytes ({} written)",
            command.max_output_bytes, run.stdout_bytes
        ));
    }
    parse_answer(&command.answer, &run.stdout, root)
}

/// The number of results a case asks for: its own `limit`, else the mode's default under the
/// built-in profile (an external tool has no findbench profile).
fn case_limit(case: &Case) -> usize {
    crate::corpus::args::result_limit(&case.request, &findbench_engine::Profile::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(list: &str, key: Option<&str>, outcome: Option<&str>) -> Answer {
        Answer::Json {
            list: list.into(),
            key: key.map(str::to_string),
            outcome: outcome.map(str::to_string),
        }
    }

    #[test]
    fn lines_are_keys_relative_to_the_root_first_rank_kept() {
        let out = b"/r/src/a.rs\n./src/b.rs\n\n  src/a.rs  \nsrc/c.rs\r\n";
        let a = parse_answer(&Answer::Lines, out, Some(Path::new("/r"))).unwrap();
        assert_eq!(a.keys, ["src/a.rs", "src/b.rs", "src/c.rs"]);
        assert_eq!(a.outcome, None);
        let e = parse_answer(&Answer::Lines, b"ok\n\xff\xfe", None).unwrap_err();
        assert!(e.contains("not UTF-8"), "{e}");
    }

    #[test]
    fn json_lists_items_keys_and_outcomes() {
        let doc = br#"{"r": {"matches": [{"path": "a"}, {"path": "b"}]}, "outcome": "success"}"#;
        let a = parse_answer(&json("r.matches", Some("path"), Some("outcome")), doc, None);
        assert_eq!(
            a.unwrap(),
            ParsedAnswer {
                keys: vec!["a".into(), "b".into()],
                outcome: Some("success".into())
            }
        );
        let a = parse_answer(&json("", None, None), br#"["T1", 42]"#, None).unwrap();
        assert_eq!(a.keys, ["T1", "42"]);
        let e = parse_answer(&json("x", None, None), b"not json", None).unwrap_err();
        assert!(e.starts_with("answer is not JSON"), "{e}");
        let e = parse_answer(&json("x", None, None), b"{}", None).unwrap_err();
        assert_eq!(e, "answer has no `x`");
        let e = parse_answer(&json("", Some("id"), None), br#"[{"id": "a"}, {}]"#, None);
        assert_eq!(e.unwrap_err(), "item 2 of the answer has no `id`");
        let e = parse_answer(&json("", None, None), br#"[{"id": "a"}]"#, None);
        assert_eq!(
            e.unwrap_err(),
            "item 1 of the answer is an object, not a path or id"
        );
        let e = parse_answer(
            &json("l", None, Some("o")),
            br#"{"l": [], "o": "meh"}"#,
            None,
        );
        assert!(e.unwrap_err().contains("`meh` is not success"));
    }

    #[cfg(unix)]
    #[test]
    fn execute_times_out_and_kills_what_the_tool_started() {
        let argv: Vec<String> = ["sh", "-c", "echo early; sleep 30 & sleep 30"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let run = execute(&argv, None, None, Duration::from_millis(200), 1024);
        assert!(matches!(run.exit, Exit::TimedOut), "{:?}", run.exit);
        assert_eq!(run.stdout, b"early\n");
    }

    #[cfg(unix)]
    #[test]
    fn execute_bounds_output_and_keeps_the_stderr_tail() {
        let argv: Vec<String> = ["sh", "-c", "yes abc | head -c 10000; echo oops >&2; exit 3"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let run = execute(&argv, None, None, Duration::from_secs(20), 100);
        assert_eq!(run.stdout.len(), 100);
        assert_eq!(run.stdout_bytes, 10000);
        assert!(run.truncated);
        assert_eq!(run.stderr_tail, "oops");
        assert_eq!(
            match run.exit {
                Exit::Status(s) => s.code(),
                _ => None,
            },
            Some(3)
        );
        let run = execute(
            &["/nonexistent/tool".to_string()],
            None,
            None,
            Duration::from_secs(1),
            100,
        );
        assert!(
            matches!(&run.exit, Exit::NotStarted(m) if m.contains("cannot start `/nonexistent/tool`"))
        );
    }
}
