//! A store that does not parse, said in the person's words: which item (by its place in
//! its list and its id) and which field, what the field should hold and what it holds, or
//! where the file breaks off. serde_json's own messages (`invalid type: integer `5`,
//! expected a string`, `EOF while parsing an object`) name neither.

use super::json_place::{describe_value_at, fields_of_object, frames_at, id_of_object, Frame};
use crate::error::EngineError;
use serde_json::error::Category;
use std::path::Path;

/// The shapes of store a file is parsed as; they decide where its items sit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `{"tasks": [...], ...}`: items two levels down.
    Todo,
    /// `[...]`: items one level down.
    Array,
    /// One item per line: the line is the item.
    Line { item: usize },
}

/// What the stores findbench reads look like, for messages about the whole file.
pub(crate) const EXPECTED_SHAPES: &str = "expected {\"tasks\": [...]} (with optional \
     `archive`, `goals` and `reading` lists), a JSON array of items, or JSON Lines (one item \
     per line)";

/// The error for `e`, raised parsing `text` (the whole file, or for JSON Lines the one line
/// that failed, at line `line_base + 1` of the file).
pub(crate) fn store_error(
    path: &Path,
    text: &str,
    e: &serde_json::Error,
    shape: Shape,
    line_base: usize,
) -> EngineError {
    let (line, column) = (e.line().max(1), e.column().max(1));
    let offset = offset_of(text, line, e.column());
    let frames = frames_at(text.as_bytes(), offset);
    let place = Place::of(text, &frames, shape);
    let raw = serde_message(e);
    let message = match e.classify() {
        Category::Eof => {
            let what = match place.item_words() {
                Some(item) => item,
                None => eof_subject(&raw).to_string(),
            };
            format!("the file ends in the middle of {what} — is it truncated?")
        }
        Category::Syntax if raw == "number out of range" => place.with_field(&format!(
            "{} is too large to read; write it in quotes as text",
            place.value.as_deref().unwrap_or("a number")
        )),
        Category::Syntax | Category::Io => place.prefixed(&syntax_words(&raw)),
        Category::Data => data_words(&raw, &place),
    };
    EngineError::Parse {
        path: path.to_path_buf(),
        line: line + line_base,
        column,
        message,
    }
}

/// The fields of an item that take text or a number (`crate::item::Item`).
const TEXT_OR_NUMBER_FIELDS: [&str; 3] = ["id", "priority", "parent"];

/// Where the error is: the list (todo shape), the item (1-based), its id, the field and a
/// description of the field's value.
struct Place {
    /// The field of a todo file's top-level object being read (`tasks`).
    top_key: Option<String>,
    list: Option<String>,
    item: Option<usize>,
    id: Option<String>,
    field: Option<String>,
    value: Option<String>,
    /// The item's fields and their values described, for errors serde places at its end.
    fields: Vec<(String, String)>,
}

impl Place {
    fn of(text: &str, frames: &[Frame], shape: Shape) -> Place {
        let (list, item_depth) = match shape {
            Shape::Todo => match frames.first() {
                Some(Frame::Object { key, .. }) => (key.clone(), 1),
                _ => (None, 1),
            },
            Shape::Array => (None, 0),
            Shape::Line { .. } => (None, usize::MAX),
        };
        let (item, item_open) = match (shape, frames.get(item_depth)) {
            (Shape::Line { item }, _) => {
                let open = text.len() - text.trim_start().len();
                (
                    Some(item),
                    Some(open).filter(|&at| text[at..].starts_with('{')),
                )
            }
            (
                _,
                Some(Frame::List {
                    index, element_at, ..
                }),
            ) => {
                let open = element_at.filter(|&at| text.as_bytes().get(at) == Some(&b'{'));
                (Some(index + 1), open)
            }
            _ => (None, None),
        };
        let field_frame = match shape {
            Shape::Line { .. } => frames.first(),
            _ => frames.get(item_depth + 1),
        };
        let (field, value) = match field_frame {
            Some(Frame::Object {
                key: Some(key),
                value_at,
                ..
            }) => (
                Some(key.clone()),
                value_at.map(|at| describe_value_at(text, at)),
            ),
            _ => (None, None),
        };
        // a value that is not an object (`5` in a list of items) is described itself
        let value = value.or_else(|| match (shape, frames.get(item_depth)) {
            (Shape::Todo | Shape::Array, Some(Frame::List { element_at, .. })) => {
                element_at.map(|at| describe_value_at(text, at))
            }
            _ => None,
        });
        let fields = item_open.map_or_else(Vec::new, |open| {
            fields_of_object(text, open)
                .into_iter()
                .map(|(key, at)| (key, describe_value_at(text, at)))
                .collect()
        });
        Place {
            top_key: list.clone(),
            list: list.filter(|_| item.is_some()),
            id: item_open.and_then(|open| id_of_object(text, open)),
            fields,
            item,
            field,
            value,
        }
    }

    /// `item 3 of `tasks` (id `T-7`)`.
    fn item_words(&self) -> Option<String> {
        let n = self.item?;
        let mut words = format!("item {n}");
        if let Some(list) = &self.list {
            words.push_str(&format!(" of `{list}`"));
        }
        if let Some(id) = &self.id {
            words.push_str(&format!(" (id `{id}`)"));
        }
        Some(words)
    }

    /// `message` after the item, if the error is in one.
    fn prefixed(&self, message: &str) -> String {
        match self.item_words() {
            Some(item) => format!("{item}: {message}"),
            None => message.to_string(),
        }
    }

