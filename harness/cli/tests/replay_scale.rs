//! `replay` at scale: the compact results.json of older replays still reads back (compare,
//! gate); the reports are the same bytes whatever `--jobs`, timing aside; the progress bar
//! is drawn on a terminal's stderr only.

mod common;

use common::{assert_exit, findbench, repo_root, results_cases, stdout_json};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// `lines` generated traces (scripts/gen_traces.py) with one bad line in the middle.
fn generated_traces(dir: &Path, lines: usize) -> PathBuf {
    let traces = dir.join("traces.jsonl");
    let gen = std::process::Command::new("python3")
        .arg(repo_root().join("scripts/gen_traces.py"))
        .args(["--lines", &lines.to_string(), "--out"])
        .arg(&traces)
        .status()
        .expect("python3 runs scripts/gen_traces.py");
    assert!(gen.success());
    let text = std::fs::read_to_string(&traces).unwrap();
    let mut out: Vec<&str> = text.lines().collect();
    out.insert(out.len() / 2, "{\"trace_id\": \"broken\"");
    std::fs::write(&traces, out.join("\n") + "\n").unwrap();
    traces
}

/// A command's JSON envelope without what varies between two invocations: its timing and
/// the paths it was given.
fn envelope(args: &[&str]) -> Value {
    let out = findbench(args);
    let mut v = stdout_json(&out);
    v.as_object_mut()
        .unwrap()
        .retain(|k, _| k != "_meta" && !k.ends_with("path"));
    v
}

/// A replay's results.json from before cases.jsonl (tests/data/replay-before-cases-jsonl:
/// the first 24 lines of traces/production.jsonl, in the compact form replays wrote then:
/// `case_defaults`, an `answers` table, derived fields left out) still reads: `compare`
/// finds nothing changed against today's replay of the same lines, `gate --baseline`
/// passes, and each case reads back with the fields today's replay writes.
#[test]
fn a_compact_results_json_of_an_older_replay_compares_and_gates_as_before() {
    let tmp = tempfile::tempdir().unwrap();
    let old = repo_root().join("harness/cli/tests/data/replay-before-cases-jsonl");
    assert!(read_json(&old.join("results.json"))
        .get("case_defaults")
        .is_some());
    let head: Vec<String> = std::fs::read_to_string(repo_root().join("traces/production.jsonl"))
        .unwrap()
        .lines()
        .take(24)
        .map(|l| format!("{l}\n"))
        .collect();
    let traces = tmp.path().join("production-head-24.jsonl");
    std::fs::write(&traces, head.concat()).unwrap();
    let new = tmp.path().join("new");
    let o = findbench(&["replay", path_str(&traces), "--out", path_str(&new), "-q"]);
    assert_exit(&o, 0);
    let same = envelope(&[
        "compare",
        path_str(&old.join("results.json")),
        path_str(&new),
        "-f",
        "json",
    ]);
    assert_eq!(same["changes"], Value::Array(Vec::new()), "{same}");
    // the gate compares cases; the baseline is marked as another build's so that its
    // timings, taken on another day, are not compared with this run's (a loaded machine
    // would fail the latency check, which belongs in benchmarks)
    let mut other_build = read_json(&old.join("results.json"));
    other_build["build"] = Value::from("recorded by another build");
    let baseline = tmp.path().join("baseline.json");
    std::fs::write(&baseline, other_build.to_string()).unwrap();
    let gate = findbench(&[
        "gate",
        path_str(&new),
        "--baseline",
        path_str(&baseline),
        "--max-ie-rate",
        "0.5",
    ]);
    assert_exit(&gate, 0);
    let (old_cases, new_cases) = (results_cases(&old), results_cases(&new));
    assert_eq!(old_cases.len(), 24);
    for (o, n) in old_cases.iter().zip(&new_cases) {
        for k in [
            "id",
            "suite",
            "mode",
            "status",
            "outcome",
            "recorded_outcome",
            "transition",
            "candidates",
            "tools",
            "iterations",
            "selected",
            "input_index",
        ] {
            // `reason` is left out: its words follow the profile's weights (which step a
            // file reaches first), not the form the file was written in
            assert_eq!(o[k], n[k], "{k} of {}", o["id"]);
        }
        // the same files ranked; their order past the selected one follows the weights
        let files = |c: &Value| {
            let mut f: Vec<String> = c["ranked"]
                .as_array()
                .map(|a| a.iter().map(|v| v.to_string()).collect())
                .unwrap_or_default();
            f.sort();
            f
        };
        assert_eq!(files(o), files(n), "ranked files of {}", o["id"]);
    }
}

