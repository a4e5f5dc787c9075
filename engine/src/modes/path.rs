//! `find path`: fuzzy subsequence search over paths, with one-letter typo tolerance and the
//! matched positions of the best alignment.
//!
//! Per path, cheapest test first: the character bag (one AND), then the subsequence or typo
//! test on the text as listed, case-blind, eight bytes a step. Only then alignment, by a
//! dynamic programme over the folded path (an ASCII path is folded into a per-thread
//! buffer), best bound first, skipping true matches that cannot reach the results. Scratch
//! rows are per worker thread, so the scan allocates nothing per path.

use crate::error::{EngineError, Result};
use crate::profile::PathWeights;
use crate::rank::Summary;
use crate::text::camel::is_hump;
use crate::tree::paths::{bag_bit, bag_of, depth_of, fold_bytes, PathList, ASCII};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicU32, Ordering as Atomic};

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
/// Relative slack added to an alignment's upper bound ([`Scorer::bound`]) before comparing
/// it with a kept score: it covers the `f32` rounding of summing the same terms in another
/// order, so a path is skipped only when it certainly scores below. It changes no result.
const BOUND_SLACK: f32 = 1e-4;

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

    // which paths match; a true match carries the bound of its score, not yet aligned
    let mut hits: Vec<Hit> = (0..list.len())
        .into_par_iter()
        .step_by(CHUNK)
        .map(|start| {
            let end = (start + CHUNK).min(list.len());
            (start..end)
                .filter_map(|i| scorer.classify(list, i))
                .collect::<Vec<_>>()
        })
        .flatten()
        .collect();
    let total = hits.len();
    // typo candidates rank below every true match: align them only when true matches do
    // not fill the limit (they are counted in `total` either way)
    let true_matches = hits.iter().filter(|h| h.tier == 0).count();
    if true_matches < request.limit {
        // every true match is a result; typo candidates fill the rest
        let mut typos: Vec<Hit> = hits.iter().filter(|h| h.tier == 1).copied().collect();
        hits.retain(|h| h.tier == 0);
        hits.par_iter_mut()
            .for_each_init(Scratch::default, |scratch, h| {
                h.score = scorer.score_true(list, h.index as usize, scratch)
            });
        typos
            .par_iter_mut()
            .for_each(|h| h.score = scorer.typo_bound(list, h));
        scorer.align_best(&mut typos, request.limit - true_matches, |h, scratch| {
            scorer.score_typo(list, h, scratch)
        });
        hits.append(&mut typos);
    } else {
        hits.retain(|h| h.tier == 0);
        scorer.align_best(&mut hits, request.limit, |h, scratch| {
            h.score = scorer.score_true(list, h.index as usize, scratch)
        });
    }
    let by_rank = |a: &Hit, b: &Hit| -> Ordering {
        a.tier
            .cmp(&b.tier)
            .then(b.score.total_cmp(&a.score))
            .then_with(|| {
                let (pa, pb) = (
                    list.path_bytes(a.index as usize),
                    list.path_bytes(b.index as usize),
                );
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
    /// The folded bytes of an ASCII path ([`PathList::view`]).
    fold: Vec<u8>,
    /// The best true-match scores this worker has seen (`f32` bits, all positive), at most
    /// the request's limit of them.
    kept: BinaryHeap<Reverse<u32>>,
}

/// A path cut to its last `max_len` bytes for alignment (the file name end matters most).
struct Cut<'a> {
    /// Folded bytes.
    path: &'a [u8],
    /// Their original-case shape.
    text: &'a [u8],
    /// The file name's offset in `path`.
    name: usize,
    depth: u32,
    /// Bytes cut from the front of the folded path.
    cut: usize,
}

const NONE: f32 = f32::NEG_INFINITY;

struct Scorer<'q> {
    query: &'q [u8],
    /// Per query byte, what a path byte must equal once or-ed with its mask ([`Pat`]).
    pattern: Vec<Pat>,
    bag: u64,
    /// Per bag bit, the position of the one query byte with that bit (`u8::MAX` when none
    /// or several have it): the byte a typo match must drop when its path lacks the bit.
    sole: [u8; 64],
    typo: bool,
    w: Weights,
    bound: Bound,
    /// [`Bound`] for the query less the one byte that gives the largest, slack included.
    typo_bound: TypoBound,
    /// Pair tables of the query, for [`Scorer::pair_bound`].
    pairs: Option<Box<Pairs>>,
    /// The lowest of a limit's worth of true-match scores some worker has kept (`f32` bits;
    /// 0 until one has): the final results score no lower, so a path whose bound is below
    /// it cannot be among them.
    floor: AtomicU32,
}

