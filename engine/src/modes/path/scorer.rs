//! The query prepared once for a search ([`Scorer`]): its folded bytes, byte patterns, bag,
//! bounds and weights, and how a raw alignment maps to a score.

use super::bounds::{Bound, Pairs, TypoBound};
use super::pattern::Pat;
use super::scratch::Cut;
use super::source::PathSource;
use super::typo::MAX_TYPO_QUERY;
use super::weights::Weights;
use crate::profile::PathWeights;
use crate::tree::paths::{bag_bit, bag_of};
use std::sync::atomic::AtomicU32;

pub(super) struct Scorer<'q> {
    pub(super) query: &'q [u8],
    /// Per query byte, what a path byte must equal once or-ed with its mask ([`Pat`]).
    pub(super) pattern: Vec<Pat>,
    pub(super) bag: u64,
    /// Per bag bit, the position of the one query byte with that bit (`u8::MAX` when none
    /// or several have it): the byte a typo match must drop when its path lacks the bit.
    pub(super) sole: [u8; 64],
    pub(super) typo: bool,
    pub(super) w: Weights,
    pub(super) bound: Bound,
    /// [`Bound`] for the query less the one byte that gives the largest, slack included.
    pub(super) typo_bound: TypoBound,
    /// Pair tables of the query, for [`Scorer::pair_bound`].
    pub(super) pairs: Option<Box<Pairs>>,
    /// The lowest of a limit's worth of true-match scores some worker has kept (`f32` bits;
    /// 0 until one has): the final results score no lower, so a path whose bound is below
    /// it cannot be among them.
    pub(super) floor: AtomicU32,
}

impl<'q> Scorer<'q> {
    pub(super) fn new(query: &'q [u8], w: &PathWeights) -> Scorer<'q> {
        let weights = Weights::of(w);
        let mut sole = [u8::MAX; 64];
        let mut seen = 0u64;
        for (k, &c) in query.iter().enumerate().take(MAX_TYPO_QUERY) {
            let bit = bag_bit(c).trailing_zeros() as usize;
            sole[bit] = if seen & bag_bit(c) == 0 {
                k as u8
            } else {
                u8::MAX
            };
            seen |= bag_bit(c);
        }
        let pattern: Vec<Pat> = query.iter().map(|&c| Pat::of(c)).collect();
        let pairs = Pairs::of(&pattern);
        Scorer {
            query,
            pattern,
            bag: bag_of(query),
            sole,
            typo: query.len() >= w.min_typo_len.max(2) && query.len() <= MAX_TYPO_QUERY,
            w: weights,
            bound: Bound::of(query, &weights),
            typo_bound: TypoBound::of(query, &weights),
            pairs,
            floor: AtomicU32::new(0),
        }
    }

    /// Path `i` as aligned ([`Cut`]); an ASCII path is folded into `fold`.
    #[inline]
    pub(super) fn view<'a, S: PathSource>(
        &self,
        list: &'a S,
        i: usize,
        fold: &'a mut Vec<u8>,
    ) -> Cut<'a> {
        let v = list.view(i, fold);
        let cut = v.folded.len().saturating_sub(self.w.max_len);
        Cut {
            path: &v.folded[cut..],
            text: &v.shape[cut..],
            name: v.name.saturating_sub(cut),
            depth: v.depth,
            cut,
        }
    }

    /// Maps a raw alignment score to `[0.5, 1]` against the best possible for `len` characters.
    pub(super) fn normalise(&self, raw: f32, depth: u32, len: usize) -> f32 {
        let w = &self.w;
        // an upper bound (every character at a boundary, in one run, in the file name), so
        // scores never saturate and a shallower copy of a path always scores higher
        let ideal = len as f32 * (w.match_char + w.filename + w.boundary.max(w.camel_hump))
            + (len.saturating_sub(1)) as f32 * w.consecutive;
        let value = (raw - depth as f32 * w.depth) / ideal.max(f32::EPSILON);
        0.5 + 0.5 * value.clamp(0.0, 1.0)
    }
}
