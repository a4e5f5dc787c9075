//! Where a byte of a JSON document sits: in which list, which item of it, which field.
//! Used only after a document failed to parse (a store here, a results.json in
//! `harness/eval/src/results_error.rs`), to name the item and field of the error in the
//! person's words; one pass over the bytes up to the error, never a second parse.

/// One open object or list, outermost first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    Object {
        /// Offset of its `{`.
        open: usize,
        /// The field whose value is being read (or was last read), once its name ended.
        key: Option<String>,
        /// Offset of the first character of that field's value.
        value_at: Option<usize>,
    },
    List {
        /// Offset of its `[`.
        open: usize,
        /// The element being read, 0-based (commas seen).
        index: usize,
        /// Offset of the first character of that element.
        element_at: Option<usize>,
    },
}

impl Frame {
    /// Offset of its `{` or `[`.
    pub fn open(&self) -> usize {
        match self {
            Frame::Object { open, .. } | Frame::List { open, .. } => *open,
        }
    }

    /// Where the value being read in it starts.
    pub fn value_at(&self) -> Option<usize> {
        match self {
            Frame::Object { value_at, .. } => *value_at,
            Frame::List { element_at, .. } => *element_at,
        }
    }
}

/// A scanner over JSON bytes that keeps the stack of open objects and lists. It trusts
/// nothing: on malformed input it keeps going and gives its best reading.
#[derive(Debug, Default)]
pub struct Scanner {
    pub frames: Vec<Frame>,
    in_string: bool,
    escaped: bool,
    string_start: usize,
    /// In an object, before a field's name (after `{` or `,`).
    expect_key: bool,
    /// After a `:` or `[`/`,` of a list: the next character starts a value.
    expect_value: bool,
}

impl Scanner {
    /// Reads `bytes[..to]`.
    pub fn scan(&mut self, bytes: &[u8], to: usize) {
        for (i, &b) in bytes.iter().enumerate().take(to.min(bytes.len())) {
            self.step(bytes, i, b);
        }
    }

    /// Reads byte `i` (`b`) of `bytes`.
    pub fn step(&mut self, bytes: &[u8], i: usize, b: u8) {
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_string = false;
                if self.expect_key {
                    let raw = &bytes[self.string_start..=i];
                    let key = serde_json::from_slice::<String>(raw).unwrap_or_else(|_| {
                        String::from_utf8_lossy(raw).trim_matches('"').to_string()
                    });
                    if let Some(Frame::Object { key: k, .. }) = self.frames.last_mut() {
                        *k = Some(key);
                    }
                    self.expect_key = false;
                }
            }
            return;
        }
        if b.is_ascii_whitespace() {
            return;
        }
        if self.expect_value && b != b']' && b != b'}' {
            self.expect_value = false;
            match self.frames.last_mut() {
                Some(Frame::Object { value_at, .. }) => *value_at = Some(i),
                Some(Frame::List { element_at, .. }) => *element_at = Some(i),
                None => {}
            }
        }
        match b {
            b'"' => {
                self.in_string = true;
                self.string_start = i;
            }
            b'{' => {
                self.frames.push(Frame::Object {
                    open: i,
                    key: None,
                    value_at: None,
                });
                self.expect_key = true;
            }
            b'[' => {
                self.frames.push(Frame::List {
                    open: i,
                    index: 0,
                    element_at: None,
                });
                self.expect_value = true;
            }
            b'}' | b']' => {
                self.frames.pop();
                self.expect_key = false;
                self.expect_value = false;
            }
            b':' => self.expect_value = true,
            b',' => match self.frames.last_mut() {
                Some(Frame::Object { key, value_at, .. }) => {
                    *key = None;
                    *value_at = None;
                    self.expect_key = true;
                }
                Some(Frame::List {
                    index, element_at, ..
                }) => {
                    *index += 1;
                    *element_at = None;
                    self.expect_value = true;
                }
                None => {}
            },
            _ => {}
        }
    }
}

/// The open frames at byte `offset` of `bytes` (the bytes before it read).
pub fn frames_at(bytes: &[u8], offset: usize) -> Vec<Frame> {
    let mut scanner = Scanner::default();
    scanner.scan(bytes, offset);
    scanner.frames
}

