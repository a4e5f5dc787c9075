//! `findbench tune` end to end on generated corpora: three projects whose right answer
//! needs a task's title to outweigh its description, a base profile with those weights
//! reversed, and the tuned profile loaded back with `--profile`.

mod common;

use common::{assert_exit, assert_schema, findbench_in, stdout_json};
use serde_json::Value;
use std::path::Path;
use tempfile::TempDir;

const WORDS: [&str; 4] = ["alpha", "beta", "gamma", "delta"];
const PROJECTS: [&str; 3] = ["north", "south", "east"];

/// Writes a corpus and a store per project: in each, item `T{2i+1}` mentions the word in
/// its description and `T{2i+2}` holds it in its title, the expected top result.
fn projects(dir: &Path) {
    for p in PROJECTS {
        std::fs::create_dir_all(dir.join(p)).unwrap();
        let mut items = Vec::new();
        let mut cases = String::new();
        for (i, w) in WORDS.iter().enumerate() {
            items.push(serde_json::json!({"id": format!("T{}", 2 * i + 1),
                "title": format!("Other {p} thing {i}"),
                "description": format!("mentions {w}{p} here"), "status": "active"}));
            items.push(serde_json::json!({"id": format!("T{}", 2 * i + 2),
                "title": format!("{w}{p} handler"), "description": "nothing",
                "status": "active"}));
            cases.push_str(&format!(
                "  - id: {w}\n    query: {w}{p}\n    mode: task\n    expect: {{top: T{}}}\n",
                2 * i + 2
            ));
        }
        let store = serde_json::json!({ "tasks": items });
        std::fs::write(dir.join(p).join("todo.json"), store.to_string()).unwrap();
        std::fs::write(
            dir.join(format!("{p}.yaml")),
            format!("suite: {p}\nfixture: {{store: {p}/todo.json}}\ncases:\n{cases}"),
        )
        .unwrap();
    }
    std::fs::write(
        dir.join("bad.json"),
        r#"{"name": "bad", "task": {"title": 0.05, "description": 2.0}}"#,
    )
    .unwrap();
}

fn tune(dir: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["tune", ".", "--profile", "bad.json", "--no-progress"];
    args.extend_from_slice(extra);
    findbench_in(dir, &args)
}

#[test]
fn tuning_from_a_bad_profile_improves_train_and_the_profile_loads() {
    let dir = TempDir::new().unwrap();
    projects(dir.path());
    let before = findbench_in(
        dir.path(),
        &["run", ".", "--profile", "bad.json", "-q", "-o", "r0"],
    );
    assert_exit(&before, 1);
    let out = tune(
        dir.path(),
        &[
            "--param",
            "task",
            "--budget",
            "60",
            "--holdout-project",
            "east",
            "--out",
            "tuned.json",
            "-f",
            "json",
        ],
    );
    assert_exit(&out, 0);
    let report = stdout_json(&out);
    assert_schema("tune.schema.json", &report);
    let p = &report["provenance"];
    let (train_before, train_after) = (
        p["train"]["before"].as_f64().unwrap(),
        p["train"]["after"].as_f64().unwrap(),
    );
    assert!(train_after > train_before, "{report:#}");
    assert_eq!(
        p["split"]["held_out_projects"],
        serde_json::json!(["east/todo.json"])
    );
    assert_eq!(p["split"]["train_cases"], 8);
    assert_eq!(p["objective"], "mrr");
    assert_eq!(p["inputs"].as_array().unwrap().len(), 3);
    assert!(!report["changes"].as_array().unwrap().is_empty());
    // the profile carries the report's provenance and loads wherever --profile is taken
    let written: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("tuned.json")).unwrap()).unwrap();
    assert_eq!(written["provenance"], report["provenance"]);
    assert_eq!(written["name"], "tuned");
    let after = findbench_in(
        dir.path(),
        &["run", ".", "--profile", "tuned.json", "-q", "-o", "r1"],
    );
    assert_exit(&after, 0);
    let find = findbench_in(
        dir.path(),
        &[
            "find",
            "task",
            "alphanorth",
            "--store",
            "north/todo.json",
            "--profile",
            "tuned.json",
            "-f",
            "json",
        ],
    );
    assert_exit(&find, 0);
    assert_eq!(stdout_json(&find)["matches"][0]["id"], "T2");
    // text: the table and the verdict
    let text = tune(
        dir.path(),
        &[
            "--param",
            "task",
            "--budget",
            "60",
            "--holdout-project",
            "east",
        ],
    );
    assert_exit(&text, 0);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("held-out") && text.contains("95% CI"),
        "{text}"
    );
}

