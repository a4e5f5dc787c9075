//! `replay` of input that holds no trace: the message names the file it read.

mod common;

#[test]
fn replaying_an_empty_file_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let out = common::findbench(&["replay", empty.to_str().unwrap(), "-f", "text"]);
    common::assert_exit(&out, 2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("no trace to replay") && stderr.contains("empty.jsonl held no trace line"),
        "{stderr}"
    );
}

#[test]
fn replaying_only_bad_lines_says_how_many() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, "not json\n{\"also\": \"not a trace\"}\n").unwrap();
    let out = common::findbench(&["replay", bad.to_str().unwrap(), "-f", "text"]);
    common::assert_exit(&out, 2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bad.jsonl held only 2 bad lines"),
        "{stderr}"
    );
}
