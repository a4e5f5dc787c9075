//! The section of `find name`: `partial_ratio` thresholds.

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

impl Default for NameWeights {
    fn default() -> Self {
        NameWeights {
            threshold: 60.0,
            limit: 5,
            min_token_chars: 3,
        }
    }
}
