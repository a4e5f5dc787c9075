//! `findbench run` and `findbench gate` end to end: reports, determinism across --jobs,
//! corpus errors and their exit codes, the gate, and that JUnit and CSV parse.

mod common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use tempfile::TempDir;

const STORE: &str = r#"{"tasks": [
  {"id": "T001", "title": "Implement fuzzy find command", "description": "Search titles with scoring.", "status": "active", "priority": "high", "labels": ["cli"]},
  {"id": "T002", "title": "Fix authentication middleware timeout", "description": "Token cache is cold.", "status": "done", "priority": "high", "labels": ["security"]},
  {"id": "T003", "title": "Add user registration flow", "description": "Email sign-up.", "status": "pending", "priority": "low", "labels": ["auth"]},
  {"id": "T004", "title": "Write user registration tests", "description": "Duplicate emails.", "status": "active", "priority": "high", "labels": ["tests"]},
  {"id": "T005", "title": "Refactor session cache eviction", "description": "TTL-aware cache.", "status": "done", "priority": "low", "labels": ["perf"]}
], "archive": [
  {"id": "T900", "title": "Prototype find command in bash", "status": "done", "priority": "low"}
]}
"#;

const CORPUS: &str = r#"suite: mini
fixture: {store: todo.json}
budget: {max_output_bytes: 5120}
gate: {min_pass_rate: 0.5}
cases:
  - id: fuzzy
    query: fuzzy find
    mode: task
    expect: {outcome: success, top: T001}
    tags: [title]
  - id: typo
    query: authentcation
    mode: task
    expect: {top: T002}
    tags: [typo]
  - id: registration
    query: registration
    mode: task
    expect: {contains: [T003, T004], within: 2}
    tags: [title]
  - id: pending-only
    query: registration
    mode: task
    args: {status: pending}
    expect: {top: T003, excludes: [T004]}
    tags: [status]
  - id: nothing
    query: xyzzy
    mode: task
    expect: {outcome: no_match}
  - id: archived
    query: prototype
    mode: task
    args: {include-archive: true}
    expect: {top: T900}
  - id: id-prefix
    mode: task
    args: {id: T00}
    expect: {contains: [T001, T005]}
    tags: [id]
  - id: known-bad
    query: sesion
    mode: task
    expect: {top: T004}
    known_failure: "deliberately wrong expectation: session cache is T005"
  - id: empty-is-error
    query: ""
    mode: task
    expect: {outcome: error}
"#;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_findbench"))
}

struct Fixture {
    dir: TempDir,
}

impl Fixture {
    fn new(corpus: &str) -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("todo.json"), STORE).unwrap();
        std::fs::write(dir.path().join("mini.yaml"), corpus).unwrap();
        Fixture { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    fn run(&self, extra: &[&str]) -> Output {
        let mut cmd = bin();
        cmd.arg("run")
            .arg(self.path("mini.yaml"))
            .arg("--out")
            .arg(self.path("out"))
            .args(extra)
            .env_remove("GITHUB_STEP_SUMMARY");
        cmd.output().unwrap()
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).to_string()
}

