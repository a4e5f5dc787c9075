//! The score of a candidate: a true match aligned, a typo candidate by the best alignment of
//! the query less one droppable byte.

use super::scorer::Scorer;
use super::scratch::{Cut, Hit, Scratch, NONE};
use super::source::PathSource;
use super::typo::droppable;

impl<'q> Scorer<'q> {
    /// The score of a true match: path `i` folded (if ASCII) and aligned.
    pub(super) fn score_true<S: PathSource>(
        &self,
        list: &S,
        i: usize,
        scratch: &mut Scratch,
    ) -> f32 {
        let mut fold = std::mem::take(&mut scratch.fold);
        let c = self.view(list, i, &mut fold);
        let raw = self.align(self.query, c.path, c.text, c.name, scratch, false);
        let depth = c.depth;
        scratch.fold = fold;
        // a true match always aligns (the greedy match is one alignment)
        raw.map_or(NONE, |raw| self.normalise(raw, depth, self.query.len()))
    }

    /// Scores a typo candidate: one wrong, extra or swapped letter means the query less one
    /// character is a subsequence (a swap `ba` for `ab` leaves `a` or `b` in order), so each
    /// droppable character is tried and the best alignment kept.
    pub(super) fn score_typo<S: PathSource>(&self, list: &S, hit: &mut Hit, scratch: &mut Scratch) {
        hit.score = 0.0;
        hit.dropped = u8::MAX;
        let mut fold = std::mem::take(&mut scratch.fold);
        let Cut {
            path,
            text,
            name,
            depth,
            ..
        } = self.view(list, hit.index as usize, &mut fold);
        let (mut best, mut dropped) = (NONE, u8::MAX);
        for k in droppable(self.query, path) {
            scratch.variant.clear();
            scratch.variant.extend_from_slice(&self.query[..k]);
            scratch.variant.extend_from_slice(&self.query[k + 1..]);
            let variant = std::mem::take(&mut scratch.variant);
            let raw = self.align(&variant, path, text, name, scratch, false);
            scratch.variant = variant;
            if let Some(raw) = raw.filter(|&r| r > best) {
                best = raw;
                dropped = k as u8;
            }
        }
        if best > NONE {
            hit.score = (self.normalise(best, depth, self.query.len() - 1) - 0.5)
                * 2.0
                * self.w.typo_ceiling;
            hit.dropped = dropped;
        }
        scratch.fold = fold;
    }
}
