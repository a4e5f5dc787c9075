//! Parsing store files: todo.json (`{"tasks": [...], "archive": [...]}`, optionally with
//! `"goals"` and `"reading"` lists), a bare JSON array of items, or JSON Lines.

use super::load_error::{store_error, Shape, EXPECTED_SHAPES};
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
        let items: Vec<Item> =
            serde_json::from_str(text).map_err(|e| store_error(path, text, &e, Shape::Array, 0))?;
        return Ok((StoreFormat::JsonArray, items));
    }
    if trimmed.is_empty() {
        return Err(EngineError::Parse {
            path: path.to_path_buf(),
            line: 1,
            column: 1,
            message: format!("store is empty: {EXPECTED_SHAPES}"),
        });
    }
    let file: TodoFile =
        serde_json::from_str(text).map_err(|e| store_error(path, text, &e, Shape::Todo, 0))?;
    if file.tasks.is_empty()
        && file.archive.is_empty()
        && file.goals.is_empty()
        && file.reading.is_empty()
    {
        // `{"foo": 1}` parses as a todo file with no lists: it is no store
        check_has_a_list(path, text)?;
    }
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

/// The lists of a todo file; one of them, even empty, makes an object a store.
const LISTS: [&str; 5] = ["tasks", "archive", "goals", "reading", "reading_list"];

/// An error unless the top-level object of `text` has one of [`LISTS`].
fn check_has_a_list(path: &Path, text: &str) -> Result<()> {
    let keys: Vec<String> =
        serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(text)
            .map(|map| map.keys().cloned().collect())
            .unwrap_or_default();
    if keys.iter().any(|k| LISTS.contains(&k.as_str())) {
        return Ok(());
    }
    let found = if keys.is_empty() {
        "the object is empty".to_string()
    } else {
        let shown: Vec<String> = keys.iter().take(5).map(|k| format!("`{k}`")).collect();
        let more = if keys.len() > 5 { ", ..." } else { "" };
        format!("the object has {}{more}", shown.join(", "))
    };
    Err(EngineError::Parse {
        path: path.to_path_buf(),
        line: 1,
        column: 1,
        message: format!("no list of items: {EXPECTED_SHAPES}; {found}"),
    })
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
        let item: Item = serde_json::from_str(line).map_err(|e| {
            let shape = Shape::Line {
                item: items.len() + 1,
            };
            store_error(path, line, &e, shape, index)
        })?;
        items.push(item);
    }
    Ok(items)
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

    fn message(name: &str, text: &str) -> String {
        match parse(name, text.as_bytes()).unwrap_err() {
            EngineError::Parse { message, .. } => message,
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn an_object_without_a_list_is_no_store() {
        assert!(message("s.json", r#"{"foo": 1, "bar": []}"#)
            .ends_with("; the object has `foo`, `bar`"));
        assert!(message("s.json", "{}").ends_with("; the object is empty"));
        assert!(message("s.json", "5").starts_with("the store is the number 5: expected"));
        for empty in [
            r#"{"tasks": []}"#,
            r#"{"archive": []}"#,
            r#"{"reading_list": [], "x": 1}"#,
        ] {
            let (format, items) = parse("s.json", empty.as_bytes()).unwrap();
            assert_eq!((format, items.len()), (StoreFormat::TodoJson, 0));
        }
    }

    #[test]
    fn errors_name_the_item_its_id_and_the_field() {
        let text = r#"{"tasks": [{"id": "a", "title": "x"}], "goals": [{"title": "g", "id": 7, "labels": "l", "parent": {}}]}"#;
        assert_eq!(
            message("s.json", text),
            "item 1 of `goals` (id `7`): field `parent` should be text or a number, got an object"
        );
        assert_eq!(
            message("s.json", r#"{"tasks": [{"id": "a"}]}"#),
            "item 1 of `tasks` (id `a`): field `title` is missing (every item needs `id` and `title`)"
        );
        assert_eq!(
            message("s.json", r#"[{"id": "a", "title": "x", "domain": "zz"}]"#),
            "item 1 (id `a`): field `domain`: `zz` is not one of `task`, `tasks`, `goal`, \
             `goals`, `reading`"
        );
        assert_eq!(
            message("s.json", r#"{"tasks": {"id": "a"}}"#),
            "field `tasks` should be a list of items, got an object"
        );
        assert_eq!(
            message("s.json", r#"{"tasks": [{"id": "a", "title": "x"},]}"#),
            "a comma before the closing `]` or `}` (JSON allows none)"
        );
        assert_eq!(
            message("s.json", "{\"tasks\": [{\"id\": \"a\", \"title\": \"x"),
            "the file ends in the middle of item 1 of `tasks` (id `a`) — is it truncated?"
        );
        assert_eq!(
            message("s.json", "{\"tasks\": "),
            "the file ends in the middle of a value — is it truncated?"
        );
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
