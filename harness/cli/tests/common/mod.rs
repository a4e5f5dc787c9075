//! Shared pieces of the CLI integration tests: running the binary, validating JSON output
//! against the shipped schemas.
#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `findbench` with `args` from the repository root.
pub fn findbench(args: &[&str]) -> Output {
    findbench_in(&repo_root(), args)
}

pub fn findbench_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_findbench"))
        .args(args)
        .current_dir(dir)
        .env_remove("FINDBENCH_STORE")
        .output()
        .expect("findbench runs")
}

/// Asserts the process exited with `code`, showing its output when it did not.
#[track_caller]
pub fn assert_exit(out: &Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

pub fn stdout_json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}):\n{}\nstderr:\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Asserts `instance` is valid against `schemas/<name>`, resolving `$ref`s between the
/// shipped schema files offline.
pub fn assert_schema(name: &str, instance: &Value) {
    let dir = repo_root().join("schemas");
    let load = |file: &Path| -> Value {
        serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap()
    };
    let mut registry = jsonschema::Registry::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let schema = load(&path);
            let id = schema["$id"].as_str().expect("schema has $id").to_string();
            registry = registry.add(id, schema).unwrap();
        }
    }
    let registry = registry.prepare().unwrap();
    let validator = jsonschema::options()
        .with_registry(&registry)
        .build(&load(&dir.join(name)))
        .unwrap_or_else(|e| panic!("schema {name} does not compile: {e}"));
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{name} rejects output: {errors:#?}\n{instance:#}"
    );
}

/// Markdown with every table cell trimmed (`| a | b |`), so a test can look for a row
/// whatever padding the table crate chose to align the columns.
#[allow(dead_code)]
pub fn squeeze_tables(md: &str) -> String {
    md.lines()
        .map(|line| {
            if line.starts_with('|') {
                let cells: Vec<&str> = line
                    .trim()
                    .trim_matches('|')
                    .split(" |")
                    .map(str::trim)
                    .collect();
                format!("| {} |", cells.join(" | "))
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The cases of a results.json (or of the one in a directory) as every reader sees them:
/// a replay's compact form filled back in, each case as JSON.
pub fn results_cases(path: &Path) -> Vec<Value> {
    let doc = findbench_eval::results::ResultsDocument::read(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    doc.cases
        .iter()
        .map(|c| serde_json::to_value(c).unwrap())
        .collect()
}

/// Runs git in `dir` as a test author (no signing), asserting it succeeds; its stdout,
/// trimmed.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=findbench",
            "-c",
            "user.email=t@example.com",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}
