//! A trace line that did not parse, said in plain words: which field, what it should hold,
//! what it held (``field `tools[0].candidates`: expected a whole number, got "x"``), or
//! where the JSON itself breaks. Only a line that failed is looked at again, so a good line
//! is parsed exactly as before; what this cannot place keeps serde_json's own words.

use serde_json::Value;

/// The outcomes a trace records.
const OUTCOMES: [&str; 3] = ["success", "insufficient_evidence", "failure"];

/// The values of a recorded call's `fixture_kind`.
const FIXTURE_KINDS: [&str; 3] = ["root", "store", "paths"];

/// Why `line` (which serde_json refused with `e`) is not a trace.
pub fn describe(line: &str, e: &serde_json::Error) -> String {
    let value: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(syntax) => return syntax_error(line, &syntax),
    };
    let Value::Object(fields) = &value else {
        return format!(
            "expected a JSON object (one trace a line), got {}",
            shown(&value)
        );
    };
    problem(fields).unwrap_or_else(|| e.to_string())
}

/// The JSON itself breaks: where, and how.
fn syntax_error(line: &str, e: &serde_json::Error) -> String {
    let column = e.column();
    if e.is_eof() {
        return "the line ends in the middle of its JSON (is it cut off?)".into();
    }
    let message = e.to_string();
    // serde_json's message ends in " at line L column C": the column is said first here
    let what = message
        .rsplit_once(" at line ")
        .map_or(message.as_str(), |(what, _)| what);
    let near: String = line
        .chars()
        .skip(column.saturating_sub(1))
        .take(20)
        .collect();
    if near.is_empty() {
        format!("not valid JSON at column {column}: {what}")
    } else {
        format!("not valid JSON at column {column} (at `{near}`): {what}")
    }
}

/// What a field should hold.
#[derive(Clone, Copy)]
enum Want {
    Text,
    WholeNumber(u64),
    Number,
    Outcome,
}

/// The first field of a trace line that does not hold what it should, in the order the
/// format lists them.
fn problem(fields: &serde_json::Map<String, Value>) -> Option<String> {
    for name in ["trace_id", "timestamp", "query", "fixture", "outcome"] {
        if !fields.contains_key(name) {
            return Some(format!(
                "field `{name}` is missing (a trace needs `trace_id`, `timestamp`, `query`, \
                 `fixture` and `outcome`)"
            ));
        }
    }
    let scalars = [
        ("trace_id", Want::Text),
        ("timestamp", Want::Text),
        ("query", Want::Text),
        ("outcome", Want::Outcome),
        ("iterations", Want::WholeNumber(u64::from(u32::MAX))),
        ("duration_ms", Want::Number),
    ];
    for (name, want) in scalars {
        if let Some(v) = fields.get(name) {
            if let Some(p) = check(name, v, want) {
                return Some(p);
            }
        }
    }
    if let Some(p) = fixture(&fields["fixture"]) {
        return Some(p);
    }
    if let Some(tools) = fields.get("tools") {
        let Value::Array(tools) = tools else {
            return Some(format!(
                "field `tools`: expected a list of tool calls, got {}",
                shown(tools)
            ));
        };
        for (i, tool) in tools.iter().enumerate() {
            if let Some(p) = tool_call(&format!("tools[{i}]"), tool) {
                return Some(p);
            }
        }
    }
    if let Some(expected) = fields.get("expected").filter(|v| !v.is_null()) {
        let Value::Array(files) = expected else {
            return Some(format!(
                "field `expected`: expected a list of file paths, got {}",
                shown(expected)
            ));
        };
        for (i, f) in files.iter().enumerate() {
            if let Some(p) = check(&format!("expected[{i}]"), f, Want::Text) {
                return Some(p);
            }
        }
    }
    match fields.get("call").filter(|v| !v.is_null()) {
        Some(call) => recorded_call(call),
        None => None,
    }
}

/// `fixture`: a name, or an object naming a tree (`root`, or `git` and `rev`).
fn fixture(v: &Value) -> Option<String> {
    match v {
        Value::String(_) => None,
        Value::Object(o) => {
            for name in ["root", "git", "rev", "path"] {
                if let Some(p) = o
                    .get(name)
                    .and_then(|v| check(&format!("fixture.{name}"), v, Want::Text))
                {
                    return Some(p);
                }
            }
            let root = o.contains_key("root");
            let git = o.contains_key("git");
            if !root && !git {
                return Some(
                    "field `fixture`: an object should name its tree with `root`, or `git` and \
                     `rev`"
                        .into(),
                );
            }
            if git && !o.contains_key("rev") {
                return Some("field `fixture.rev` is missing (a `git` fixture needs `rev`)".into());
            }
            None
        }
        other => Some(format!(
            "field `fixture`: expected a fixture name (text) or an object with `root`, or `git` \
             and `rev`, got {}",
            shown(other)
        )),
    }
}

/// One recorded tool call at `at` (`tools[2]`).
fn tool_call(at: &str, v: &Value) -> Option<String> {
    let Value::Object(o) = v else {
        return Some(format!(
            "field `{at}`: expected a tool call (an object with `name`), got {}",
            shown(v)
        ));
    };
    let Some(name) = o.get("name") else {
        return Some(format!(
            "field `{at}.name` is missing (a tool call needs `name`)"
        ));
    };
    let fields = [
        ("name", Some(name), Want::Text),
        ("input", o.get("input"), Want::Text),
        (
            "candidates",
            o.get("candidates"),
            Want::WholeNumber(u64::MAX),
        ),
        ("duration_ms", o.get("duration_ms"), Want::Number),
        (
            "output_bytes",
            o.get("output_bytes").filter(|v| !v.is_null()),
            Want::WholeNumber(u64::MAX),
        ),
    ];
    fields.into_iter().find_map(|(field, value, want)| {
        value.and_then(|value| check(&format!("{at}.{field}"), value, want))
    })
}

