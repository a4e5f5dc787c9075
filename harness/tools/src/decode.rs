//! Reading a tool's arguments from a JSON object with its derived `Deserialize`, knowing
//! which argument a bad value belongs to (serde's own errors do not say), and the names of
//! the arguments a struct takes (what serde's derive declares, so no list is kept by hand).

use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, MapAccess, Visitor};
use serde_json::{Map, Value};
use std::cell::Cell;
use std::fmt;

/// Arguments that do not deserialise: the argument whose value is wrong, when one is, and
/// the problem in words (`takes a whole number of 1 or more; got `-1``).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgsError {
    pub field: Option<String>,
    pub problem: String,
}

impl ArgsError {
    /// The problem said of `subject` (`argument `limit``, `arg `limit` of mode `task``):
    /// "SUBJECT takes ...; got ...", or "SUBJECT: problem" for any other wording.
    pub fn said_of(&self, subject: &str) -> String {
        if self.problem.starts_with("takes ") {
            format!("{subject} {}", self.problem)
        } else {
            format!("{subject}: {}", self.problem)
        }
    }
}

impl fmt::Display for ArgsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            Some(field) => f.write_str(&self.said_of(&format!("`{field}`"))),
            None => f.write_str(&self.problem),
        }
    }
}

/// A message about command-line flags said of tool arguments, for a caller that gave JSON
/// arguments (an MCP client): every `--name-part` becomes `` `name_part` ``, the argument's
/// name. An engine check shared by both callers words its errors for the command line.
pub fn flags_as_arguments(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(i) = rest.find("--") {
        let after = &rest[i + 2..];
        let len = after
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
            .unwrap_or(after.len());
        let name = after[..len].trim_end_matches('-');
        let starts_word = rest[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric() && c != '-');
        if name.is_empty() || !starts_word {
            out.push_str(&rest[..i + 2]);
            rest = after;
            continue;
        }
        out.push_str(&rest[..i]);
        out.push('`');
        out.push_str(&name.replace('-', "_"));
        out.push('`');
        rest = &after[name.len()..];
    }
    out.push_str(rest);
    out
}

/// Deserialises `T` from a JSON object. A value of the wrong kind is an [`ArgsError`] naming
/// its argument; serde's "invalid type: X, expected Y" reads "takes Y; got X".
pub fn from_object<T: DeserializeOwned>(object: &Map<String, Value>) -> Result<T, ArgsError> {
    let failed_at = Cell::new(None);
    let fields = Fields {
        entries: object.iter(),
        value: None,
        failed_at: &failed_at,
    };
    T::deserialize(fields).map_err(|e| ArgsError {
        field: failed_at.get().map(str::to_string),
        problem: plain_words(&e.to_string()),
    })
}

/// serde's wording of a value of the wrong kind, turned into the "takes ...; got ..." of
/// every other argument error; any other message as it is.
fn plain_words(message: &str) -> String {
    message
        .strip_prefix("invalid type: ")
        .and_then(|rest| rest.split_once(", expected "))
        .map(|(got, expected)| format!("takes {expected}; got {got}"))
        .unwrap_or_else(|| message.to_string())
}

/// A JSON object handed to a derived `Deserialize` key by key, noting the key whose value
/// failed.
struct Fields<'de> {
    entries: serde_json::map::Iter<'de>,
    value: Option<(&'de str, &'de Value)>,
    failed_at: &'de Cell<Option<&'de str>>,
}

impl<'de> de::Deserializer<'de> for Fields<'de> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_map(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

impl<'de> MapAccess<'de> for Fields<'de> {
    type Error = serde_json::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        let Some((key, value)) = self.entries.next() else {
            return Ok(None);
        };
        self.value = Some((key.as_str(), value));
        let key: de::value::StrDeserializer<'_, serde_json::Error> =
            key.as_str().into_deserializer();
        seed.deserialize(key).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        let (key, value) = self
            .value
            .take()
            .ok_or_else(|| de::Error::custom("a value without its key"))?;
        seed.deserialize(value)
            .inspect_err(|_| self.failed_at.set(Some(key)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// The field names a derived `Deserialize` of a struct declares (after `rename`), read by
/// asking it to deserialise from a source that only records them.
pub fn field_names<T: DeserializeOwned>() -> &'static [&'static str] {
    match T::deserialize(FieldNames) {
        Err(Found::Fields(fields)) => fields,
        _ => &[],
    }
}

struct FieldNames;

#[derive(Debug)]
enum Found {
    Fields(&'static [&'static str]),
    NotAStruct(String),
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Found::Fields(fields) => write!(f, "fields {fields:?}"),
            Found::NotAStruct(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Found {}

impl de::Error for Found {
    fn custom<M: fmt::Display>(message: M) -> Self {
        Found::NotAStruct(message.to_string())
    }
}

impl<'de> de::Deserializer<'de> for FieldNames {
    type Error = Found;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Found> {
        Err(Found::NotAStruct("not a struct".into()))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Found> {
        Err(Found::Fields(fields))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum
        identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Probe {
        term: String,
        #[serde(default, rename = "impl")]
        impl_query: bool,
        #[serde(default)]
        limit: Option<usize>,
    }

    fn object(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn a_bad_value_names_its_argument_in_plain_words() {
        let e = from_object::<Probe>(&object(json!({"term": "x", "impl": "yes"}))).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("impl"));
        assert_eq!(e.problem, "takes a boolean; got string \"yes\"");
        assert_eq!(e.to_string(), "`impl` takes a boolean; got string \"yes\"");
        let e = from_object::<Probe>(&object(json!({"limit": 3}))).unwrap_err();
        assert_eq!(e.field, None, "a missing argument belongs to none: {e}");
        assert!(e.problem.contains("missing field `term`"), "{e}");
        let e = from_object::<Probe>(&object(json!({"term": "x", "lmit": 3}))).unwrap_err();
        assert_eq!(e.field, None);
        assert!(e.problem.contains("unknown field `lmit`"), "{e}");
        let ok = from_object::<Probe>(&object(json!({"term": "x", "limit": 2}))).unwrap();
        assert_eq!((ok.term.as_str(), ok.limit), ("x", Some(2)));
    }

    #[test]
    fn flags_are_said_as_arguments() {
        assert_eq!(
            flags_as_arguments("--limit must be at least 1"),
            "`limit` must be at least 1"
        );
        assert_eq!(
            flags_as_arguments("omit --limit for the default of 10; --max-depth too"),
            "omit `limit` for the default of 10; `max_depth` too"
        );
        // not a flag: a lone `--`, or inside a word
        assert_eq!(flags_as_arguments("a -- b x--y"), "a -- b x--y");
    }

    #[test]
    fn field_names_are_the_derived_ones_after_rename() {
        assert_eq!(field_names::<Probe>(), ["term", "impl", "limit"]);
        assert!(field_names::<String>().is_empty());
    }
}
