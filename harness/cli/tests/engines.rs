//! `run --engine`: an external engine (a shell script written here) through both answer
//! kinds (lines, json), a timeout, a crash, garbage output, a missing program; the results
//! are right, and nothing else in the run is affected. Then `compare --engines` and engine
//! file errors.

mod common;

use common::{assert_exit, assert_schema, findbench_in};
use serde_json::Value;
use std::path::Path;
use tempfile::TempDir;

/// The tool: `tool.sh KIND QUERY FIXTURE`. Lines answers name files by absolute path (the
/// harness makes them relative to the root); json answers as `{"results": [{"path"}]}`.
const TOOL: &str = r#"kind=$1
query=$2
fixture=$3
case "$query" in
  hang) sleep 30 ;;
  crash) echo "boom: index is corrupt" >&2; exit 3 ;;
  garbage)
    if [ "$kind" = json ]; then echo "<html>oops</html>"; else printf '\377\376\n'; fi ;;
  nothingatall) exit 1 ;;
  *)
    if [ "$kind" = json ]; then
      printf '{"results": [{"path": "src/%s.rs"}, {"path": "docs/readme.md"}]}\n' "$query"
    else
      printf '%s/src/%s.rs\n./src/beta.rs\n' "$fixture" "$query"
    fi ;;
esac
"#;

const ENGINE: &str = r#"name: toy
about: a test tool
timeout_ms: 20000
modes:
  grep:
    argv: [sh, "{engine_dir}/tool.sh", lines, "{query}", "{root}"]
    answer: lines
    no_match_exit: [1]
    timeout_ms: 300
  path:
    argv: [sh, "{engine_dir}/tool.sh", json, "{query}", "{paths}"]
    answer: json
    list: results
    key: path
"#;

const MISSING: &str = r#"name: ghost
modes:
  grep:
    argv: [findbench-test-no-such-program, "{query}", "{root}"]
    answer: lines
"#;

const TREE_CORPUS: &str = r#"suite: mini
fixture: {root: tree}
cases:
  - id: found
    query: alpha
    mode: grep
    expect: {top: src/alpha.rs}
  - id: hang
    query: hang
    mode: grep
    expect: {outcome: no_match}
  - id: crash
    query: crash
    mode: grep
    expect: {outcome: no_match}
  - id: garbage
    query: garbage
    mode: grep
    expect: {outcome: no_match}
  - id: nothing
    query: nothingatall
    mode: grep
    expect: {outcome: no_match}
  - id: path-found
    query: alpha
    mode: path
    expect: {top: src/alpha.rs}
  - id: path-garbage
    query: garbage
    mode: path
    expect: {outcome: no_match}
"#;

const STORE_CORPUS: &str = r#"suite: items
fixture: {store: todo.json}
cases:
  - id: task
    query: fuzzy
    mode: task
    expect: {top: T001}
"#;

fn setup() -> TempDir {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let write = |rel: &str, text: &str| {
        let p = d.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write("tree/src/alpha.rs", "fn alpha() {}\n// alpha calls alpha\n");
    write("tree/src/beta.rs", "fn beta() { alpha() }\n");
    write("tree/docs/readme.md", "# readme\n");
    write(
        "todo.json",
        r#"{"tasks": [{"id": "T001", "title": "Implement fuzzy find", "status": "active"}]}"#,
    );
    write("tree.yaml", TREE_CORPUS);
    write("items.yaml", STORE_CORPUS);
    write("engines/tool.sh", TOOL);
    write("engines/toy.yaml", ENGINE);
    write("engines/ghost.yaml", MISSING);
    dir
}

fn run(dir: &Path, engines: &[&str], out: &str) -> std::process::Output {
    let mut args = vec![
        "run",
        "tree.yaml",
        "items.yaml",
        "--out",
        out,
        "--no-progress",
    ];
    for e in engines {
        args.push("--engine");
        args.push(e);
    }
    findbench_in(dir, &args)
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn case<'a>(cases: &'a Value, id: &str) -> &'a Value {
    cases
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no case {id}"))
}