#[test]
fn run_writes_five_reports_and_prints_the_summary() {
    let f = Fixture::new(CORPUS);
    let out = f.run(&[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("Passed: 8 / 9"), "{stdout}");
    assert!(stdout.contains("Rate: 88.9%"), "{stdout}");
    assert!(stdout.contains("Avg tools/query: 1.00"), "{stdout}");
    assert!(stdout.contains("XFAIL mini/known-bad"), "{stdout}");
    for name in [
        "summary.md",
        "cases.csv",
        "summary.csv",
        "results.json",
        "junit.xml",
    ] {
        assert!(f.path("out").join(name).is_file(), "{name} missing");
    }
    // no temporary file is left behind
    let leftovers: Vec<_> = std::fs::read_dir(f.path("out"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());

    let results: Value =
        serde_json::from_slice(&std::fs::read(f.path("out/results.json")).unwrap()).unwrap();
    // one schema and one case model for run and replay results
    common::assert_schema("results.schema.json", &results);
    let doc: findbench_eval::results::ResultsDocument =
        serde_json::from_value(results.clone()).unwrap();
    assert_eq!(doc.cases.len(), 9);
    assert!(doc.cases.iter().all(|c| c.transition.is_none()));
    let s = &results["summary"];
    assert_eq!(s["total"], 9);
    assert_eq!(s["passed"], 8);
    assert_eq!(s["failed"], 0);
    assert_eq!(s["xfail"], 1);
    assert_eq!(s["xpass"], 0);
    assert_eq!(s["pass_rate"], 0.8889);
    assert_eq!(s["insufficient_evidence_rate"], 0.0);
    assert_eq!(results["corpora"][0]["sha256"].as_str().unwrap().len(), 64);
    assert!(results["engine_version"].is_string());
    assert!(results["threads"].as_u64().unwrap() >= 1);
    let cases = results["cases"].as_array().unwrap();
    let ids: Vec<&str> = cases.iter().map(|c| c["id"].as_str().unwrap()).collect();
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(ids, sorted, "cases are in id order");
    for c in cases {
        for key in [
            "id",
            "suite",
            "mode",
            "status",
            "outcome",
            "candidates",
            "duration_ms",
            "output_bytes",
            "reason",
        ] {
            assert!(c.get(key).is_some(), "case field {key} missing");
        }
    }
    let typo = cases.iter().find(|c| c["id"] == "typo").unwrap();
    assert_eq!(typo["status"], "pass");
    assert_eq!(typo["rank"], 1);
    // the bytes `findbench find` prints for the same query, up to the width of the real
    // `_meta.duration_ms` (the measured envelope uses a fixed 12.345)
    let printed = bin()
        .args([
            "find",
            "task",
            "authentcation",
            "--format",
            "json",
            "--store",
        ])
        .arg(f.path("todo.json"))
        .output()
        .unwrap();
    let measured = typo["output_bytes"].as_u64().unwrap() as i64;
    assert!(
        (measured - printed.stdout.len() as i64).abs() <= 4,
        "{measured} vs {}",
        printed.stdout.len()
    );
}

/// Drops the timing columns and run metadata so two runs can be compared byte for byte.
fn normalise_json(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.retain(|k, _| {
                !(k.ends_with("_ms") || k == "started_at" || k == "threads" || k == "within_budget")
            });
            map.values_mut().for_each(normalise_json);
        }
        Value::Array(items) => items.iter_mut().for_each(normalise_json),
        _ => {}
    }
}

fn normalise_csv(path: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let headers: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    let keep: Vec<usize> = (0..headers.len())
        .filter(|&i| !(headers[i].ends_with("_ms") || headers[i] == "within_budget"))
        .collect();
    let mut rows = vec![keep.iter().map(|&i| headers[i].clone()).collect::<Vec<_>>()];
    for rec in r.records() {
        let rec = rec.unwrap();
        rows.push(keep.iter().map(|&i| rec[i].to_string()).collect());
    }
    rows
}

fn strip_time_attrs(xml: &str) -> String {
    let mut out = String::new();
    let mut rest = xml;
    while let Some(i) = rest.find(" time=\"") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 7..];
        let end = after.find('"').unwrap();
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

#[test]
fn reports_are_identical_across_jobs_apart_from_timing() {
    let f = Fixture::new(CORPUS);
    let run = |jobs: &str, dir: &str| {
        let out = bin()
            .arg("run")
            .arg(f.path("mini.yaml"))
            .args(["--jobs", jobs, "--out"])
            .arg(f.path(dir))
            .env_remove("GITHUB_STEP_SUMMARY")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    };
    run("1", "one");
    run("2", "two");
    let (one, two) = (f.path("one"), f.path("two"));
    let md = |d: &Path| {
        let s = std::fs::read_to_string(d.join("summary.md")).unwrap();
        s[..s.find("## Latency").unwrap()].to_string()
    };
    assert_eq!(md(&one), md(&two));
    for csv in ["cases.csv", "summary.csv"] {
        assert_eq!(
            normalise_csv(&one.join(csv)),
            normalise_csv(&two.join(csv)),
            "{csv}"
        );
    }
    let json = |d: &Path| {
        let mut v: Value =
            serde_json::from_slice(&std::fs::read(d.join("results.json")).unwrap()).unwrap();
        normalise_json(&mut v);
        v
    };
    assert_eq!(json(&one), json(&two));
    let xml = |d: &Path| strip_time_attrs(&std::fs::read_to_string(d.join("junit.xml")).unwrap());
    assert_eq!(xml(&one), xml(&two));
}

