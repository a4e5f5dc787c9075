//! The section of `find name`: `partial_ratio` thresholds.

use super::range::{fixed, integer, real, NotTunable, Tunable};
use serde::{Deserialize, Serialize};

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

impl NameWeights {
    /// The numbers `findbench tune` searches, with their ranges (`profile/tunable.rs`).
    pub const TUNABLE: &'static [Tunable] = &[
        real("threshold", 30.0, 90.0),
        integer("min_token_chars", 1.0, 5.0),
    ];
    /// The numbers it leaves as they are, and why.
    pub const NOT_TUNABLE: &'static [NotTunable] = &[fixed(
        "limit",
        "the size of an answer, not its order: a longer one buys hit@k with bytes",
    )];
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
