//! `findbench clusters` and `findbench compare` end to end, on hand-made inputs and on the
//! shipped traces.

mod common;

use common::{
    assert_exit, assert_schema, findbench, findbench_in, repo_root, results_cases, stdout_json,
};
use serde_json::{json, Value};
use std::path::Path;

fn trace(id: &str, ts: &str, query: &str, outcome: &str, tools: &[&str]) -> String {
    let tools: Vec<Value> = tools
        .iter()
        .map(|t| json!({"name": t, "input": "x", "candidates": 0, "duration_ms": 1.0}))
        .collect();
    json!({
        "trace_id": id, "timestamp": ts, "query": query, "fixture": "agent-cpp",
        "tools": tools, "outcome": outcome, "iterations": tools.len(), "duration_ms": 10.0
    })
    .to_string()
}

fn write_traces(dir: &Path) -> std::path::PathBuf {
    let lines = [
        trace("t1", "2026-06-20T10:00:00Z", "where is replay implemented", "insufficient_evidence", &["find", "grep"]),
        trace("t2", "2026-06-19T08:00:00Z", "Where is  REPLAY implemented?", "insufficient_evidence", &["find", "grep"]),
        "{not json".to_string(),
        trace("t3", "2026-06-25T17:30:00Z", "where is replay implemented.", "insufficient_evidence", &["find", "read"]),
        trace("t4", "2026-06-21T00:00:00Z", "find cursor bin", "insufficient_evidence", &["find"]),
        trace("t5", "2026-06-21T00:00:00Z", "where is replay implemented", "success", &["find", "read"]),
        String::new(),
        r#"{"trace_id":"t6","timestamp":"2026-06-21T00:00:00Z","query":"q","fixture":"agent-cpp","outcome":"weird"}"#.to_string(),
    ];
    let path = dir.join("week.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

#[test]
fn clusters_group_normalised_questions_and_count_bad_lines() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_traces(dir.path());
    let p = path.to_str().unwrap();
    let out = findbench(&["clusters", p, "-f", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&format!("{p}:3: ")), "{stderr}");
    assert!(stderr.contains(&format!("{p}:8: ")), "{stderr}");
    let v = stdout_json(&out);
    assert_schema("clusters.schema.json", &v);
    assert_eq!(v["traces"], 5);
    assert_eq!(v["bad_lines"], 2);
    // success is not selected by default; the three spellings of the question are one cluster
    assert_eq!(v["selected"], 4);
    let clusters = v["clusters"].as_array().unwrap();
    assert_eq!(clusters.len(), 1, "{v:#}");
    let c = &clusters[0];
    assert_eq!(c["question"], "where is replay implemented");
    assert_eq!(c["occurrences"], 3);
    assert_eq!(c["first_seen"], "2026-06-19T08:00:00Z");
    assert_eq!(c["last_seen"], "2026-06-25T17:30:00Z");
    assert_eq!(
        c["tool_sequences"][0],
        json!({"value": "find → grep", "count": 2})
    );
    assert!(c["replay_command"]
        .as_str()
        .unwrap()
        .contains("--query 'where is replay implemented' --explain"));
    assert_eq!(v["below_min"], 1);

    // every outcome, every question
    let out = findbench(&[
        "clusters",
        p,
        "--outcome",
        "any",
        "--min",
        "1",
        "-f",
        "json",
    ]);
    let v = stdout_json(&out);
    assert_eq!(v["selected"], 5);
    assert_eq!(v["clusters"][0]["occurrences"], 4);
    assert_eq!(
        v["clusters"][0]["outcomes"],
        json!({"insufficient_evidence": 3, "success": 1})
    );
}

#[test]
fn strict_makes_a_bad_line_fatal() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_traces(dir.path());
    let out = findbench(&["clusters", path.to_str().unwrap(), "--strict", "-f", "json"]);
    assert_eq!(out.status.code(), Some(2));
    let v = stdout_json(&out);
    assert_schema("error.schema.json", &v);
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("week.jsonl:3:1:"),
        "{v:#}"
    );
}

#[test]
fn missing_trace_file_is_a_file_error() {
    let out = findbench(&["clusters", "/nonexistent/traces.jsonl", "-f", "json"]);
    assert_eq!(out.status.code(), Some(3));
}

