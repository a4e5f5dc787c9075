//! A results.json or cases.jsonl that is cut short (a run killed mid-write) or of another
//! version is named with its file and line by `gate`, `compare` and `merge`: exit 2 (3 when
//! it cannot be read), the field it lacks, that it is not a complete findbench
//! results.json, and how to write one; never a panic, never a silent partial merge.

mod common;

use common::{assert_exit, findbench};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// Asserts a refusal: `code`, and every one of `says` on stderr.
#[track_caller]
fn refused(o: &Output, code: i32, says: &[&str]) {
    assert_exit(o, code);
    let e = stderr(o);
    for s in says {
        assert!(
            e.contains(s),
            "stderr lacks `{s}`:\n{e}\nstdout:\n{}",
            String::from_utf8_lossy(&o.stdout)
        );
    }
    assert!(!e.contains("panicked"), "{e}");
}

const NOT_COMPLETE: &str = "not a complete findbench results.json";
const HOW: &str = "findbench run PATH... --out DIR";

/// Two replay shards of the shipped traces, and a whole replay to compare with.
fn replays(dir: &Path) -> (PathBuf, Vec<PathBuf>) {
    let whole = dir.join("whole");
    let mut shards = Vec::new();
    for (out, shard) in [
        (whole.clone(), None),
        (dir.join("s1"), Some("1/2")),
        (dir.join("s2"), Some("2/2")),
    ] {
        let mut args = vec![
            "replay",
            "traces/production.jsonl",
            "-q",
            "--out",
            path_str(&out),
        ];
        if let Some(s) = shard {
            args.extend(["--shard", s]);
            shards.push(out.clone());
        }
        assert_exit(&findbench(&args), 0);
    }
    (whole, shards)
}

/// Copies a report directory (to break one copy and keep the other).
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

#[test]
fn a_results_json_cut_short_is_named_by_gate_compare_and_merge() {
    let tmp = tempfile::tempdir().unwrap();
    let (whole, shards) = replays(tmp.path());
    // cut in the middle of its cases, as a killed writer leaves it
    let cut = tmp.path().join("cut");
    copy_dir(&whole, &cut);
    let text = std::fs::read_to_string(cut.join("results.json")).unwrap();
    std::fs::write(cut.join("results.json"), &text[..text.len() * 2 / 3]).unwrap();
    let lines = text[..text.len() * 2 / 3].lines().count();
    let named = format!("{}:{lines}:", cut.join("results.json").display());
    let says = [named.as_str(), NOT_COMPLETE, HOW, "ends early"];
    refused(&findbench(&["gate", path_str(&cut)]), 2, &says);
    refused(
        &findbench(&["compare", path_str(&whole), path_str(&cut), "-f", "text"]),
        2,
        &says,
    );
    let cut_shard = tmp.path().join("cut-shard");
    copy_dir(&shards[1], &cut_shard);
    let t = std::fs::read_to_string(cut_shard.join("results.json")).unwrap();
    std::fs::write(cut_shard.join("results.json"), &t[..t.len() / 2]).unwrap();
    let out = tmp.path().join("merged");
    let o = findbench(&[
        "merge",
        path_str(&shards[0]),
        path_str(&cut_shard),
        "--out",
        path_str(&out),
    ]);
    refused(&o, 2, &["cut-shard/results.json:", NOT_COMPLETE, HOW]);
    assert!(!out.exists(), "a refused merge writes nothing");
}

#[test]
fn a_cases_jsonl_cut_short_or_short_of_cases_stops_a_merge_at_its_line() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, shards) = replays(tmp.path());
    let out = tmp.path().join("merged");
    let merge = |a: &Path, b: &Path| {
        findbench(&["merge", path_str(a), path_str(b), "--out", path_str(&out)])
    };
    // the last line cut in the middle
    let cut = tmp.path().join("cut");
    copy_dir(&shards[1], &cut);
    let jsonl = std::fs::read_to_string(cut.join("cases.jsonl")).unwrap();
    let n = jsonl.lines().count();
    std::fs::write(cut.join("cases.jsonl"), &jsonl[..jsonl.len() - 40]).unwrap();
    let at = format!("cases.jsonl:{n}:");
    refused(&merge(&shards[0], &cut), 2, &[&at, NOT_COMPLETE, HOW]);
    // cut at a line's end: fewer cases than its results.json counts
    let lines: Vec<&str> = jsonl.lines().collect();
    std::fs::write(cut.join("cases.jsonl"), lines[..n - 3].join("\n") + "\n").unwrap();
    refused(
        &merge(&shards[0], &cut),
        2,
        &[&format!(
            "{} cases where its results.json counts {n}",
            n - 3
        )],
    );
    // a line of another version: a field it needs is missing
    let mut first: Value = serde_json::from_str(lines[0]).unwrap();
    first.as_object_mut().unwrap().remove("status");
    let mut other: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    other[0] = first.to_string();
    std::fs::write(cut.join("cases.jsonl"), other.join("\n") + "\n").unwrap();
    refused(
        &merge(&shards[0], &cut),
        2,
        &[
            "cases.jsonl:1: case `",
            "missing field `status`",
            NOT_COMPLETE,
        ],
    );
    // gone: a file error
    std::fs::remove_file(cut.join("cases.jsonl")).unwrap();
    refused(
        &merge(&shards[0], &cut),
        3,
        &["cases.jsonl", "cannot read cases"],
    );
    assert!(!out.exists(), "a refused merge writes nothing");
}

#[test]
fn a_results_json_of_another_version_names_the_field() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    let o = findbench(&[
        "run",
        "corpora/names.yaml",
        "--no-progress",
        "-q",
        "--out",
        path_str(&run),
    ]);
    assert_exit(&o, 0);
    let other = tmp.path().join("other");
    copy_dir(&run, &other);
    let mut doc: Value =
        serde_json::from_slice(&std::fs::read(other.join("results.json")).unwrap()).unwrap();
    doc["cases"][0].as_object_mut().unwrap().remove("outcome");
    std::fs::write(
        other.join("results.json"),
        serde_json::to_vec_pretty(&doc).unwrap(),
    )
    .unwrap();
    let says = [
        "results.json:",
        "missing field `outcome`",
        NOT_COMPLETE,
        HOW,
    ];
    refused(&findbench(&["gate", path_str(&other)]), 2, &says);
    refused(
        &findbench(&["compare", path_str(&run), path_str(&other), "-f", "text"]),
        2,
        &says,
    );
    refused(
        &findbench(&["gate", path_str(&run), "--baseline", path_str(&other)]),
        2,
        &says,
    );
    // unreadable: exit 3
    let missing = tmp.path().join("nowhere");
    refused(
        &findbench(&["gate", path_str(&missing)]),
        3,
        &["cannot read results", HOW],
    );
    refused(
        &findbench(&[
            "merge",
            path_str(&missing),
            "--out",
            path_str(&tmp.path().join("m")),
        ]),
        3,
        &["cannot read shard results"],
    );
}
