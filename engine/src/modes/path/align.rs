//! Alignment: the best placement of the query's bytes in a path, by a dynamic programme over
//! (query byte, path position) within the band the greedy matches leave.

use super::scorer::Scorer;
use super::scratch::{Scratch, NONE};
use crate::text::camel::is_hump;

impl<'q> Scorer<'q> {
    /// The bonus of matching the character at `j`.
    #[inline]
    pub(super) fn char_score(&self, path: &[u8], text: &[u8], name: usize, j: usize) -> f32 {
        let w = &self.w;
        let mut s = w.match_char;
        if j == 0 || matches!(path[j - 1], b'/' | b'_' | b'-' | b'.' | b' ') {
            s += w.boundary;
        } else if is_hump(text, j) {
            s += w.camel_hump;
        }
        if j >= name {
            s += w.filename;
        }
        s
    }

    /// The best alignment of `q` in `path`: a dynamic programme over (query char, path
    /// position) with the consecutive bonus and a capped gap cost. With `positions`, the full
    /// matrix is kept in `scratch` for [`Scorer::trace`].
    pub(super) fn align(
        &self,
        q: &[u8],
        path: &[u8],
        text: &[u8],
        name: usize,
        scratch: &mut Scratch,
        positions: bool,
    ) -> Option<f32> {
        let (n, m) = (path.len(), q.len());
        if m == 0 || n < m || !band(q, path, &mut scratch.lo, &mut scratch.hi) {
            return None;
        }
        let w = self.w;
        let (lo, hi) = (
            std::mem::take(&mut scratch.lo),
            std::mem::take(&mut scratch.hi),
        );
        scratch.prev.clear();
        scratch.prev.resize(n, NONE);
        scratch.cur.clear();
        scratch.cur.resize(n, NONE);
        if positions {
            scratch.matrix.clear();
            scratch.matrix.resize(n * m, NONE);
            scratch.back.clear();
            scratch.back.resize(n * m, u32::MAX);
        }
        // row 0: the first query character anywhere it can start an alignment
        for j in lo[0]..=hi[0] {
            if path[j] == q[0] {
                scratch.prev[j] = self.char_score(path, text, name, j);
            }
        }
        if positions {
            scratch.matrix[lo[0]..=hi[0]].copy_from_slice(&scratch.prev[lo[0]..=hi[0]]);
        }
        for i in 1..m {
            let c = q[i];
            let (plo, phi) = (lo[i - 1], hi[i - 1]);
            // running maxima over k < j-1 of prev[k] + gap*k (uncapped) and prev[k] (capped)
            let (mut best_lin, mut best_lin_k) = (NONE, u32::MAX);
            let (mut best_flat, mut best_flat_k) = (NONE, u32::MAX);
            let mut next_k = plo;
            for j in lo[i]..=hi[i] {
                while next_k + 2 <= j && next_k <= phi {
                    let k = next_k;
                    let p = scratch.prev[k];
                    if p > NONE {
                        if p + w.gap * k as f32 > best_lin {
                            best_lin = p + w.gap * k as f32;
                            best_lin_k = k as u32;
                        }
                        if p > best_flat {
                            best_flat = p;
                            best_flat_k = k as u32;
                        }
                    }
                    next_k += 1;
                }
                scratch.cur[j] = NONE;
                if path[j] != c {
                    continue;
                }
                let mut best = NONE;
                let mut from = u32::MAX;
                if j > plo && j - 1 <= phi && scratch.prev[j - 1] > NONE {
                    best = scratch.prev[j - 1] + w.consecutive;
                    from = (j - 1) as u32;
                }
                if best_lin > NONE {
                    let v = best_lin - w.gap * (j - 1) as f32 - w.gap_open;
                    if v > best {
                        best = v;
                        from = best_lin_k;
                    }
                }
                if best_flat > NONE {
                    let v = best_flat - w.gap_max - w.gap_open;
                    if v > best {
                        best = v;
                        from = best_flat_k;
                    }
                }
                if best > NONE {
                    scratch.cur[j] = best + self.char_score(path, text, name, j);
                }
                if positions {
                    scratch.back[i * n + j] = from;
                }
            }
            if positions {
                let row = &mut scratch.matrix[i * n..(i + 1) * n];
                row[lo[i]..=hi[i]].copy_from_slice(&scratch.cur[lo[i]..=hi[i]]);
            }
            // clear the previous row's band so stale values never leak into a later row
            scratch.prev[plo..=phi].fill(NONE);
            std::mem::swap(&mut scratch.prev, &mut scratch.cur);
        }
        let best = scratch.prev[lo[m - 1]..=hi[m - 1]]
            .iter()
            .copied()
            .fold(NONE, f32::max);
        scratch.lo = lo;
        scratch.hi = hi;
        (best > NONE).then_some(best)
    }
}

/// The band each query character's position lies in: `lo[i]` from the greedy match left to
/// right, `hi[i]` from the greedy match right to left. False when `q` is not a subsequence.
pub(super) fn band(q: &[u8], path: &[u8], lo: &mut Vec<usize>, hi: &mut Vec<usize>) -> bool {
    let m = q.len();
    lo.clear();
    hi.clear();
    hi.resize(m, 0);
    let mut at = 0;
    for &c in q {
        match memchr::memchr(c, &path[at..]) {
            Some(i) => {
                lo.push(at + i);
                at += i + 1;
            }
            None => return false,
        }
    }
    let mut end = path.len();
    for i in (0..m).rev() {
        match memchr::memrchr(q[i], &path[..end]) {
            Some(j) => {
                hi[i] = j;
                end = j;
            }
            None => return false,
        }
    }
    true
}
