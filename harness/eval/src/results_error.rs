//! A results.json (or a cases.jsonl line) that does not read, said in plain words as the
//! trace reader says a bad trace line (`harness/traces/src/trace/line_error.rs`): the line,
//! the field's path (`engines[1].cases[5].outcome`), what it should hold and what it holds,
//! or where the file breaks off. Only a document that failed is looked at again: one pass
//! over its bytes up to the error keeps the open lists and objects, never a second parse.

use findbench_engine::store::json_place::{frames_at, Frame, Scanner};
use serde_json::error::Category;
use serde_json::Value;

/// The path of the value the frames are reading: `cases[4].calls[0].input`, or empty for
/// the document itself.
fn path_of(frames: &[Frame]) -> String {
    let mut path = String::new();
    for f in frames {
        match f {
            Frame::Object { key: Some(k), .. } => {
                let plain = !k.is_empty()
                    && k.chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '$');
                if plain {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(k);
                } else {
                    path.push_str(&format!("[{}]", Value::String(k.clone())));
                }
            }
            Frame::Object { key: None, .. } => break,
            Frame::List { index, .. } => path.push_str(&format!("[{index}]")),
        }
    }
    path
}

/// The byte offset of serde_json's (1-based) line and column in `bytes`.
fn offset_of(bytes: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    if line > 1 {
        let mut seen = 1;
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                seen += 1;
                if seen == line {
                    start = i + 1;
                    break;
                }
            }
        }
    }
    (start + column).min(bytes.len())
}