#[test]
fn export_writes_one_corpus_per_cluster() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_traces(dir.path());
    let fixtures = dir.path().join("fixtures");
    std::fs::create_dir_all(fixtures.join("agent-cpp")).unwrap();
    let export = dir.path().join("out/regressions");
    let out = findbench(&[
        "clusters",
        path.to_str().unwrap(),
        "--export",
        export.to_str().unwrap(),
        "--fixtures",
        fixtures.to_str().unwrap(),
        "-f",
        "text",
    ]);
    assert_exit(&out, 0);
    let file = export.join("cluster-where-is-replay-implemented.yaml");
    let yaml = std::fs::read_to_string(&file).unwrap();
    assert!(
        yaml.contains("suite: \"cluster-where-is-replay-implemented\""),
        "{yaml}"
    );
    // the fixture root is relative to the corpus file
    assert!(
        yaml.contains("fixture: {root: \"../../fixtures/agent-cpp\"}"),
        "{yaml}"
    );
    assert!(
        yaml.contains("    query: \"where is replay implemented\""),
        "{yaml}"
    );
    assert!(yaml.contains("    mode: ask"), "{yaml}");
    assert!(yaml.contains("      outcome: success"), "{yaml}");
    assert!(
        yaml.contains("known_failure: \"production cluster: 3 traces"),
        "{yaml}"
    );
    // three spellings, three cases
    assert_eq!(yaml.matches("  - id: ").count(), 3, "{yaml}");
    let ids: Vec<&str> = yaml
        .lines()
        .filter_map(|l| l.strip_prefix("  - id: "))
        .collect();
    let mut unique = ids.clone();
    unique.dedup();
    assert_eq!(ids, unique);
}