/// `call`: the tool and its arguments as `serve --record` received them.
fn recorded_call(v: &Value) -> Option<String> {
    let Value::Object(o) = v else {
        return Some(format!(
            "field `call`: expected an object with `tool` and `arguments`, got {}",
            shown(v)
        ));
    };
    let Some(tool) = o.get("tool") else {
        return Some("field `call.tool` is missing (a recorded call needs `tool`)".into());
    };
    if let Some(p) = check("call.tool", tool, Want::Text) {
        return Some(p);
    }
    match o.get("fixture_kind").filter(|v| !v.is_null()) {
        Some(Value::String(k)) if FIXTURE_KINDS.contains(&k.as_str()) => None,
        Some(other) => Some(format!(
            "field `call.fixture_kind`: expected one of `root`, `store`, `paths`, got {}",
            shown(other)
        )),
        None => None,
    }
}

/// Whether `v` holds what `want` asks; the problem in words when it does not.
fn check(field: &str, v: &Value, want: Want) -> Option<String> {
    let expected = match want {
        Want::Text if v.is_string() => return None,
        Want::Text => "text".to_string(),
        Want::Number if v.is_number() => return None,
        Want::Number => "a number".to_string(),
        Want::WholeNumber(max) => match v.as_u64() {
            Some(n) if n <= max => return None,
            Some(_) => format!("a whole number up to {max}"),
            None => "a whole number".to_string(),
        },
        Want::Outcome => match v.as_str() {
            Some(o) if OUTCOMES.contains(&o) => return None,
            _ => "one of `success`, `insufficient_evidence`, `failure`".to_string(),
        },
    };
    Some(format!(
        "field `{field}`: expected {expected}, got {}",
        shown(v)
    ))
}

/// A value as the message shows it: text quoted (cut at 40 characters), numbers as
/// written, lists and objects by kind.
fn shown(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) if s.chars().count() > 40 => {
            let cut: String = s.chars().take(40).collect();
            format!("{}...", serde_json::Value::String(cut))
        }
        Value::String(_) => v.to_string(),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    }
}

#[cfg(test)]
mod tests {
    use crate::trace::Trace;

    const LINE: &str = r#"{"trace_id":"t1","timestamp":"2026-06-19T09:00:00Z","query":"find cursor binary","fixture":"agent-cpp","tools":[{"name":"find","input":"cursor","candidates":0,"duration_ms":80.5}],"outcome":"success","iterations":3,"duration_ms":200}"#;

    fn reason(line: &str) -> String {
        Trace::parse_line(line).unwrap_err()
    }

    #[test]
    fn a_field_of_the_wrong_kind_is_named_with_what_it_should_hold() {
        let cases = [
            (
                LINE.replace(r#""candidates":0"#, r#""candidates":"x""#),
                r#"field `tools[0].candidates`: expected a whole number, got "x""#,
            ),
            (
                LINE.replace(r#""iterations":3"#, r#""iterations":-1"#),
                "field `iterations`: expected a whole number, got -1",
            ),
            (
                LINE.replace(r#""iterations":3"#, r#""iterations":5000000000"#),
                "field `iterations`: expected a whole number up to 4294967295, got 5000000000",
            ),
            (
                LINE.replace(r#""outcome":"success""#, r#""outcome":"maybe""#),
                r#"field `outcome`: expected one of `success`, `insufficient_evidence`, `failure`, got "maybe""#,
            ),
            (
                LINE.replace(r#""query":"find cursor binary""#, r#""query":5"#),
                "field `query`: expected text, got 5",
            ),
            (
                LINE.replace(r#""fixture":"agent-cpp""#, r#""fixture":[1]"#),
                "field `fixture`: expected a fixture name (text) or an object with `root`, or \
                 `git` and `rev`, got a list",
            ),
            (
                LINE.replace(r#""tools":["#, r#""tools":[7,"#),
                "field `tools[0]`: expected a tool call (an object with `name`), got 7",
            ),
            (
                LINE.replace(r#""name":"find","#, ""),
                "field `tools[0].name` is missing (a tool call needs `name`)",
            ),
            (
                LINE.replace(r#""trace_id":"t1","#, ""),
                "field `trace_id` is missing (a trace needs `trace_id`, `timestamp`, `query`, \
                 `fixture` and `outcome`)",
            ),
            (
                LINE.replace(r#""duration_ms":200"#, r#""duration_ms":"slow""#),
                r#"field `duration_ms`: expected a number, got "slow""#,
            ),
            (
                LINE.replace(r#""iterations":3"#, r#""iterations":3,"expected":"a.cpp""#),
                r#"field `expected`: expected a list of file paths, got "a.cpp""#,
            ),
            (
                LINE.replace(
                    r#""iterations":3"#,
                    r#""iterations":3,"call":{"tool":"ask","fixture_kind":"disk"}"#,
                ),
                r#"field `call.fixture_kind`: expected one of `root`, `store`, `paths`, got "disk""#,
            ),
            (
                "[1, 2]".to_string(),
                "expected a JSON object (one trace a line), got a list",
            ),
        ];
        for (line, want) in cases {
            assert_eq!(reason(&line), want, "{line}");
        }
    }

    #[test]
    fn broken_json_is_placed_by_column() {
        assert_eq!(
            reason(r#"{"trace_id": "t1""#),
            "the line ends in the middle of its JSON (is it cut off?)"
        );
        let r = reason("not json");
        assert!(
            r.starts_with("not valid JSON at column 2 (at `ot json`): "),
            "{r}"
        );
        assert!(!r.contains(" at line "), "{r}");
    }
}
