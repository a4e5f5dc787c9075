//! Best bound first: the matches whose bounds are highest are aligned first, and the lowest
//! of their scores is a floor that every other match's bound must reach to be aligned at all.

use super::scorer::Scorer;
use super::scratch::{Hit, Scratch, NONE};
use rayon::prelude::*;
use std::cmp::Reverse;
use std::sync::atomic::Ordering as Atomic;

impl<'q> Scorer<'q> {
    /// Scores (with `align`) the matches `hits` of one tier, which carry bounds of their
    /// scores, that can be among the best `want` of them, and drops the others. The `want`
    /// with the highest bounds are aligned first: the lowest of their scores is a floor the
    /// best `want` score no lower than. Then every other match whose bound reaches the floor
    /// (raised as better scores turn up) is aligned; one whose bound is below it scores
    /// below `want` others and is dropped unaligned. Which are dropped depends on timing, the
    /// results do not.
    pub(super) fn align_best(
        &self,
        hits: &mut Vec<Hit>,
        want: usize,
        align: impl Fn(&mut Hit, &mut Scratch) + Sync,
    ) {
        let probe = want.min(hits.len());
        let by_bound = |a: &Hit, b: &Hit| b.score.total_cmp(&a.score);
        if probe < hits.len() {
            hits.select_nth_unstable_by(probe, by_bound);
        }
        let (first, rest) = hits.split_at_mut(probe);
        first
            .par_iter_mut()
            .for_each_init(Scratch::default, |scratch, h| align(h, scratch));
        self.floor.store(0, Atomic::Relaxed);
        if let Some(low) = first.iter().map(|h| h.score).reduce(f32::min) {
            if probe == want && low > 0.0 {
                self.floor.store(low.to_bits(), Atomic::Relaxed);
            }
        }
        rest.par_iter_mut()
            .for_each_init(Scratch::default, |scratch, h| {
                if h.score < self.floor(scratch, want) {
                    h.score = NONE;
                    return;
                }
                align(h, scratch);
                self.keep(h.score, scratch, want);
            });
        hits.retain(|h| h.score > NONE);
    }

    /// The lowest score a true match needs to be among the results, as far as is known yet
    /// (0 until a limit's worth of true matches has been kept).
    #[inline]
    pub(super) fn floor(&self, scratch: &Scratch, want: usize) -> f32 {
        let global = f32::from_bits(self.floor.load(Atomic::Relaxed));
        match scratch.kept.peek() {
            Some(&Reverse(low)) if scratch.kept.len() >= want => global.max(f32::from_bits(low)),
            _ => global,
        }
    }

    /// Keeps a score (never negative) among this worker's best; once it has `want` of them,
    /// raises the shared floor to the lowest.
    pub(super) fn keep(&self, score: f32, scratch: &mut Scratch, want: usize) {
        let kept = &mut scratch.kept;
        let bits = score.max(0.0).to_bits();
        if kept.len() < want {
            kept.push(Reverse(bits));
        } else if kept.peek().is_some_and(|&Reverse(low)| bits > low) {
            kept.pop();
            kept.push(Reverse(bits));
        } else {
            return;
        }
        if kept.len() >= want {
            if let Some(&Reverse(low)) = kept.peek() {
                self.floor.fetch_max(low, Atomic::Relaxed);
            }
        }
    }
}