/// The fields of the object that opens at `open`, in order: each name and the offset of
/// its value (as far as the text goes).
pub(crate) fn fields_of_object(text: &str, open: usize) -> Vec<(String, usize)> {
    let mut scanner = Scanner::default();
    let mut fields: Vec<(String, usize)> = Vec::new();
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate().skip(open) {
        scanner.step(bytes, i, b);
        match scanner.frames.as_slice() {
            [] => break,
            [Frame::Object {
                key: Some(key),
                value_at: Some(at),
                ..
            }] if fields.last().is_none_or(|(_, last)| last != at) => {
                fields.push((key.clone(), *at));
            }
            _ => {}
        }
    }
    fields
}

/// The `id` field of the object that opens at `open`, as text (a number as written), when
/// it holds text or a number.
pub(crate) fn id_of_object(text: &str, open: usize) -> Option<String> {
    let (_, at) = fields_of_object(text, open)
        .into_iter()
        .find(|(key, _)| key == "id")?;
    let value = serde_json::Deserializer::from_str(&text[at..])
        .into_iter::<serde_json::Value>()
        .next()?
        .ok()?;
    match value {
        serde_json::Value::String(s) => Some(s),
        serde_json::Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The value that starts at `at`, described for a person: `the number 5`, `a list`.
pub(crate) fn describe_value_at(text: &str, at: usize) -> String {
    let rest = &text[at..];
    match rest.as_bytes().first() {
        Some(b'[') => "a list".into(),
        Some(b'{') => "an object".into(),
        Some(b'"') => "text".into(),
        Some(b't' | b'f') => "true or false".into(),
        Some(b'n') => "null".into(),
        Some(_) => {
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '+' | '.')))
                .unwrap_or(rest.len());
            format!("the number {}", &rest[..end])
        }
        None => "nothing".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_frames_name_the_list_item_and_field() {
        let text = r#"{"tasks": [{"id": "T-1", "title": "a"}, {"id": "T-7", "title": 5}]}"#;
        let at = text.find('5').unwrap() + 1;
        let frames = frames_at(text.as_bytes(), at);
        assert_eq!(frames.len(), 3);
        assert!(matches!(&frames[0], Frame::Object { key: Some(k), .. } if k == "tasks"));
        assert!(matches!(&frames[1], Frame::List { index: 1, .. }));
        let Frame::Object {
            open,
            key: Some(key),
            value_at: Some(v),
        } = &frames[2]
        else {
            panic!("{frames:?}");
        };
        assert_eq!(key, "title");
        assert_eq!(describe_value_at(text, *v), "the number 5");
        assert_eq!(id_of_object(text, *open).as_deref(), Some("T-7"));
    }

    #[test]
    fn strings_with_brackets_and_escapes_do_not_confuse_it() {
        let text = r#"[{"title": "a [b] {c} \" ,", "id": 12, "labels": [1, {"x": 2}]}, 3"#;
        let frames = frames_at(text.as_bytes(), text.len());
        assert!(matches!(&frames[..], [Frame::List { index: 1, .. }]));
        assert_eq!(id_of_object(text, 1).as_deref(), Some("12"));
    }

    #[test]
    fn an_object_without_an_id_has_none() {
        assert_eq!(id_of_object(r#"{"title": {"id": "inner"}}"#, 0), None);
        assert_eq!(id_of_object(r#"{"id": [1]}"#, 0), None);
        assert_eq!(id_of_object(r#"{"id": "cut"#, 0), None);
    }

    #[test]
    fn the_fields_of_an_object_in_order() {
        let text = r#"{"a": 1, "b": {"c": 2}, "d": [3]}"#;
        let fields: Vec<(String, &str)> = fields_of_object(text, 0)
            .into_iter()
            .map(|(k, at)| (k, &text[at..at + 1]))
            .collect();
        assert_eq!(
            fields,
            [("a".into(), "1"), ("b".into(), "{"), ("d".into(), "[")]
        );
    }
}
