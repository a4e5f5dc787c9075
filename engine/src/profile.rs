//! Ranking profiles: every weight and rule the modes rank with, as data.
//!
//! A profile is serialisable, so a user can write one to JSON, change a weight, and run the
//! corpora with it to compare. [`Profile::default`] is today's ranking.

use crate::modes::task::TaskField;
use serde::{Deserialize, Serialize};

/// All tunable ranking data, one section per mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Profile {
    /// Name shown in reports (`default`, `legacy`, or a user's own).
    pub name: String,
    pub task: TaskWeights,
    /// `find name`; not called `name`, which is the profile's own name above.
    pub name_filter: NameWeights,
    pub outline: OutlineWeights,
}

impl Default for Profile {
    fn default() -> Self {
        Profile {
            name: "default".into(),
            task: TaskWeights::default(),
            name_filter: NameWeights::default(),
            outline: OutlineWeights::default(),
        }
    }
}

/// Weights of `find task`.
///
/// A term's contribution is `field weight x match kind weight`; an item's raw score is the
/// mean over query terms. Items whose terms all match exactly (as substrings) are mapped into
/// the exact tier `[exact_floor, exact_floor + exact_span]`; items needing a typo for any term
/// into the lower typo tier, so a typo match never outranks an exact one. An exact full-title
/// match scores 1.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TaskWeights {
    pub title: f64,
    pub description: f64,
    pub labels: f64,
    pub notes: f64,
    /// The term is a whole word of the field.
    pub whole_word: f64,
    /// The term starts a word of the field.
    pub word_prefix: f64,
    /// The term occurs inside a word.
    pub mid_word: f64,
    /// The term is one edit away from a whole word.
    pub typo_word: f64,
    /// The term is one edit away from the start of a word.
    pub typo_prefix: f64,
    /// Shortest term (in characters) for which a typo is tolerated.
    pub min_typo_len: usize,
    pub exact_floor: f64,
    pub exact_span: f64,
    pub typo_floor: f64,
    pub typo_span: f64,
    /// Added in the exact tier when a multi-term query occurs verbatim in the title.
    pub phrase_bonus: f64,
}

impl Default for TaskWeights {
    fn default() -> Self {
        TaskWeights {
            title: 1.0,
            description: 0.55,
            labels: 0.45,
            notes: 0.4,
            whole_word: 1.0,
            word_prefix: 0.9,
            mid_word: 0.75,
            typo_word: 1.0,
            typo_prefix: 0.85,
            min_typo_len: 5,
            exact_floor: 0.5,
            exact_span: 0.44,
            typo_floor: 0.3,
            typo_span: 0.19,
            phrase_bonus: 0.05,
        }
    }
}

/// Rules of `find name` (name-filter.md): rapidfuzz `partial_ratio` of the normalised query
/// against each folded title, 0-100.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NameWeights {
    /// A best score at or above this gives `fuzzy_match_quality: "good"` (the spec's 60).
    pub threshold: f64,
    /// Results returned when the request names no `--limit` (the spec's 5).
    pub limit: usize,
    /// Query tokens shorter than this many characters are dropped (`the`, `a`, `to`),
    /// unless no token is this long.
    pub min_token_chars: usize,
}

impl Default for NameWeights {
    fn default() -> Self {
        NameWeights {
            threshold: 60.0,
            limit: 5,
            min_token_chars: 3,
        }
    }
}

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

impl Profile {
    /// The built-in profiles by name.
    pub fn builtin(name: &str) -> Option<Profile> {
        match name {
            "default" => Some(Profile::default()),
            _ => None,
        }
    }

    pub fn builtin_names() -> &'static [&'static str] {
        &["default"]
    }
}
