//! What `run` and `replay` leave beside `--out DIR`: the reports in DIR and nothing else
//! (no `.DIR.lock`, no staging), and, when DIR cannot be written, an error naming DIR as
//! given (exit 3) rather than findbench's own staging path.

mod common;

use common::{assert_exit, findbench};
use std::path::Path;

/// The hidden entries of `parent` (lock, staging, old sets).
fn hidden(parent: &Path) -> Vec<String> {
    std::fs::read_dir(parent)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect()
}

#[test]
fn run_and_replay_leave_no_lock_beside_out() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("reports");
    for _ in 0..2 {
        let o = findbench(&[
            "run",
            "corpora/paths.yaml",
            "--out",
            out.to_str().unwrap(),
            "--no-progress",
            "-q",
        ]);
        assert_exit(&o, 0);
        assert!(out.join("results.json").is_file());
        assert_eq!(hidden(tmp.path()), Vec::<String>::new());
    }
    let replayed = tmp.path().join("replayed");
    let o = findbench(&[
        "replay",
        "traces/production.jsonl",
        "--out",
        replayed.to_str().unwrap(),
        "--no-progress",
        "--exit-zero",
        "-q",
    ]);
    assert_exit(&o, 0);
    assert!(replayed.join("results.json").is_file());
    assert_eq!(hidden(tmp.path()), Vec::<String>::new());
}

#[test]
fn an_out_in_a_read_only_directory_names_that_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let parent = tmp.path().join("read-only");
    std::fs::create_dir(&parent).unwrap();
    let original = std::fs::metadata(&parent).unwrap().permissions();
    let mut read_only = original.clone();
    read_only.set_readonly(true);
    std::fs::set_permissions(&parent, read_only).unwrap();
    // root (and some file systems) write anyway: then there is nothing to test
    let writable = std::fs::write(parent.join("probe"), "").is_ok();
    if !writable {
        let out = parent.join("reports");
        let o = findbench(&[
            "run",
            "corpora/paths.yaml",
            "--out",
            out.to_str().unwrap(),
            "--no-progress",
            "-q",
        ]);
        assert_exit(&o, 3);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(
            stderr.contains(&format!(
                "error: {}: cannot write the reports",
                out.display()
            )),
            "{stderr}"
        );
        assert!(!stderr.contains("staging"), "{stderr}");
    } else {
        eprintln!("skipped: {} is writable as this user", parent.display());
    }
    // writable again, so the temporary directory can be removed
    std::fs::set_permissions(&parent, original).unwrap();
}
