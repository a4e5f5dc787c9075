//! `.github/workflows/findbench.yml`, the workflow docs/ci.md describes: valid YAML, a
//! matrix of shards whose `--shard` arguments agree with its size, and a merge job that
//! needs them, merges, gates and writes the step summary with commands findbench has.

mod common;

use serde_json::Value;

fn workflow() -> (String, Value) {
    let path = common::repo_root().join(".github/workflows/findbench.yml");
    let text = std::fs::read_to_string(&path).expect("the workflow is in the repository");
    let yaml: Value = serde_saphyr::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not valid YAML: {e}", path.display()));
    (text, yaml)
}

/// Every `run:` of a job, joined.
fn runs(job: &Value) -> String {
    job["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter_map(|s| s["run"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_workflow_is_valid_yaml_with_a_shard_matrix_and_a_merge_job() {
    let (_, yaml) = workflow();
    let jobs = &yaml["jobs"];
    let shard = &jobs["shard"];
    let matrix: Vec<i64> = shard["strategy"]["matrix"]["shard"]
        .as_array()
        .expect("a matrix of shards")
        .iter()
        .map(|v| v.as_i64().expect("shard numbers"))
        .collect();
    let n: i64 = yaml["env"]["SHARDS"]
        .as_i64()
        .or_else(|| yaml["env"]["SHARDS"].as_str().and_then(|s| s.parse().ok()))
        .expect("env.SHARDS");
    assert_eq!(matrix, (1..=n).collect::<Vec<_>>(), "matrix is 1..=SHARDS");
    let shard_runs = runs(shard);
    assert!(shard_runs.contains("findbench run corpora/"));
    assert_eq!(
        shard_runs
            .matches("--shard ${{ matrix.shard }}/${{ env.SHARDS }}")
            .count(),
        2,
        "run and replay are sharded: {shard_runs}"
    );
    assert!(shard_runs.contains("findbench replay"));

    let merge = &jobs["merge"];
    assert_eq!(merge["needs"], "shard");
    let merge_runs = runs(merge);
    for needed in [
        "findbench merge shards/run-*",
        "findbench merge shards/replay-*",
        "findbench gate reports/merged/results.json",
        "GITHUB_STEP_SUMMARY",
    ] {
        assert!(merge_runs.contains(needed), "merge job lacks `{needed}`");
    }
}

#[test]
fn every_findbench_command_the_workflow_uses_exists() {
    let (text, _) = workflow();
    let mut commands: Vec<&str> = text
        .split("target/release/findbench ")
        .skip(1)
        .filter_map(|rest| rest.split_whitespace().next())
        .collect();
    commands.sort();
    commands.dedup();
    assert_eq!(commands, ["compare", "gate", "merge", "replay", "run"]);
    for c in commands {
        common::assert_exit(&common::findbench(&[c, "--help"]), 0);
    }
}