#[test]
fn shipped_traces_follow_the_spec_baseline() {
    let out = findbench(&[
        "clusters",
        "traces/production.jsonl",
        "--outcome",
        "any",
        "--min",
        "1",
        "-f",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let v = stdout_json(&out);
    assert_eq!(v["traces"], 217);
    assert_eq!(v["bad_lines"], 0);
    let mut totals: std::collections::BTreeMap<String, u64> = Default::default();
    for c in v["clusters"].as_array().unwrap() {
        for (o, n) in c["outcomes"].as_object().unwrap() {
            *totals.entry(o.clone()).or_default() += n.as_u64().unwrap();
        }
    }
    assert_eq!(totals["success"], 199);
    assert_eq!(totals["insufficient_evidence"], 14);
    assert_eq!(totals["failure"], 4);

    let out = findbench(&[
        "clusters",
        "traces/production.jsonl",
        "--outcome",
        "insufficient_evidence",
        "--min",
        "1",
        "-f",
        "json",
    ]);
    let v = stdout_json(&out);
    let counts: Vec<(String, u64)> = v["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["question"].as_str().unwrap().to_string(),
                c["occurrences"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        counts,
        [
            ("where is replay implemented".to_string(), 8),
            ("find cursor binary".to_string(), 3),
            ("where is commandrouter implemented".to_string(), 2),
            ("find cursor bin".to_string(), 1),
        ]
    );
}

fn results(cases: &[(&str, &str, &str, f64)]) -> Value {
    let n = cases.len() as f64;
    let passed = cases.iter().filter(|c| c.1 == "pass").count() as f64;
    let ie = cases
        .iter()
        .filter(|c| c.2 == "insufficient_evidence")
        .count() as f64;
    json!({
        "summary": {
            "total": n, "passed": passed, "failed": n - passed, "xfail": 0, "xpass": 0,
            "pass_rate": passed / n, "insufficient_evidence_rate": ie / n
        },
        "cases": cases.iter().map(|(id, status, outcome, ms)| json!({
            "id": id, "suite": "validation", "mode": "ask", "status": status,
            "outcome": outcome, "candidates": 1, "duration_ms": ms, "output_bytes": 100,
            "reason": "", "query": format!("question {}", &id[..1])
        })).collect::<Vec<_>>()
    })
}

#[test]
fn compare_reports_flips_regressions_first_and_writes_md_and_csv() {
    let dir = tempfile::tempdir().unwrap();
    // ten cases fixed (a0..a9), one regressed (b0), the rest unchanged
    let mut before = Vec::new();
    let mut after = Vec::new();
    let ids: Vec<String> = (0..10)
        .map(|i| format!("a{i}"))
        .chain(["b0".to_string()])
        .chain((0..9).map(|i| format!("c{i}")))
        .collect();
    for (i, id) in ids.iter().enumerate() {
        let ms = 1.0 + (i % 5) as f64;
        let (b, a) = match id.as_bytes()[0] {
            b'a' => (("fail", "insufficient_evidence"), ("pass", "success")),
            b'b' => (("pass", "success"), ("fail", "failure")),
            _ => (("pass", "success"), ("pass", "success")),
        };
        before.push((id.as_str(), b.0, b.1, ms));
        after.push((id.as_str(), a.0, a.1, ms));
    }
    let bp = dir.path().join("before.json");
    let ap = dir.path().join("after.json");
    std::fs::write(&bp, results(&before).to_string()).unwrap();
    std::fs::write(&ap, results(&after).to_string()).unwrap();
    let md = dir.path().join("report/release.md");
    let out = findbench_in(
        dir.path(),
        &[
            "compare",
            "before.json",
            "after.json",
            "--out",
            md.to_str().unwrap(),
            "-f",
            "json",
        ],
    );
    assert_exit(&out, 0);
    let v = stdout_json(&out);
    assert_schema("compare.schema.json", &v);
    let pass = &v["flips"][0];
    assert_eq!(
        (pass["worsened"].as_u64(), pass["improved"].as_u64()),
        (Some(1), Some(10))
    );
    // b=1, c=10: 2 · (1 + 11) / 2048
    assert!((pass["p_value"].as_f64().unwrap() - 24.0 / 2048.0).abs() < 1e-12);
    assert!(pass["verdict"]
        .as_str()
        .unwrap()
        .starts_with("larger than noise"));
    let changes = v["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 11);
    assert_eq!(changes[0]["kind"], "regression");
    assert_eq!(changes[0]["id"], "b0");
    assert!(changes[1..].iter().all(|c| c["kind"] == "fixed"));
    let ie = v["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "insufficient_evidence_rate")
        .unwrap();
    assert_eq!(ie["before"], 0.5);
    assert_eq!(ie["after"], 0.0);
    // identical timings: the latency difference is exactly zero
    assert_eq!(v["latency"][0]["diff_ms"], 0.0);
    assert_eq!(v["latency"][0]["verdict"], "no change");
    // the fixed cluster is named by its question
    assert_eq!(v["clusters"][0]["kind"], "regression");
    assert_eq!(v["clusters"][1]["question"], "question a");
    assert_eq!(v["clusters"][1]["cases"], 10);

    let report = common::squeeze_tables(&std::fs::read_to_string(&md).unwrap());
    assert!(
        report.contains("| insufficient_evidence_rate | 50.0% | 0.0% | -50.0 pts |"),
        "{report}"
    );
    let regression = report.find("| regression | validation/b0").unwrap();
    let fixed = report.find("| fixed | validation/a0").unwrap();
    assert!(regression < fixed);
    let csv = std::fs::read_to_string(dir.path().join("report/release.csv")).unwrap();
    assert!(csv.starts_with("section,name,before,after,delta,p_value,ci_low,ci_high,verdict\n"));
    assert!(
        csv.contains("\ncase,validation/b0,pass (success),fail (failure),,,,,regression\n"),
        "{csv}"
    );
    // nothing left behind under a temporary name
    let leftovers: Vec<_> = std::fs::read_dir(dir.path().join("report"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn compare_rejects_a_file_that_is_not_results() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("x.json");
    std::fs::write(&p, "{\"hello\": 1}").unwrap();
    let out = findbench(&[
        "compare",
        p.to_str().unwrap(),
        p.to_str().unwrap(),
        "-f",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::write(&p, "[1,").unwrap();
    let out = findbench(&[
        "compare",
        p.to_str().unwrap(),
        p.to_str().unwrap(),
        "-f",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let _ = repo_root();
}

#[test]
fn replay_legacy_then_default_and_compare_shows_the_fixed_cluster() {
    let dir = tempfile::tempdir().unwrap();
    let out_a = dir.path().join("A");
    let out_b = dir.path().join("B");
    for (profile, out) in [("legacy", &out_a), ("default", &out_b)] {
        let o = findbench(&[
            "replay",
            "traces/production.jsonl",
            "--profile",
            profile,
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            "2",
            "-f",
            "json",
        ]);
        assert_exit(&o, 0);
        for f in [
            "summary.md",
            "summary.csv",
            "cases.csv",
            "results.json",
            "junit.xml",
        ] {
            assert!(out.join(f).is_file(), "{profile}: {f} missing");
        }
    }
    let a: Value =
        serde_json::from_str(&std::fs::read_to_string(out_a.join("results.json")).unwrap())
            .unwrap();
    let b: Value =
        serde_json::from_str(&std::fs::read_to_string(out_b.join("results.json")).unwrap())
            .unwrap();
    assert_eq!(a["kind"], "replay");
    // one schema and one case model for run and replay results
    assert_schema("results.schema.json", &a);
    assert_schema("results.schema.json", &b);
    let doc: findbench_eval::results::ResultsDocument = serde_json::from_value(a.clone()).unwrap();
    assert_eq!(doc.cases.len(), 217);
    assert!(doc
        .cases
        .iter()
        .all(|c| c.recorded_outcome.is_some() && c.transition.is_some()));
    assert_eq!(a["profile"], "legacy");
    assert_eq!(a["summary"]["total"], 217);
    assert_eq!(
        a["summary"]["recorded_outcomes"]["insufficient_evidence"],
        14
    );
    // every case written out whole, in results.json and in cases.jsonl alike: nothing to
    // derive, no table to look answers up in
    assert!(a.get("case_defaults").is_none() && a.get("answers").is_none());
    assert_eq!(a["cases_file"], "cases.jsonl");
    let raw = a["cases"].as_array().unwrap();
    assert_eq!(raw.len(), 217);
    let lines: Vec<Value> = std::fs::read_to_string(out_a.join("cases.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(&lines, raw);
    for c in raw {
        assert_schema("case.schema.json", c);
        for k in [
            "id",
            "suite",
            "mode",
            "status",
            "outcome",
            "recorded_outcome",
            "transition",
            "candidates",
            "duration_ms",
            "output_bytes",
            "reason",
        ] {
            assert!(c.get(k).is_some(), "case lacks {k}: {c}");
        }
        assert!(
            c["transition"].is_string() && c["recorded_outcome"].is_string(),
            "{c}"
        );
    }
    assert_eq!(results_cases(&out_a).len(), 217);
    // the cursor-binary questions fail under the legacy profile and succeed by default
    let outcome_of = |dir: &Path, q: &str| -> Vec<String> {
        results_cases(dir)
            .iter()
            .filter(|c| c["query"] == q)
            .map(|c| c["outcome"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(outcome_of(&out_a, "find cursor binary")
        .iter()
        .all(|o| o == "insufficient_evidence"));
    assert!(outcome_of(&out_b, "find cursor binary")
        .iter()
        .all(|o| o == "success"));
    let ie = |doc: &Value| {
        doc["summary"]["insufficient_evidence_rate"]
            .as_f64()
            .unwrap()
    };
    assert!(ie(&b) < ie(&a), "{} vs {}", ie(&a), ie(&b));

    let o = findbench(&[
        "compare",
        out_a.join("results.json").to_str().unwrap(),
        out_b.join("results.json").to_str().unwrap(),
        "-f",
        "text",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("insufficient_evidence_rate: "), "{text}");
    assert!(
        text.contains("fixed cluster: \"find cursor binary\" x3"),
        "{text}"
    );
    assert!(!text.contains("| regression |"), "{text}");
}

#[test]
fn replay_explains_a_cluster_and_same_inputs_give_same_cases_whatever_jobs() {
    let o = findbench(&[
        "replay",
        "traces/production.jsonl",
        "--query",
        "Find cursor binary!",
        "--profile",
        "legacy",
        "--explain",
        "-f",
        "text",
    ]);
    assert_exit(&o, 0);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("replayed 3 traces"), "{text}");
    assert!(text.contains("plan: term `cursor[ _-]?binary`"), "{text}");
    assert!(
        text.contains("1. find `cursor[ _-]?binary`: no stem"),
        "{text}"
    );

    let dir = tempfile::tempdir().unwrap();
    let mut docs = Vec::new();
    for jobs in ["1", "2"] {
        let out = dir.path().join(jobs);
        let o = findbench(&[
            "replay",
            "traces/production.jsonl",
            "--jobs",
            jobs,
            "--out",
            out.to_str().unwrap(),
            "-q",
            "-f",
            "text",
        ]);
        assert_eq!(o.status.code(), Some(0));
        let cases: Vec<(String, String, String)> = results_cases(&out)
            .iter()
            .map(|c| {
                (
                    c["id"].as_str().unwrap().into(),
                    c["outcome"].as_str().unwrap().into(),
                    c["selected"].to_string(),
                )
            })
            .collect();
        docs.push(cases);
    }
    assert_eq!(docs[0], docs[1]);
}

/// A hand-made results.json: `cases` of (id, status, outcome, duration_ms), recorded on
/// one machine and build so their timings may be gated.
fn results_on_one_machine(cases: &[(String, &str, &str, f64)]) -> Value {
    let refs: Vec<(&str, &str, &str, f64)> = cases
        .iter()
        .map(|(a, b, c, d)| (a.as_str(), *b, *c, *d))
        .collect();
    let mut doc = results(&refs);
    doc["kind"] = json!("run");
    doc["build"] = json!("release");
    doc["machine"] = json!({"os": "linux", "arch": "x86_64", "cpus": 2, "hostname": "ci-1", "instance": "0123abcd"});
    doc
}

fn gate_with_baseline(dir: &Path, base: &Value, now: &Value) -> (i32, String) {
    let (bp, np) = (dir.join("base.json"), dir.join("now.json"));
    std::fs::write(&bp, base.to_string()).unwrap();
    std::fs::write(&np, now.to_string()).unwrap();
    let out = findbench(&[
        "gate",
        np.to_str().unwrap(),
        "--baseline",
        bp.to_str().unwrap(),
    ]);
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap(), text)
}

/// 40 passing cases with latencies spread over 1..5 ms.
fn steady_cases() -> Vec<(String, &'static str, &'static str, f64)> {
    (0..40)
        .map(|i| (format!("c{i:02}"), "pass", "success", 1.0 + (i % 5) as f64))
        .collect()
}

#[test]
fn gate_baseline_fails_on_a_planted_regression() {
    let dir = tempfile::tempdir().unwrap();
    let base = results_on_one_machine(&steady_cases());
    // the same results pass
    let (code, text) = gate_with_baseline(dir.path(), &base, &base);
    assert_eq!(code, 0, "{text}");
    // one case newly failing
    let mut planted = steady_cases();
    planted[3].1 = "fail";
    planted[3].2 = "insufficient_evidence";
    let (code, text) = gate_with_baseline(dir.path(), &base, &results_on_one_machine(&planted));
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("newly failing: validation/c03"), "{text}");
    assert_eq!(text.matches("gate: FAIL").count(), 1, "{text}");
}

#[test]
fn gate_baseline_fails_on_latency_slower_beyond_noise_and_tolerance() {
    let dir = tempfile::tempdir().unwrap();
    let base = results_on_one_machine(&steady_cases());
    // every case twice as slow: outside the bootstrap interval and beyond 25%
    let slow: Vec<_> = steady_cases()
        .into_iter()
        .map(|(id, s, o, ms)| (id, s, o, ms * 2.0))
        .collect();
    let (code, text) = gate_with_baseline(dir.path(), &base, &results_on_one_machine(&slow));
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("latency p50 regressed beyond noise"),
        "{text}"
    );
    assert!(!text.contains("newly failing"), "{text}");
    // the same slowdown on another machine (another instance under the same hostname, as
    // fresh virtual machines of one image are) is a note, not a failure
    let mut elsewhere = results_on_one_machine(&slow);
    elsewhere["machine"]["instance"] = json!("4567cdef");
    let (code, text) = gate_with_baseline(dir.path(), &base, &elsewhere);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("gate: note baseline") && text.contains("timings not gated"),
        "{text}"
    );
}

#[test]
fn gate_baseline_passes_a_latency_change_within_noise() {
    let dir = tempfile::tempdir().unwrap();
    let base = results_on_one_machine(&steady_cases());
    // each case's time jitters by up to +/-0.4 ms, no pass/fail change: noise
    let jitter: Vec<_> = steady_cases()
        .into_iter()
        .enumerate()
        .map(|(i, (id, s, o, ms))| (id, s, o, ms + [0.4, -0.4, 0.2, -0.2, 0.0][i % 5]))
        .collect();
    let (code, text) = gate_with_baseline(dir.path(), &base, &results_on_one_machine(&jitter));
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("gate: passed"), "{text}");
}

/// `clusters --export DIR` then `run DIR`: a failure cluster becomes a corpus `run` accepts.
/// Marked `known_failure`, the run exits 0 (a cluster still failing is an XFAIL, one the
/// engine now answers an XPASS); with `--expect-pass` the cases run for real and the one
/// still failing fails the gate.
#[test]
fn exported_clusters_run_as_a_corpus() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = dir.path().join("fixtures/mini");
    std::fs::create_dir_all(fixture.join("src")).unwrap();
    std::fs::write(
        fixture.join("src/replay_service.cpp"),
        "class ReplayService {};\n",
    )
    .unwrap();
    let mut lines = Vec::new();
    for (i, q) in [
        "where is replay implemented",
        "Where is replay implemented?",
        "where is replay implemented",
        "where is kubernetes autoscaler implemented",
        "where is kubernetes autoscaler implemented",
        "where is kubernetes autoscaler implemented",
    ]
    .iter()
    .enumerate()
    {
        let mut t: Value = serde_json::from_str(&trace(
            &format!("t{i}"),
            "2026-06-20T10:00:00Z",
            q,
            "insufficient_evidence",
            &["find", "grep"],
        ))
        .unwrap();
        t["fixture"] = json!("mini");
        lines.push(t.to_string());
    }
    let traces = dir.path().join("week.jsonl");
    std::fs::write(&traces, lines.join("\n") + "\n").unwrap();
    let fixtures = dir.path().join("fixtures");

    let export = |name: &str, extra: &[&str]| {
        let out_dir = dir.path().join(name);
        let mut args = vec![
            "clusters",
            traces.to_str().unwrap(),
            "--fixtures",
            fixtures.to_str().unwrap(),
            "--export",
            out_dir.to_str().unwrap(),
            "-f",
            "text",
        ];
        args.extend_from_slice(extra);
        let out = findbench(&args);
        assert_exit(&out, 0);
        out_dir
    };
    let run = |corpus: &Path, out: &str| {
        let out_dir = dir.path().join(out);
        let o = findbench(&[
            "run",
            corpus.to_str().unwrap(),
            "--gate",
            "--no-progress",
            "--out",
            out_dir.to_str().unwrap(),
        ]);
        let results: Value =
            serde_json::from_slice(&std::fs::read(out_dir.join("results.json")).unwrap()).unwrap();
        let mut statuses: Vec<(String, String)> = results["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["suite"].as_str().unwrap().to_string(),
                    c["status"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        statuses.sort();
        (o, statuses)
    };

    let marked = export("marked", &[]);
    let (out, statuses) = run(&marked, "marked-out");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        statuses,
        [
            (
                "cluster-where-is-kubernetes-autoscaler-implemented".into(),
                "xfail".into()
            ),
            ("cluster-where-is-replay-implemented".into(), "xpass".into()),
            ("cluster-where-is-replay-implemented".into(), "xpass".into()),
        ]
    );

    let real = export("real", &["--expect-pass"]);
    let yaml =
        std::fs::read_to_string(real.join("cluster-where-is-replay-implemented.yaml")).unwrap();
    assert!(!yaml.contains("known_failure"), "{yaml}");
    let (out, statuses) = run(&real, "real-out");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("unexpected failure"), "{stdout}");
    assert_eq!(
        statuses,
        [
            (
                "cluster-where-is-kubernetes-autoscaler-implemented".into(),
                "fail".into()
            ),
            ("cluster-where-is-replay-implemented".into(), "pass".into()),
            ("cluster-where-is-replay-implemented".into(), "pass".into()),
        ]
    );
}
