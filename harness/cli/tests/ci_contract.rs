//! The contract a CI script relies on (docs/ci-contract.md): exit codes, output that does
//! not depend on the clock, no panic when stdout goes away, errors that name the file, the
//! field and the rule. Each test holds one finding of the bad-input and fault matrix.

mod common;

use common::{assert_exit, assert_schema, findbench, findbench_in, repo_root, stdout_json};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use tempfile::TempDir;

const STORE: &str = r#"{"tasks": [
  {"id": "T001", "title": "Implement fuzzy find command", "status": "active", "priority": "high"},
  {"id": "T002", "title": "Fix authentication middleware timeout", "status": "done", "priority": "high"}
]}
"#;

/// A corpus of two cases that hold.
const CORPUS: &str = r#"suite: mini
fixture: {store: todo.json}
cases:
  - id: fuzzy
    query: fuzzy find
    mode: task
    expect: {outcome: success, top: T001}
  - id: auth
    query: authentication
    mode: task
    expect: {top: T002}
"#;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A directory with todo.json and `corpus.yaml` holding `corpus`.
fn corpus_dir(corpus: &str) -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("todo.json"), STORE).unwrap();
    std::fs::write(dir.path().join("corpus.yaml"), corpus).unwrap();
    dir
}

fn run_in(dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["run", "corpus.yaml", "--out", "out", "--no-progress"];
    args.extend_from_slice(extra);
    findbench_in(dir, &args)
}

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_findbench"));
    c.current_dir(repo_root()).env_remove("FINDBENCH_STORE");
    c
}

// ---------------------------------------------------------------- exit codes of `run`

#[test]
fn run_fails_on_a_planted_regression_passes_without_it_and_exit_zero_reports() {
    let dir = corpus_dir(CORPUS);
    assert_exit(&run_in(dir.path(), &[]), 0);
    std::fs::write(
        dir.path().join("corpus.yaml"),
        CORPUS.replace("top: T002", "top: T001"),
    )
    .unwrap();
    let out = run_in(dir.path(), &[]);
    assert_exit(&out, 1);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("gate: FAIL all: 1 unexpected failure (at most 0 allowed): mini/auth"),
        "{stdout}"
    );
    let out = run_in(dir.path(), &["--exit-zero"]);
    assert_exit(&out, 0);
    assert!(text(&out.stdout).contains("gate: FAIL all: 1 unexpected failure"));
}