/// The 1-based line of byte `offset`.
fn line_of(bytes: &[u8], offset: usize) -> usize {
    bytes[..offset.min(bytes.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// What a document or line that serde_json refused with `e` holds wrong, and the line to
/// name (serde_json's own, or the line of the case a check after parsing refused; 0 when
/// unknown).
pub fn describe(bytes: &[u8], e: &serde_json::Error) -> (usize, String) {
    let raw = e.to_string();
    let what = raw
        .rsplit_once(" at line ")
        .map_or(raw.as_str(), |(what, _)| what)
        .to_string();
    // a check after the whole document parsed (crate::case_codec): "case N (`id`): ..."
    if let Some((n, rest)) = case_problem(&what) {
        let (line, at) = nth_case(bytes, n - 1).unwrap_or((e.line(), None));
        let found = at.map(|at| frames_at(bytes, at + 1)).unwrap_or_default();
        let path = match path_of(&found) {
            p if p.is_empty() => format!("cases[{}]", n - 1),
            p => p,
        };
        return (line, data_words(&path, rest, None));
    }
    let offset = offset_of(bytes, e.line(), e.column());
    let mut frames = frames_at(bytes, offset);
    match e.classify() {
        Category::Eof => {
            let message = match path_of(&frames) {
                _ if bytes.iter().all(u8::is_ascii_whitespace) => {
                    "the file is empty (cut short while it was written?)".to_string()
                }
                p if p.is_empty() => {
                    "the file ends early, before its first field (cut short while it was \
                     written?)"
                        .to_string()
                }
                p => format!(
                    "the file ends early, in the middle of field `{p}` (cut short while it was \
                     written?)"
                ),
            };
            (e.line(), message)
        }
        Category::Syntax | Category::Io => {
            let near: String = String::from_utf8_lossy(&bytes[offset.saturating_sub(1)..])
                .chars()
                .take(20)
                .collect();
            let near = near.lines().next().unwrap_or("").to_string();
            let at = match path_of(&frames) {
                p if p.is_empty() => String::new(),
                p => format!(" in field `{p}`"),
            };
            let near = if near.is_empty() {
                String::new()
            } else {
                format!(" (at `{near}`)")
            };
            (
                e.line(),
                format!("not valid JSON at column {}{at}{near}: {what}", e.column()),
            )
        }
        Category::Data => {
            // serde_json names a list or object of the wrong kind at its opening bracket:
            // that frame is the value, not a place inside it
            let bracketed = ["invalid type: map,", "invalid type: sequence,"]
                .iter()
                .any(|p| what.starts_with(p));
            if bracketed && frames.last().is_some_and(|f| f.open() + 2 >= offset) {
                frames.pop();
            }
            let found = frames
                .last()
                .and_then(Frame::value_at)
                .and_then(|at| shown_at(bytes, at));
            let found = match found {
                // the document itself is of the wrong kind
                None if frames.is_empty() => bytes
                    .iter()
                    .position(|b| !b.is_ascii_whitespace())
                    .and_then(|at| shown_at(bytes, at)),
                found => found,
            };
            (e.line(), data_words(&path_of(&frames), &what, found))
        }
    }
}

/// `case N (`id`): rest` or `case N: rest`, as [`crate::case_codec::decode_cases`] says.
fn case_problem(what: &str) -> Option<(usize, &str)> {
    let rest = what.strip_prefix("case ")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let n: usize = rest[..digits].parse().ok().filter(|n| *n > 0)?;
    let rest = &rest[digits..];
    let rest = match rest.strip_prefix(" (`") {
        Some(r) => r.split_once("`)")?.1,
        None => rest,
    };
    Some((n, rest.strip_prefix(": ")?))
}

/// The line and offset of element `index` of the document's top-level `cases` list.
fn nth_case(bytes: &[u8], index: usize) -> Option<(usize, Option<usize>)> {
    let mut scanner = Scanner::default();
    for (i, &b) in bytes.iter().enumerate() {
        scanner.step(bytes, i, b);
        if let [Frame::Object { key: Some(key), .. }, Frame::List {
            index: k,
            element_at: Some(at),
            ..
        }] = scanner.frames.as_slice()
        {
            if key == "cases" && *k == index {
                return Some((line_of(bytes, *at), Some(*at)));
            }
        }
    }
    None
}

/// The summary figures every results.json has, and what each holds: the readers keep the
/// summary as JSON (a run's and a replay's differ), so these are checked after parsing.
const SUMMARY_FIGURES: [(&str, bool); 7] = [
    ("total", true),
    ("passed", true),
    ("failed", true),
    ("xfail", true),
    ("xpass", true),
    ("pass_rate", false),
    ("insufficient_evidence_rate", false),
];

/// The first summary figure of the wrong kind, with the line of its value in `bytes` (0 when
/// not found) and the words: `field `summary.pass_rate`: expected a number, found ...`.
pub fn summary_problem(
    summary: &serde_json::Map<String, Value>,
    bytes: &[u8],
) -> Option<(usize, String)> {
    let (name, whole, v) = SUMMARY_FIGURES.iter().find_map(|(name, whole)| {
        let v = summary.get(*name)?;
        // a whole number written as 40.0 is one (hand-made documents write them so)
        let fits = if *whole {
            v.as_f64().is_some_and(|n| n >= 0.0 && n.fract() == 0.0)
        } else {
            v.is_number()
        };
        (!fits).then_some((*name, *whole, v))
    })?;
    let want = if whole {
        "a whole number (0 or more)"
    } else {
        "a number"
    };
    let found = shown_at(v.to_string().as_bytes(), 0).unwrap_or_default();
    let mut scanner = Scanner::default();
    let mut line = 0;
    for (i, &b) in bytes.iter().enumerate() {
        scanner.step(bytes, i, b);
        if let [Frame::Object { key: Some(top), .. }, Frame::Object {
            key: Some(key),
            value_at: Some(at),
            ..
        }] = scanner.frames.as_slice()
        {
            if top == "summary" && key == name {
                line = line_of(bytes, *at);
                break;
            }
        }
    }
    Some((
        line,
        format!("field `summary.{name}`: expected {want}, found {found}"),
    ))
}

/// serde_json's words for a value of the wrong kind, as the person reads them.
fn data_words(path: &str, what: &str, found: Option<String>) -> String {
    let field = |p: &str| {
        if p.is_empty() {
            "the document".to_string()
        } else {
            format!("field `{p}`")
        }
    };
    if let Some(name) = what
        .strip_prefix("missing field `")
        .and_then(|r| r.strip_suffix('`'))
    {
        let full = if path.is_empty() {
            name.to_string()
        } else {
            format!("{path}.{name}")
        };
        return format!("field `{full}` is missing");
    }
    let (found_words, want) = if let Some(rest) = what
        .strip_prefix("invalid type: ")
        .or_else(|| what.strip_prefix("invalid value: "))
    {
        match rest.split_once(", expected ") {
            Some((f, w)) => (f.to_string(), w.to_string()),
            None => return format!("{}: {what}", field(path)),
        }
    } else if let Some(rest) = what.strip_prefix("unknown variant ") {
        match rest.split_once(", expected ") {
            Some((f, w)) => (format!("text {f}"), w.to_string()),
            None => return format!("{}: {what}", field(path)),
        }
    } else if let Some(rest) = what.strip_prefix("invalid length ") {
        match rest.split_once(", expected ") {
            Some((n, w)) => (format!("a list of {n}"), w.to_string()),
            None => return format!("{}: {what}", field(path)),
        }
    } else {
        return format!("{}: {what}", field(path));
    };
    format!(
        "{}: expected {}, found {}",
        field(path),
        want_words(&want),
        found.unwrap_or_else(|| found_words_plain(&found_words))
    )
}

/// What serde_json says a field expects, as the person reads it.
fn want_words(want: &str) -> String {
    match want {
        "a string" => "text".into(),
        "usize" | "u64" | "u32" | "u16" | "u8" => "a whole number (0 or more)".into(),
        "isize" | "i64" | "i32" | "i16" | "i8" => "a whole number".into(),
        "f64" | "f32" => "a number".into(),
        "a boolean" => "true or false".into(),
        "a sequence" => "a list".into(),
        "a map" => "an object".into(),
        w if w.starts_with("struct ") || w.starts_with("a map") => "an object".into(),
        w if w.starts_with("variant identifier") => "one of the names it takes".into(),
        w => w.to_string(),
    }
}

/// serde_json's words for what it found (`integer `1``, `map`), when the bytes do not say.
fn found_words_plain(found: &str) -> String {
    let inner = |s: &str| s.trim_matches('`').to_string();
    if let Some(n) = found
        .strip_prefix("integer ")
        .or_else(|| found.strip_prefix("floating point "))
    {
        return format!("the number {}", inner(n));
    }
    match found {
        "map" => "an object".into(),
        "sequence" => "a list".into(),
        "null" | "unit value" => "null".into(),
        f => f.to_string(),
    }
}

/// The value starting at `at` as the message shows it (text quoted and cut at 40
/// characters, numbers as written, lists and objects by kind); None when it does not parse.
fn shown_at(bytes: &[u8], at: usize) -> Option<String> {
    let mut values = serde_json::Deserializer::from_slice(bytes.get(at..)?).into_iter::<Value>();
    let v = values.next()?.ok()?;
    Some(match &v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) if s.chars().count() > 40 => {
            let cut: String = s.chars().take(40).collect();
            format!("the text {}...", Value::String(cut))
        }
        Value::String(_) => format!("the text {v}"),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line and words for `text`, read as `T`.
    fn said<T: serde::de::DeserializeOwned + std::fmt::Debug>(text: &str) -> (usize, String) {
        let e = serde_json::from_str::<T>(text).unwrap_err();
        describe(text.as_bytes(), &e)
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Doc {
        summary: Summary,
        cases: Vec<Case>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Summary {
        total: usize,
        pass_rate: f64,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Case {
        id: String,
        outcome: String,
        status: crate::case::Status,
        #[serde(default)]
        ranked: Vec<String>,
    }

    const GOOD: &str = r#"{
  "summary": {"total": 2, "pass_rate": 1.0},
  "cases": [
    {"id": "a", "outcome": "success", "status": "pass"},
    {"id": "b", "outcome": "success", "status": "pass", "ranked": ["x"]}
  ]
}
"#;

    #[test]
    fn a_field_of_the_wrong_kind_is_named_by_its_path_with_what_it_holds() {
        assert!(serde_json::from_str::<Doc>(GOOD).is_ok());
        let cases = [
            (
                GOOD.replace(
                    r#""outcome": "success", "status": "pass", "ranked""#,
                    r#""outcome": 1, "status": "pass", "ranked""#,
                ),
                5,
                "field `cases[1].outcome`: expected text, found the number 1",
            ),
            (
                GOOD.replace(r#""total": 2"#, r#""total": "two""#),
                2,
                r#"field `summary.total`: expected a whole number (0 or more), found the text "two""#,
            ),
            (
                GOOD.replace(r#""total": 2"#, r#""total": -2"#),
                2,
                "field `summary.total`: expected a whole number (0 or more), found the number -2",
            ),
            (
                GOOD.replace(r#""status": "pass"}"#, r#""status": "maybe"}"#),
                4,
                r#"field `cases[0].status`: expected one of `pass`, `fail`, `xfail`, `xpass`, `n/a`, found the text "maybe""#,
            ),
            (
                GOOD.replace(r#""ranked": ["x"]"#, r#""ranked": {"x": 1}"#),
                5,
                "field `cases[1].ranked`: expected a list, found an object",
            ),
            (
                GOOD.replace(r#""ranked": ["x"]"#, r#""ranked": [7]"#),
                5,
                "field `cases[1].ranked[0]`: expected text, found the number 7",
            ),
            (
                GOOD.replace(
                    r#""summary": {"total": 2, "pass_rate": 1.0}"#,
                    r#""summary": [2]"#,
                ),
                2,
                "field `summary`: expected an object, found a list",
            ),
            (
                GOOD.replace(r#"{"id": "a", "outcome": "success", "#, r#"{"id": "a", "#),
                4,
                "field `cases[0].outcome` is missing",
            ),
            (
                "\"x\"".to_string(),
                1,
                "the document: expected an object, found the text \"x\"",
            ),
        ];
        for (text, line, want) in cases {
            assert_eq!(said::<Doc>(&text), (line, want.to_string()), "{text}");
        }
    }

    #[test]
    fn a_file_cut_short_names_the_field_it_ends_in() {
        let cut = &GOOD[..GOOD.find(r#""ranked""#).unwrap() + 12];
        assert_eq!(
            said::<Doc>(cut),
            (
                5,
                "the file ends early, in the middle of field `cases[1].ranked[0]` (cut short \
                 while it was written?)"
                    .to_string()
            )
        );
        assert_eq!(
            said::<Doc>("  \n").1,
            "the file is empty (cut short while it was written?)"
        );
        let (line, words) = said::<Doc>(&GOOD.replace(r#""id": "b","#, r#""id": "b" "#));
        assert_eq!(line, 5);
        assert!(
            words.starts_with("not valid JSON at column ") && words.contains("in field `cases[1]"),
            "{words}"
        );
    }

    #[test]
    fn a_case_refused_after_parsing_is_placed_at_its_line() {
        let (line, words) = describe(
            GOOD.as_bytes(),
            &<serde_json::Error as serde::de::Error>::custom(
                "case 2 (`b`): missing field `status`",
            ),
        );
        assert_eq!(
            (line, words.as_str()),
            (5, "field `cases[1].status` is missing")
        );
        assert_eq!(
            case_problem("case 12: answer 3 is not in `answers` (2 of them)"),
            Some((12, "answer 3 is not in `answers` (2 of them)"))
        );
    }
}
