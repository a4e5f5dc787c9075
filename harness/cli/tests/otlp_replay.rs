//! OpenTelemetry traces in: the OTLP/JSON file the OpenTelemetry Python SDK made
//! (`scripts/gen_otlp_traces.py`: 200 agent invocations, 27 malformed spans) replayed and
//! clustered, every malformed span counted and reported with its file and line.

mod common;

use common::{assert_exit, findbench, repo_root, stdout_json};
use std::io::Write;

const FILE: &str = "traces/otel/agent-invocations.jsonl";

/// The malformed spans the generator wrote, by the reason replay gives (its stderr summary:
/// arguments_not_json 7, ends_before_start 6, no_query 5, no_tool_name 9).
const MALFORMED: [(&str, usize); 4] = [
    ("has no `gen_ai.tool.name`", 9),
    ("`gen_ai.tool.call.arguments` is not JSON", 7),
    ("ends before it starts", 6),
    ("no execute_tool span's arguments hold a query", 5),
];

fn check_reported(stderr: &str, file: &str) {
    let reported: Vec<&str> = stderr.lines().filter(|l| l.starts_with(file)).collect();
    assert_eq!(reported.len(), 27, "{stderr}");
    for (reason, count) in MALFORMED {
        let n = reported.iter().filter(|l| l.contains(reason)).count();
        assert_eq!(n, count, "`{reason}`:\n{stderr}");
    }
    for line in reported {
        // file:line: reason, the line a real line of the file
        let rest = &line[file.len() + 1..];
        let n: usize = rest.split(':').next().unwrap().parse().unwrap();
        assert!((1..=17).contains(&n), "{line}");
    }
}

#[test]
fn the_sdk_made_file_replays_with_every_malformed_span_reported() {
    let out = findbench(&["replay", FILE, "-f", "json"]);
    assert_exit(&out, 0);
    let doc = stdout_json(&out);
    assert_eq!(doc["files"], 1);
    assert_eq!(doc["bad_lines"], 27, "{doc:#}");
    assert_eq!(doc["traces"], 183);
    assert_eq!(doc["summary"]["total"], 183);
    assert_eq!(doc["summary"]["bad_lines"], 27);
    // the recorded outcomes the mapping read: status ERROR, `outcome` in results, candidates
    let recorded = &doc["summary"]["recorded_outcomes"];
    assert_eq!(recorded["failure"], 3, "{recorded}");
    assert_eq!(recorded["insufficient_evidence"], 68, "{recorded}");
    assert_eq!(recorded["success"], 112, "{recorded}");
    check_reported(&String::from_utf8_lossy(&out.stderr), FILE);
}

#[test]
fn detection_by_content_from_otlp_and_gzip() {
    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("collector-export.json.gz");
    let bytes = std::fs::read(repo_root().join(FILE)).unwrap();
    let mut enc = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).unwrap(),
        flate2::Compression::fast(),
    );
    enc.write_all(&bytes).unwrap();
    enc.finish().unwrap();
    let gz_arg = gz.to_str().unwrap();
    for from in ["auto", "otlp"] {
        let out = findbench(&["replay", gz_arg, "--from", from, "-f", "json"]);
        assert_exit(&out, 0);
        let doc = stdout_json(&out);
        assert_eq!(
            (doc["traces"].as_u64(), doc["bad_lines"].as_u64()),
            (Some(183), Some(27))
        );
        check_reported(&String::from_utf8_lossy(&out.stderr), gz_arg);
    }
    // read as findbench JSONL, every line is a bad line, and none is silently dropped:
    // each is listed, and with no trace left the input is invalid (as for `replay`)
    let out = findbench(&["clusters", FILE, "--from", "findbench", "-f", "json"]);
    assert_exit(&out, 2);
    let message = stdout_json(&out)["error"]["message"].to_string();
    assert!(message.contains("held only 17 bad lines"), "{message}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .filter(|l| l.contains("field `trace_id` is missing"))
            .count(),
        17
    );
}

#[test]
fn clusters_read_otlp_too() {
    let out = findbench(&["clusters", FILE, "-f", "json", "--min", "5"]);
    assert_exit(&out, 0);
    let doc = stdout_json(&out);
    assert_eq!(doc["bad_lines"], 27, "{doc:#}");
    let questions: Vec<&str> = doc["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["question"].as_str().unwrap())
        .collect();
    assert!(
        questions.contains(&"kubernetes autoscaler"),
        "{questions:?}"
    );
}

/// Every replayed OTLP invocation carries the outcome its spans recorded (status ERROR, the
/// result's `outcome`, else whether a tool found candidates) and the transition from it to
/// the replayed outcome, in cases.jsonl and results.json alike, in input order.
#[test]
fn every_replayed_invocation_has_its_recorded_outcome_and_transition() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("otel");
    let o = findbench(&["replay", FILE, "--out", out.to_str().unwrap(), "-q"]);
    assert_exit(&o, 0);
    let results: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).unwrap()).unwrap();
    let cases: Vec<serde_json::Value> = std::fs::read_to_string(out.join("cases.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(&cases, results["cases"].as_array().unwrap());
    assert_eq!(cases.len(), 183);
    let success = |o: &str| o == "success";
    let mut recorded = std::collections::BTreeMap::new();
    let mut transitions = std::collections::BTreeMap::new();
    for (n, c) in cases.iter().enumerate() {
        let was = c["recorded_outcome"]
            .as_str()
            .unwrap_or_else(|| panic!("{c}"));
        let now = c["outcome"].as_str().unwrap();
        let want = match (success(was), success(now)) {
            (false, true) => "fixed",
            (true, false) => "regressed",
            _ => "unchanged",
        };
        assert_eq!(c["transition"], want, "{c}");
        assert_eq!(c["input_index"], n as u64 + 1, "{c}");
        *recorded.entry(was.to_string()).or_insert(0u64) += 1;
        *transitions.entry(want.to_string()).or_insert(0u64) += 1;
    }
    let counts = |v: &serde_json::Value| -> std::collections::BTreeMap<String, u64> {
        v.as_object()
            .unwrap()
            .iter()
            .map(|(k, n)| (k.clone(), n.as_u64().unwrap()))
            .filter(|(_, n)| *n > 0)
            .collect()
    };
    assert_eq!(recorded, counts(&results["summary"]["recorded_outcomes"]));
    assert_eq!(
        recorded,
        [
            ("failure", 3),
            ("insufficient_evidence", 68),
            ("success", 112)
        ]
        .into_iter()
        .map(|(k, n)| (k.to_string(), n))
        .collect()
    );
    assert_eq!(transitions, counts(&results["summary"]["transitions"]));
}

/// A line of the right JSON but the wrong shape is a bad line, named with its file and
/// line, counted beside the SDK file's own 27.
#[test]
fn a_line_of_the_wrong_shape_is_reported_and_counted() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("spans.jsonl");
    let mut text = std::fs::read_to_string(repo_root().join(FILE)).unwrap();
    text.push_str("{\"resourceSpans\": [{\"scopeSpans\": \"oops\"}]}\n");
    std::fs::write(&file, text).unwrap();
    let path = file.to_str().unwrap();
    let out = findbench(&["replay", path, "-f", "json"]);
    assert_exit(&out, 0);
    let doc = stdout_json(&out);
    assert_eq!(doc["bad_lines"], 28, "{doc:#}");
    assert_eq!(doc["traces"], 183);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "{path}:18: not an OTLP ExportTraceServiceRequest: `resourceSpans[0].scopeSpans` is a string, not a list"
        )),
        "{stderr}"
    );
}
