//! Upper bounds of a path's score read without aligning it: from the query's [`super::bounds::Bound`] (or
//! the tighter pair bound of an ASCII path), the file name's share of the query and the
//! path's depth. A path is skipped only when its bound is below what the results need.

use super::bounds::Pairs;
use super::pattern::is_separator;
use super::scorer::Scorer;
use super::scratch::Hit;
use super::source::PathSource;
use crate::tree::paths::depth_of;

impl<'q> Scorer<'q> {
    /// An upper bound of the score of path `i` as a true match (`full`: its scan bytes,
    /// `bytes`: them cut to `max_len`), without aligning it, normalised as a score is
    /// (scores are monotone in raw alignments): [`super::bounds::Bound`], or for an ASCII path the tighter
    /// [`Scorer::pair_bound`]; plus the file-name bonus of as many query characters as the
    /// longest end of the query the file name holds in order; less the depth cost.
    pub(super) fn bound<S: PathSource>(
        &self,
        list: &S,
        i: usize,
        full: &[u8],
        bytes: &[u8],
    ) -> f32 {
        let q = self.query;
        let depth = depth_of(full);
        let name = memchr::memrchr(b'/', bytes).map_or(0, |k| k + 1);
        let mut left = q.len();
        for &b in bytes[name..].iter().rev() {
            if left == 0 {
                break;
            }
            if self.pattern[left - 1].matches(b) {
                left -= 1;
            }
        }
        let in_name = (q.len() - left) as f32 * self.bound.filename;
        let raw = match (&self.pairs, list.is_ascii(i)) {
            (Some(pairs), true) => self.pair_bound(pairs, bytes) + in_name,
            _ => {
                let upper = usize::from(list.shape(i).iter().any(u8::is_ascii_uppercase));
                self.bound.base[upper] + in_name + self.bound.slack[upper]
            }
        };
        self.normalise(raw, depth, q.len())
    }

    /// [`super::bounds::Bound`] made tighter by reading an ASCII path's byte pairs (`bytes`, cut to
    /// `max_len`, as listed): a query character can continue a run only if the path holds
    /// it right after the query character before it, start one at a boundary only if the
    /// path holds it at the start or after a separator, and take a hump bonus only if the
    /// path holds it in capitals after a small letter. Slack included.
    pub(super) fn pair_bound(&self, pairs: &Pairs, bytes: &[u8]) -> f32 {
        let Some(&first) = bytes.first() else {
            return f32::INFINITY;
        };
        // bit k: the pair (query byte k - 1, query byte k) / a boundary before query byte k
        // / a hump at query byte k occurs in the path
        let (mut runs, mut boundaries, mut humps) = (0u64, pairs.second[first as usize], 0u64);
        for w in bytes.windows(2) {
            let (x, y) = (w[0] as usize, w[1] as usize);
            let second = pairs.second[y];
            runs |= pairs.first[x] & second;
            boundaries |= pairs.separator[x] & second;
            humps |= pairs.small[x] & pairs.capital[y];
        }
        let w = &self.w;
        let least_gap = -w.gap.min(w.gap_max) - w.gap_open;
        let (mut raw, mut magnitude) = (0f32, 0f32);
        for k in 0..self.query.len() {
            let bit = 1u64 << k;
            let hump = humps & bit != 0;
            let mut start = 0f32;
            if boundaries & bit != 0 {
                start = start.max(w.boundary);
            }
            if hump {
                start = start.max(w.camel_hump);
            }
            let term = if k == 0 {
                start
            } else if runs & bit != 0 {
                let after = if is_separator(self.query[k - 1]) {
                    w.boundary
                } else if hump {
                    w.camel_hump.max(0.0)
                } else {
                    0.0
                };
                (start + least_gap).max(after + w.consecutive)
            } else {
                start + least_gap
            };
            raw += w.match_char + term;
            magnitude += w.match_char.abs() + term.abs() + w.filename.abs();
        }
        raw + w.bound_slack * (1.0 + magnitude)
    }

    /// An upper bound of the score of typo candidate `hit` ([`Scorer::bound`] for the best
    /// query less one byte): the largest [`super::bounds::Bound`] of a query less one byte, plus the
    /// file-name bonus of as many characters as the longest end of the query, less any one
    /// byte, the file name holds in order.
    pub(super) fn typo_bound<S: PathSource>(&self, list: &S, hit: &Hit) -> f32 {
        let b = &self.typo_bound;
        if !b.enabled {
            return f32::INFINITY;
        }
        let i = hit.index as usize;
        let full = list.scan_bytes(i);
        let bytes = &full[full.len().saturating_sub(self.w.max_len)..];
        let name = memchr::memrchr(b'/', bytes).map_or(0, |k| k + 1);
        // from the right: `a` query bytes matched greedily, `b` covered with one skipped
        let (p, m) = (&self.pattern, self.pattern.len());
        let (mut a, mut covered) = (0, 1);
        for &c in bytes[name..].iter().rev() {
            let next = covered < m && p[m - 1 - covered].matches(c);
            if a < m && p[m - 1 - a].matches(c) {
                a += 1;
            }
            covered = (covered + usize::from(next)).max((a + 1).min(m));
        }
        let in_name = (covered - 1) as f32;
        let upper = usize::from(list.shape(i).iter().any(u8::is_ascii_uppercase));
        let raw = b.base[upper] + in_name * self.bound.filename;
        (self.normalise(raw, depth_of(full), m - 1) - 0.5) * 2.0 * self.w.typo_ceiling
    }
}