#[test]
fn the_committed_baseline_a_run_in_the_verbose_form_still_loads() {
    let baseline = repo_root().join("reports/baseline/results.json");
    let raw = read_json(&baseline);
    assert_eq!(raw["kind"], "run");
    assert!(raw.get("case_defaults").is_none());
    let cases = results_cases(&baseline);
    assert_eq!(cases.len(), raw["cases"].as_array().unwrap().len());
    assert!(!cases.is_empty());
    // read as it always was: what is written is kept, nothing derived
    for (read, written) in cases.iter().zip(raw["cases"].as_array().unwrap()) {
        for (k, v) in written.as_object().unwrap() {
            assert_eq!(&read[k], v, "{k} of {}", written["id"]);
        }
    }
}

/// What varies between two replays of the same input: timing, and output bytes (they
/// carry the width of a real duration) with what is computed from them.
fn varies(key: &str) -> bool {
    key.ends_with("_ms")
        || key.contains("latency")
        || key.contains("output_bytes")
        || matches!(key, "started_at" | "threads")
}

/// The text of a report with the values that vary masked (`#`), everything else byte for
/// byte.
fn masked(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let name = path.file_name().unwrap().to_str().unwrap();
    if name.ends_with(".csv") {
        let mut r = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(text.as_bytes());
        let mut rows = r.records().map(Result::unwrap);
        let head = rows.next().unwrap();
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(&head).unwrap();
        for row in rows {
            let fields: Vec<&str> = row
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    let mask = if &head[0] == "metric" {
                        i > 0 && varies(&row[0])
                    } else {
                        varies(&head[i])
                    };
                    if mask {
                        "#"
                    } else {
                        f
                    }
                })
                .collect();
            w.write_record(&fields).unwrap();
        }
        return String::from_utf8(w.into_inner().unwrap()).unwrap();
    }
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let mut rest = line;
        // JSON `"key": value` and XML `key="value"`
        let next = |rest: &str| {
            let json = rest.find("\":").map(|at| (at, at + 2));
            let xml = rest.find("=\"").map(|at| (at, at + 1));
            json.into_iter().chain(xml).min()
        };
        while let Some((key_end, value_at)) = next(rest) {
            let key_start = rest[..key_end].rfind(['"', ' ']).map_or(0, |i| i + 1);
            let key = &rest[key_start..key_end];
            out.push_str(&rest[..value_at]);
            rest = &rest[value_at..];
            if varies(key) || key == "time" {
                let value = rest.trim_start();
                out.push_str(&rest[..rest.len() - value.len()]);
                let end = match value.strip_prefix('"') {
                    Some(quoted) => quoted.find('"').map_or(value.len(), |i| i + 2),
                    None => value.find([',', '}', ']', ' ']).unwrap_or(value.len()),
                };
                out.push('#');
                rest = &value[end..];
            }
        }
        out.push_str(rest);
        out.push('\n');
    }
    out
}

