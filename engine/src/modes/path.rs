//! `find path`: fuzzy subsequence search over paths (fuzzy-path-find.md), with one-letter
//! typo tolerance and the matched positions of the best alignment.
//!
//! Per path, cheapest test first: the character bag (one AND), a greedy subsequence scan,
//! then the alignment dynamic programme, only for paths that can match. Scratch rows are per
//! worker thread, so the scan allocates nothing per path.

use crate::error::{EngineError, Result};
use crate::profile::PathWeights;
use crate::rank::Summary;
use crate::text::camel::is_hump;
use crate::tree::paths::{bag_of, fold_bytes, PathList};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// A `find path` request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PathRequest {
    pub query: String,
    pub limit: usize,
}

impl PathRequest {
    pub fn new(query: impl Into<String>) -> PathRequest {
        PathRequest {
            query: query.into(),
            limit: 10,
        }
    }
}

/// One ranked path.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PathMatch {
    pub path: String,
    /// 0-1: true subsequence matches in `[0.5, 1]`, typo matches below 0.5.
    pub score: f64,
    /// Character (not byte) offsets of the matched characters in `path`.
    pub positions: Vec<u32>,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PathResponse {
    pub query: PathRequest,
    pub summary: Summary,
    pub matches: Vec<PathMatch>,
}

/// Paths scored per parallel task: large enough to amortise scheduling.
const CHUNK: usize = 2048;
/// Longest query (in bytes) the typo pass handles.
const MAX_TYPO_QUERY: usize = 64;

/// A candidate before its positions are worked out.
#[derive(Debug, Clone, Copy)]
struct Hit {
    /// 0 for a true subsequence match, 1 for a typo match: ranks first.
    tier: u8,
    score: f32,
    index: u32,
    /// The query byte dropped by a typo match (`u8::MAX` for none).
    dropped: u8,
}

pub fn find_path(list: &PathList, request: &PathRequest, w: &PathWeights) -> Result<PathResponse> {
    let query = request.query.trim();
    if query.is_empty() {
        return Err(EngineError::invalid_with_hint(
            "empty query",
            "give some characters of the path, e.g. `authmw` for src/auth_middleware.py",
        ));
    }
    if request.limit == 0 {
        return Err(EngineError::invalid("--limit must be at least 1"));
    }
    let mut q = Vec::with_capacity(query.len());
    fold_bytes(query, &mut q);
    let scorer = Scorer::new(&q, w);

    let mut hits: Vec<Hit> = (0..list.len())
        .into_par_iter()
        .step_by(CHUNK)
        .map_init(Scratch::default, |scratch, start| {
            let end = (start + CHUNK).min(list.len());
            let mut out = Vec::new();
            for i in start..end {
                if let Some(hit) = scorer.score(list, i, scratch) {
                    out.push(hit);
                }
            }
            out
        })
        .flatten()
        .collect();
    let total = hits.len();
    // typo candidates rank below every true match: align them only when true matches do
    // not fill the limit (they are counted in `total` either way)
    let true_matches = hits.iter().filter(|h| h.tier == 0).count();
    if true_matches < request.limit {
        hits.par_iter_mut()
            .filter(|h| h.tier == 1)
            .for_each_init(Scratch::default, |scratch, h| {
                scorer.score_typo(list, h, scratch)
            });
    } else {
        hits.retain(|h| h.tier == 0);
    }
    let by_rank = |a: &Hit, b: &Hit| -> Ordering {
        a.tier
            .cmp(&b.tier)
            .then(b.score.total_cmp(&a.score))
            .then_with(|| {
                let (pa, pb) = (list.path(a.index as usize), list.path(b.index as usize));
                pa.len().cmp(&pb.len()).then_with(|| pa.cmp(pb))
            })
    };
    if hits.len() > request.limit {
        hits.select_nth_unstable_by(request.limit, by_rank);
        hits.truncate(request.limit);
    }
    hits.sort_by(by_rank);
    let mut scratch = Scratch::default();
    let matches = hits
        .iter()
        .map(|h| scorer.describe(list, h, &mut scratch))
        .collect::<Vec<_>>();
    Ok(PathResponse {
        query: request.clone(),
        summary: Summary::new(total, matches.len()),
        matches,
    })
}