/// The parts of an alignment's upper bound that depend on the query alone ([`Scorer::bound`]).
#[derive(Clone, Copy)]
struct Bound {
    /// Off for weights under which a gap can gain (a negative `gap`).
    enabled: bool,
    /// The bound before the file-name bonus, for a path without and with ASCII capitals
    /// (only capitals make CamelCase humps).
    base: [f32; 2],
    /// The bonus per query character in the file name.
    filename: f32,
    /// Slack for rounding ([`BOUND_SLACK`] of the terms' magnitude).
    slack: [f32; 2],
}

impl Bound {
    /// Per query character: its match, and the most its position can add. The first one
    /// starts a run (a boundary or a hump at best); each later one either continues a run
    /// (the consecutive bonus, and the bonus of the character before it: a boundary when
    /// that query character is a separator, else at best a hump) or starts one after a gap
    /// (the cheapest gap, then a boundary or a hump at best). Any alignment chooses one of
    /// the two for each character, so the sum of the larger is a bound.
    fn of(query: &[u8], w: &Weights) -> Bound {
        let mut base = [0f32; 2];
        let mut magnitude = [0f32; 2];
        let least_gap = -w.gap.min(w.gap_max) - w.gap_open;
        for (upper, (base, magnitude)) in base.iter_mut().zip(&mut magnitude).enumerate() {
            let hump = if upper == 1 {
                w.camel_hump.max(0.0)
            } else {
                0.0
            };
            let start = w.boundary.max(0.0).max(hump);
            for i in 0..query.len() {
                let term = if i == 0 {
                    start
                } else {
                    let after = if is_separator(query[i - 1]) {
                        w.boundary
                    } else {
                        hump
                    };
                    (start + least_gap).max(after + w.consecutive)
                };
                *base += w.match_char + term;
                *magnitude += w.match_char.abs() + term.abs() + w.filename.abs();
            }
        }
        Bound {
            enabled: w.gap >= 0.0,
            base,
            filename: w.filename.max(0.0),
            slack: magnitude.map(|m| BOUND_SLACK * (1.0 + m)),
        }
    }
}

/// Per byte value, which query bytes it can stand for in a pair ([`Scorer::pair_bound`]):
/// bit `k` of `second[y]` when `y` matches query byte `k`; of `first[x]` when `x` matches
/// query byte `k - 1`; of `capital[y]` when `y` is a capital matching query byte `k`; and
/// `separator[x]` / `small[x]` all ones when `x` is a separator / a small letter.
struct Pairs {
    first: [u64; 256],
    second: [u64; 256],
    capital: [u64; 256],
    separator: [u64; 256],
    small: [u64; 256],
}

impl Pairs {
    /// `None` for a query longer than the masks hold.
    fn of(pattern: &[Pat]) -> Option<Box<Pairs>> {
        if pattern.is_empty() || pattern.len() > 64 {
            return None;
        }
        let mut p = Box::new(Pairs {
            first: [0; 256],
            second: [0; 256],
            capital: [0; 256],
            separator: [0; 256],
            small: [0; 256],
        });
        for b in 0..=255u8 {
            let at = b as usize;
            for (k, pat) in pattern.iter().enumerate() {
                if pat.matches(b) {
                    p.second[at] |= 1 << k;
                    if b.is_ascii_uppercase() {
                        p.capital[at] |= 1 << k;
                    }
                    if k + 1 < pattern.len() {
                        p.first[at] |= 1 << (k + 1);
                    }
                }
            }
            p.separator[at] = if is_separator(b) { u64::MAX } else { 0 };
            p.small[at] = if b.is_ascii_lowercase() { u64::MAX } else { 0 };
        }
        Some(p)
    }
}

/// [`Bound`] of a typo match: the largest over the query less each one byte.
#[derive(Clone, Copy)]
struct TypoBound {
    /// Off where a gap can gain, or where a typo score falls as its alignment rises.
    enabled: bool,
    base: [f32; 2],
}