#[test]
fn an_external_engine_beside_findbench_every_failure_contained() {
    let dir = setup();
    let d = dir.path();
    let out = run(d, &["findbench", "toy", "engines/ghost.yaml"], "out");
    // no gate: a failing peer does not change the exit code
    assert_exit(&out, 0);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let results = read_json(&d.join("out/results.json"));
    assert_schema("results.schema.json", &results);

    let engines = results["engines"].as_array().unwrap();
    let names: Vec<&str> = engines
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["findbench", "toy", "ghost"]);
    assert_eq!(engines[0]["primary"], true);
    assert_eq!(
        (
            engines[0]["cases_run"].as_u64(),
            engines[0]["not_applicable"].as_u64()
        ),
        (Some(8), Some(0))
    );
    // the task case is n/a for toy (it answers grep and path), not a failure
    assert_eq!(
        (
            engines[1]["cases_run"].as_u64(),
            engines[1]["not_applicable"].as_u64()
        ),
        (Some(7), Some(1))
    );
    assert_eq!(engines[1]["modes"], serde_json::json!(["path", "grep"]));
    assert_eq!(engines[1]["summary"]["total"], 7);
    // the missing program is reported once, for its engine, which runs nothing
    assert_eq!(
        engines[2]["missing"],
        "`findbench-test-no-such-program` is not installed (not found on PATH)"
    );
    assert_eq!(engines[2]["cases_run"], 0);
    assert!(engines[2]["cases"].as_array().is_none_or(|c| c.is_empty()));
    assert_eq!(
        stdout.matches("findbench-test-no-such-program").count(),
        1,
        "{stdout}"
    );

    let toy = &engines[1]["cases"];
    let status = |id: &str| case(toy, id)["status"].as_str().unwrap().to_string();
    let reason = |id: &str| case(toy, id)["reason"].as_str().unwrap_or("").to_string();
    // lines: an absolute path and a ./ path, both made relative to the root
    assert_eq!(status("found"), "pass");
    assert_eq!(
        case(toy, "found")["ranked"],
        serde_json::json!(["src/alpha.rs", "src/beta.rs"])
    );
    assert_eq!(case(toy, "found")["engine"], "toy");
    assert_eq!(case(toy, "found")["rank"], 1);
    // bytes to evidence: the answer, then src/alpha.rs read (grep is about content)
    let answer = case(toy, "found")["output_bytes"].as_u64().unwrap();
    let alpha = std::fs::metadata(d.join("tree/src/alpha.rs"))
        .unwrap()
        .len();
    assert_eq!(
        case(toy, "found")["evidence_bytes"].as_u64(),
        Some(answer + alpha)
    );
    // json
    assert_eq!(status("path-found"), "pass");
    assert_eq!(
        case(toy, "path-found")["ranked"],
        serde_json::json!(["src/alpha.rs", "docs/readme.md"])
    );
    // exit 1 is declared "found nothing"
    assert_eq!(status("nothing"), "pass");
    assert_eq!(case(toy, "nothing")["outcome"], "no_match");
    // each broken call is a failed case with its reason
    assert_eq!(status("hang"), "fail");
    assert_eq!(
        reason("hang"),
        "tool error: timed out after 300 ms (killed)"
    );
    assert_eq!(case(toy, "hang")["outcome"], "error");
    assert_eq!(status("crash"), "fail");
    assert_eq!(
        reason("crash"),
        "tool error: exited with status 3: boom: index is corrupt"
    );
    assert_eq!(status("garbage"), "fail");
    assert!(
        reason("garbage").starts_with("tool error: answer is not UTF-8 text"),
        "{}",
        reason("garbage")
    );
    assert_eq!(status("path-garbage"), "fail");
    assert!(
        reason("path-garbage").starts_with("tool error: answer is not JSON"),
        "{}",
        reason("path-garbage")
    );

    // findbench's own results are exactly what a run without the other engines gives
    let alone = run(d, &["findbench"], "alone");
    assert_exit(&alone, 0);
    let alone = read_json(&d.join("alone/results.json"));
    let key = |c: &Value| {
        (
            c["id"].clone(),
            c["status"].clone(),
            c["outcome"].clone(),
            c["ranked"].clone(),
            c["engine"].clone(),
        )
    };
    let primary: Vec<_> = results["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(key)
        .collect();
    let single: Vec<_> = alone["cases"].as_array().unwrap().iter().map(key).collect();
    assert_eq!(primary, single);
    assert!(primary.iter().all(|c| c.1 == "pass"), "{primary:?}");
    assert_eq!(results["summary"], {
        let mut s = alone["summary"].clone();
        // timings differ between runs
        s["latency"] = results["summary"]["latency"].clone();
        s
    });

    // every case of every engine in the CSV and the JUnit, with its engine
    let csv = std::fs::read_to_string(d.join("out/cases.csv")).unwrap();
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let headers = reader.headers().unwrap().clone();
    let engine_col = headers.iter().position(|h| h == "engine").unwrap();
    let mut per_engine = std::collections::BTreeMap::new();
    for row in reader.records() {
        *per_engine
            .entry(row.unwrap()[engine_col].to_string())
            .or_insert(0) += 1;
    }
    // toy's n/a task case is listed too
    assert_eq!(
        per_engine,
        [("findbench".to_string(), 8), ("toy".to_string(), 8)].into()
    );
    let junit = std::fs::read_to_string(d.join("out/junit.xml")).unwrap();
    let doc = roxmltree::Document::parse(&junit).unwrap();
    let suites: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testsuite"))
        .filter_map(|n| n.attribute("name"))
        .collect();
    assert_eq!(
        suites,
        ["findbench/items", "findbench/mini", "toy/items", "toy/mini"]
    );

    // one table, a row per engine, n/a where an engine answers no case of a suite
    assert!(stdout.contains("Engines:"), "{stdout}");
    let items_toy = stdout
        .lines()
        .find(|l| l.contains("items") && l.contains("toy"))
        .unwrap_or_else(|| panic!("no items/toy row:\n{stdout}"));
    assert!(items_toy.contains("n/a"), "{items_toy}");
    let summary = std::fs::read_to_string(d.join("out/summary.md")).unwrap();
    assert!(summary.contains("## Engines"), "{summary}");
    assert!(summary.contains("| toy "), "{summary}");
    assert!(
        summary.contains("`ghost` did not run: `findbench-test-no-such-program` is not installed"),
        "{summary}"
    );

    // two engines of the run, paired on the cases both ran
    let cmp = findbench_in(
        d,
        &[
            "compare",
            "out/results.json",
            "--engines",
            "findbench,toy",
            "-f",
            "json",
        ],
    );
    assert_exit(&cmp, 0);
    let cmp: Value = serde_json::from_slice(&cmp.stdout).unwrap();
    assert_eq!(cmp["paired_cases"], 7);
    assert!(cmp["after_label"].as_str().unwrap().contains("engine toy"));
    let regressed: Vec<&str> = cmp["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == "regression")
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(regressed.len(), 4, "{regressed:?}");
    for id in ["hang", "crash", "garbage", "path-garbage"] {
        assert!(regressed.contains(&id), "{regressed:?}");
    }
    // an engine of each of two runs
    let cmp = findbench_in(
        d,
        &[
            "compare",
            "alone/results.json",
            "out/results.json",
            "--engine-after",
            "toy",
            "-f",
            "json",
        ],
    );
    assert_exit(&cmp, 0);
    let cmp: Value = serde_json::from_slice(&cmp.stdout).unwrap();
    assert_eq!(cmp["after_cases"], 7);
    let bad = findbench_in(
        d,
        &[
            "compare",
            "out/results.json",
            "--engines",
            "findbench,rg",
            "-f",
            "text",
        ],
    );
    assert_exit(&bad, 2);
    assert!(String::from_utf8_lossy(&bad.stderr)
        .contains("no engine `rg` in these results (engines: findbench, toy, ghost)"));
}

#[test]
fn the_gated_engine_must_be_installed_and_engine_files_are_checked() {
    let dir = setup();
    let d = dir.path();
    // the first engine is the one gated: when it cannot run, nothing runs (file error)
    let out = run(d, &["ghost", "findbench"], "out");
    assert_exit(&out, 3);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("engine `ghost` (the first --engine, the one gated) cannot run: `findbench-test-no-such-program` is not installed"), "{err}");
    assert!(!d.join("out/results.json").exists());
    // an unknown key, with file and line
    std::fs::write(
        d.join("engines/bad.yaml"),
        ENGINE.replace(
            "    answer: lines\n",
            "    answer: lines\n    anwser: json\n",
        ),
    )
    .unwrap();
    let out = run(d, &["bad"], "out");
    assert_exit(&out, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("engines/bad.yaml:8:") && err.contains("anwser"),
        "{err}"
    );
    // an unknown placeholder, and a command that never names what it searches
    std::fs::write(
        d.join("engines/bad.yaml"),
        ENGINE.replace("{query}\", \"{root}", "{qery}\", \"{root}"),
    )
    .unwrap();
    let err = String::from_utf8_lossy(&run(d, &["bad"], "out").stderr).to_string();
    assert!(
        err.contains("engines/bad.yaml:6:") && err.contains("unknown placeholder `{qery}`"),
        "{err}"
    );
    std::fs::write(
        d.join("engines/bad.yaml"),
        ENGINE.replace("\"{query}\", \"{root}\"", "\"{query}\""),
    )
    .unwrap();
    let err = String::from_utf8_lossy(&run(d, &["bad"], "out").stderr).to_string();
    assert!(
        err.contains("engines/bad.yaml:6:")
            && err.contains("mode `grep`: the command never names `{root}`"),
        "{err}"
    );
    // an engine nobody shipped, and the same engine twice
    let out = run(d, &["nosuch"], "out");
    assert_exit(&out, 3);
    assert!(String::from_utf8_lossy(&out.stderr).contains("no such engine"));
    let out = run(d, &["toy", "engines/toy.yaml"], "out");
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("engine `toy` is given twice"));
}