/// Reused buffers of one worker thread.
#[derive(Default)]
struct Scratch {
    prev: Vec<f32>,
    cur: Vec<f32>,
    /// Full score matrix and back-pointers, only when positions are wanted.
    matrix: Vec<f32>,
    back: Vec<u32>,
    variant: Vec<u8>,
    /// Per query character, the earliest and latest path position it can take.
    lo: Vec<usize>,
    hi: Vec<usize>,
}

const NONE: f32 = f32::NEG_INFINITY;

struct Scorer<'q> {
    query: &'q [u8],
    bag: u64,
    typo: bool,
    w: Weights,
}

/// [`PathWeights`] as `f32`, the precision the alignment runs in.
#[derive(Clone, Copy)]
struct Weights {
    match_char: f32,
    consecutive: f32,
    boundary: f32,
    camel_hump: f32,
    filename: f32,
    gap_open: f32,
    gap: f32,
    gap_max: f32,
    depth: f32,
    typo_ceiling: f32,
    max_len: usize,
}

impl<'q> Scorer<'q> {
    fn new(query: &'q [u8], w: &PathWeights) -> Scorer<'q> {
        Scorer {
            query,
            bag: bag_of(query),
            typo: query.len() >= w.min_typo_len.max(2) && query.len() <= MAX_TYPO_QUERY,
            w: Weights {
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
                max_len: w.max_path_len.max(1),
            },
        }
    }

    /// The score of path `i` as a true subsequence match; a typo candidate (tier 1, not yet
    /// scored) when only the query less one character matches; `None` otherwise.
    #[inline]
    fn score(&self, list: &PathList, i: usize, scratch: &mut Scratch) -> Option<Hit> {
        let missing = self.bag & !list.bag(i);
        if missing != 0 && (!self.typo || missing.count_ones() > 1) {
            return None;
        }
        let (path, text, name, depth) = self.view(list, i);
        if missing == 0 && is_subsequence(self.query, path) {
            let raw = self.align(self.query, path, text, name, scratch, false)?;
            return Some(Hit {
                tier: 0,
                score: self.normalise(raw, depth, self.query.len()),
                index: i as u32,
                dropped: u8::MAX,
            });
        }
        if self.typo && droppable(self.query, path).next().is_some() {
            return Some(Hit {
                tier: 1,
                score: 0.0,
                index: i as u32,
                dropped: u8::MAX,
            });
        }
        None
    }

    /// Scores a typo candidate: one wrong, extra or swapped letter means the query less one
    /// character is a subsequence (a swap `ba` for `ab` leaves `a` or `b` in order), so each
    /// droppable character is tried and the best alignment kept.
    fn score_typo(&self, list: &PathList, hit: &mut Hit, scratch: &mut Scratch) {
        let (path, text, name, depth) = self.view(list, hit.index as usize);
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
    }

    /// The folded bytes, their original-case shape, file-name offset and depth of path `i`,
    /// cut to its last `max_len` bytes (the file name end matters most).
    #[inline]
    fn view<'a>(&self, list: &'a PathList, i: usize) -> (&'a [u8], &'a [u8], usize, u32) {
        let (path, text, span) = list.view(i);
        let cut = path.len().saturating_sub(self.w.max_len);
        (
            &path[cut..],
            &text[cut..],
            (span.name as usize).saturating_sub(cut),
            span.depth,
        )
    }

    /// Maps a raw alignment score to `[0.5, 1]` against the best possible for `len` characters.
    fn normalise(&self, raw: f32, depth: u32, len: usize) -> f32 {
        let w = &self.w;
        // an upper bound (every character at a boundary, in one run, in the file name), so
        // scores never saturate and a shallower copy of a path always scores higher
        let ideal = len as f32 * (w.match_char + w.filename + w.boundary.max(w.camel_hump))
            + (len.saturating_sub(1)) as f32 * w.consecutive;
        let value = (raw - depth as f32 * w.depth) / ideal.max(f32::EPSILON);
        0.5 + 0.5 * value.clamp(0.0, 1.0)
    }