/// The report without what the clock decides.
fn timeless(mut report: Value) -> Value {
    report.as_object_mut().unwrap().remove("_meta");
    report["speed"]["seconds"] = Value::Null;
    report["speed"]["evaluations_per_second"] = Value::Null;
    report
}

#[test]
fn the_same_seed_tunes_the_same_profile_whatever_the_jobs() {
    let dir = TempDir::new().unwrap();
    projects(dir.path());
    let mut runs = Vec::new();
    for jobs in ["1", "2"] {
        let out_file = format!("tuned-{jobs}.json");
        // two numbers: the budget outlasts a climb, so random restarts run too
        let out = tune(
            dir.path(),
            &[
                "--param",
                "task.title",
                "--param",
                "task.description",
                "--budget",
                "150",
                "--seed",
                "7",
                "--jobs",
                jobs,
                "--out",
                &out_file,
                "-f",
                "json",
            ],
        );
        assert_exit(&out, 0);
        let mut profile: Value =
            serde_json::from_slice(&std::fs::read(dir.path().join(&out_file)).unwrap()).unwrap();
        assert_eq!(profile["name"], format!("tuned-{jobs}"));
        profile["name"] = Value::Null;
        let mut report = timeless(stdout_json(&out));
        assert_eq!(report["out"], out_file);
        report["out"] = Value::Null;
        runs.push((report, profile));
    }
    let restarts = runs[0].0["speed"]["restarts"].as_u64().unwrap();
    assert!(
        restarts >= 1,
        "no random restart ran: {}",
        runs[0].0["speed"]
    );
    assert!(
        runs[0] == runs[1],
        "--jobs 1 and 2 differ:\n{}\n{}",
        runs[0].0,
        runs[1].0
    );
    // the default split: by a hash of the projects' names, never a project on both sides
    let split = &runs[0].0["provenance"]["split"];
    assert_eq!(split["rule"], "hash");
    let train = split["train_projects"].as_array().unwrap();
    let held = split["held_out_projects"].as_array().unwrap();
    assert_eq!(train.len() + held.len(), 3);
    assert!(!held.is_empty() && !train.is_empty() && held.iter().all(|p| !train.contains(p)));
}

#[test]
fn bad_input_exits_2_with_a_clear_message() {
    let dir = TempDir::new().unwrap();
    projects(dir.path());
    let stderr = |out: &std::process::Output| String::from_utf8_lossy(&out.stderr).into_owned();
    let out = tune(dir.path(), &["--param", "task.nope"]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("unknown --param `task.nope`"),
        "{}",
        stderr(&out)
    );
    let out = tune(dir.path(), &["--objective", "ndcg"]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("unknown objective `ndcg`"),
        "{}",
        stderr(&out)
    );
    let out = tune(dir.path(), &["--holdout-project", "west"]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("--holdout-project `west`"),
        "{}",
        stderr(&out)
    );
    // a corpus whose cases expect an outcome only: nothing for a rank objective to score
    std::fs::create_dir(dir.path().join("plain")).unwrap();
    std::fs::copy(
        dir.path().join("north/todo.json"),
        dir.path().join("plain/todo.json"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("plain/only.yaml"),
        "suite: only\nfixture: {store: todo.json}\ncases:\n  - id: a\n    query: alphanorth\n    mode: task\n    expect: {outcome: success}\n",
    )
    .unwrap();
    let out = findbench_in(dir.path(), &["tune", "plain/only.yaml", "--no-progress"]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("no case has an expectation the objective mrr scores"),
        "{}",
        stderr(&out)
    );
    // pass_rate scores it
    let out = findbench_in(
        dir.path(),
        &[
            "tune",
            "plain/only.yaml",
            "--no-progress",
            "--objective",
            "pass_rate",
            "--budget",
            "3",
        ],
    );
    assert_exit(&out, 0);
}