impl TypoBound {
    fn of(query: &[u8], w: &Weights) -> TypoBound {
        let mut base = [f32::NEG_INFINITY; 2];
        for k in 0..query.len() {
            let less = [&query[..k], &query[k + 1..]].concat();
            let b = Bound::of(&less, w);
            for (base, (&less, &slack)) in base.iter_mut().zip(b.base.iter().zip(&b.slack)) {
                *base = base.max(less + slack);
            }
        }
        TypoBound {
            enabled: w.gap >= 0.0 && w.typo_ceiling >= 0.0 && query.len() >= 2,
            base,
        }
    }
}

/// The bytes before which a path character is at a boundary.
#[inline]
fn is_separator(b: u8) -> bool {
    matches!(b, b'/' | b'_' | b'-' | b'.' | b' ')
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
        let weights = Weights {
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
        };
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

    /// Whether path `i` matches: a true match (tier 0) carrying the bound of its score
    /// ([`Scorer::bound`]), a typo candidate (tier 1, not yet scored) when only the query
    /// less one character matches, `None` otherwise.
    ///
    /// Cheapest test first: the character bag. A path that lacks one of the query's bag bits
    /// can only be a typo match dropping the query's one byte with that bit. The tests read
    /// the path as listed, lowering ASCII letters as they go (an ASCII path's folding):
    /// nothing is folded or aligned here.
    #[inline]
    fn classify(&self, list: &PathList, i: usize) -> Option<Hit> {
        let (bag, bytes) = list.scan(i);
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

    /// The score of a true match: path `i` folded (if ASCII) and aligned.
    fn score_true(&self, list: &PathList, i: usize, scratch: &mut Scratch) -> f32 {
        let mut fold = std::mem::take(&mut scratch.fold);
        let c = self.view(list, i, &mut fold);
        let raw = self.align(self.query, c.path, c.text, c.name, scratch, false);
        let depth = c.depth;
        scratch.fold = fold;
        // a true match always aligns (the greedy match is one alignment)
        raw.map_or(NONE, |raw| self.normalise(raw, depth, self.query.len()))
    }

    /// Scores (with `align`) the matches `hits` of one tier, which carry bounds of their
    /// scores, that can be among the best `want` of them, and drops the others. The `want`
    /// with the highest bounds are aligned first: the lowest of their scores is a floor the
    /// best `want` score no lower than. Then every other match whose bound reaches the floor
    /// (raised as better scores turn up) is aligned; one whose bound is below it scores
    /// below `want` others and is dropped unaligned. Which are dropped depends on timing, the
    /// results do not.
    fn align_best(
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
    fn floor(&self, scratch: &Scratch, want: usize) -> f32 {
        let global = f32::from_bits(self.floor.load(Atomic::Relaxed));
        match scratch.kept.peek() {
            Some(&Reverse(low)) if scratch.kept.len() >= want => global.max(f32::from_bits(low)),
            _ => global,
        }
    }

    /// Keeps a score (never negative) among this worker's best; once it has `want` of them,
    /// raises the shared floor to the lowest.
    fn keep(&self, score: f32, scratch: &mut Scratch, want: usize) {
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

    /// An upper bound of the score of path `i` as a true match (`full`: its scan bytes,
    /// `bytes`: them cut to `max_len`), without aligning it, normalised as a score is
    /// (scores are monotone in raw alignments): [`Bound`], or for an ASCII path the tighter
    /// [`Scorer::pair_bound`]; plus the file-name bonus of as many query characters as the
    /// longest end of the query the file name holds in order; less the depth cost.
    fn bound(&self, list: &PathList, i: usize, full: &[u8], bytes: &[u8]) -> f32 {
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
        let raw = match (&self.pairs, list.span(i).folded == ASCII) {
            (Some(pairs), true) => self.pair_bound(pairs, bytes) + in_name,
            _ => {
                let upper = usize::from(list.shape(i).iter().any(u8::is_ascii_uppercase));
                self.bound.base[upper] + in_name + self.bound.slack[upper]
            }
        };
        self.normalise(raw, depth, q.len())
    }

    /// [`Bound`] made tighter by reading an ASCII path's byte pairs (`bytes`, cut to
    /// `max_len`, as listed): a query character can continue a run only if the path holds
    /// it right after the query character before it, start one at a boundary only if the
    /// path holds it at the start or after a separator, and take a hump bonus only if the
    /// path holds it in capitals after a small letter. Slack included.
    fn pair_bound(&self, pairs: &Pairs, bytes: &[u8]) -> f32 {
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
        raw + BOUND_SLACK * (1.0 + magnitude)
    }

    /// An upper bound of the score of typo candidate `hit` ([`Scorer::bound`] for the best
    /// query less one byte): the largest [`Bound`] of a query less one byte, plus the
    /// file-name bonus of as many characters as the longest end of the query, less any one
    /// byte, the file name holds in order.
    fn typo_bound(&self, list: &PathList, hit: &Hit) -> f32 {
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

    /// Scores a typo candidate: one wrong, extra or swapped letter means the query less one
    /// character is a subsequence (a swap `ba` for `ab` leaves `a` or `b` in order), so each
    /// droppable character is tried and the best alignment kept.
    fn score_typo(&self, list: &PathList, hit: &mut Hit, scratch: &mut Scratch) {
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

    /// Path `i` as aligned ([`Cut`]); an ASCII path is folded into `fold`.
    #[inline]
    fn view<'a>(&self, list: &'a PathList, i: usize, fold: &'a mut Vec<u8>) -> Cut<'a> {
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
        let mut fold = std::mem::take(&mut scratch.fold);
        let Cut {
            path,
            text,
            name,
            cut,
            ..
        } = self.view(list, i, &mut fold);
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
        scratch.fold = fold;
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

/// One query byte as the scan matches it: a path byte `b` matches when `b | mask == byte`.
/// The mask is `0x20` for a letter (so `b` may be either case: an ASCII path's folding,
/// read without folding it) and 0 for anything else; folded bytes hold no capitals, so the
/// same test holds for them.
#[derive(Debug, Clone, Copy)]
struct Pat {
    byte: u8,
    mask: u8,
}

impl Pat {
    fn of(byte: u8) -> Pat {
        Pat {
            byte,
            mask: if byte.is_ascii_lowercase() { 0x20 } else { 0 },
        }
    }

    #[inline]
    fn matches(self, b: u8) -> bool {
        b | self.mask == self.byte
    }

    /// The bytes of `word` this byte matches: the high bit of each, exactly (no false
    /// positives, unlike the usual zero-byte trick, so the last match is found too).
    #[inline]
    fn matches8(self, word: u64) -> u64 {
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        let y = (word | u64::from_le_bytes([self.mask; 8])) ^ u64::from_le_bytes([self.byte; 8]);
        !((y & LOW7).wrapping_add(LOW7) | y | LOW7)
    }

    /// The first offset at or after `from` in `path` this byte matches, eight bytes a step.
    #[inline]
    fn find(self, path: &[u8], from: usize) -> Option<usize> {
        let hay = &path[from..];
        let mut words = hay.chunks_exact(8);
        let mut at = from;
        for word in &mut words {
            let hits = self.matches8(u64::from_le_bytes(word.try_into().expect("8 bytes")));
            if hits != 0 {
                return Some(at + (hits.trailing_zeros() / 8) as usize);
            }
            at += 8;
        }
        words
            .remainder()
            .iter()
            .position(|&b| self.matches(b))
            .map(|i| at + i)
    }

    /// The last offset before `end` in `path` this byte matches, eight bytes a step.
    #[inline]
    fn rfind(self, path: &[u8], end: usize) -> Option<usize> {
        let hay = &path[..end];
        let mut words = hay.rchunks_exact(8);
        let mut top = end;
        for word in &mut words {
            let hits = self.matches8(u64::from_le_bytes(word.try_into().expect("8 bytes")));
            top -= 8;
            if hits != 0 {
                return Some(top + 7 - (hits.leading_zeros() / 8) as usize);
            }
        }
        words.remainder().iter().rposition(|&b| self.matches(b))
    }
}

/// How many bytes of the query match `path` greedily from the left. With `pre`, also
/// `pre[k]`: the path bytes consumed matching the first `k`, for `k` up to the count
/// returned.
#[inline]
fn greedy_prefix(
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
fn subsequence_without(pattern: &[Pat], path: &[u8], skip: usize) -> bool {
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

/// True when the query without some one byte is a subsequence of `path`: [`droppable`] has
/// an element, found without building its tables, from the greedy prefix `pre` of
/// [`greedy_prefix`] (`matched` bytes long) and one greedy pass from the right.
fn typo_matches(
    pattern: &[Pat],
    path: &[u8],
    pre: &[u32; MAX_TYPO_QUERY + 1],
    matched: usize,
) -> bool {
    // `end`: the start of the latest greedy match of the query after byte k
    let mut end = path.len();
    for k in (0..pattern.len()).rev() {
        if k <= matched && pre[k] as usize <= end {
            return true;
        }
        match pattern[k].rfind(path, end) {
            Some(j) => end = j,
            None => return false,
        }
    }
    false
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

    /// True when every byte of `q` occurs in `path` in order.
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
    fn pattern_bytes_are_found_as_byte_by_byte() {
        let path: Vec<u8> = b"Src/AUTH_mw.py/\x01\x21aA\xc3\x9f/zZ.x-9 q"
            .iter()
            .copied()
            .cycle()
            .take(61)
            .collect();
        for byte in [
            b'a', b's', b'/', b'.', b'z', b'9', b' ', b'!', 0x01, 0xc3, 0x9f, b'q',
        ] {
            let p = Pat::of(byte);
            let hit = |b: u8| {
                if byte.is_ascii_lowercase() {
                    b.to_ascii_lowercase() == byte
                } else {
                    b == byte
                }
            };
            for from in 0..=path.len() {
                let want = path[from..].iter().position(|&b| hit(b)).map(|i| from + i);
                assert_eq!(p.find(&path, from), want, "{byte} from {from}");
                let want = path[..from].iter().rposition(|&b| hit(b));
                assert_eq!(p.rfind(&path, from), want, "{byte} before {from}");
            }
        }
    }

    #[test]
    fn typo_matches_is_droppable_not_empty() {
        let paths: [&[u8]; 5] = [
            b"src/auth_middleware.py",
            b"a",
            b"",
            b"usr/lib/python3/dist-packages/pyhton.py",
            b"xyzzy/zyx",
        ];
        let queries: [&[u8]; 10] = [
            b"atuh",
            b"auth_midxdleware",
            b"authmw",
            b"zzzz",
            b"ab",
            b"a",
            b"pyhton3",
            b"python3",
            b"xyzzyx",
            b"yzx",
        ];
        for p in paths {
            for q in queries {
                let pattern: Vec<Pat> = q.iter().map(|&c| Pat::of(c)).collect();
                let mut pre = [0u32; MAX_TYPO_QUERY + 1];
                let matched = greedy_prefix(&pattern, p, Some(&mut pre));
                assert_eq!(matched == q.len(), is_subsequence(q, p));
                for skip in 0..q.len() {
                    let without = [&q[..skip], &q[skip + 1..]].concat();
                    assert_eq!(
                        subsequence_without(&pattern, p, skip),
                        is_subsequence(&without, p)
                    );
                }
                // the scan asks only of paths that `q` is not a subsequence of
                if matched == q.len() {
                    continue;
                }
                // as read from the path in capitals
                let upper = p.to_ascii_uppercase();
                let mut pre_upper = [0u32; MAX_TYPO_QUERY + 1];
                let matched_upper = greedy_prefix(&pattern, &upper, Some(&mut pre_upper));
                assert_eq!(
                    typo_matches(&pattern, &upper, &pre_upper, matched_upper),
                    droppable(q, p).next().is_some()
                );
                assert_eq!(
                    typo_matches(&pattern, p, &pre, matched),
                    droppable(q, p).next().is_some(),
                    "{:?} in {:?}",
                    String::from_utf8_lossy(q),
                    String::from_utf8_lossy(p)
                );
            }
        }
    }

    /// Paths of every shape the bound cares about: deep and shallow, capitals and humps,
    /// separators, long file names, repeated letters, non-ASCII.
    fn generated(n: usize) -> PathList {
        let parts = [
            "usr",
            "lib",
            "python3",
            "dist-packages",
            "share",
            "doc",
            "include",
            "linux",
            "sched.h",
            "locale",
            "FindService",
            "auth_middleware",
            "x86_64-linux-gnu",
            "a.b",
            "Straße",
            "LC_MESSAGES",
            "py",
            "libpython3.11.so",
            "copyright",
            "bin",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |k: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % k as u64) as usize
        };
        let mut text = String::new();
        for _ in 0..n {
            let depth = 1 + next(6);
            let mut p: Vec<&str> = (0..depth).map(|_| parts[next(parts.len())]).collect();
            if next(4) == 0 {
                p.insert(0, "");
            }
            text.push_str(&p.join("/"));
            text.push('\n');
        }
        PathList::from_text("generated", &text)
    }

    const QUERIES: [&str; 14] = [
        "usrlibpy",
        "bin/python",
        "share/doc/copyright",
        "lcale",
        "include/linux/sched.h",
        "pyhton3",
        "fs",
        "a",
        "py",
        "straße",
        "LCmsg",
        "auth_mw",
        "libpyhton",
        "sahre/dcx",
    ];

    #[test]
    fn the_bound_is_never_below_a_score() {
        let list = generated(3000);
        let w = PathWeights::default();
        let mut all_typos = 0;
        for query in QUERIES {
            let mut q = Vec::new();
            fold_bytes(query, &mut q);
            let scorer = Scorer::new(&q, &w);
            let (mut scratch, mut fold, mut checked) = (Scratch::default(), Vec::new(), 0);
            for i in 0..list.len() {
                let bytes = list.scan_bytes(i);
                if greedy_prefix(&scorer.pattern, bytes, None) < q.len() {
                    continue;
                }
                let c = scorer.view(&list, i, &mut fold);
                let raw = scorer.align(&q, c.path, c.text, c.name, &mut scratch, false);
                let score = scorer.normalise(raw.unwrap(), c.depth, q.len());
                let bound = scorer.bound(&list, i, list.scan_bytes(i), bytes);
                assert!(
                    bound >= score,
                    "{query} {}: {bound} < {score}",
                    list.path(i)
                );
                checked += 1;
            }
            assert!(checked > 0, "{query}");
            // and a typo candidate's
            let mut typos = 0usize;
            for i in 0..list.len() {
                let Some(mut hit) = scorer.classify(&list, i).filter(|h| h.tier == 1) else {
                    continue;
                };
                let bound = scorer.typo_bound(&list, &hit);
                scorer.score_typo(&list, &mut hit, &mut scratch);
                assert!(
                    bound >= hit.score,
                    "{query} {}: {bound} < {}",
                    list.path(i),
                    hit.score
                );
                typos += 1;
            }
            all_typos += typos;
        }
        assert!(all_typos > 100, "{all_typos} typo candidates");
    }

    #[test]
    fn classify_agrees_with_folded_subsequence_tests() {
        // the scan's tests on unfolded text, against the plain ones on folded bytes
        let mut list = generated(2000);
        for p in [
            "\u{f}.rs",
            "A/\u{e}B",
            "Ünïcödé/ﬁle.PY",
            "x/\u{1}2/.",
            "LIB/PYthon3.md",
        ] {
            list.push(p);
        }
        let w = PathWeights::default();
        let queries = QUERIES.iter().copied().chain([
            "/.",
            "o.rs",
            "ﬁle",
            "pyhotn",
            "a/b",
            "libpyhton",
            "xx/yy",
        ]);
        for query in queries {
            let mut q = Vec::new();
            fold_bytes(query, &mut q);
            let scorer = Scorer::new(&q, &w);
            for i in 0..list.len() {
                let folded = list.folded(i);
                let cut = &folded[folded.len().saturating_sub(w.max_path_len)..];
                let want = if is_subsequence(&q, cut) {
                    Some(0)
                } else if scorer.typo
                    && (scorer.bag & !bag_of(&folded)).count_ones() <= 1
                    && droppable(&q, cut).next().is_some()
                {
                    Some(1)
                } else {
                    None
                };
                let got = scorer.classify(&list, i).map(|h| h.tier);
                assert_eq!(got, want, "{query} in {:?}", list.path(i));
            }
        }
    }

    #[test]
    fn skipping_changes_no_result_at_any_limit_or_thread_count() {
        let list = generated(6_000);
        let w = PathWeights::default();
        for query in QUERIES {
            // the whole ranking: no limit is reached, nothing is skipped
            let mut all = PathRequest::new(query);
            all.limit = list.len() + 1;
            let all = find_path(&list, &all, &w).unwrap();
            for limit in [1, 3, 10, 50] {
                for threads in [1, 2, 4] {
                    let pool = rayon::ThreadPoolBuilder::new()
                        .num_threads(threads)
                        .build()
                        .unwrap();
                    let mut r = PathRequest::new(query);
                    r.limit = limit;
                    let got = pool.install(|| find_path(&list, &r, &w).unwrap());
                    let want = &all.matches[..limit.min(all.matches.len())];
                    assert_eq!(got.matches, want, "{query} limit {limit} threads {threads}");
                    assert_eq!(
                        got.summary.total_matches, all.summary.total_matches,
                        "{query} limit {limit} threads {threads}"
                    );
                }
            }
        }
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
