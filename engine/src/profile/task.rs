//! The section of `find task`: field and match-kind weights, tiers and id scores.

use super::range::{fixed, integer, real, NotTunable, Tunable};
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

impl TaskWeights {
    /// The numbers `findbench tune` searches, with their ranges (`profile/tunable.rs`).
    pub const TUNABLE: &'static [Tunable] = &[
        real("title", 0.0, 2.0),
        real("description", 0.0, 2.0),
        real("labels", 0.0, 2.0),
        real("notes", 0.0, 2.0),
        real("whole_word", 0.0, 2.0),
        real("word_prefix", 0.0, 2.0),
        real("mid_word", 0.0, 2.0),
        real("typo_word", 0.0, 2.0),
        real("typo_prefix", 0.0, 2.0),
        integer("min_typo_len", 3.0, 8.0),
        real("phrase_bonus", 0.0, 0.2),
        real("threshold", 0.0, 0.9),
    ];
    /// The numbers it leaves as they are, and why.
    pub const NOT_TUNABLE: &'static [NotTunable] = &[
        fixed("exact_floor", TIER),
        fixed("exact_span", TIER),
        fixed("typo_floor", TIER),
        fixed("typo_span", TIER),
        fixed("exact_ceiling", TIER),
        fixed("exact_title", TIER),
        fixed("id_whole", ID),
        fixed("id_number", ID),
        fixed("id_part_floor", ID),
        fixed("id_part_span", ID),
    ];
}

const TIER: &str = "a bound of the score tiers: keeps every typo match below every exact one and \
                    an exact title on top, an order by rule, not a weight";
const ID: &str = "a score of an --id pattern: the whole id above its number above a part, an \
                  order by rule, not a weight";

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