    /// `message` about the field, after the item.
    fn with_field(&self, message: &str) -> String {
        match &self.field {
            Some(field) => self.prefixed(&format!("field `{field}`: {message}")),
            None => self.prefixed(message),
        }
    }
}

/// A data error (a value of the wrong type, a missing field) in plain words.
fn data_words(raw: &str, place: &Place) -> String {
    if let Some(rest) = raw.strip_prefix("invalid type: ") {
        let (got, expected) = rest.split_once(", expected ").unwrap_or((rest, "?"));
        let got = plain_value(got);
        return match expected {
            "struct TodoFile" => format!("the store is {got}: {EXPECTED_SHAPES}"),
            "struct Item" => place.prefixed(&format!(
                "should be an object with `id` and `title`, got {got}"
            )),
            _ => match (&place.field, place.item) {
                (Some(field), _) => place.prefixed(&format!(
                    "field `{field}` should be {}, got {got}",
                    plain_expected(expected)
                )),
                (None, None) => match &place.top_key {
                    // a list of a todo file that is no list (`{"tasks": 5}`)
                    Some(key) => format!(
                        "field `{key}` should be {}, got {got}",
                        plain_expected(expected)
                    ),
                    None => format!("should be {}, got {got}", plain_expected(expected)),
                },
                _ => place.prefixed(&format!(
                    "should be {}, got {got}",
                    plain_expected(expected)
                )),
            },
        };
    }
    if let Some(field) = raw
        .strip_prefix("missing field `")
        .and_then(|f| f.strip_suffix('`'))
    {
        return place.prefixed(&format!(
            "field `{field}` is missing (every item needs `id` and `title`)"
        ));
    }
    if raw.starts_with("data did not match any variant of untagged enum StringOrNumber") {
        // serde reports this at the item's end: the field is the first of those that take
        // text or a number whose value is neither
        let wrong = place.fields.iter().find(|(key, value)| {
            TEXT_OR_NUMBER_FIELDS.contains(&key.as_str())
                && !(value == "text" || value.starts_with("the number"))
        });
        return match wrong {
            Some((field, value)) => place.prefixed(&format!(
                "field `{field}` should be text or a number, got {value}"
            )),
            None => place.with_field("should be text or a number"),
        };
    }
    if let Some(rest) = raw.strip_prefix("unknown variant ") {
        let (got, expected) = rest.split_once(", expected ").unwrap_or((rest, "?"));
        return place.with_field(&format!("{got} is not {expected}"));
    }
    place.with_field(raw)
}

/// A syntax error in plain words (the position says where).
fn syntax_words(raw: &str) -> String {
    match raw {
        "trailing comma" => "a comma before the closing `]` or `}` (JSON allows none)".into(),
        "expected `,` or `}`" => "expected `,` or `}` after a field: is a comma missing?".into(),
        "expected `,` or `]`" => "expected `,` or `]` after a value: is a comma missing?".into(),
        "key must be a string" => "a field name must be text in double quotes".into(),
        "expected `:`" => "expected `:` after a field name".into(),
        "expected value" => "expected a value: text in double quotes, a number, true, false, \
                             null, a list or an object"
            .into(),
        "trailing characters" => "more text after the end of the JSON document".into(),
        "invalid number" => "a number that is not one (JSON numbers have no leading `+`, \
                             `0x` or trailing `.`)"
            .into(),
        m if m.starts_with("control character") => {
            "a line break or control character inside text: write it as \\n or \\t".into()
        }
        other => other.to_string(),
    }
}

/// What serde_json was parsing when the file ended.
fn eof_subject(raw: &str) -> &'static str {
    match raw {
        "EOF while parsing an object" => "an object",
        "EOF while parsing a list" => "a list",
        "EOF while parsing a string" => "a text value",
        _ => "a value",
    }
}

/// serde's `integer `5``, `string "x"`, `map` in plain words.
fn plain_value(got: &str) -> String {
    let quoted = |s: &str| s.trim_matches('`').to_string();
    if let Some(n) = got
        .strip_prefix("integer ")
        .or_else(|| got.strip_prefix("floating point "))
    {
        return format!("the number {}", quoted(n));
    }
    if let Some(b) = got.strip_prefix("boolean ") {
        return format!("the value {}", quoted(b));
    }
    if let Some(s) = got.strip_prefix("string ") {
        return format!("the text {s}");
    }
    match got {
        "map" => "an object".into(),
        "sequence" => "a list".into(),
        "null" | "unit value" => "null".into(),
        other => other.to_string(),
    }
}

/// serde's `a string`, `a sequence` in plain words.
fn plain_expected(expected: &str) -> String {
    match expected {
        "a string" => "text".into(),
        "a sequence" => "a list of items".into(),
        "a boolean" => "true or false".into(),
        "a map" => "an object".into(),
        other => other.to_string(),
    }
}

/// serde_json appends " at line L column C"; the position is reported separately.
pub(crate) fn serde_message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    match full.rfind(" at line ") {
        Some(at) => full[..at].to_string(),
        None => full,
    }
}

/// The byte offset of serde_json's (line, column): its line is 1-based and its column is
/// the bytes of that line the parser had read when it failed, so the bytes before the
/// offset are those it had read.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start = if line <= 1 {
        0
    } else {
        memchr::memchr_iter(b'\n', text.as_bytes())
            .nth(line - 2)
            .map_or(text.len(), |p| p + 1)
    };
    (line_start + column).min(text.len())
}
