//! How an argument's value is read from JSON (an MCP call, a corpus case's `args`), and
//! what an error says it takes. The command line reads the same kinds through
//! [`crate::cli_values`], in the same words.
//!
//! These are lenient where corpora always were: a flag may be `null` (false), an id or a
//! list name may be a number, a list may be one comma-separated string.

use serde::de::{self, Deserialize, Deserializer};
use serde_json::Value;

/// What `--limit` takes. 0 reads as a number and the engine rejects it, naming the
/// default, so a corpus case can check that rejection.
pub const ONE_OR_MORE: &str = "a whole number of 1 or more";
/// What a count that may be nothing takes (`--depth`, `clusters --min`).
pub const ZERO_OR_MORE: &str = "a whole number of 0 or more";
/// What `--threshold` takes.
pub const A_NUMBER: &str = "a number";
const TRUE_OR_FALSE: &str = "true or false";
const A_STRING: &str = "a string";
const STRINGS: &str = "a string or a list of strings";

/// A value as an error names it: `` `-1` ``, `` `true` ``, `the string "ten"`, `a list`.
pub fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("`{b}`"),
        Value::Number(n) => format!("`{n}`"),
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "a mapping".into(),
    }
}

fn takes<E: de::Error>(what: &str, got: &Value) -> E {
    E::custom(format!("takes {what}; got {}", describe(got)))
}

/// A whole number, or what it takes.
fn whole<E: de::Error>(value: &Value, what: &str) -> Result<usize, E> {
    value
        .as_u64()
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| takes(what, value))
}

/// `limit`: a whole number.
pub(crate) fn limit<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    whole(&Value::deserialize(d)?, ONE_OR_MORE)
}

/// `limit` that may be left to the profile.
pub(crate) fn limit_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        v => whole(&v, ONE_OR_MORE).map(Some),
    }
}

/// `depth`: levels, 0 or more, that may be left to the profile.
pub(crate) fn levels_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        v => whole(&v, ZERO_OR_MORE).map(Some),
    }
}

/// A number that may be left to the profile.
pub(crate) fn number_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        v => v.as_f64().map(Some).ok_or_else(|| takes(A_NUMBER, &v)),
    }
}

/// A flag: true or false (`null` is false).
pub(crate) fn flag<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(false),
        Value::Bool(b) => Ok(b),
        v => Err(takes(TRUE_OR_FALSE, &v)),
    }
}

/// A string that may be absent; a number is taken as its digits (`id: 37`).
pub(crate) fn text_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s)),
        Value::Number(n) => Ok(Some(n.to_string())),
        v => Err(takes(A_STRING, &v)),
    }
}

/// A list of strings: a list, or one string; each string split at commas, blanks dropped.
pub(crate) fn comma_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let split = |s: &str| -> Vec<String> {
        s.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    };
    match Value::deserialize(d)? {
        Value::Null => Ok(Vec::new()),
        Value::String(s) => Ok(split(&s)),
        Value::Array(items) => {
            let mut out = Vec::new();
            for item in &items {
                match item {
                    Value::String(s) => out.extend(split(s)),
                    other => return Err(takes(STRINGS, other)),
                }
            }
            Ok(out)
        }
        v => Err(takes(STRINGS, &v)),
    }
}

/// A comma-separated string, given as one or as a list of its parts.
pub(crate) fn comma_joined<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let value = Value::deserialize(d)?;
    match &value {
        Value::String(s) => Ok(s.clone()),
        Value::Array(items) => items
            .iter()
            .map(|i| i.as_str().ok_or_else(|| takes(STRINGS, i)))
            .collect::<Result<Vec<&str>, _>>()
            .map(|parts| parts.join(",")),
        _ => Err(takes(STRINGS, &value)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn err<T: std::fmt::Debug>(r: Result<T, serde_json::Error>) -> String {
        r.unwrap_err().to_string()
    }

    #[test]
    fn whole_numbers_say_what_they_take() {
        assert_eq!(limit(json!(3)).unwrap(), 3);
        assert_eq!(limit(json!(0)).unwrap(), 0, "0 is the engine's to reject");
        assert_eq!(
            err(limit(json!(-1))),
            "takes a whole number of 1 or more; got `-1`"
        );
        assert_eq!(
            err(limit(json!("ten"))),
            "takes a whole number of 1 or more; got the string \"ten\""
        );
        assert_eq!(
            err(limit(json!(2.5))),
            "takes a whole number of 1 or more; got `2.5`"
        );
        assert_eq!(limit_opt(json!(null)).unwrap(), None);
        assert_eq!(
            err(levels_opt(json!(-3))),
            "takes a whole number of 0 or more; got `-3`"
        );
        assert_eq!(number_opt(json!(1)).unwrap(), Some(1.0));
        assert_eq!(
            err(number_opt(json!("x"))),
            "takes a number; got the string \"x\""
        );
    }

    #[test]
    fn strings_lists_and_flags_take_what_corpora_write() {
        assert!(!flag(json!(null)).unwrap());
        assert_eq!(
            err(flag(json!("yes"))),
            "takes true or false; got the string \"yes\""
        );
        assert_eq!(text_opt(json!(37)).unwrap().as_deref(), Some("37"));
        assert_eq!(err(text_opt(json!([1]))), "takes a string; got a list");
        assert_eq!(comma_list(json!("a, b,,c")).unwrap(), ["a", "b", "c"]);
        assert_eq!(comma_list(json!(["a,b", "c"])).unwrap(), ["a", "b", "c"]);
        assert_eq!(
            err(comma_list(json!([1]))),
            "takes a string or a list of strings; got `1`"
        );
        assert_eq!(
            comma_joined(json!(["title", "labels"])).unwrap(),
            "title,labels"
        );
        assert_eq!(comma_joined(json!("title")).unwrap(), "title");
    }
}
