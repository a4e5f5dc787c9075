//! The section of `find outline` and `get`: term weights, fields and the zoom's rules.

use super::range::{fixed, real, NotTunable, Tunable};
use super::task::TaskWeights;
use crate::store::TaskField;
use serde::{Deserialize, Serialize};

/// Rules of `find outline` (the map) and `get` (the zoom), map-and-zoom.md.
///
/// Outline matches with the same term matching as `find task`, with its own weights and
/// fields, because a node's notes are where an outline keeps its detail.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OutlineWeights {
    pub fields: Vec<TaskField>,
    pub matching: TaskWeights,
    pub threshold: f64,
    /// Matches returned when the request names no `--limit` (the spec's 10).
    pub limit: usize,
    /// `get --children` depth when none is given (the spec's 2).
    pub depth: usize,
    /// Deepest `--depth` accepted: the subtree is nested JSON, so its depth is bounded.
    pub max_depth: usize,
    /// Most subtree nodes one `get` returns; past it the response says `truncated`.
    pub max_children: usize,
    /// Closest ids suggested when `get` finds no item with the id asked for.
    pub suggestions: usize,
}

impl OutlineWeights {
    /// The numbers `findbench tune` searches, with their ranges (`profile/tunable.rs`).
    pub const TUNABLE: &'static [Tunable] = &[real("threshold", 0.0, 0.9)];
    /// The numbers it leaves as they are, and why.
    pub const NOT_TUNABLE: &'static [NotTunable] = &[
        fixed(
            "limit",
            "the size of an answer, not its order: a longer one buys hit@k with bytes",
        ),
        fixed("depth", "how much of a subtree `get` shows, not a ranking"),
        fixed(
            "max_depth",
            "a bound on the nesting of `get`'s answer, not a ranking",
        ),
        fixed(
            "max_children",
            "a bound on the size of `get`'s answer, not a ranking",
        ),
        fixed(
            "suggestions",
            "how many ids an unknown id suggests, not a ranking",
        ),
    ];
}

impl Default for OutlineWeights {
    fn default() -> Self {
        OutlineWeights {
            fields: vec![TaskField::Title, TaskField::Description, TaskField::Notes],
            matching: TaskWeights {
                notes: 0.5,
                ..TaskWeights::default()
            },
            threshold: 0.3,
            limit: 10,
            depth: 2,
            max_depth: 32,
            max_children: 1000,
            suggestions: 5,
        }
    }
}
