//! A JSON value's kind in the words an error message uses ("`x` is a list, not an
//! object"), for every reader of JSON the harness did not write (an external engine's
//! answer, OTLP spans).

use serde_json::Value;

/// `null`, `a boolean`, `a number`, `a string`, `a list` or `an object`.
pub fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
