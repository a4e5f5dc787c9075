//! The one item model shared by the task, name, outline and get modes.

use serde::{Deserialize, Deserializer, Serialize};

/// What kind of list an item belongs to; it decides which status counts as finished for
/// `find name` (tasks `Done`, goals `Complete`, reading `Read`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Domain {
    #[default]
    #[serde(alias = "tasks")]
    Task,
    #[serde(alias = "goals")]
    Goal,
    Reading,
}

impl Domain {
    pub const ALL: [Domain; 3] = [Domain::Task, Domain::Goal, Domain::Reading];

    /// `tasks`, `goals`, `reading` (and their singular forms), case-insensitive.
    pub fn parse(name: &str) -> Option<Domain> {
        match name.trim().to_ascii_lowercase().as_str() {
            "task" | "tasks" => Some(Domain::Task),
            "goal" | "goals" => Some(Domain::Goal),
            "reading" | "read" | "reading_list" | "reading-list" => Some(Domain::Reading),
            _ => None,
        }
    }

    /// The status that means finished in this domain (name-filter.md): tasks `Done`, goals
    /// `Complete`, reading `Read`; compared case-insensitively.
    pub fn done_status(self) -> &'static str {
        match self {
            Domain::Task => "done",
            Domain::Goal => "complete",
            Domain::Reading => "read",
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Domain::Task => "task",
            Domain::Goal => "goal",
            Domain::Reading => "reading",
        }
    }
}

/// One task, goal or reading item as stored. Unknown fields in the store are ignored;
/// `id` and `title` are required. Ids may be written as strings or numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Item {
    #[serde(deserialize_with = "string_or_number")]
    pub id: String,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    #[serde(
        default,
        deserialize_with = "opt_string_or_number",
        skip_serializing_if = "Option::is_none"
    )]
    pub priority: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    #[serde(
        default,
        deserialize_with = "texts",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub labels: Vec<String>,
    #[serde(
        default,
        deserialize_with = "texts",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub notes: Vec<String>,
    #[serde(
        default,
        deserialize_with = "texts",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub comments: Vec<String>,
    #[serde(
        default,
        deserialize_with = "opt_string_or_number",
        skip_serializing_if = "Option::is_none"
    )]
    pub parent: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list: Option<String>,
    #[serde(default)]
    pub domain: Domain,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub archived: bool,
}

impl Item {
    /// See [`priority_rank`].
    pub fn priority_rank(&self) -> u32 {
        priority_rank(self.priority.as_deref())
    }
}

/// A rank for ordering by priority, lower first: critical, high, medium, low, then anything
/// else. Numeric priorities (1 = highest) sort among themselves after the names.
pub fn priority_rank(priority: Option<&str>) -> u32 {
    match priority.map(str::trim) {
        None | Some("") => u32::MAX,
        Some(p) => match p.to_ascii_lowercase().as_str() {
            "critical" | "urgent" | "p0" => 0,
            "high" | "p1" => 1,
            "medium" | "normal" | "p2" => 2,
            "low" | "p3" => 3,
            // saturating: a huge number still sorts before a priority that is no number
            other => other
                .parse::<u32>()
                .map_or(u32::MAX - 1, |n| n.saturating_add(10).min(u32::MAX - 2)),
        },
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum StringOrNumber {
    S(String),
    N(serde_json::Number),
}

impl StringOrNumber {
    fn into_string(self) -> String {
        match self {
            StringOrNumber::S(s) => s,
            StringOrNumber::N(n) => n.to_string(),
        }
    }
}

fn string_or_number<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    StringOrNumber::deserialize(d).map(StringOrNumber::into_string)
}

fn opt_string_or_number<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(Option::<StringOrNumber>::deserialize(d)?.map(StringOrNumber::into_string))
}

/// Notes, comments and labels arrive as one string, a list of strings, or a list of objects
/// (`{"text": ...}`, `{"content": ...}`, `{"body": ...}`, `{"note": ...}`); all become strings.
fn texts<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let value = Option::<serde_json::Value>::deserialize(d)?;
    Ok(match value {
        None | Some(serde_json::Value::Null) => Vec::new(),
        Some(serde_json::Value::Array(values)) => values.into_iter().filter_map(text_of).collect(),
        Some(other) => text_of(other).into_iter().collect(),
    })
}

fn text_of(value: serde_json::Value) -> Option<String> {
    use serde_json::Value;
    match value {
        Value::Null => None,
        Value::String(s) => Some(s),
        Value::Object(mut map) => {
            for key in ["text", "content", "body", "note", "comment", "message"] {
                if let Some(Value::String(s)) = map.remove(key) {
                    return Some(s);
                }
            }
            Some(Value::Object(map).to_string())
        }
        other => Some(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lenient_fields() {
        let item: Item = serde_json::from_str(
            r#"{"id": 37, "title": "T", "priority": 2, "notes": "one",
                "comments": [{"author": "a", "text": "hi"}, "plain"], "extra": {"x": 1}}"#,
        )
        .unwrap();
        assert_eq!(item.id, "37");
        assert_eq!(item.priority.as_deref(), Some("2"));
        assert_eq!(item.notes, ["one"]);
        assert_eq!(item.comments, ["hi", "plain"]);
    }

    #[test]
    fn priority_order() {
        let mk = |p: &str| Item {
            priority: Some(p.into()),
            ..serde_json::from_str::<Item>(r#"{"id":"1","title":"t"}"#).unwrap()
        };
        assert!(mk("critical").priority_rank() < mk("high").priority_rank());
        assert!(mk("High").priority_rank() < mk("low").priority_rank());
        assert!(mk("low").priority_rank() < mk("whenever").priority_rank());
    }
}
