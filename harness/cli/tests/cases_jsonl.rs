//! cases.jsonl: every `run` and `replay --out` writes one self-contained JSON object per
//! case, every field present (a reader never derives one nor needs findbench), the same
//! objects as results.json's `cases`, as many as its summary counts; `--out-compress`
//! writes it (and cases.csv, junit.xml) gzipped.

mod common;

use common::{assert_exit, assert_schema, findbench};
use serde_json::Value;
use std::io::Read;
use std::path::Path;

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// The lines of a cases file, each parsed (gunzipped first when it ends in `.gz`).
fn lines(path: &Path) -> Vec<Value> {
    let bytes = std::fs::read(path).unwrap();
    let text = if path.extension().is_some_and(|e| e == "gz") {
        let mut s = String::new();
        flate2::read::MultiGzDecoder::new(&bytes[..])
            .read_to_string(&mut s)
            .unwrap();
        s
    } else {
        String::from_utf8(bytes).unwrap()
    };
    assert!(text.ends_with('\n'));
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// Every field of a case of a corpus run.
const RUN_FIELDS: [&str; 27] = [
    "id",
    "engine",
    "suite",
    "mode",
    "query",
    "status",
    "outcome",
    "expected_outcome",
    "candidates",
    "ranked",
    "expected",
    "rank",
    "first_hit_bytes",
    "duration_ms",
    "output_bytes",
    "dump_bytes",
    "evidence_bytes",
    "items",
    "tools",
    "iterations",
    "failed_tools",
    "calls",
    "reason",
    "known_failure",
    "tags",
    "file",
    "line",
];

/// What a replayed case has besides.
const REPLAY_FIELDS: [&str; 13] = [
    "recorded_outcome",
    "transition",
    "fixture",
    "timestamp",
    "recorded_candidates",
    "recorded_tools",
    "recorded_iterations",
    "recorded_duration_ms",
    "recorded_output_bytes",
    "recorded_first_hit_bytes",
    "recorded_searches_before_hit",
    "selected",
    "input_index",
];

#[track_caller]
fn has_fields(case: &Value, fields: &[&str]) {
    let obj = case.as_object().unwrap();
    for f in fields {
        assert!(obj.contains_key(*f), "case lacks `{f}`: {case}");
    }
}

#[test]
fn a_run_writes_every_field_of_every_case_to_cases_jsonl() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let o = findbench(&[
        "run",
        "corpora/",
        "--no-progress",
        "--quiet",
        "--out",
        path_str(&out),
    ]);
    assert_exit(&o, 0);
    let results = read_json(&out.join("results.json"));
    assert_eq!(results["cases_file"], "cases.jsonl");
    let cases = lines(&out.join("cases.jsonl"));
    assert_eq!(
        cases.len() as u64,
        results["summary"]["total"].as_u64().unwrap()
    );
    assert_eq!(&cases, results["cases"].as_array().unwrap());
    for c in &cases {
        has_fields(c, &RUN_FIELDS);
        assert!(c.get("recorded_outcome").is_none(), "{c}");
        assert!(
            ["pass", "fail", "xfail", "xpass"].contains(&c["status"].as_str().unwrap()),
            "{c}"
        );
        assert_schema("case.schema.json", c);
    }
    // a judged case says where in its answer the first expected key ends, and recall
    // within a budget is the share of them within it
    let judged: Vec<&Value> = cases
        .iter()
        .filter(|c| !c["expected"].as_array().unwrap().is_empty())
        .collect();
    assert_eq!(
        judged.len() as u64,
        results["summary"]["rank"]["judged"].as_u64().unwrap()
    );
    for c in &judged {
        if let Some(hit) = c["first_hit_bytes"].as_u64() {
            assert!(hit > 0 && hit <= c["output_bytes"].as_u64().unwrap(), "{c}");
        }
    }
    let within_1kb = judged
        .iter()
        .filter(|c| c["first_hit_bytes"].as_u64().is_some_and(|b| b <= 1024))
        .count() as f64;
    let recall = results["summary"]["rank"]["recall_at_1kb"]
        .as_f64()
        .unwrap();
    assert!(
        (recall - within_1kb / judged.len() as f64).abs() < 1e-4,
        "{recall}"
    );
    assert_schema("results.schema.json", &results);
}

#[test]
fn a_replay_writes_every_field_of_every_case_and_compressed_reads_the_same() {
    let tmp = tempfile::tempdir().unwrap();
    let plain = tmp.path().join("plain");
    let packed = tmp.path().join("packed");
    for (out, extra) in [(&plain, None), (&packed, Some("--out-compress"))] {
        let mut args = vec![
            "replay",
            "traces/production.jsonl",
            "--out",
            path_str(out),
            "-q",
            "--jobs",
            "2",
        ];
        args.extend(extra);
        assert_exit(&findbench(&args), 0);
    }
    let results = read_json(&plain.join("results.json"));
    assert_eq!(results["cases_file"], "cases.jsonl");
    let cases = lines(&plain.join("cases.jsonl"));
    assert_eq!(cases.len(), 217);
    assert_eq!(
        cases.len() as u64,
        results["summary"]["total"].as_u64().unwrap()
    );
    for c in &cases {
        has_fields(c, &RUN_FIELDS);
        has_fields(c, &REPLAY_FIELDS);
        assert!(
            c["transition"].is_string() && c["recorded_outcome"].is_string(),
            "{c}"
        );
        assert_schema("case.schema.json", c);
    }
    // the transitions counted from the lines are the summary's
    for t in ["fixed", "regressed", "unchanged"] {
        let n = cases.iter().filter(|c| c["transition"] == t).count() as u64;
        assert_eq!(
            Some(n),
            results["summary"]["transitions"][t].as_u64(),
            "{t}"
        );
    }
    // compressed: the case files gzipped, the same cases once unpacked
    let packed_results = read_json(&packed.join("results.json"));
    assert_eq!(packed_results["cases_file"], "cases.jsonl.gz");
    for f in ["cases.jsonl", "cases.csv", "junit.xml"] {
        assert!(!packed.join(f).exists(), "{f}");
        assert!(packed.join(format!("{f}.gz")).is_file(), "{f}.gz");
    }
    let unpacked = lines(&packed.join("cases.jsonl.gz"));
    let without_timing = |cases: &[Value]| -> Vec<Value> {
        cases
            .iter()
            .map(|c| {
                let mut c = c.clone();
                let m = c.as_object_mut().unwrap();
                m.remove("duration_ms");
                m.remove("output_bytes");
                m.remove("first_hit_bytes");
                c
            })
            .collect()
    };
    assert_eq!(without_timing(&unpacked), without_timing(&cases));
    assert_eq!(
        without_timing(packed_results["cases"].as_array().unwrap()),
        without_timing(&cases)
    );
    // and every reader takes the compressed directory as it is
    let out = findbench(&["gate", path_str(&packed), "--max-ie-rate", "0.5"]);
    assert_exit(&out, 0);
}
