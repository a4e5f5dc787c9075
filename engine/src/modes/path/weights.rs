//! The profile's `find path` weights in the precision the alignment runs in.

use crate::profile::PathWeights;

/// [`PathWeights`] as `f32`, the precision the alignment runs in.
#[derive(Clone, Copy)]
pub(super) struct Weights {
    pub(super) match_char: f32,
    pub(super) consecutive: f32,
    pub(super) boundary: f32,
    pub(super) camel_hump: f32,
    pub(super) filename: f32,
    pub(super) gap_open: f32,
    pub(super) gap: f32,
    pub(super) gap_max: f32,
    pub(super) depth: f32,
    pub(super) typo_ceiling: f32,
    /// [`PathWeights::bound_slack`].
    pub(super) bound_slack: f32,
    pub(super) max_len: usize,
}

impl Weights {
    pub(super) fn of(w: &PathWeights) -> Weights {
        Weights {
            match_char: w.match_char as f32,
            consecutive: w.consecutive as f32,
            boundary: w.boundary as f32,
            camel_hump: w.camel_hump as f32,
            filename: w.filename as f32,
            gap_open: w.gap_open as f32,
            gap: w.gap as f32,
            gap_max: w.gap_max as f32,
            depth: w.depth as f32,
            typo_ceiling: w.typo_ceiling as f32,
            bound_slack: w.bound_slack as f32,
            max_len: w.max_path_len.max(1),
        }
    }
}