    /// The bonus of matching the character at `j`.
    #[inline]
    fn char_score(&self, path: &[u8], text: &[u8], name: usize, j: usize) -> f32 {
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
    fn align(
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

    /// Byte positions of the best alignment left in `scratch` by `align(.., true)`.
    fn trace(&self, n: usize, m: usize, scratch: &Scratch) -> Vec<usize> {
        let last = &scratch.matrix[(m - 1) * n..m * n];
        let mut j = (0..n)
            .rev()
            .max_by(|&a, &b| last[a].total_cmp(&last[b]))
            .unwrap_or(0);
        let mut out = vec![j];
        for i in (1..m).rev() {
            j = scratch.back[i * n + j] as usize;
            out.push(j);
        }
        out.reverse();
        out
    }

    /// The full match object of a hit: positions as character offsets and a reason.
    fn describe(&self, list: &PathList, hit: &Hit, scratch: &mut Scratch) -> PathMatch {
        let i = hit.index as usize;
        let full = list.path(i);
        let (path, text, name, _) = self.view(list, i);
        let cut = list.folded(i).len() - path.len();
        let q: Vec<u8> = if hit.dropped == u8::MAX {
            self.query.to_vec()
        } else {
            let k = hit.dropped as usize;
            [&self.query[..k], &self.query[k + 1..]].concat()
        };
        let bytes = match self.align(&q, path, text, name, scratch, true) {
            Some(_) => self.trace(path.len(), q.len(), scratch),
            None => Vec::new(),
        };
        let mut reason = describe_runs(path, &bytes, name);
        if hit.dropped != u8::MAX {
            let k = hit.dropped as usize;
            let shown = String::from_utf8_lossy(&self.query[k..k + 1]).into_owned();
            reason = format!(
                "one-letter typo (query letter {} `{shown}` unmatched); {reason}",
                k + 1
            );
        }
        // a multi-byte character matches byte by byte, `ß` as `ss`: report the character it
        // folds from once, as a character offset into the path as given
        let mut positions: Vec<u32> = Vec::with_capacity(bytes.len());
        let (mut seen, mut chars) = (0, 0);
        for &b in &bytes {
            let at = list.origin(i, cut + b);
            if !full.is_char_boundary(at) {
                continue;
            }
            chars += full[seen..at].chars().count() as u32;
            seen = at;
            if positions.last() != Some(&chars) {
                positions.push(chars);
            }
        }
        PathMatch {
            path: full.to_string(),
            score: (f64::from(hit.score) * 1000.0).round() / 1000.0,
            positions,
            reason,
        }
    }
}

/// "2 consecutive runs, boundary at `/` `_`, in file name".
fn describe_runs(path: &[u8], positions: &[usize], name: usize) -> String {
    if positions.is_empty() {
        return "subsequence match".into();
    }
    let runs = 1 + positions.windows(2).filter(|p| p[1] != p[0] + 1).count();
    let mut boundaries: Vec<String> = Vec::new();
    for &p in positions {
        let label = match p.checked_sub(1).map(|b| path[b]) {
            None => "start".to_string(),
            Some(c @ (b'/' | b'_' | b'-' | b'.' | b' ')) => format!("`{}`", c as char),
            _ => continue,
        };
        if !boundaries.contains(&label) {
            boundaries.push(label);
        }
    }
    let mut s = format!("{runs} consecutive run{}", if runs == 1 { "" } else { "s" });
    if !boundaries.is_empty() {
        s.push_str(&format!(", boundary at {}", boundaries.join(" ")));
    }
    if positions.iter().all(|&p| p >= name) {
        s.push_str(", in file name");
    }
    s
}

/// The band each query character's position lies in: `lo[i]` from the greedy match left to
/// right, `hi[i]` from the greedy match right to left. False when `q` is not a subsequence.
fn band(q: &[u8], path: &[u8], lo: &mut Vec<usize>, hi: &mut Vec<usize>) -> bool {
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

/// True when every byte of `q` occurs in `path` in order.
#[inline]
fn is_subsequence(q: &[u8], path: &[u8]) -> bool {
    let mut at = 0;
    for &c in q {
        match memchr::memchr(c, &path[at..]) {
            Some(i) => at += i + 1,
            None => return false,
        }
    }
    true
}

/// Indices `k` such that `q` without byte `k` is a subsequence of `path`: the greedy
/// prefix end from the left must come before the greedy suffix start from the right.
fn droppable(q: &[u8], path: &[u8]) -> impl Iterator<Item = usize> {
    let m = q.len();
    // pre[k]: path bytes consumed matching q[..k] greedily (None once it fails)
    let mut pre = [usize::MAX; MAX_TYPO_QUERY + 1];
    pre[0] = 0;
    for k in 0..m {
        if pre[k] == usize::MAX {
            break;
        }
        pre[k + 1] = memchr::memchr(q[k], &path[pre[k]..]).map_or(usize::MAX, |i| pre[k] + i + 1);
    }
    // suf[k]: the start of the latest greedy match of q[k..]
    let mut suf = [usize::MAX; MAX_TYPO_QUERY + 1];
    suf[m] = path.len();
    for k in (0..m).rev() {
        if suf[k + 1] == usize::MAX {
            break;
        }
        suf[k] = memchr::memrchr(q[k], &path[..suf[k + 1]]).unwrap_or(usize::MAX);
    }
    (0..m)
        .filter(move |&k| pre[k] != usize::MAX && suf[k + 1] != usize::MAX && pre[k] <= suf[k + 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list() -> PathList {
        PathList::from_text(
            "t",
            "src/auth_middleware.py\nsrc/middleware/auth.py\ntests/test_auth_middleware.py\n\
             docs/authoring/middle/ware.md\nsrc/main.rs\nREADME.md\nsrc/FindService.cpp\n\
             lib/a/b/c/d/auth_middleware.py\n",
        )
    }

    fn run(q: &str) -> Vec<PathMatch> {
        let mut r = PathRequest::new(q);
        r.limit = 20;
        find_path(&list(), &r, &PathWeights::default())
            .unwrap()
            .matches
    }

    fn paths(m: &[PathMatch]) -> Vec<&str> {
        m.iter().map(|x| x.path.as_str()).collect()
    }

    #[test]
    fn exact_name_ranks_first_and_shallow_above_deep() {
        let m = run("auth_middleware");
        assert_eq!(m[0].path, "src/auth_middleware.py");
        let p = paths(&m);
        let deep = p
            .iter()
            .position(|x| *x == "lib/a/b/c/d/auth_middleware.py")
            .unwrap();
        assert!(deep > 0);
        assert!(m[0].score > m[deep].score);
    }

    #[test]
    fn positions_are_the_matched_characters() {
        let m = run("main");
        assert_eq!(m[0].path, "src/main.rs");
        assert_eq!(m[0].positions, [4, 5, 6, 7]);
        assert_eq!(
            m[0].reason,
            "1 consecutive run, boundary at `/`, in file name"
        );
    }

    #[test]
    fn filename_ranks_above_directory() {
        // `auth` is the file name of one and a directory part of the other
        let m = run("auth");
        let p = paths(&m);
        let name = p
            .iter()
            .position(|x| *x == "src/middleware/auth.py")
            .unwrap();
        let dir = p
            .iter()
            .position(|x| *x == "docs/authoring/middle/ware.md")
            .unwrap();
        assert!(name < dir, "{p:?}");
    }

    #[test]
    fn boundary_and_camel_hump_bonus() {
        let m = run("fs");
        assert_eq!(
            m[0].path, "src/FindService.cpp",
            "F at `/`, S at a hump: {m:?}"
        );
        assert_eq!(m[0].positions, [4, 8]);
    }

    #[test]
    fn typos_find_the_file_below_true_matches() {
        for q in [
            "authmidlware",
            "atuh_middleware",
            "auth_midleware",
            "auth_middelware",
        ] {
            let m = run(q);
            assert!(
                paths(&m).contains(&"src/auth_middleware.py"),
                "{q}: {:?}",
                paths(&m)
            );
            let first_typo = m.iter().position(|x| x.score < 0.5);
            let last_true = m.iter().rposition(|x| x.score >= 0.5);
            if let (Some(t), Some(e)) = (first_typo, last_true) {
                assert!(e < t, "{q}: typo match above a true one");
            }
        }
        let m = run("atuh_middleware");
        assert!(m[0].score < 0.5 && m[0].reason.starts_with("one-letter typo"));
        // `authmidlware` is a true subsequence of auth_middleware
        assert!(run("authmidlware")[0].score >= 0.5);
    }

    #[test]
    fn short_queries_get_no_typo_tolerance() {
        assert!(run("mian").is_empty());
        assert!(run("zzzzzz").is_empty());
    }

    #[test]
    fn ties_break_by_length_then_bytes() {
        let l = PathList::from_text("t", "b/x.rs\na/x.rs\nc/xx.rs\n");
        let m = find_path(&l, &PathRequest::new("x"), &PathWeights::default()).unwrap();
        assert_eq!(paths(&m.matches)[..2], ["a/x.rs", "b/x.rs"]);
    }

    #[test]
    fn non_ascii_positions_are_characters() {
        let l = PathList::from_text("t", "docs/Ärger/straße.md\n");
        let m = find_path(&l, &PathRequest::new("straße"), &PathWeights::default()).unwrap();
        assert_eq!(m.matches[0].positions, [11, 12, 13, 14, 15, 16]);
    }

    #[test]
    fn full_case_folding_finds_sharp_s_and_ligatures() {
        let l = PathList::from_text(
            "t",
            "docs/Ärger/straße.txt\nSTRASSE.md\nsrc/ﬁle_util.rs\nsrc/other.rs\n",
        );
        let run = |q: &str| find_path(&l, &PathRequest::new(q), &PathWeights::default()).unwrap();
        let m = run("STRASSE");
        let p = paths(&m.matches);
        assert!(p.contains(&"docs/Ärger/straße.txt"), "{p:?}");
        let hit = m
            .matches
            .iter()
            .find(|x| x.path == "docs/Ärger/straße.txt")
            .unwrap();
        assert!(hit.score >= 0.5, "a true match, not a typo: {hit:?}");
        // s t r a ß(ss) e: `ß` is one character of the path, reported once
        assert_eq!(hit.positions, [11, 12, 13, 14, 15, 16]);
        // and the other way round
        let m = run("straße");
        assert_eq!(paths(&m.matches)[0], "STRASSE.md");
        assert_eq!(m.matches[0].positions, [0, 1, 2, 3, 4, 5, 6]);
        // `ﬁ` folds to `fi`: both query letters land on the one ligature
        let m = run("fileutil");
        assert_eq!(paths(&m.matches), ["src/ﬁle_util.rs"]);
        assert_eq!(m.matches[0].positions, [4, 5, 6, 8, 9, 10, 11]);
        // characters after an unaligned one still report the right offsets
        let m = run("txt");
        assert_eq!(m.matches[0].positions, [18, 19, 20]);
    }

    #[test]
    fn droppable_finds_each_typo_kind() {
        let p = b"src/auth_middleware.py";
        assert!(droppable(b"atuh", p).count() > 0);
        assert_eq!(droppable(b"auth_midxdleware", p).collect::<Vec<_>>(), [8]);
    }

    #[test]
    fn summary_counts_all_matches() {
        let mut r = PathRequest::new("a");
        r.limit = 2;
        let resp = find_path(&list(), &r, &PathWeights::default()).unwrap();
        assert_eq!(resp.summary.returned, 2);
        assert!(resp.summary.truncated && resp.summary.total_matches > 2);
    }
}