#[test]
fn replay_reports_are_the_same_bytes_whatever_jobs_timing_aside() {
    let tmp = tempfile::tempdir().unwrap();
    // several batches of 2,048, and a bad line among them
    let traces = generated_traces(tmp.path(), 5000);
    let mut outs = Vec::new();
    for jobs in ["1", "2"] {
        let out = tmp.path().join(format!("jobs{jobs}"));
        let o = findbench(&[
            "replay",
            path_str(&traces),
            "--jobs",
            jobs,
            "--out",
            path_str(&out),
            "-f",
            "text",
        ]);
        assert_exit(&o, 0);
        // the bad line is reported and counted, not dropped
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(stderr.contains("traces.jsonl:2501:"), "{stderr}");
        outs.push(out);
    }
    let results = read_json(&outs[0].join("results.json"));
    assert_eq!(results["summary"]["total"], 5000);
    assert_eq!(results["summary"]["bad_lines"], 1);
    assert_eq!(results["bad_lines"].as_array().unwrap().len(), 1);
    assert_eq!(results["threads"], 1);
    for file in [
        "results.json",
        "cases.jsonl",
        "cases.csv",
        "junit.xml",
        "summary.csv",
    ] {
        let (a, b) = (masked(&outs[0].join(file)), masked(&outs[1].join(file)));
        // one line at a time, so a failure shows where
        for (n, (x, y)) in a.lines().zip(b.lines()).enumerate() {
            assert_eq!(x, y, "{file}:{}", n + 1);
        }
        assert_eq!(a.lines().count(), b.lines().count(), "{file}");
    }
    // --out-compress on two threads: the same case files once gunzipped
    let gz = tmp.path().join("jobs2-gz");
    let o = findbench(&[
        "replay",
        path_str(&traces),
        "--jobs",
        "2",
        "--out",
        path_str(&gz),
        "--out-compress",
        "-q",
    ]);
    assert_exit(&o, 0);
    let plain = tmp.path().join("jobs2-gunzipped");
    std::fs::create_dir_all(&plain).unwrap();
    for file in ["cases.jsonl", "cases.csv", "junit.xml"] {
        let mut text = Vec::new();
        std::io::Read::read_to_end(
            &mut flate2::read::GzDecoder::new(
                std::fs::File::open(gz.join(format!("{file}.gz"))).unwrap(),
            ),
            &mut text,
        )
        .unwrap();
        std::fs::write(plain.join(file), text).unwrap();
        let (a, b) = (masked(&outs[0].join(file)), masked(&plain.join(file)));
        for (n, (x, y)) in a.lines().zip(b.lines()).enumerate() {
            assert_eq!(x, y, "{file}.gz:{}", n + 1);
        }
        assert_eq!(a.lines().count(), b.lines().count(), "{file}.gz");
    }
    let cases = results_cases(&outs[0]);
    assert_eq!(cases.len(), 5000);
    let indexes: Vec<u64> = cases
        .iter()
        .map(|c| c["input_index"].as_u64().unwrap())
        .collect();
    assert_eq!(indexes, (1..=5000).collect::<Vec<_>>());
}

/// Bytes a progress bar draws: its bar characters, an escape sequence (and, outside a
/// terminal, which turns line breaks into `\r\n`, a carriage return).
fn has_bar(bytes: &[u8], terminal: bool) -> bool {
    let text = String::from_utf8_lossy(bytes);
    text.contains('█')
        || text.contains('░')
        || text.contains("\x1b[")
        || !terminal && text.contains('\r')
}

#[test]
fn the_progress_bar_is_drawn_on_a_terminal_stderr_and_nowhere_else() {
    let tmp = tempfile::tempdir().unwrap();
    let traces = generated_traces(tmp.path(), 3000);
    // stderr a pipe: no bar, only the bad line
    let o = findbench(&[
        "replay",
        path_str(&traces),
        "--out",
        path_str(&tmp.path().join("piped")),
        "-f",
        "text",
    ]);
    assert_exit(&o, 0);
    assert!(
        !has_bar(&o.stderr, false),
        "{:?}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!has_bar(&o.stdout, false));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");

    // stderr a terminal (util-linux `script` gives the command a pseudo-terminal); stdout
    // to a file
    let Ok(status) = std::process::Command::new("script")
        .arg("--version")
        .output()
    else {
        eprintln!("skipped the terminal half: no `script` (util-linux) here");
        return;
    };
    assert!(status.status.success());
    let on_terminal = |name: &str, extra: &str| -> (Vec<u8>, Vec<u8>) {
        let stdout = tmp.path().join(format!("{name}.stdout"));
        let command = format!(
            "{} replay {} --out {} -f text {extra} > {}",
            env!("CARGO_BIN_EXE_findbench"),
            path_str(&traces),
            path_str(&tmp.path().join(name)),
            path_str(&stdout)
        );
        let o = std::process::Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .current_dir(repo_root())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
        (o.stdout, std::fs::read(stdout).unwrap())
    };
    let (terminal, stdout) = on_terminal("tty", "");
    assert!(
        has_bar(&terminal, true),
        "{:?}",
        String::from_utf8_lossy(&terminal)
    );
    assert!(
        !has_bar(&stdout, false),
        "{:?}",
        String::from_utf8_lossy(&stdout)
    );
    assert!(String::from_utf8_lossy(&stdout).contains("replayed 3000 traces"));
    for flag in ["--no-progress", "-q"] {
        let (terminal, stdout) = on_terminal(&format!("tty{flag}"), flag);
        assert!(
            !has_bar(&terminal, true),
            "{flag}: {:?}",
            String::from_utf8_lossy(&terminal)
        );
        assert!(!has_bar(&stdout, false), "{flag}");
    }
}