#[test]
fn junit_and_csv_parse_with_standard_readers() {
    let f = Fixture::new(CORPUS);
    let out = f.run(&[]);
    assert_eq!(out.status.code(), Some(0));
    let xml = std::fs::read_to_string(f.path("out/junit.xml")).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let cases: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    assert_eq!(cases.len(), 9);
    let known = cases
        .iter()
        .find(|n| n.attribute("name") == Some("known-bad"))
        .unwrap();
    assert!(
        known.children().any(|c| c.has_tag_name("skipped")),
        "xfail is skipped"
    );
    assert!(cases
        .iter()
        .all(|n| !n.children().any(|c| c.has_tag_name("failure"))));
    let root = doc.root_element();
    assert_eq!(root.attribute("tests"), Some("9"));
    assert_eq!(root.attribute("skipped"), Some("1"));

    let mut r = csv::Reader::from_path(f.path("out/cases.csv")).unwrap();
    let headers = r.headers().unwrap().clone();
    assert_eq!(&headers[0], "suite");
    assert_eq!(&headers[1], "id");
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    assert_eq!(rows.len(), 9);
    let status = headers.iter().position(|h| h == "status").unwrap();
    assert_eq!(rows.iter().filter(|r| &r[status] == "xfail").count(), 1);

    let mut r = csv::Reader::from_path(f.path("out/summary.csv")).unwrap();
    let headers = r.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    let rate = headers.iter().position(|h| h == "pass_rate").unwrap();
    assert_eq!(&rows[0][0], "all");
    assert_eq!(&rows[0][rate], "0.8889");
    assert!(rows.iter().any(|r| &r[0] == "tag" && &r[1] == "typo"));
}

