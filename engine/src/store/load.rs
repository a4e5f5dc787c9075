//! Parsing store files: todo.json (`{"tasks": [...], "archive": [...]}`, optionally with
//! `"goals"` and `"reading"` lists), a bare JSON array of items, or JSON Lines.

use crate::error::{EngineError, Result};
use crate::item::{Domain, Item};
use serde::Deserialize;
use std::path::Path;

/// The shape a store file was read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreFormat {
    TodoJson,
    JsonArray,
    JsonLines,
    InMemory,
}

#[derive(Deserialize)]
struct TodoFile {
    #[serde(default)]
    tasks: Vec<Item>,
    #[serde(default)]
    archive: Vec<Item>,
    #[serde(default)]
    goals: Vec<Item>,
    #[serde(default, alias = "reading_list")]
    reading: Vec<Item>,
}

pub(crate) fn parse_store(path: &Path, bytes: &[u8]) -> Result<(StoreFormat, Vec<Item>)> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let (line, column) = line_column(bytes, e.valid_up_to());
        EngineError::Parse {
            path: path.to_path_buf(),
            line,
            column,
            message: "store is not valid UTF-8".into(),
        }
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let is_jsonl = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "jsonl" | "ndjson"));
    if is_jsonl || looks_like_json_lines(text) {
        return parse_json_lines(path, text).map(|items| (StoreFormat::JsonLines, items));
    }
    let trimmed = text.trim_start();
    if trimmed.starts_with('[') {
        let items: Vec<Item> = serde_json::from_str(text).map_err(|e| json_error(path, &e))?;
        return Ok((StoreFormat::JsonArray, items));
    }
    if trimmed.is_empty() {
        return Err(EngineError::Parse {
            path: path.to_path_buf(),
            line: 1,
            column: 1,
            message: "store is empty: expected {\"tasks\": [...]} or JSON Lines".into(),
        });
    }
    let file: TodoFile = serde_json::from_str(text).map_err(|e| json_error(path, &e))?;
    let mut items = Vec::with_capacity(
        file.tasks.len() + file.archive.len() + file.goals.len() + file.reading.len(),
    );
    items.extend(file.tasks);
    items.extend(file.archive.into_iter().map(|mut item| {
        item.archived = true;
        item
    }));
    items.extend(file.goals.into_iter().map(|mut item| {
        item.domain = Domain::Goal;
        item
    }));
    items.extend(file.reading.into_iter().map(|mut item| {
        item.domain = Domain::Reading;
        item
    }));
    Ok((StoreFormat::TodoJson, items))
}

/// A file whose first line is a complete JSON object and which has a second non-empty line
/// is JSON Lines, whatever its extension.
fn looks_like_json_lines(text: &str) -> bool {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let Some(first) = lines.next() else {
        return false;
    };
    lines.next().is_some()
        && first.trim_start().starts_with('{')
        && serde_json::from_str::<serde::de::IgnoredAny>(first).is_ok()
}

fn parse_json_lines(path: &Path, text: &str) -> Result<Vec<Item>> {
    let mut items = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let item: Item = serde_json::from_str(line).map_err(|e| EngineError::Parse {
            path: path.to_path_buf(),
            line: index + 1,
            column: e.column().max(1),
            message: clean_message(&e),
        })?;
        items.push(item);
    }
    Ok(items)
}

fn json_error(path: &Path, e: &serde_json::Error) -> EngineError {
    EngineError::Parse {
        path: path.to_path_buf(),
        line: e.line().max(1),
        column: e.column().max(1),
        message: clean_message(e),
    }
}

/// serde_json appends " at line L column C"; the position is reported separately.
fn clean_message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    match full.rfind(" at line ") {
        Some(at) => full[..at].to_string(),
        None => full,
    }
}

/// 1-based line and column (in characters) of byte `offset`.
fn line_column(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset];
    let line = memchr::memchr_iter(b'\n', before).count() + 1;
    let line_start = memchr::memrchr(b'\n', before).map_or(0, |p| p + 1);
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(name: &str, text: &[u8]) -> Result<(StoreFormat, Vec<Item>)> {
        parse_store(Path::new(name), text)
    }

    #[test]
    fn todo_shape_with_archive_goals_and_reading() {
        let (format, items) = parse(
            "todo.json",
            br#"{"tasks":[{"id":"T1","title":"a"}],"archive":[{"id":"T0","title":"old"}],
                "goals":[{"id":"G1","title":"g"}],"reading":[{"id":"R1","title":"r"}]}"#,
        )
        .unwrap();
        assert_eq!(format, StoreFormat::TodoJson);
        assert_eq!(items.len(), 4);
        assert!(items[1].archived);
        assert_eq!(items[2].domain, Domain::Goal);
        assert_eq!(items[3].domain, Domain::Reading);
    }

    #[test]
    fn json_lines_detected_without_extension() {
        let (format, items) = parse(
            "store.json",
            b"{\"id\":\"a\",\"title\":\"x\"}\n\n{\"id\":\"b\",\"title\":\"y\"}\n",
        )
        .unwrap();
        assert_eq!(format, StoreFormat::JsonLines);
        assert_eq!(items.len(), 2);
    }

    #[test]
    fn json_lines_error_names_the_line() {
        let err = parse(
            "s.jsonl",
            b"{\"id\":\"a\",\"title\":\"x\"}\n{\"id\":\"b\"}\n",
        )
        .unwrap_err();
        match err {
            EngineError::Parse { line, message, .. } => {
                assert_eq!(line, 2);
                assert!(message.contains("title"), "{message}");
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn truncated_json_reports_position() {
        let err = parse(
            "todo.json",
            b"{\"tasks\": [\n  {\"id\": \"T1\", \"title\": \"a\"},\n  {\"id\"",
        )
        .unwrap_err();
        match err {
            EngineError::Parse { line, .. } => assert_eq!(line, 3),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn non_utf8_reports_position() {
        let err = parse("todo.json", b"{\"tasks\": [\n{\"id\": \"\xff\"}]}").unwrap_err();
        match err {
            EngineError::Parse { line, column, .. } => assert_eq!((line, column), (2, 9)),
            other => panic!("unexpected {other:?}"),
        }
    }
}
