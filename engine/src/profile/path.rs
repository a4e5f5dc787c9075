//! The section of `find path`: subsequence alignment scores.

use super::range::{fixed, integer, real, NotTunable, Tunable};
use serde::{Deserialize, Serialize};

/// Weights of `find path`: subsequence alignment scores.
///
/// Each matched character earns `match_char`, plus `boundary` at the start of the path or
/// after `/ _ - .` or a space, or `camel_hump` at a lower-to-upper hump, plus `filename`
/// inside the file name, plus `consecutive` when it directly follows the previous one; a gap
/// of `d` skipped characters costs `gap_open + min(gap * d, gap_max)`; every directory level costs
/// `depth`. The best alignment's score over the ideal one (a run at a boundary inside the
/// file name) maps true subsequence matches into `[0.5, 1]` and typo matches into
/// `[0, typo_ceiling]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PathWeights {
    pub match_char: f64,
    pub consecutive: f64,
    pub boundary: f64,
    pub camel_hump: f64,
    pub filename: f64,
    /// Cost of starting a gap (fewer, longer runs beat many scattered ones).
    pub gap_open: f64,
    pub gap: f64,
    pub gap_max: f64,
    pub depth: f64,
    /// Shortest query (in bytes) allowed one wrong, extra or swapped letter.
    pub min_typo_len: usize,
    /// Longest path (in bytes) aligned exactly; longer paths are scored on their tail.
    pub max_path_len: usize,
    /// Highest score of a typo match: below every true subsequence match (0.5 and up).
    pub typo_ceiling: f64,
    /// Relative slack added to a path's upper bound before it is compared with the scores
    /// already kept: it covers the `f32` rounding of summing the same terms in another
    /// order, so a path is skipped unaligned only when it certainly scores below. It changes
    /// no result; too small a value could skip a path that ties.
    pub bound_slack: f64,
}

impl PathWeights {
    /// The numbers `findbench tune` searches, with their ranges (`profile/tunable.rs`).
    pub const TUNABLE: &'static [Tunable] = &[
        real("match_char", 0.0, 4.0),
        real("consecutive", 0.0, 6.0),
        real("boundary", 0.0, 8.0),
        real("camel_hump", 0.0, 8.0),
        real("filename", 0.0, 4.0),
        real("gap_open", 0.0, 4.0),
        real("gap", 0.0, 1.0),
        real("gap_max", 0.0, 10.0),
        real("depth", 0.0, 2.0),
        integer("min_typo_len", 3.0, 10.0),
    ];
    /// The numbers it leaves as they are, and why.
    pub const NOT_TUNABLE: &'static [NotTunable] = &[
        fixed(
            "max_path_len",
            "how much of a long path is aligned: a bound on the work, not a weight",
        ),
        fixed(
            "typo_ceiling",
            "keeps every typo match below every true subsequence match (0.5): a rule",
        ),
        fixed("bound_slack", "covers f32 rounding; it changes no result"),
    ];
}

impl Default for PathWeights {
    fn default() -> Self {
        PathWeights {
            match_char: 1.0,
            consecutive: 2.0,
            boundary: 3.0,
            camel_hump: 2.5,
            filename: 1.0,
            gap_open: 1.0,
            gap: 0.1,
            gap_max: 3.0,
            depth: 0.25,
            min_typo_len: 5,
            max_path_len: 1024,
            typo_ceiling: 0.49,
            bound_slack: 1e-4,
        }
    }
}