#[test]
fn a_known_failure_does_not_fail_the_run_but_the_corpus_gate_applies_without_flags() {
    let xfail = CORPUS.replace(
        "    expect: {top: T002}",
        "    expect: {top: T001}\n    known_failure: \"ranks the title first\"",
    );
    let dir = corpus_dir(&xfail);
    assert_exit(&run_in(dir.path(), &[]), 0);
    let gated = xfail.replace("cases:", "gate: {min_pass_rate: 0.9}\ncases:");
    std::fs::write(dir.path().join("corpus.yaml"), gated).unwrap();
    let out = run_in(dir.path(), &[]);
    assert_exit(&out, 1);
    assert!(
        text(&out.stdout).contains("gate: FAIL mini: pass rate 50.0% is below the minimum 90.0%"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn gate_counts_failed_checks_not_reasons() {
    let dir = corpus_dir(
        &CORPUS
            .replace("top: T002", "top: T001")
            .replace("top: T001}\n  - id: auth", "top: T002}\n  - id: auth"),
    );
    let out = run_in(dir.path(), &["--exit-zero", "--min-pass-rate", "0.5"]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("2 unexpected failures"), "{stdout}");
    assert!(
        stdout.contains("gate: failed (2 of 2 checks failed)"),
        "{stdout}"
    );
    let out = findbench_in(dir.path(), &["gate", "out/results.json"]);
    assert_exit(&out, 1);
    assert!(
        text(&out.stdout).contains("gate: failed (1 of 1 check failed)"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn run_and_gate_take_format_json() {
    let dir = corpus_dir(CORPUS);
    let out = run_in(dir.path(), &["-f", "json"]);
    assert_exit(&out, 0);
    let doc = stdout_json(&out);
    assert_schema("run.schema.json", &doc);
    assert_eq!(doc["gate"]["passed"], true);
    assert_eq!(doc["summary"]["total"], 2);
    let out = findbench_in(dir.path(), &["gate", "out", "--format", "json"]);
    assert_exit(&out, 0);
    let doc = stdout_json(&out);
    assert_schema("gate.schema.json", &doc);
    assert_eq!(doc["exit_code"], 0);
    // an error in JSON is the error envelope
    let out = findbench_in(dir.path(), &["gate", "missing.json", "-f", "json"]);
    assert_exit(&out, 3);
    let doc = stdout_json(&out);
    assert_schema("error.schema.json", &doc);
    assert_eq!(doc["error"]["code"], "E_FILE");
}

#[test]
fn replay_thresholds_fail_the_replay_and_exit_zero_reports() {
    let out = findbench(&[
        "replay",
        "traces/",
        "--min-pass-rate",
        "0.999",
        "-f",
        "text",
    ]);
    assert_exit(&out, 1);
    assert!(
        text(&out.stdout).contains("gate: FAIL all: pass rate"),
        "{}",
        text(&out.stdout)
    );
    let out = findbench(&[
        "replay",
        "traces/",
        "--min-pass-rate",
        "0.999",
        "--exit-zero",
        "-f",
        "json",
    ]);
    assert_exit(&out, 0);
    assert_eq!(stdout_json(&out)["gate"]["passed"], false);
}

// ------------------------------------------------------------------- corpus messages

/// Runs `corpus` and returns stderr, asserting exit 2.
fn corpus_error(corpus: &str) -> String {
    let dir = corpus_dir(corpus);
    let out = run_in(dir.path(), &[]);
    assert_exit(&out, 2);
    assert!(!dir.path().join("out").exists(), "nothing is written");
    text(&out.stderr)
}

#[test]
fn a_case_with_no_expect_is_invalid_naming_file_line_and_case() {
    let e = corpus_error(&CORPUS.replace("    expect: {top: T002}\n", ""));
    assert!(
        e.contains("corpus.yaml:8: case `auth`: the case has no `expect`"),
        "{e}"
    );
    let e = corpus_error(&CORPUS.replace("{top: T002}", "{}"));
    assert!(e.contains("case `auth`: the case has no `expect`"), "{e}");
}

#[test]
fn a_comment_only_corpus_says_no_cases() {
    let e = corpus_error("# nothing here yet\n\n");
    assert!(
        e.contains("corpus.yaml: no cases: the file is empty or only comments"),
        "{e}"
    );
}

#[test]
fn yaml_errors_speak_the_authors_language() {
    let library_words = [
        "DuplicateKeyPolicy",
        "Option<",
        "from_str_multiple",
        "budget breached",
        "Depth {",
        "Nodes {",
        "u64",
    ];
    let cases: [(String, &str); 6] = [
        (
            format!("suite: x\n{CORPUS}"),
            "corpus.yaml:2: key `suite` is given twice in one mapping",
        ),
        (
            format!("{CORPUS}---\nsuite: y\n"),
            "a second YAML document starts here (`---`)",
        ),
        (
            CORPUS.replace("{top: T002}", "{top: T002, max_bytes: -5}"),
            "case `auth`: `max_bytes`: `-5` is not a whole number, 0 or more",
        ),
        (
            CORPUS.replace("query: authentication", "query: ~"),
            "case `auth`: `query`: is empty (null)",
        ),
        (
            CORPUS.replace(
                "{top: T002}",
                &format!(
                    "{{top: T002}}\n    args: {{limit: {}{}}}",
                    "[".repeat(70),
                    "]".repeat(70)
                ),
            ),
            "nested more than 64 deep (the limit of a corpus file)",
        ),
        (
            CORPUS.replace(
                "    mode: task\n    expect: {top: T002}",
                "    mode: task\n    args: {limit: 0}\n    expect: {top: T002}",
            ),
            "case `auth`: `limit` must be at least 1",
        ),
    ];
    for (corpus, want) in cases {
        let e = corpus_error(&corpus);
        assert!(e.contains(want), "want {want:?} in {e}");
        for w in library_words {
            assert!(!e.contains(w), "library word {w:?} in {e}");
        }
    }
}

#[test]
fn a_large_corpus_loads_and_the_limit_is_named() {
    let mut big = String::from("suite: big\nfixture: {store: todo.json}\ncases:\n");
    for i in 0..20_000 {
        big.push_str(&format!(
            "  - {{id: c{i}, mode: task, query: fuzzy, expect: {{top: T001}}}}\n"
        ));
    }
    let dir = corpus_dir(&big);
    // 20,000 cases was past the parser's default node budget (about 15,000 cases)
    let out = findbench_in(
        dir.path(),
        &["run", "corpus.yaml", "--out", "out", "--filter", "c19999"],
    );
    assert_exit(&out, 0);
}

// ------------------------------------------------------------------------ arguments

#[test]
fn usage_errors_are_exit_2_and_json_when_json_was_asked() {
    let store = "corpora/fixtures/todo.json";
    let out = findbench(&[
        "find", "task", "x", "--limit", "-1", "-f", "json", "--store", store,
    ]);
    assert_exit(&out, 2);
    let doc = stdout_json(&out);
    assert_schema("error.schema.json", &doc);
    let message = doc["error"]["message"].as_str().unwrap();
    assert_eq!(
        message,
        "--limit takes a whole number of 1 or more; got `-1`"
    );
    assert!(!text(&out.stdout).contains("-- -1"), "no `-- -1` tip");
    let out = findbench(&["find", "task", "x", "--limit", "-1", "--store", store]);
    assert_exit(&out, 2);
    assert!(
        !text(&out.stderr).contains("-- -1"),
        "{}",
        text(&out.stderr)
    );

    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let out = bin()
            .args(["find", "task", "--store", store, "-f", "json"])
            .arg(std::ffi::OsStr::from_bytes(b"a\xffb"))
            .output()
            .unwrap();
        assert_exit(&out, 2);
        let doc = stdout_json(&out);
        assert!(doc["error"]["message"]
            .as_str()
            .unwrap()
            .contains("invalid UTF-8"));
    }

    let out = findbench(&["run", "corpora/", "--jobs", "100000"]);
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr).contains("100000 threads is more than the 1024 allowed"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_suffix_id_pattern_keeps_its_zeros() {
    let out = findbench(&[
        "find",
        "task",
        "--id",
        "*001",
        "--store",
        "corpora/fixtures/todo.json",
        "-f",
        "json",
    ]);
    assert_exit(&out, 0);
    let doc = stdout_json(&out);
    let ids: Vec<&str> = doc["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert!(!ids.is_empty());
    for id in &ids {
        assert!(id.ends_with("001"), "{ids:?}");
    }
    // a prefix still reads zero padding away
    let out = findbench(&[
        "find",
        "task",
        "--id",
        "1",
        "--store",
        "corpora/fixtures/todo.json",
        "-f",
        "json",
    ]);
    assert_eq!(stdout_json(&out)["matches"][0]["id"], "T001");
}

// ------------------------------------------------------------------- compare, grep

#[test]
fn compare_refuses_a_file_that_is_not_results_and_results_of_another_kind() {
    let out = findbench(&[
        "compare",
        "corpora/fixtures/todo.json",
        "corpora/fixtures/todo.json",
        "-f",
        "text",
    ]);
    assert_exit(&out, 2);
    let e = text(&out.stderr);
    assert!(
        e.contains(
            "corpora/fixtures/todo.json: no `summary` and no `cases`: not a complete findbench results.json"
        ),
        "{e}"
    );
    assert!(!e.contains(":0:0") && !e.contains("line and column"), "{e}");

    let tmp = tempfile::tempdir().unwrap();
    let run_out = tmp.path().join("run");
    let replay_out = tmp.path().join("replay");
    let r = run_out.to_str().unwrap();
    assert_exit(
        &findbench(&["run", "corpora/names.yaml", "--out", r, "--no-progress"]),
        0,
    );
    let p = replay_out.to_str().unwrap();
    assert_exit(&findbench(&["replay", "traces/", "--out", p, "-q"]), 0);
    let out = findbench(&["compare", r, p, "-f", "text"]);
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr).contains("is the results of a `run` and"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn grep_on_a_file_root_is_a_file_error_with_a_hint_grep_can_follow() {
    let out = findbench(&["grep", "x", "--root", "README.md", "-f", "text"]);
    assert_exit(&out, 3);
    let e = text(&out.stderr);
    assert!(e.contains("README.md: root is not a directory"), "{e}");
    assert!(e.contains("hint: pass a directory with --root"), "{e}");
    assert!(!e.contains("--paths-from"), "grep has no --paths-from: {e}");
}

// --------------------------------------------------------------- errors, not results

/// Whether this process can read a file no one may read (it runs as root): then
/// permission errors cannot be produced and the tests that need one say so and return.
fn permissions_are_enforced(dir: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let probe = dir.join("probe");
    std::fs::write(&probe, "x").unwrap();
    std::fs::set_permissions(&probe, std::fs::Permissions::from_mode(0o000)).unwrap();
    let enforced = std::fs::read(&probe).is_err();
    std::fs::remove_file(&probe).unwrap();
    if !enforced {
        eprintln!("skipped: running as a user who reads every file (root)");
    }
    enforced
}

#[test]
#[cfg(unix)]
fn an_unreadable_root_is_a_file_error_not_no_match() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    if !permissions_are_enforced(tmp.path()) {
        return;
    }
    let root = tmp.path().join("src");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("a.rs"), "fn cursor() {}").unwrap();
    std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o000)).unwrap();
    let r = root.to_str().unwrap();
    for args in [
        vec!["grep", "cursor", "--root", r],
        vec!["find", "code", "cursor", "--root", r],
        vec!["ask", "where is cursor", "--root", r],
    ] {
        let out = findbench(&[&args[..], &["-f", "text"]].concat());
        assert_exit(&out, 3);
        assert!(
            text(&out.stderr).contains("cannot read root"),
            "{}",
            text(&out.stderr)
        );
    }
    // a corpus and a replay over it: exit 3 naming it, not every case failing
    let corpus = format!(
        "suite: s\nfixture: {{root: {r}}}\ncases:\n  - {{id: a, query: cursor, mode: grep, expect: {{outcome: success}}}}\n"
    );
    std::fs::write(tmp.path().join("c.yaml"), corpus).unwrap();
    let out = findbench_in(tmp.path(), &["run", "c.yaml", "--out", "out"]);
    assert_exit(&out, 3);
    assert!(
        text(&out.stderr).contains("cannot be read"),
        "{}",
        text(&out.stderr)
    );
    let traces = tmp.path().join("t.jsonl");
    std::fs::write(&traces, trace_line("a", "agent-cpp", 1.0)).unwrap();
    let out = findbench(&[
        "replay",
        traces.to_str().unwrap(),
        "--root",
        r,
        "-f",
        "text",
    ]);
    assert_exit(&out, 3);
    std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn replay_against_missing_fixtures_is_a_file_error_naming_the_path() {
    let out = findbench(&[
        "replay",
        "traces/",
        "--fixtures",
        "/nonexistent",
        "-f",
        "text",
    ]);
    assert_exit(&out, 3);
    let e = text(&out.stderr);
    assert!(e.contains("/nonexistent/agent-cpp"), "{e}");
    assert!(e.contains("fixture `agent-cpp` not found"), "{e}");

    let tmp = tempfile::tempdir().unwrap();
    let traces = tmp.path().join("t.jsonl");
    std::fs::write(&traces, trace_line("a", "nowhere", 5.0) + "\n").unwrap();
    let out = findbench(&["replay", traces.to_str().unwrap(), "-f", "text"]);
    assert_exit(&out, 3);
    let e = text(&out.stderr);
    assert!(e.contains("corpora/fixtures/nowhere"), "{e}");
    assert!(e.contains("trace `a` names fixture `nowhere`"), "{e}");
}

#[test]
fn tree_modes_count_what_they_skipped() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("small.rs"), "fn cursor_binary() {}\n").unwrap();
    let mut big = "x".repeat(2 << 20);
    big.push_str("\ncursor_binary\n");
    std::fs::write(tmp.path().join("big.log"), big).unwrap();
    let r = tmp.path().to_str().unwrap();
    let out = findbench(&["grep", "cursor_binary", "--root", r, "-f", "json"]);
    assert_exit(&out, 0);
    let doc = stdout_json(&out);
    assert_schema("grep.schema.json", &doc);
    assert_eq!(doc["walk"]["skipped"]["too_large"], 1, "{doc:#}");
    assert_eq!(doc["walk"]["skipped"]["max_file_bytes"], 1 << 20);
    let out = findbench(&["ask", "where is cursor binary", "--root", r, "-f", "json"]);
    assert_eq!(stdout_json(&out)["walk"]["skipped"]["too_large"], 1);
    assert_eq!(doc["walk"]["lossy_names"], 0);
    let out = findbench(&["grep", "cursor_binary", "--root", r, "-f", "text"]);
    assert!(
        text(&out.stderr)
            .contains("note: 1 file over the 1024 KiB text limit (searched by name only)"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
#[cfg(target_os = "linux")]
fn a_file_name_that_is_not_utf8_is_counted() {
    use std::os::unix::ffi::OsStrExt;
    let tmp = tempfile::tempdir().unwrap();
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9_cursor.rs");
    std::fs::write(tmp.path().join(name), "fn cursor() {}\n").unwrap();
    let r = tmp.path().to_str().unwrap();
    // the kept index reads a file's text by its (lossy) name on first use, so such a file
    // is found by name but its text is not searched: it is counted, never passed off
    let out = findbench(&["grep", "cursor", "--root", r, "-f", "json"]);
    assert_exit(&out, 100);
    assert_eq!(stdout_json(&out)["walk"]["lossy_names"], 1);
    let out = findbench(&["grep", "cursor", "--root", r, "-f", "text"]);
    assert!(
        text(&out.stderr).contains("1 file whose name is not UTF-8"),
        "{}",
        text(&out.stderr)
    );
}

// ------------------------------------------------------------------------ trace input

fn trace_line(id: &str, fixture: &str, duration_ms: f64) -> String {
    serde_json::json!({
        "trace_id": id, "timestamp": "2026-06-19T09:00:00Z", "query": "find cursor binary",
        "fixture": fixture, "tools": [], "outcome": "success", "iterations": 1,
        "duration_ms": duration_ms,
    })
    .to_string()
}

fn replay_json(inputs: &[&Path]) -> (Output, serde_json::Value) {
    let mut args = vec!["replay"];
    let inputs: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
    args.extend(inputs.iter().map(String::as_str));
    args.extend(["-f", "json", "-q"]);
    let out = findbench(&args);
    let doc = stdout_json(&out);
    (out, doc)
}

#[test]
fn trace_input_bom_truncated_gzip_negative_durations_escaping_fixtures() {
    use std::io::Write;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("traces");
    std::fs::create_dir_all(&dir).unwrap();
    // a BOM before the first trace
    let bom = format!(
        "\u{feff}{}\n{}\n",
        trace_line("bom1", "agent-cpp", 3.0),
        trace_line("bom2", "agent-cpp", 3.0)
    );
    std::fs::write(dir.join("a.jsonl"), bom).unwrap();
    // a .gz cut short: what was read counts, the rest is one bad line
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    for i in 0..200 {
        writeln!(enc, "{}", trace_line(&format!("gz{i}"), "agent-cpp", 1.0)).unwrap();
    }
    let gz = enc.finish().unwrap();
    std::fs::write(dir.join("b.jsonl.gz"), &gz[..gz.len() / 2]).unwrap();
    // bad values: a negative duration, a fixture outside --fixtures
    let bad = [
        trace_line("neg", "agent-cpp", -5.0),
        trace_line("up", "../../../../etc", 1.0),
        trace_line("abs", "/etc", 1.0),
        trace_line("ok", "agent-cpp", 1.0),
    ];
    std::fs::write(dir.join("c.jsonl"), bad.join("\n")).unwrap();
    let (out, doc) = replay_json(&[&dir]);
    assert_exit(&out, 0);
    assert_eq!(doc["files"], 3, "{doc:#}");
    // both BOM traces, some of the gzip, the one good line of c.jsonl
    let traces = doc["traces"].as_u64().unwrap();
    assert!((3..203).contains(&traces), "{traces}");
    // truncated gzip (1) + negative duration + two escaping fixtures
    assert_eq!(doc["bad_lines"], 4, "{doc:#}");
    let (_, only_bom) = replay_json(&[&dir.join("a.jsonl")]);
    assert_eq!(only_bom["traces"], 2);
    assert_eq!(only_bom["bad_lines"], 0);

    let out = findbench(&[
        "replay",
        dir.join("c.jsonl").to_str().unwrap(),
        "-f",
        "text",
    ]);
    let e = text(&out.stderr);
    assert!(e.contains("c.jsonl:1: `duration_ms` is -5"), "{e}");
    assert!(
        e.contains(
            "c.jsonl:2: `fixture` `../../../../etc` must name a directory inside --fixtures"
        ),
        "{e}"
    );
    let out = findbench(&[
        "replay",
        dir.join("b.jsonl.gz").to_str().unwrap(),
        "-f",
        "text",
    ]);
    assert_exit(&out, 0);
    assert!(
        text(&out.stderr).contains("the rest of this file is skipped"),
        "{}",
        text(&out.stderr)
    );
}

// ------------------------------------------------------------------------------ stdout

/// Runs `args` with stdout a pipe whose reader is already closed.
#[cfg(unix)]
fn with_closed_stdout(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    bin()
        .args(args)
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

#[test]
#[cfg(unix)]
fn a_closed_stdout_ends_every_command_quietly() {
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().join("r");
    let o = out_dir.to_str().unwrap();
    assert_exit(
        &findbench(&["run", "corpora/names.yaml", "--out", o, "--no-progress"]),
        0,
    );
    let results = out_dir.join("results.json");
    let r = results.to_str().unwrap();
    let commands: Vec<Vec<&str>> = vec![
        vec!["compare", r, r, "-f", "text"],
        vec!["clusters", "traces/production.jsonl", "-f", "text"],
        vec!["gate", r],
        vec!["gate", r, "-f", "json"],
        vec![
            "replay",
            "traces/production.jsonl",
            "--query",
            "find cursor binary",
            "-f",
            "json",
        ],
        vec![
            "find",
            "task",
            "auth",
            "--store",
            "corpora/fixtures/todo.json",
            "-f",
            "json",
        ],
        vec![
            "grep",
            "cursor",
            "--root",
            "corpora/fixtures/agent-cpp",
            "-f",
            "text",
        ],
        vec![
            "ask",
            "where is replay implemented",
            "--root",
            "corpora/fixtures/agent-cpp",
        ],
        vec!["run", "corpora/names.yaml", "--out", o, "--no-progress"],
        vec!["--help"],
    ];
    for args in commands {
        let out = with_closed_stdout(&args);
        assert_eq!(
            out.status.code(),
            Some(141),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert_eq!(text(&out.stderr), "", "{args:?}: nothing on stderr");
    }
}

#[test]
#[cfg(target_os = "linux")]
fn a_full_disk_on_stdout_is_exit_3_never_truncated_output_and_exit_0() {
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    for args in [
        vec![
            "find",
            "task",
            "auth",
            "--store",
            "corpora/fixtures/todo.json",
            "-f",
            "json",
        ],
        vec![
            "grep",
            "cursor",
            "--root",
            "corpora/fixtures/agent-cpp",
            "-f",
            "json",
        ],
        vec!["clusters", "traces/production.jsonl", "-f", "json"],
    ] {
        let out = bin()
            .args(&args)
            .stdout(full())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3), "{args:?}");
        assert!(
            text(&out.stderr).contains("error: cannot write to stdout: No space left on device"),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    let tmp = tempfile::tempdir().unwrap();
    let o = tmp.path().join("r");
    let out = bin()
        .args(["run", "corpora/names.yaml", "--no-progress", "--out"])
        .arg(&o)
        .stdout(full())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
}

// ------------------------------------------------------------------ reproducible reports

/// Columns and fields that measure time, or the run rather than its results.
const TIMING: [&str; 6] = [
    "duration_ms",
    "recorded_duration_ms",
    "latency",
    "started_at",
    "threads",
    "within_budget",
];

fn without_timing(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(map) => {
            map.retain(|k, _| !TIMING.contains(&k.as_str()) && !k.ends_with("_ms"));
            map.values_mut().for_each(without_timing);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(without_timing),
        _ => {}
    }
}

fn cases_csv_without_timing(path: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let headers = r.headers().unwrap().clone();
    let keep: Vec<usize> = headers
        .iter()
        .enumerate()
        .filter(|(_, h)| !h.ends_with("_ms") && !TIMING.contains(h))
        .map(|(i, _)| i)
        .collect();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            keep.iter().map(|i| rec[*i].to_string()).collect()
        })
        .collect()
}

#[test]
fn ask_reports_are_the_same_whatever_the_clock_and_the_jobs() {
    let fixture = repo_root().join("corpora/fixtures/agent-cpp");
    let corpus = format!(
        "suite: asks\nfixture: {{root: {}}}\ncases:\n{}",
        fixture.display(),
        [
            "where is replay implemented",
            "find cursor binary",
            "where is the command router",
            "how are goals classified",
            "where is the kubernetes autoscaler",
        ]
        .iter()
        .enumerate()
        .map(|(i, q)| {
            format!("  - {{id: q{i}, query: {q}, mode: ask, expect: {{max_bytes: 100000}}}}\n")
        })
        .collect::<String>()
    );
    let dir = corpus_dir(&corpus);
    let mut outputs: Vec<(Vec<Vec<String>>, serde_json::Value)> = Vec::new();
    for (n, jobs) in ["1", "2", "1", "2"].iter().enumerate() {
        let out_dir = format!("out{n}");
        let out = findbench_in(
            dir.path(),
            &[
                "run",
                "corpus.yaml",
                "--out",
                &out_dir,
                "--jobs",
                jobs,
                "--no-progress",
            ],
        );
        assert_exit(&out, 0);
        let csv = cases_csv_without_timing(&dir.path().join(&out_dir).join("cases.csv"));
        let mut results: serde_json::Value = serde_json::from_slice(
            &std::fs::read(dir.path().join(&out_dir).join("results.json")).unwrap(),
        )
        .unwrap();
        without_timing(&mut results);
        let results = serde_json::json!({
            "cases": results["cases"], "summary": results["summary"], "suites": results["suites"],
        });
        outputs.push((csv, results));
    }
    for other in &outputs[1..] {
        assert_eq!(
            other.0, outputs[0].0,
            "cases.csv differs outside timing columns"
        );
        assert_eq!(
            other.1, outputs[0].1,
            "results.json differs outside timing fields"
        );
    }
}

// --------------------------------------------------------------------- the report set

#[test]
fn what_a_killed_run_left_beside_out_is_removed() {
    let dir = corpus_dir(CORPUS);
    // pid 4194305 is above Linux's pid_max: no running process has it
    let stale = dir.path().join(".out.staging-4194305-0");
    std::fs::create_dir_all(&stale).unwrap();
    std::fs::write(stale.join("results.json"), vec![b'x'; 4096]).unwrap();
    assert_exit(&run_in(dir.path(), &[]), 0);
    assert!(!stale.exists());
    let names: Vec<String> = std::fs::read_dir(dir.path().join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    // the six reports and cases.jsonl
    assert_eq!(names.len(), 7, "{names:?}");
}

#[test]
fn two_runs_into_one_out_leave_one_whole_set() {
    let dir = corpus_dir(CORPUS);
    let other = CORPUS.replace("suite: mini", "suite: other");
    std::fs::write(dir.path().join("other.yaml"), other).unwrap();
    let spawn = |corpus: &str| {
        Command::new(env!("CARGO_BIN_EXE_findbench"))
            .args(["run", corpus, "--out", "out", "--no-progress", "-q"])
            .current_dir(dir.path())
            .spawn()
            .unwrap()
    };
    for _ in 0..3 {
        let (mut a, mut b) = (spawn("corpus.yaml"), spawn("other.yaml"));
        assert!(a.wait().unwrap().success() && b.wait().unwrap().success());
        let results = std::fs::read_to_string(dir.path().join("out/results.json")).unwrap();
        let suite = if results.contains("\"suite\": \"other\"") {
            "other"
        } else {
            "mini"
        };
        for file in ["summary.md", "cases.csv", "junit.xml", "summary.csv"] {
            let body = std::fs::read_to_string(dir.path().join("out").join(file)).unwrap();
            assert!(body.contains(suite), "{file} is not of the `{suite}` run");
        }
    }
}

/// A results.json with every case's latency set to `ms` and the machine's instance to
/// `instance` (`None` drops it, as a baseline recorded before instances were).
fn with_timing(doc: &serde_json::Value, ms: f64, instance: Option<&str>) -> serde_json::Value {
    let mut doc = doc.clone();
    for case in doc["cases"].as_array_mut().unwrap() {
        case["duration_ms"] = ms.into();
    }
    let machine = doc["machine"].as_object_mut().unwrap();
    match instance {
        Some(i) => machine.insert("instance".into(), i.into()),
        None => machine.remove("instance"),
    };
    doc
}

/// Latency against a baseline gates only between runs of one machine instance (hostnames
/// repeat across fresh virtual machines) and build, or when `--gate-latency` asks: a
/// baseline from elsewhere 50 times faster passes with a note.
#[test]
fn latency_against_a_baseline_from_another_machine_is_noted_not_gated() {
    let many: String = (0..30)
        .map(|i| format!("  - id: fuzzy{i}\n    query: fuzzy find\n    mode: task\n    expect: {{top: T001}}\n"))
        .collect();
    let dir = corpus_dir(&format!(
        "suite: mini\nfixture: {{store: todo.json}}\ncases:\n{many}"
    ));
    assert_exit(&run_in(dir.path(), &[]), 0);
    let run: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("out/results.json")).unwrap(),
    )
    .unwrap();
    let here = run["machine"]["instance"].as_str().map(str::to_string);
    assert!(
        here.is_some(),
        "a run records its machine instance: {}",
        run["machine"]
    );
    let write = |name: &str, doc: serde_json::Value| {
        std::fs::write(dir.path().join(name), doc.to_string()).unwrap();
    };
    write("now.json", with_timing(&run, 50.0, Some("aaaa")));
    let gate = |baseline: serde_json::Value, extra: &[&str]| {
        write("baseline.json", baseline);
        let mut args = vec!["gate", "now.json", "--baseline", "baseline.json"];
        args.extend_from_slice(extra);
        findbench_in(dir.path(), &args)
    };
    // the same instance and build: 1 ms -> 50 ms fails
    let out = gate(with_timing(&run, 1.0, Some("aaaa")), &[]);
    assert_exit(&out, 1);
    assert!(
        text(&out.stdout).contains("latency p95 regressed beyond noise"),
        "{}",
        text(&out.stdout)
    );
    // another machine, or one that recorded no instance: noted, not gated
    for other in [Some("bbbb"), None] {
        let out = gate(with_timing(&run, 1.0, other), &[]);
        assert_exit(&out, 0);
        assert!(
            text(&out.stdout).contains("timings not gated"),
            "{}",
            text(&out.stdout)
        );
        // unless asked for
        let out = gate(with_timing(&run, 1.0, other), &["--gate-latency"]);
        assert_exit(&out, 1);
        assert!(
            text(&out.stdout).contains("latency p95 regressed"),
            "{}",
            text(&out.stdout)
        );
    }
}

/// The README's CI command as a fresh machine runs it: an empty cache, no kept index of
/// any fixture, and the committed baseline, recorded on another machine (it names no
/// machine instance). It passes: the baseline's timings are noted, not gated. (The test
/// runs the build under test, a debug build, slower than the release build the README
/// builds.)
#[test]
fn the_readme_ci_command_passes_on_a_fresh_machine_against_a_baseline_from_elsewhere() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let command = readme
        .lines()
        .find(|l| l.starts_with("findbench run corpora/ --baseline "))
        .expect("the README's CI command");
    let baseline: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo_root().join("reports/baseline/results.json")).unwrap(),
    )
    .unwrap();
    assert!(
        baseline["machine"]["instance"].is_null(),
        "the committed baseline names no machine instance: {}",
        baseline["machine"]
    );
    let cache = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let mut args: Vec<String> = command
        .split_whitespace()
        .skip(1)
        .map(str::to_string)
        .collect();
    let at = args.iter().position(|a| a == "--out").expect("--out");
    args[at + 1] = out.path().join("ci-reports").to_string_lossy().into_owned();
    args.push("--no-progress".into());
    let run = bin()
        .args(&args)
        .env("FINDBENCH_CACHE", cache.path())
        .env("FINDBENCH_NO_BACKGROUND_INDEX", "1")
        .output()
        .unwrap();
    let stdout = text(&run.stdout);
    assert_exit(&run, 0);
    assert!(stdout.contains("timings not gated"), "{stdout}");
    assert!(stdout.contains("gate: passed"), "{stdout}");
}
