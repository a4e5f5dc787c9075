//! `--shard K/N` and `findbench merge`: the shards of the shipped corpora and traces
//! (and of a 20,000-line generated trace file) merge into the reports one machine writes,
//! timing aside; every case is in exactly one shard; a bad set of shards is refused with a
//! message that says which.

mod common;

use common::{assert_exit, findbench};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What differs between two runs of the same inputs: timing, and the output bytes of `ask`
/// envelopes, which carry the width of a real duration (docs/arch-harness.md, "Output
/// bytes"), with what is computed from them.
fn varies(key: &str) -> bool {
    key.ends_with("_ms")
        || matches!(key, "started_at" | "threads" | "within_budget")
        || [
            "output_bytes",
            "tokens",
            "reduction",
            "cost_find",
            "saved",
            "over_budget",
        ]
        .iter()
        .any(|b| key.contains(b))
}

fn normalise_json(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.retain(|k, _| !varies(k));
            map.values_mut().for_each(normalise_json);
        }
        Value::Array(items) => items.iter_mut().for_each(normalise_json),
        _ => {}
    }
}

fn csv_rows(path: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let headers: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    let keep: Vec<usize> = (0..headers.len())
        .filter(|&i| !varies(&headers[i]))
        .collect();
    let mut rows = vec![keep.iter().map(|&i| headers[i].clone()).collect::<Vec<_>>()];
    for rec in r.records() {
        let rec = rec.unwrap();
        // `metric,value` rows of a replay's summary.csv name the metric in the first column
        if headers[0] == "metric" && varies(&rec[0]) {
            continue;
        }
        rows.push(keep.iter().map(|&i| rec[i].to_string()).collect());
    }
    rows
}

