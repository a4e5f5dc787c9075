//! The trace line reader on any bytes: every non-blank line is a trace or a bad line
//! counted with its file and line, never a panic, whether read one line at a time
//! (`clusters`) or a chunk at a time (`replay`).

use findbench_traces::trace::{TraceItem, TraceStream};
use proptest::prelude::*;
use std::path::Path;

const GOOD: &str = r#"{"trace_id":"t1","timestamp":"2026-06-19T09:00:00Z","query":"find replay","fixture":"agent-cpp","tools":[{"name":"find","input":"replay","candidates":2,"duration_ms":1.5}],"outcome":"success","iterations":1,"duration_ms":3.0}"#;

/// A line: arbitrary bytes, or a good trace line with a stretch of it replaced by
/// arbitrary bytes (so the parser gets far into real traces before it meets them).
fn line() -> impl Strategy<Value = Vec<u8>> {
    let noise = proptest::collection::vec(any::<u8>(), 0..80);
    prop_oneof![
        noise.clone(),
        (0..GOOD.len(), 0..12usize, noise).prop_map(|(at, cut, bytes)| {
            let mut line = GOOD.as_bytes()[..at].to_vec();
            line.extend(bytes.into_iter().filter(|b| *b != b'\n'));
            line.extend_from_slice(&GOOD.as_bytes()[(at + cut).min(GOOD.len())..]);
            line
        }),
        Just(GOOD.as_bytes().to_vec()),
    ]
}

/// What the stream read from `path`, both ways, checked against the lines written.
fn check(path: &Path, lines: &[Vec<u8>]) -> Result<(), TestCaseError> {
    // the line numbers holding something besides white space: each is one item
    let mut expected_lines = Vec::new();
    let mut number = 0;
    for l in lines {
        // a line of arbitrary bytes may hold line breaks of its own
        for part in l.split(|b| *b == b'\n') {
            number += 1;
            if !part.iter().all(u8::is_ascii_whitespace) {
                expected_lines.push(number);
            }
        }
    }
    let one_by_one: Vec<TraceItem> = TraceStream::open(&[path.to_path_buf()])
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut chunked = Vec::new();
    let mut stream = TraceStream::open(&[path.to_path_buf()]).unwrap();
    loop {
        let items = stream.next_chunk(3);
        if items.is_empty() {
            break;
        }
        chunked.extend(items.into_iter().map(Result::unwrap));
    }
    prop_assert_eq!(&one_by_one, &chunked);
    prop_assert_eq!(one_by_one.len(), expected_lines.len());
    let counts = stream.counts();
    prop_assert_eq!(counts.lines, expected_lines.len());
    prop_assert_eq!(counts.traces + counts.bad_lines, counts.lines);
    for (item, line) in one_by_one.iter().zip(&expected_lines) {
        if let TraceItem::Bad(bad) = item {
            prop_assert_eq!(bad.line, *line);
            prop_assert_eq!(bad.file.as_path(), path);
            prop_assert!(!bad.reason.is_empty());
            let shown = bad.to_string();
            let at = format!("{}:{line}: ", path.display());
            prop_assert!(shown.starts_with(&at), "{}", shown);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_bytes_are_traces_or_bad_lines_with_file_and_line(lines in proptest::collection::vec(line(), 1..12)) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("traces.jsonl");
        let mut bytes = Vec::new();
        for l in &lines {
            bytes.extend_from_slice(l);
            bytes.push(b'\n');
        }
        // a file opening with gzip's magic bytes is read as gzip, whatever its name
        prop_assume!(!bytes.starts_with(&[0x1f, 0x8b]));
        std::fs::write(&path, &bytes).unwrap();
        check(&path, &lines)?;
    }
}
