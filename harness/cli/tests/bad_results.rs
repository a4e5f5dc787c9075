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
            "field `status` is missing",
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
        "field `cases[0].outcome` is missing",
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

/// The 1-based line of the first line of `text` holding `needle`.
fn line_holding(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no `{needle}` in:\n{text}"))
        + 1
}

/// `dir`'s results.json with `edit` applied to it, written pretty; returns its text.
fn edited(dir: &Path, edit: impl FnOnce(&mut Value)) -> String {
    let file = dir.join("results.json");
    let mut doc: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    edit(&mut doc);
    let text = serde_json::to_string_pretty(&doc).unwrap();
    std::fs::write(&file, &text).unwrap();
    text
}

/// Every reader of a results.json (`gate`, `compare`, `export trec`, `run --baseline` and
/// `merge`) names a truncated or wrong-shaped one by its file, its line and the field's
/// path, what the field should hold and what it holds: exit 2, never serde_json's words
/// alone.
#[test]
fn every_reader_names_the_file_line_and_field_of_a_broken_results_json() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let run = |out: &Path, extra: &[&str]| {
        let mut args = vec![
            "run",
            "corpora/names.yaml",
            "--no-progress",
            "-q",
            "--out",
            path_str(out),
        ];
        args.extend(extra);
        assert_exit(&findbench(&args), 0);
    };
    let good = t.join("good");
    run(&good, &[]);
    let (s1, s2) = (t.join("s1"), t.join("s2"));
    run(&s1, &["--shard", "1/2"]);
    run(&s2, &["--shard", "2/2"]);

    // a field of the wrong type, a field missing, and a file cut short
    let typed = t.join("typed");
    copy_dir(&good, &typed);
    let text = edited(&typed, |d| d["cases"][5]["outcome"] = 1.into());
    let typed_says = format!(
        "{}:{}: field `cases[5].outcome`: expected text, found the number 1",
        typed.join("results.json").display(),
        line_holding(&text, "\"outcome\": 1")
    );
    let lacking = t.join("lacking");
    copy_dir(&good, &lacking);
    let mut id = String::new();
    let text = edited(&lacking, |d| {
        id = d["cases"][3]["id"].as_str().unwrap().to_string();
        d["cases"][3].as_object_mut().unwrap().remove("status");
    });
    // the line of the case's `{`, the one before its first field
    let lacking_says = format!(
        "{}:{}: field `cases[3].status` is missing",
        lacking.join("results.json").display(),
        line_holding(&text, &format!("\"id\": \"{id}\"")) - 1
    );
    let cut = t.join("cut");
    copy_dir(&good, &cut);
    let text = std::fs::read_to_string(cut.join("results.json")).unwrap();
    let at =
        text.find("\"cases\": [").unwrap() + (text.len() - text.find("\"cases\": [").unwrap()) / 2;
    std::fs::write(cut.join("results.json"), &text[..at]).unwrap();
    let cut_says = format!(
        "{}:{}: the file ends early, in the middle of field `cases[",
        cut.join("results.json").display(),
        text[..at].matches('\n').count() + 1
    );

    let broken = [
        (&typed, typed_says.as_str()),
        (&lacking, lacking_says.as_str()),
        (&cut, cut_says.as_str()),
    ];
    for (bad, says) in broken {
        let b = path_str(bad);
        let all = [says, NOT_COMPLETE, HOW];
        refused(&findbench(&["gate", b]), 2, &all);
        refused(
            &findbench(&["gate", path_str(&good), "--baseline", b]),
            2,
            &all,
        );
        refused(
            &findbench(&["compare", path_str(&good), b, "-f", "text"]),
            2,
            &all,
        );
        let trec = t.join("trec");
        refused(
            &findbench(&["export", "trec", b, "--out", path_str(&trec)]),
            2,
            &all,
        );
        assert!(!trec.exists(), "a refused export writes nothing");
        let after = t.join("after");
        refused(
            &findbench(&[
                "run",
                "corpora/names.yaml",
                "--no-progress",
                "-q",
                "--baseline",
                b,
                "--out",
                path_str(&after),
            ]),
            2,
            &all,
        );
        assert!(!after.exists(), "a refused run writes nothing");
        for line in stderr(&findbench(&["gate", b])).lines() {
            assert!(
                !line.contains("invalid type") && !line.contains("EOF while parsing"),
                "serde_json's words: {line}"
            );
        }
    }

    // a figure of a suite: what only a run's reader types, gate names too
    let suite = t.join("suite");
    copy_dir(&good, &suite);
    let text = edited(&suite, |d| {
        d["suites"]["names"]["pass_rate"] = "high".into()
    });
    refused(
        &findbench(&["gate", path_str(&suite)]),
        2,
        &[&format!(
            "{}:{}: field `suites.names.pass_rate`: expected a number, found the text \"high\"",
            suite.join("results.json").display(),
            line_holding(&text, "\"pass_rate\": \"high\"")
        )],
    );

    // merge: a shard of the wrong shape, and one cut short
    let bad_shard = t.join("bad-shard");
    copy_dir(&s2, &bad_shard);
    let text = edited(&bad_shard, |d| d["summary"]["total"] = "many".into());
    let merged = t.join("merged");
    refused(
        &findbench(&[
            "merge",
            path_str(&s1),
            path_str(&bad_shard),
            "--out",
            path_str(&merged),
        ]),
        2,
        &[
            &format!(
                "{}:{}: field `summary.total`: expected a whole number (0 or more), found the text \"many\"",
                bad_shard.join("results.json").display(),
                line_holding(&text, "\"total\": \"many\"")
            ),
            NOT_COMPLETE,
        ],
    );
    let bad_shard = t.join("cut-shard");
    copy_dir(&s2, &bad_shard);
    let text = edited(&bad_shard, |d| d["cases"][1]["duration_ms"] = "slow".into());
    refused(
        &findbench(&[
            "merge",
            path_str(&s1),
            path_str(&bad_shard),
            "--out",
            path_str(&merged),
        ]),
        2,
        &[&format!(
            "{}:{}: field `cases[1].duration_ms`: expected a number, found the text \"slow\"",
            bad_shard.join("results.json").display(),
            line_holding(&text, "\"duration_ms\": \"slow\"")
        )],
    );
    // cut at a line's end: cut inside a number (`2.|5`, which the run's timings decide)
    // the reader would see a bad number, not an early end
    let cut = text.len() / 2 + text[text.len() / 2..].find('\n').unwrap() + 1;
    std::fs::write(bad_shard.join("results.json"), &text[..cut]).unwrap();
    refused(
        &findbench(&[
            "merge",
            path_str(&s1),
            path_str(&bad_shard),
            "--out",
            path_str(&merged),
        ]),
        2,
        &[
            &format!(
                "{}:{}: the file ends early, in the middle of field `",
                bad_shard.join("results.json").display(),
                text[..cut].matches('\n').count() + 1
            ),
            NOT_COMPLETE,
        ],
    );
    assert!(!merged.exists(), "a refused merge writes nothing");
}
