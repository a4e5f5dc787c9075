//! The fields of an item that `find task` and `find outline` search, as the store keeps
//! them: each one's folded text, its character bag and its column in the word index. How
//! much each weighs is the profile's (`rank/field_weight.rs`).

use super::index::FoldedText;
use super::item_ref::ItemRef;
use crate::error::{EngineError, Result};
use serde::{Deserialize, Serialize};

/// A field `find task` (and `find outline`) can search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TaskField {
    Title,
    Description,
    Labels,
    Notes,
}

impl TaskField {
    pub const ALL: [TaskField; 4] = [
        TaskField::Title,
        TaskField::Description,
        TaskField::Labels,
        TaskField::Notes,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            TaskField::Title => "title",
            TaskField::Description => "description",
            TaskField::Labels => "labels",
            TaskField::Notes => "notes",
        }
    }

    /// Parses `--field`: a comma-separated list of field names, or `all`.
    pub fn parse_list(spec: &str) -> Result<Vec<TaskField>> {
        let mut fields = Vec::new();
        for name in spec.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match name.to_ascii_lowercase().as_str() {
                "all" => fields.extend(TaskField::ALL),
                "title" => fields.push(TaskField::Title),
                "description" | "desc" => fields.push(TaskField::Description),
                "labels" | "label" => fields.push(TaskField::Labels),
                "notes" | "note" => fields.push(TaskField::Notes),
                _ => {
                    return Err(EngineError::invalid_with_hint(
                        format!("unknown field `{name}` in --field"),
                        "fields are: title, description, labels, notes, all",
                    ))
                }
            }
        }
        if fields.is_empty() {
            return Err(EngineError::invalid_with_hint(
                "--field is empty",
                "fields are: title, description, labels, notes, all",
            ));
        }
        fields.sort();
        fields.dedup();
        Ok(fields)
    }

    /// The item's folded text of this field.
    pub(crate) fn text(self, item: ItemRef<'_>) -> FoldedText<'_> {
        match self {
            TaskField::Title => item.title_folded(),
            TaskField::Description => item.description_folded(),
            TaskField::Labels => item.labels_folded(),
            TaskField::Notes => item.notes_folded(),
        }
    }

    /// The characters of the item's folded text of this field, without reading it.
    #[inline]
    pub(crate) fn bag(self, item: ItemRef<'_>) -> u64 {
        item.folded_bag(self.column())
    }

    /// The field's column in the store's word index (`store/word_index.rs`).
    pub(crate) fn column(self) -> usize {
        match self {
            TaskField::Title => 0,
            TaskField::Description => 1,
            TaskField::Labels => 2,
            TaskField::Notes => 3,
        }
    }
}
