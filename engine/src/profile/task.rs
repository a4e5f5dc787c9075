//! The section of `find task`: field and match-kind weights, tiers and id scores.

use serde::{Deserialize, Serialize};

/// Weights of `find task`.
///
/// A term's contribution is `field weight x match kind weight`; an item's raw score is the
/// mean over query terms. Items whose terms all match exactly (as substrings) are mapped into
/// the exact tier `[exact_floor, exact_floor + exact_span]`; items needing a typo for any term
/// into the lower typo tier, so a typo match never outranks an exact one. An exact full-title
/// match scores `exact_title`. An `--id` pattern alone scores `id_whole` for the whole id,
/// `id_number` for its whole number (`37` ~ `T037`), else `id_part_floor + id_part_span x`
/// the share of the id it covers.
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
    /// Highest score of the exact tier, phrase bonus included: below `exact_title`.
    pub exact_ceiling: f64,
    /// Score of a query equal to the whole title (folded, whitespace collapsed).
    pub exact_title: f64,
    pub id_whole: f64,
    pub id_number: f64,
    pub id_part_floor: f64,
    pub id_part_span: f64,
    /// `find task`'s default `--threshold` (outline has its own, `OutlineWeights::threshold`).
    pub threshold: f64,
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
            exact_ceiling: 0.99,
            exact_title: 1.0,
            id_whole: 1.0,
            id_number: 0.99,
            id_part_floor: 0.5,
            id_part_span: 0.45,
            threshold: 0.3,
        }
    }
}