#[test]
fn an_external_primary_is_gated_on_the_cases_it_answers() {
    let dir = setup();
    let d = dir.path();
    let out = findbench_in(
        d,
        &[
            "run",
            "tree.yaml",
            "items.yaml",
            "--engine",
            "toy",
            "--out",
            "out",
            "--no-progress",
            "--gate",
        ],
    );
    // toy fails 4 of the 7 cases it answers; the task case is n/a, not a failure
    assert_exit(&out, 1);
    let results = read_json(&d.join("out/results.json"));
    assert_eq!(results["summary"]["total"], 7);
    assert_eq!(results["summary"]["failed"], 4);
    assert_eq!(results["engines"][0]["not_applicable"], 1);
    assert!(results["cases"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["engine"] == "toy"));
    // the n/a case is listed among the gated engine's cases, and fails nothing
    assert_eq!(case(&results["cases"], "task")["status"], "n/a");
    assert_eq!(results["summary"]["not_applicable"], 1);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("FAIL  items/task"), "{stdout}");
}

/// Every case under every engine: a case of a mode an engine does not answer is listed
/// for it as n/a with its reason, in every report, and counted in no figure.
#[test]
fn every_case_is_listed_under_every_engine_n_a_with_its_reason() {
    let dir = setup();
    let d = dir.path();
    let out = run(d, &["findbench", "toy"], "out");
    assert_exit(&out, 0);
    let why = "`toy` does not answer `task` (its engine file declares `path`, `grep`)";
    let results = read_json(&d.join("out/results.json"));
    assert_schema("results.schema.json", &results);
    let ids = |cases: &Value| -> Vec<String> {
        let mut ids: Vec<String> = cases
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].as_str().unwrap().to_string())
            .collect();
        ids.sort();
        ids
    };
    let toy = &results["engines"][1];
    assert_eq!(ids(&results["cases"]), ids(&toy["cases"]));
    let task = case(&toy["cases"], "task");
    assert_eq!(
        (
            &task["status"],
            &task["outcome"],
            &task["reason"],
            &task["engine"]
        ),
        (
            &Value::from("n/a"),
            &Value::from("n/a"),
            &Value::from(why),
            &Value::from("toy")
        )
    );
    assert_eq!(task["expected"], serde_json::json!(["T001"]));
    assert_eq!(case(&results["cases"], "task")["status"], "pass");
    // counted apart: 7 judged, 1 n/a, the pass rate over the 7
    assert_eq!(
        (
            toy["cases_run"].as_u64(),
            toy["not_applicable"].as_u64(),
            toy["summary"]["total"].as_u64(),
            toy["summary"]["not_applicable"].as_u64(),
        ),
        (Some(7), Some(1), Some(7), Some(1))
    );
    assert!(toy["suites"].get("items").is_none(), "{}", toy["suites"]);

    // cases.jsonl: every case of both engines, the n/a one with its reason
    let jsonl = std::fs::read_to_string(d.join("out/cases.jsonl")).unwrap();
    let lines: Vec<Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for l in &lines {
        assert_schema("case.schema.json", l);
    }
    assert_eq!(lines.len(), 16);
    let na: Vec<&Value> = lines.iter().filter(|c| c["status"] == "n/a").collect();
    assert_eq!(na.len(), 1);
    assert_eq!(
        (&na[0]["engine"], &na[0]["reason"]),
        (&Value::from("toy"), &Value::from(why))
    );

    // junit.xml: skipped with the reason
    let junit = std::fs::read_to_string(d.join("out/junit.xml")).unwrap();
    let doc = roxmltree::Document::parse(&junit).unwrap();
    let task = doc
        .descendants()
        .find(|n| {
            n.has_tag_name("testcase")
                && n.attribute("name") == Some("task")
                && n.attribute("classname") == Some("toy.items.task")
        })
        .unwrap_or_else(|| panic!("no toy task test case:\n{junit}"));
    let skipped = task
        .children()
        .find(|n| n.has_tag_name("skipped"))
        .expect("skipped");
    assert_eq!(
        skipped.attribute("message"),
        Some(format!("n/a: {why}").as_str())
    );

    // summary.md, report.html and the console: counted and shown with the reason
    let summary = std::fs::read_to_string(d.join("out/summary.md")).unwrap();
    assert!(summary.contains(&format!("- 1 n/a: {why}")), "{summary}");
    let html = std::fs::read_to_string(d.join("out/report.html")).unwrap();
    assert!(html.contains(&format!("<li>1 n/a: {why}</li>")), "{html}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains(&format!("1 n/a: {why}")), "{stdout}");

    // no reader counts it: gate, compare, export trec
    assert_exit(&findbench_in(d, &["gate", "out", "--max-failed", "0"]), 0);
    let trec = findbench_in(
        d,
        &["export", "trec", "out", "--engine", "toy", "--out", "trec"],
    );
    assert_exit(&trec, 0);
    assert!(
        String::from_utf8_lossy(&trec.stdout).contains("7 queries"),
        "{}",
        String::from_utf8_lossy(&trec.stdout)
    );
    let run_trec = std::fs::read_to_string(d.join("trec/run.trec")).unwrap();
    assert!(!run_trec.contains("items/task"), "{run_trec}");
    let cmp = findbench_in(
        d,
        &["compare", "out", "--engines", "findbench,toy", "-f", "json"],
    );
    assert_exit(&cmp, 0);
    let cmp: Value = serde_json::from_slice(&cmp.stdout).unwrap();
    assert_eq!(
        (cmp["paired_cases"].as_u64(), cmp["after_cases"].as_u64()),
        (Some(7), Some(7))
    );
    assert!(
        cmp["changes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["id"] != "task"),
        "{}",
        cmp["changes"]
    );
}