/// summary.md without the sections that hold timing or output bytes.
fn markdown(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = String::new();
    let mut skipping = false;
    for line in text.lines() {
        if line.starts_with('#') {
            skipping = line.contains("Latency")
                || line.contains("Context saved")
                || line.contains("Retrieval");
        }
        if !skipping && !line.starts_with("Run on ") {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

fn junit(path: &Path) -> String {
    let xml = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let mut out = String::new();
    for n in doc.descendants().filter(|n| n.is_element()) {
        let attrs: Vec<String> = n
            .attributes()
            .filter(|a| a.name() != "time")
            .map(|a| format!("{}={}", a.name(), a.value()))
            .collect();
        out.push_str(&format!(
            "{} {} {}\n",
            n.tag_name().name(),
            attrs.join(" "),
            n.text().unwrap_or("").trim()
        ));
    }
    out
}

/// Asserts two report directories hold the same reports, timing aside.
fn assert_same_reports(one: &Path, merged: &Path) {
    let json = |d: &Path| {
        let mut v: Value =
            serde_json::from_slice(&std::fs::read(d.join("results.json")).unwrap()).unwrap();
        normalise_json(&mut v);
        v
    };
    assert_eq!(json(one), json(merged), "results.json");
    for csv in ["cases.csv", "summary.csv"] {
        assert_eq!(
            csv_rows(&one.join(csv)),
            csv_rows(&merged.join(csv)),
            "{csv}"
        );
    }
    assert_eq!(
        markdown(&one.join("summary.md")),
        markdown(&merged.join("summary.md"))
    );
    assert_eq!(
        junit(&one.join("junit.xml")),
        junit(&merged.join("junit.xml"))
    );
    assert!(merged.join("report.html").is_file());
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn case_ids(dir: &Path) -> Vec<String> {
    common::results_cases(dir)
        .iter()
        .map(|c| {
            format!(
                "{}/{}",
                c["suite"].as_str().unwrap(),
                c["id"].as_str().unwrap()
            )
        })
        .collect()
}

/// Runs `args` unsharded into `dir/one`, as shards K/3 into `dir/s{K}`, merges them into
/// `dir/merged`, and checks the split and the merge.
fn shard_and_merge(dir: &Path, args: &[&str]) -> (PathBuf, Vec<PathBuf>) {
    let one = dir.join("one");
    let mut full: Vec<&str> = args.to_vec();
    full.extend(["--out", path_str(&one)]);
    assert_exit(&findbench(&full), 0);
    let shards: Vec<PathBuf> = (1..=3).map(|k| dir.join(format!("s{k}"))).collect();
    for (k, s) in shards.iter().enumerate() {
        let shard = format!("{}/3", k + 1);
        let mut a: Vec<&str> = args.to_vec();
        a.extend(["--shard", &shard, "--out", path_str(s)]);
        assert_exit(&findbench(&a), 0);
    }
    // every case in exactly one shard
    let all: Vec<String> = case_ids(&one);
    let mut seen = BTreeSet::new();
    for s in &shards {
        let ids = case_ids(s);
        assert!(!ids.is_empty(), "{} is empty", s.display());
        for id in ids {
            assert!(seen.insert(id.clone()), "{id} in two shards");
        }
    }
    assert_eq!(seen, all.iter().cloned().collect::<BTreeSet<_>>());

    let merged = dir.join("merged");
    let mut m = vec!["merge", "--out", path_str(&merged)];
    // given out of order: merge does not care
    m.extend([
        path_str(&shards[2]),
        path_str(&shards[0]),
        path_str(&shards[1]),
    ]);
    assert_exit(&findbench(&m), 0);
    assert_same_reports(&one, &merged);
    (merged, shards)
}

#[test]
fn sharded_corpus_runs_merge_into_the_unsharded_run_and_gate() {
    let tmp = tempfile::tempdir().unwrap();
    let (merged, shards) = shard_and_merge(
        tmp.path(),
        &["run", "corpora/", "--no-progress", "--jobs", "2", "--quiet"],
    );
    // the gate verdict of the merged run is the unsharded run's
    let gate = |d: &Path| {
        let out = findbench(&[
            "gate",
            path_str(&d.join("results.json")),
            "--baseline",
            "reports/baseline/results.json",
        ]);
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let verdict: Vec<String> = text
            .lines()
            .filter(|l| !l.contains(" ms") && !l.contains("timings"))
            .map(str::to_string)
            .collect();
        (out.status.code(), verdict)
    };
    assert_eq!(gate(&tmp.path().join("one")), gate(&merged));

    // a missing shard, a duplicate shard and an unsharded directory are refused by name
    let err = |dirs: &[&Path]| {
        let mut a = vec!["merge", "--out"];
        let out_dir = tmp.path().join("refused");
        let out_dir = out_dir.to_str().unwrap().to_string();
        a.push(&out_dir);
        a.extend(dirs.iter().map(|d| path_str(d)));
        let out = findbench(&a);
        assert_exit(&out, 2);
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    assert!(err(&[&shards[0], &shards[2]]).contains("missing shard 2/3 of 3"));
    let dup = err(&[&shards[0], &shards[1], &shards[2], &shards[1]]);
    assert!(dup.contains("duplicate shard 2/3"), "{dup}");
    let one = tmp.path().join("one");
    assert!(err(&[&shards[0], &one]).contains("is not a shard"));

    // a shard of another profile
    let legacy = tmp.path().join("legacy2");
    assert_exit(
        &findbench(&[
            "run",
            "corpora/",
            "--no-progress",
            "--quiet",
            "--exit-zero",
            "--profile",
            "legacy",
            "--shard",
            "2/3",
            "--out",
            path_str(&legacy),
        ]),
        0,
    );
    let e = err(&[&shards[0], &legacy, &shards[2]]);
    assert!(
        e.contains("shards differ in profile") && e.contains("legacy"),
        "{e}"
    );

    // a shard of other corpora
    let other = tmp.path().join("other2");
    assert_exit(
        &findbench(&[
            "run",
            "corpora/names.yaml",
            "--no-progress",
            "--quiet",
            "--shard",
            "2/3",
            "--out",
            path_str(&other),
        ]),
        0,
    );
    let e = err(&[&shards[0], &other, &shards[2]]);
    assert!(e.contains("shards differ in corpora"), "{e}");
}

#[test]
fn sharded_replays_of_the_shipped_traces_merge_into_the_unsharded_replay() {
    let tmp = tempfile::tempdir().unwrap();
    shard_and_merge(
        tmp.path(),
        &[
            "replay",
            "traces/production.jsonl",
            "--format",
            "text",
            "--quiet",
            "--jobs",
            "2",
        ],
    );
}

/// A 20,000-line trace file from scripts/gen_traces.py, replayed whole and as three shards.
#[test]
fn sharded_replays_of_twenty_thousand_generated_traces_merge_exactly() {
    let tmp = tempfile::tempdir().unwrap();
    let traces = tmp.path().join("traces.jsonl");
    let gen = std::process::Command::new("python3")
        .arg(common::repo_root().join("scripts/gen_traces.py"))
        .args(["--lines", "20000", "--out"])
        .arg(&traces)
        .status()
        .expect("python3 runs scripts/gen_traces.py");
    assert!(gen.success());
    shard_and_merge(
        tmp.path(),
        &["replay", path_str(&traces), "--format", "text", "--quiet"],
    );
}

/// The `gate:` lines of a command's text output.
fn gate_lines(out: &std::process::Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.starts_with("gate:"))
        .map(str::to_string)
        .collect()
}

/// A copy of corpora/names.yaml with a planted failure and a `gate:` section it fails.
fn failing_corpus(dir: &Path) -> PathBuf {
    let names = std::fs::read_to_string(common::repo_root().join("corpora/names.yaml")).unwrap();
    let store = common::repo_root().join("corpora/fixtures/life.json");
    let text = names
        .replace(
            "fixture: {store: fixtures/life.json}",
            &format!("fixture: {{store: {}}}", store.display()),
        )
        .replace(
            "gate: {min_pass_rate: 0.9, max_failed: 0}",
            "gate: {min_pass_rate: 0.999, max_failed: 0}",
        )
        .replace(
            "cases:\n",
            "cases:\n  - id: planted-failure\n    query: read emails\n    mode: name\n    expect: {top: T2}\n",
        );
    let path = dir.join("names-failing.yaml");
    std::fs::write(&path, text).unwrap();
    path
}

/// Shards of a run whose unsharded run fails (a failing case, a failing corpus gate, a
/// failing threshold, against a baseline) merge into its exit code, its gate lines and its
/// reports, timing aside; `--exit-zero` is kept too.
#[test]
fn merge_gates_the_shards_as_the_unsharded_run() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = failing_corpus(tmp.path());
    for exit_zero in [false, true] {
        let dir = tmp.path().join(format!("exit-zero-{exit_zero}"));
        let run = |extra: &[&str], out: &Path| {
            let mut args = vec![
                "run",
                path_str(&corpus),
                "--no-progress",
                "--jobs",
                "2",
                "--min-pass-rate",
                "0.99",
                "--max-p95-ms",
                "100000",
                "--baseline",
                "reports/baseline/results.json",
                "--out",
                path_str(out),
            ];
            if exit_zero {
                args.push("--exit-zero");
            }
            args.extend(extra);
            findbench(&args)
        };
        let one = dir.join("one");
        let whole = run(&[], &one);
        assert_exit(&whole, if exit_zero { 0 } else { 1 });
        let lines = gate_lines(&whole);
        assert!(
            lines.iter().any(|l| l.contains("planted-failure"))
                && lines
                    .iter()
                    .any(|l| l.starts_with("gate: FAIL names: pass rate"))
                && lines
                    .iter()
                    .any(|l| l.starts_with("gate: FAIL all: pass rate")),
            "{lines:#?}"
        );
        let shards: Vec<PathBuf> = (1..=3).map(|k| dir.join(format!("s{k}"))).collect();
        for (k, s) in shards.iter().enumerate() {
            run(&["--shard", &format!("{}/3", k + 1)], s);
        }
        let merged = dir.join("merged");
        let mut m = vec!["merge", "--out", path_str(&merged)];
        m.extend(shards.iter().map(|s| path_str(s)));
        let joined = findbench(&m);
        assert_exit(&joined, whole.status.code().unwrap());
        assert_eq!(gate_lines(&joined), lines);
        assert_same_reports(&one, &merged);
        // the reports byte for byte, timing masked
        let cases = |d: &Path| {
            let mut v: Vec<Value> = std::fs::read_to_string(d.join("cases.jsonl"))
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            v.iter_mut().for_each(normalise_json);
            v
        };
        assert_eq!(cases(&one), cases(&merged));
        let summary = |d: &Path| std::fs::read_to_string(d.join("summary.md")).unwrap();
        assert!(summary(&merged).contains("Against baseline"));
        // -q: the gate lines alone, as `run -q` prints them
        m.push("-q");
        let quiet = findbench(&m);
        assert_exit(&quiet, whole.status.code().unwrap());
        let text = String::from_utf8_lossy(&quiet.stdout).to_string();
        assert_eq!(text.trim().lines().collect::<Vec<_>>(), lines, "{text}");
    }
}

/// Shards of different engine versions are refused (exit 2) naming the difference, and a
/// merge whose stdout is a full disk exits 3 saying so.
#[test]
fn merge_refuses_other_engine_versions_and_reports_a_full_stdout() {
    let tmp = tempfile::tempdir().unwrap();
    let shards: Vec<PathBuf> = (1..=2).map(|k| tmp.path().join(format!("s{k}"))).collect();
    for (k, s) in shards.iter().enumerate() {
        let o = findbench(&[
            "run",
            "corpora/names.yaml",
            "--no-progress",
            "-q",
            "--shard",
            &format!("{}/2", k + 1),
            "--out",
            path_str(s),
        ]);
        assert_exit(&o, 0);
    }
    #[cfg(target_os = "linux")]
    {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_findbench"))
            .args(["merge", "--out"])
            .arg(tmp.path().join("m"))
            .args(&shards)
            .current_dir(common::repo_root())
            .stdout(full)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{stderr}");
        assert!(stderr.contains("cannot write to stdout"), "{stderr}");
    }
    let results = shards[1].join("results.json");
    let mut doc: Value = serde_json::from_slice(&std::fs::read(&results).unwrap()).unwrap();
    doc["engine_version"] = Value::from("99.0.0");
    std::fs::write(&results, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    let out = findbench(&[
        "merge",
        "--out",
        path_str(&tmp.path().join("m2")),
        path_str(&shards[0]),
        path_str(&shards[1]),
    ]);
    assert_exit(&out, 2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("shards differ in engine version") && stderr.contains("99.0.0"),
        "{stderr}"
    );
}

/// Shards of a replay whose thresholds fail merge into the unsharded replay's exit code
/// and gate lines.
#[test]
fn merge_gates_replay_shards_as_the_unsharded_replay() {
    let tmp = tempfile::tempdir().unwrap();
    let replay = |extra: &[&str], out: &Path| {
        let mut args = vec![
            "replay",
            "traces/production.jsonl",
            "--format",
            "text",
            "--min-pass-rate",
            "0.999",
            "--max-ie-rate",
            "0.5",
            "--out",
            path_str(out),
        ];
        args.extend(extra);
        findbench(&args)
    };
    let one = tmp.path().join("one");
    let whole = replay(&[], &one);
    assert_exit(&whole, 1);
    let lines = gate_lines(&whole);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("gate: FAIL all: pass rate")),
        "{lines:#?}"
    );
    let shards: Vec<PathBuf> = (1..=3).map(|k| tmp.path().join(format!("s{k}"))).collect();
    for (k, s) in shards.iter().enumerate() {
        replay(&["--shard", &format!("{}/3", k + 1)], s);
    }
    let merged = tmp.path().join("merged");
    let mut m = vec!["merge", "--out", path_str(&merged)];
    m.extend(shards.iter().map(|s| path_str(s)));
    let joined = findbench(&m);
    assert_exit(&joined, 1);
    assert_eq!(gate_lines(&joined), lines);
    assert_same_reports(&one, &merged);
}
