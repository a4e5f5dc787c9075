//! `findbench export trec`: a run's and a replay's results.json as TREC run and qrels files
//! whose lines say what results.json says, the rank metrics recomputed from them equal to
//! findbench's, and a file that is not a results.json refused with exit 2 or 3.

mod common;

use common::{assert_exit, findbench, findbench_in, repo_root};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::Path;

/// Each query's (docid, rank, score) lines of a run.trec, and its relevant docids of a
/// qrels.trec, checking the column counts and constant columns on the way.
fn read_trec(dir: &Path) -> (BTreeMap<String, Vec<String>>, BTreeMap<String, Vec<String>>) {
    let run_text = std::fs::read_to_string(dir.join("run.trec")).unwrap();
    let mut run: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut last_score: Option<(String, u64)> = None;
    for line in run_text.lines() {
        let cols: Vec<&str> = line.split(' ').collect();
        assert_eq!(cols.len(), 6, "{line}");
        assert_eq!(cols[1], "Q0", "{line}");
        let (rank, score): (usize, u64) = (cols[3].parse().unwrap(), cols[4].parse().unwrap());
        let docs = run.entry(cols[0].to_string()).or_default();
        assert_eq!(rank, docs.len() + 1, "ranks count from 1 in order: {line}");
        if let Some((q, s)) = &last_score {
            if q == cols[0] {
                assert!(score < *s, "scores fall strictly within a query: {line}");
            }
        }
        last_score = Some((cols[0].to_string(), score));
        docs.push(cols[2].to_string());
    }
    let qrels_text = std::fs::read_to_string(dir.join("qrels.trec")).unwrap();
    let mut qrels: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in qrels_text.lines() {
        let cols: Vec<&str> = line.split(' ').collect();
        assert_eq!((cols.len(), cols[1], cols[3]), (4, "0", "1"), "{line}");
        qrels
            .entry(cols[0].to_string())
            .or_default()
            .push(cols[2].to_string());
    }
    (run, qrels)
}

/// hit@1 and MRR over the queries of `qrels` from the TREC files alone, as trec_eval -c
/// computes P@1 and recip_rank.
fn hit1_and_mrr(
    run: &BTreeMap<String, Vec<String>>,
    qrels: &BTreeMap<String, Vec<String>>,
) -> (f64, f64) {
    let n = qrels.len() as f64;
    let ranks: Vec<Option<usize>> = qrels
        .iter()
        .map(|(q, rel)| {
            run.get(q)
                .and_then(|docs| docs.iter().position(|d| rel.contains(d)))
                .map(|i| i + 1)
        })
        .collect();
    let round = |x: f64| (x * 10_000.0).round() / 10_000.0;
    (
        round(ranks.iter().filter(|r| **r == Some(1)).count() as f64 / n),
        round(
            ranks
                .iter()
                .map(|r| r.map_or(0.0, |r| 1.0 / r as f64))
                .sum::<f64>()
                / n,
        ),
    )
}

fn results(dir: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("results.json")).unwrap()).unwrap()
}

#[test]
fn a_runs_trec_files_give_its_hit_at_1_and_mrr() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let trec = tmp.path().join("trec");
    let corpus = repo_root().join("corpora/paths.yaml");
    let ran = findbench(&[
        "run",
        corpus.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--no-progress",
        "--exit-zero",
        "-q",
    ]);
    assert_exit(&ran, 0);
    let exported = findbench(&[
        "export",
        "trec",
        out.to_str().unwrap(),
        "--out",
        trec.to_str().unwrap(),
    ]);
    assert_exit(&exported, 0);
    let r = results(&out);
    let rank = &r["summary"]["rank"];
    let (run, qrels) = read_trec(&trec);
    assert_eq!(qrels.len() as u64, rank["judged"].as_u64().unwrap());
    assert!(qrels.keys().all(|q| q.starts_with("paths/")), "{qrels:?}");
    let (hit1, mrr) = hit1_and_mrr(&run, &qrels);
    assert_eq!(
        (hit1, mrr),
        (
            rank["hit_at_1"].as_f64().unwrap(),
            rank["mrr"].as_f64().unwrap()
        )
    );
    assert!(
        hit1 < 1.0,
        "the corpus has a miss at rank 1, so the check can fail"
    );
    // a case's ranked keys, in order, are its query's documents
    let case = r["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["ranked"].as_array().is_some_and(|a| a.len() > 1))
        .unwrap();
    let qid = format!("paths/{}", case["id"].as_str().unwrap());
    let ranked: Vec<String> = case["ranked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap().to_string())
        .collect();
    assert_eq!(run[&qid], ranked);
    let text = String::from_utf8_lossy(&exported.stdout);
    assert!(
        text.contains("run.trec") && text.contains("qrels.trec"),
        "{text}"
    );
}

#[test]
fn a_replays_judged_traces_are_exported_by_trace_id() {
    let tmp = tempfile::tempdir().unwrap();
    let line = |id: &str, expected: &str| {
        json!({
            "trace_id": id, "timestamp": "2026-06-19T00:00:00Z",
            "query": "where is replay implemented", "fixture": "agent-cpp",
            "tools": [{"name": "Grep", "input": "replay", "candidates": 3,
                       "duration_ms": 1.0, "output_bytes": 300}],
            "outcome": "success", "iterations": 1, "duration_ms": 5.0,
            "expected": [expected]
        })
        .to_string()
    };
    let traces = tmp.path().join("t.jsonl");
    std::fs::write(
        &traces,
        [
            line("s1/found", "src/services/replay_service.cpp"),
            line("s1/absent", "src/click/termui.py"),
        ]
        .join("\n"),
    )
    .unwrap();
    let out = tmp.path().join("replay");
    assert_exit(
        &findbench(&[
            "replay",
            traces.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--no-progress",
            "-q",
        ]),
        0,
    );
    let trec = tmp.path().join("trec");
    assert_exit(
        &findbench(&[
            "export",
            "trec",
            out.to_str().unwrap(),
            "--out",
            trec.to_str().unwrap(),
        ]),
        0,
    );
    let (run, qrels) = read_trec(&trec);
    let suite = results(&out)["cases"][0]["suite"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let qid = |id: &str| {
        if suite.is_empty() {
            id.to_string()
        } else {
            format!("{suite}/{id}")
        }
    };
    assert_eq!(qrels[&qid("s1/found")], ["src/services/replay_service.cpp"]);
    assert_eq!(qrels[&qid("s1/absent")], ["src/click/termui.py"]);
    let (hit1, _) = hit1_and_mrr(&run, &qrels);
    let rank = &results(&out)["summary"]["rank"];
    assert_eq!(hit1, rank["hit_at_1"].as_f64().unwrap());
}

#[test]
fn what_is_not_a_results_json_is_refused_and_nothing_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("c.yaml"), "suite: x\n").unwrap();
    std::fs::write(tmp.path().join("cut.json"), "{\"kind\": \"run\", \"summ").unwrap();
    for (input, code, said) in [
        ("c.yaml", 2, "a YAML file (a corpus?)"),
        ("cut.json", 2, "cut.json"),
        ("missing.json", 3, "missing.json"),
    ] {
        let out = findbench_in(tmp.path(), &["export", "trec", input, "--out", "trec"]);
        assert_exit(&out, code);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(said), "{input}: {err}");
        assert!(!tmp.path().join("trec").exists(), "{input}");
    }
}