#[test]
fn a_case_broken_on_purpose_fails_the_gate() {
    let broken = CORPUS.replace(
        "expect: {outcome: success, top: T001}",
        "expect: {top: T003}",
    );
    let f = Fixture::new(&broken);
    // the gate applies on every run: an unexpected failure is exit 1 without --gate, and
    // --exit-zero turns it into a report
    let out = f.run(&[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let out = f.run(&["--exit-zero"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("gate: FAIL all: 1 unexpected failure"));
    let out = f.run(&["--gate"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("FAIL  mini/fuzzy: expected top `T003`, got `T001`"),
        "{stdout}"
    );
    assert!(
        stdout.contains("gate: FAIL all: 1 unexpected failure (at most 0 allowed): mini/fuzzy"),
        "{stdout}"
    );
    let xml = std::fs::read_to_string(f.path("out/junit.xml")).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let failure = doc
        .descendants()
        .find(|n| n.has_tag_name("failure"))
        .expect("a failure element");
    assert!(failure
        .attribute("message")
        .unwrap()
        .contains("expected top `T003`"));
}

#[test]
fn gate_thresholds_exit_codes_and_xpass() {
    // the known failure passes here: an xpass is reported, not failed
    let xpass = CORPUS.replace("expect: {top: T004}", "expect: {top: T005}");
    let f = Fixture::new(&xpass);
    let out = f.run(&[]);
    assert_eq!(out.status.code(), Some(0));
    let results = f.path("out/results.json");
    let gate = |args: &[&str]| {
        let out = bin().arg("gate").arg(&results).args(args).output().unwrap();
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    };
    let (code, stdout, _) = gate(&[]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.contains("gate: note XPASS mini/known-bad"),
        "{stdout}"
    );
    assert!(stdout.contains("gate: passed"), "{stdout}");

    let (code, stdout, _) = gate(&["--min-pass-rate", "1.0"]);
    assert_eq!(code, Some(0), "all 9 held (8 pass + 1 xpass): {stdout}");

    let f2 = Fixture::new(CORPUS);
    assert_eq!(f2.run(&[]).status.code(), Some(0));
    let results2 = f2.path("out/results.json");
    let out = bin()
        .arg("gate")
        .arg(&results2)
        .args(["--min-pass-rate", "0.95", "--max-p95-ms", "100000"])
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("gate: FAIL all: pass rate 88.9% is below the minimum 95.0%"),
        "{stdout}"
    );
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.starts_with("gate: FAIL"))
            .count(),
        1,
        "{stdout}"
    );

    let out = bin()
        .arg("gate")
        .arg(&results2)
        .args(["--max-ie-rate", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));

    // invalid threshold: 2; missing results: 3; not a results file: 2
    let (code, _, stderr) = gate(&["--min-pass-rate", "95"]);
    assert_eq!(code, Some(2), "{stderr}");
    let out = bin()
        .args(["gate", "/nonexistent/results.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let junk = f.write("junk.json", "{\"x\": 1}");
    let out = bin().arg("gate").arg(junk).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

#[test]
fn run_gate_uses_the_corpus_gate_section() {
    let strict = CORPUS.replace("gate: {min_pass_rate: 0.5}", "gate: {min_pass_rate: 0.99}");
    let f = Fixture::new(&strict);
    let out = f.run(&["--gate"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("gate: FAIL mini: pass rate 88.9% is below the minimum 99.0%"),
        "{stdout}"
    );
    // thresholds on the command line imply --gate
    let f = Fixture::new(CORPUS);
    let out = f.run(&["--min-pass-rate", "0.99"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn baseline_regressions_fail_the_gate() {
    let f = Fixture::new(CORPUS);
    assert_eq!(f.run(&[]).status.code(), Some(0));
    std::fs::rename(f.path("out"), f.path("base")).unwrap();
    f.write(
        "mini.yaml",
        &CORPUS.replace(
            "expect: {outcome: success, top: T001}",
            "expect: {top: T003}",
        ),
    );
    let out = f.run(&[
        "--baseline",
        f.path("base").to_str().unwrap(),
        "--gate",
        "--max-failed",
        "5",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("newly failing: mini/fuzzy (pass (success) -> fail (success))"),
        "{stdout}"
    );
    let md = common::squeeze_tables(&std::fs::read_to_string(f.path("out/summary.md")).unwrap());
    assert!(
        md.contains("## Against baseline") && md.contains("| regressed | mini | `fuzzy`"),
        "{md}"
    );
}

#[test]
fn filter_by_tag_and_id() {
    let f = Fixture::new(CORPUS);
    let out = f.run(&["--filter", "typo,fuzzy"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("Passed: 2 / 2"), "{stdout}");
    let out = f.run(&["--filter", "no-such-tag"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no case matches --filter no-such-tag"));
}

#[test]
fn step_summary_is_appended_when_set() {
    let f = Fixture::new(CORPUS);
    let summary = f.write("step.md", "previous step\n");
    let out = bin()
        .arg("run")
        .arg(f.path("mini.yaml"))
        .arg("--out")
        .arg(f.path("out"))
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = std::fs::read_to_string(summary).unwrap();
    assert!(text.starts_with("previous step\n# findbench run"), "{text}");
}

/// Runs a corpus that should be refused; returns (exit code, stderr). Nothing may be written.
fn refused(corpus: &str) -> (Option<i32>, String) {
    let f = Fixture::new(corpus);
    let out = f.run(&[]);
    assert!(
        !f.path("out").exists(),
        "reports written for a refused corpus"
    );
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    (out.status.code(), text(&out.stderr))
}

#[test]
fn corpus_errors_name_file_line_and_case() {
    // unknown key: lists the allowed keys
    let (code, err) = refused(&CORPUS.replace("    tags: [typo]", "    tagz: [typo]"));
    assert_eq!(code, Some(2));
    assert!(
        err.contains("mini.yaml:15: case `typo`: unknown field `tagz`"),
        "{err}"
    );
    assert!(err.contains("known_failure"), "{err}");
    // unknown top-level key
    let (code, err) = refused(&CORPUS.replace("budget:", "budgett:"));
    assert_eq!(code, Some(2));
    assert!(
        err.contains("mini.yaml:3:") && err.contains("budgett") && err.contains("suite"),
        "{err}"
    );
    // missing field
    let (code, err) = refused(&CORPUS.replace(
        "    query: authentcation\n    mode: task\n",
        "    query: authentcation\n",
    ));
    assert_eq!(code, Some(2));
    assert!(
        err.contains("case `typo`") && err.contains("missing field `mode`"),
        "{err}"
    );
    // wrong type
    let (code, err) = refused(&CORPUS.replace(
        "expect: {contains: [T003, T004], within: 2}",
        "expect: {contains: [T003, T004], within: two}",
    ));
    assert_eq!(code, Some(2));
    assert!(err.contains("mini.yaml:19: case `registration`"), "{err}");
    // duplicate case id
    let (code, err) = refused(&CORPUS.replace("id: nothing", "id: typo"));
    assert_eq!(code, Some(2));
    assert!(
        err.contains("case `typo`: duplicate case id (first defined at line 11)"),
        "{err}"
    );
    // unknown mode and unknown or mistyped arg
    let (code, err) = refused(&CORPUS.replace(
        "query: xyzzy\n    mode: task",
        "query: xyzzy\n    mode: tsak",
    ));
    assert_eq!(code, Some(2));
    assert!(err.contains("case `nothing`: unknown mode `tsak`"), "{err}");
    let (code, err) = refused(&CORPUS.replace("args: {status: pending}", "args: {stats: pending}"));
    assert_eq!(code, Some(2));
    assert!(err.contains("mini.yaml:24: case `pending-only`: unknown arg `stats` for mode `task`; allowed: id, field, status"), "{err}");
    let (code, err) = refused(&CORPUS.replace(
        "args: {include-archive: true}",
        "args: {include-archive: sure}",
    ));
    assert_eq!(code, Some(2));
    assert!(
        err.contains(
            "case `archived`: arg `include-archive` of mode `task` takes true or false; got the string \"sure\""
        ),
        "{err}"
    );
    // malformed YAML
    let (code, err) =
        refused(&CORPUS.replace("tags: [title]\n  - id: typo", "tags: [title\n  - id: typo"));
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("mini.yaml:"), "{err}");
    // missing fixture: a file error
    let (code, err) = refused(&CORPUS.replace("store: todo.json", "store: nope.json"));
    assert_eq!(code, Some(3));
    assert!(
        err.contains("mini.yaml:2: fixture store `nope.json` does not exist"),
        "{err}"
    );
}

#[test]
fn missing_corpus_and_directory_expansion() {
    let out = bin()
        .args(["run", "/nonexistent/corpus.yaml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(text(&out.stderr).contains("/nonexistent/corpus.yaml"));

    // a directory runs every *.yaml inside; a duplicate id across files of one suite is refused
    let f = Fixture::new(CORPUS);
    let second = "suite: other\nfixture: {store: todo.json}\ncases:\n  - id: fuzzy\n    query: fuzzy\n    mode: task\n    expect: {top: T001}\n";
    f.write("second.yml", second);
    f.write("notes.txt", "not a corpus");
    let out = bin()
        .arg("run")
        .arg(f.dir.path())
        .arg("--out")
        .arg(f.path("out"))
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("Passed: 9 / 10"), "{stdout}");
    assert!(stdout.contains("2 suites"), "{stdout}");
    f.write("second.yml", &second.replace("suite: other", "suite: mini"));
    let out = bin()
        .arg("run")
        .arg(f.dir.path())
        .arg("--out")
        .arg(f.path("out2"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("second.yml:4: case `fuzzy`: duplicate case id in suite `mini`"),
        "{}",
        text(&out.stderr)
    );
    // a glob
    let pattern = format!("{}/*.yml", f.dir.path().display());
    let out = bin()
        .args(["run", &pattern, "--out"])
        .arg(f.path("out3"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Passed: 1 / 1"));
}
