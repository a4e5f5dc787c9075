//! Which paths match, cheapest test first: the character bag, then the subsequence or typo
//! test on the path as listed; a true match leaves with the bound of its score.

use super::pattern::Pat;
use super::scorer::Scorer;
use super::scratch::Hit;
use super::source::PathSource;
use super::typo::{typo_matches, MAX_TYPO_QUERY};

impl<'q> Scorer<'q> {
    /// Whether path `i` matches: a true match (tier 0) carrying the bound of its score
    /// ([`Scorer::bound`]), a typo candidate (tier 1, not yet scored) when only the query
    /// less one character matches, `None` otherwise.
    ///
    /// Cheapest test first: the character bag. A path that lacks one of the query's bag bits
    /// can only be a typo match dropping the query's one byte with that bit. The tests read
    /// the path as listed, lowering ASCII letters as they go (an ASCII path's folding):
    /// nothing is folded or aligned here.
    /// `bag` and `bytes` are the path's bag and scan bytes ([`PathSource::scan_bytes`]), read
    /// by the caller (from an index, or off a listing as it is scanned).
    #[inline]
    pub(super) fn classify<S: PathSource>(
        &self,
        list: &S,
        i: usize,
        bag: u64,
        bytes: &[u8],
    ) -> Option<Hit> {
        let missing = self.bag & !bag;
        let full = bytes;
        let bytes = &bytes[bytes.len().saturating_sub(self.w.max_len)..];
        let typo = Hit {
            tier: 1,
            score: 0.0,
            index: i as u32,
            dropped: u8::MAX,
        };
        if missing != 0 {
            if !self.typo || missing.count_ones() > 1 {
                return None;
            }
            let k = self.sole[missing.trailing_zeros() as usize];
            return (k != u8::MAX && subsequence_without(&self.pattern, bytes, k as usize))
                .then_some(typo);
        }
        let mut pre = [0u32; MAX_TYPO_QUERY + 1];
        let matched = greedy_prefix(&self.pattern, bytes, self.typo.then_some(&mut pre));
        if matched == self.query.len() {
            return Some(Hit {
                tier: 0,
                score: if self.bound.enabled {
                    self.bound(list, i, full, bytes)
                } else {
                    f32::INFINITY
                },
                index: i as u32,
                dropped: u8::MAX,
            });
        }
        (self.typo && typo_matches(&self.pattern, bytes, &pre, matched)).then_some(typo)
    }
}

/// How many bytes of the query match `path` greedily from the left. With `pre`, also
/// `pre[k]`: the path bytes consumed matching the first `k`, for `k` up to the count
/// returned.
#[inline]
pub(super) fn greedy_prefix(
    pattern: &[Pat],
    path: &[u8],
    mut pre: Option<&mut [u32; MAX_TYPO_QUERY + 1]>,
) -> usize {
    let mut at = 0;
    for (k, p) in pattern.iter().enumerate() {
        match p.find(path, at) {
            Some(j) => {
                at = j + 1;
                if let Some(pre) = pre.as_deref_mut() {
                    pre[k + 1] = at as u32;
                }
            }
            None => return k,
        }
    }
    pattern.len()
}

/// True when the query without its byte `skip` is a subsequence of `path`.
#[inline]
pub(super) fn subsequence_without(pattern: &[Pat], path: &[u8], skip: usize) -> bool {
    let mut at = 0;
    for (k, p) in pattern.iter().enumerate() {
        if k == skip {
            continue;
        }
        match p.find(path, at) {
            Some(j) => at = j + 1,
            None => return false,
        }
    }
    true
}
