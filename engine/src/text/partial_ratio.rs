//! `partial_ratio`: the best Indel ratio of the shorter string against any
//! alignment with the longer one, matching rapidfuzz 3.x (`fuzz.partial_ratio`
//! with `processor=None`, `score_cutoff=None`) bit for bit.
//!
//! The search order and rules follow rapidfuzz-cpp's `partial_ratio_impl`
//! (the C++ core that `fuzz.partial_ratio` calls), so that both the score and
//! the reported alignment agree with rapidfuzz, including how ties are broken:
//!
//! * The shorter string is the needle; arguments are swapped when the first
//!   one is longer, and the alignment is swapped back.
//! * Both empty scores 100, exactly one empty scores 0.
//! * Three families of haystack windows are scored with `fuzz.ratio`, i.e.
//!   `100 * (1 - indel_distance / (len_needle + len_window))`:
//!   1. every full window of needle length that starts before the last one,
//!      searched by bisection (see `best_full_window`);
//!   2. the prefixes `haystack[..i]` for `i` in `1..len_needle`;
//!   3. the suffixes `haystack[i..]` for `i` in `len_hay - len_needle..len_hay`
//!      (the first of these is the last full window).
//!
//!   The edge windows are needed because a needle that hangs over the start
//!   or the end of the haystack ("cleanup" vs "Calendar clea") aligns best
//!   with a window shorter than the needle.
//! * Prefixes whose last char and suffixes whose first char do not occur in
//!   the needle are skipped: such a window scores strictly lower than its
//!   neighbour one char shorter, so it can never be the best one.
//! * A window only replaces the current best when it scores strictly higher,
//!   so the earliest window (in the order above) wins a tie. A score of 100
//!   ends the search at once.
//! * When both strings have the same length, the search is run a second time
//!   with the roles swapped, and that result is kept only if it is strictly
//!   better: with equal lengths either string may be the better needle.
//!
//! Windows are scored with the bit-parallel LCS of Allison-Dix / Hyyrö (Indel
//! distance is `len_a + len_b - 2 * LCS`): one `u64` word for needles up to 64
//! chars, several words for longer ones. Prefix and suffix windows are scored
//! in a single pass each, because the bit-parallel state after reading `i`
//! haystack chars already holds the LCS of the needle with that prefix (and,
//! reading backwards with the needle reversed, with that suffix).
//!
//! rapidfuzz 3.x runs this same search for needles of any length; the
//! matching-blocks shortcut for needles over 64 chars described in its
//! docs (and used by 2.x) is gone, so long needles need no special rules.

use std::cell::RefCell;
use std::collections::HashMap;

/// Score and position of the best alignment found by [`partial_ratio_alignment`].
///
/// `src_*` index the first argument and `dest_*` the second, in chars
/// (Unicode scalar values), as in rapidfuzz's `ScoreAlignment`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PartialRatioAlignment {
    pub score: f64,
    pub src_start: usize,
    pub src_end: usize,
    pub dest_start: usize,
    pub dest_end: usize,
}

impl PartialRatioAlignment {
    fn swapped(self) -> Self {
        Self {
            score: self.score,
            src_start: self.dest_start,
            src_end: self.dest_end,
            dest_start: self.src_start,
            dest_end: self.src_end,
        }
    }
}

/// `fuzz.partial_ratio(needle, haystack)` in 0..=100.
///
/// Either argument may be the longer one, as in rapidfuzz. Strings are
/// compared char by char (Unicode scalar values) with no normalisation, so
/// case matters.
pub fn partial_ratio(needle: &str, haystack: &str) -> f64 {
    partial_ratio_alignment(needle, haystack).score
}

/// [`partial_ratio`] on strings already split into chars, so that callers
/// scoring many pairs can split each string once.
pub fn partial_ratio_chars(a: &[char], b: &[char]) -> f64 {
    best_alignment(a, b).score
}

/// `fuzz.partial_ratio_alignment(needle, haystack)`: the score together with
/// the windows (in char indices) that produce it.
pub fn partial_ratio_alignment(needle: &str, haystack: &str) -> PartialRatioAlignment {
    // ASCII strings are scored on their bytes: same result, no allocation.
    if needle.is_ascii() && haystack.is_ascii() {
        return best_alignment(needle.as_bytes(), haystack.as_bytes());
    }
    let a: Vec<char> = needle.chars().collect();
    let b: Vec<char> = haystack.chars().collect();
    best_alignment(&a, &b)
}

/// [`partial_ratio_alignment`] on strings already split into chars.
pub fn partial_ratio_alignment_chars(a: &[char], b: &[char]) -> PartialRatioAlignment {
    best_alignment(a, b)
}

/// A string element: a char, or a byte of an ASCII-only string.
trait Symbol: Copy {
    fn code(self) -> u32;
}

impl Symbol for u8 {
    #[inline(always)]
    fn code(self) -> u32 {
        u32::from(self)
    }
}

impl Symbol for char {
    #[inline(always)]
    fn code(self) -> u32 {
        u32::from(self)
    }
}

fn best_alignment<T: Symbol>(s1: &[T], s2: &[T]) -> PartialRatioAlignment {
    if s1.len() > s2.len() {
        return best_alignment(s2, s1).swapped();
    }
    if s1.is_empty() {
        let score = if s2.is_empty() { 100.0 } else { 0.0 };
        return PartialRatioAlignment {
            score,
            src_start: 0,
            src_end: 0,
            dest_start: 0,
            dest_end: 0,
        };
    }
    let first = search(s1, s2, 0.0);
    if first.score != 100.0 && s1.len() == s2.len() {
        let second = search(s2, s1, first.score.max(0.0));
        if second.score > first.score {
            return second.swapped();
        }
    }
    first
}

/// Runs one search of `needle` over `hay` (`needle.len() <= hay.len()`).
fn search<T: Symbol>(needle: &[T], hay: &[T], score_cutoff: f64) -> PartialRatioAlignment {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => {
            let res = search_with(needle, hay, score_cutoff, &mut scratch);
            scratch.release_if_large();
            res
        }
        // Searches never nest, so this is not reached; stay correct anyway.
        Err(_) => search_with(needle, hay, score_cutoff, &mut Scratch::default()),
    })
}

fn search_with<T: Symbol>(
    needle: &[T],
    hay: &[T],
    score_cutoff: f64,
    scratch: &mut Scratch,
) -> PartialRatioAlignment {
    let Scratch {
        pattern,
        hay_masks,
        buffers,
    } = scratch;
    if needle.len() <= 64 {
        pattern.fill(needle);
        hay_masks.clear();
        hay_masks.extend(hay.iter().map(|c| pattern.mask(c.code())));
        let windows = ShortWindows {
            masks: hay_masks,
            shift: 64 - needle.len() as u32,
        };
        search_windows(&windows, needle.len(), hay.len(), score_cutoff, buffers)
    } else {
        let pattern = LongPattern::new(needle);
        let windows = LongWindows {
            pattern: &pattern,
            hay,
        };
        search_windows(&windows, needle.len(), hay.len(), score_cutoff, buffers)
    }
}

/// Per-thread buffers reused across calls, so that scoring a pair of short
/// strings neither allocates nor clears a full lookup table.
#[derive(Default)]
struct Scratch {
    pattern: ShortPattern,
    /// The needle's position mask for each haystack char.
    hay_masks: Vec<u64>,
    buffers: SearchBuffers,
}

impl Scratch {
    /// Frees buffers grown by an unusually long haystack, so that one huge
    /// input does not pin its memory to the thread for good.
    fn release_if_large(&mut self) {
        const KEEP: usize = 1 << 16;
        if self.hay_masks.capacity() > KEEP || self.buffers.dists.capacity() > KEEP {
            self.hay_masks = Vec::new();
            self.buffers = SearchBuffers::default();
        }
    }
}

#[derive(Default)]
struct SearchBuffers {
    /// Indel distance of the full window at each start, or `usize::MAX`
    /// while not computed.
    dists: Vec<usize>,
    /// FIFO of `(first, last)` ranges of window starts to examine.
    queue: Vec<(usize, usize)>,
    /// LCS of the needle with each prefix or suffix window.
    lcs: Vec<usize>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// The haystack as seen by a bit-parallel LCS against a fixed needle.
trait Windows {
    /// Whether the haystack char at `pos` occurs in the needle.
    fn in_needle(&self, pos: usize) -> bool;
    /// LCS of the needle and `hay[start..start + len]`.
    fn lcs(&self, start: usize, len: usize) -> usize;
    /// `out[i]` = LCS of the needle and `hay[..=i]`.
    fn prefix_lcs(&self, out: &mut [usize]);
    /// `out[k]` = LCS of the needle and `hay[hay.len() - 1 - k..]`.
    fn suffix_lcs(&self, out: &mut [usize]);
}

/// rapidfuzz's `fuzz.ratio` of the needle against a window, if it beats
/// `best`.
///
/// rapidfuzz scores edge windows with `CachedIndel::normalized_similarity`
/// under a cutoff (the best score so far), which turns a window below the
/// cutoff into 0; those rules are reproduced with the same float operations,
/// so equal inputs give equal bits.
fn better_ratio(
    len1: usize,
    len_window: usize,
    lcs: usize,
    score_cutoff: f64,
    best: f64,
) -> Option<f64> {
    let maximum = len1 + len_window;
    let dist = maximum - 2 * lcs;
    let norm_dist = dist as f64 / maximum as f64;
    let ratio = (1.0 - norm_dist) * 100.0;
    // The cutoff rules below can only turn the ratio into 0.
    if ratio <= best {
        return None;
    }
    let sim_cutoff = score_cutoff / 100.0;
    let dist_cutoff = (1.0 - sim_cutoff + 0.00001).min(1.0);
    let max_dist = (maximum as f64 * dist_cutoff).ceil() as usize;
    if dist > max_dist || norm_dist > dist_cutoff || 1.0 - norm_dist < sim_cutoff {
        return None;
    }
    Some(ratio)
}

/// rapidfuzz-cpp's `partial_ratio_impl` for a needle of `len1` chars and a
/// haystack of `len2 >= len1` chars.
fn search_windows<W: Windows>(
    windows: &W,
    len1: usize,
    len2: usize,
    mut score_cutoff: f64,
    buffers: &mut SearchBuffers,
) -> PartialRatioAlignment {
    let mut res = PartialRatioAlignment {
        score: 0.0,
        src_start: 0,
        src_end: len1,
        dest_start: 0,
        dest_end: len1,
    };

    if len2 > len1 {
        if let Some((start, dist)) = best_full_window(windows, len1, len2, score_cutoff, buffers) {
            res.dest_start = start;
            res.dest_end = start + len1;
            if dist == 0 {
                res.score = 100.0;
                return res;
            }
            let score = (1.0 - dist as f64 / (2 * len1) as f64) * 100.0;
            if score >= score_cutoff {
                score_cutoff = score;
                res.score = score;
            }
        }
    }

    let lcs = &mut buffers.lcs;
    lcs.clear();
    lcs.resize(len1, 0);

    // Prefixes shorter than the needle: the needle hangs over the start.
    windows.prefix_lcs(&mut lcs[..len1 - 1]);
    for i in 1..len1 {
        if !windows.in_needle(i - 1) {
            continue;
        }
        if let Some(ratio) = better_ratio(len1, i, lcs[i - 1], score_cutoff, res.score) {
            score_cutoff = ratio;
            res.score = ratio;
            res.dest_start = 0;
            res.dest_end = i;
            if ratio == 100.0 {
                return res;
            }
        }
    }

    // The last full window and the shorter suffixes: the needle hangs over
    // the end.
    windows.suffix_lcs(lcs);
    for i in len2 - len1..len2 {
        if !windows.in_needle(i) {
            continue;
        }
        let len = len2 - i;
        if let Some(ratio) = better_ratio(len1, len, lcs[len - 1], score_cutoff, res.score) {
            score_cutoff = ratio;
            res.score = ratio;
            res.dest_start = i;
            res.dest_end = len2;
            if ratio == 100.0 {
                return res;
            }
        }
    }
    res
}

/// Best full window (start, Indel distance) among the starts
/// `0..len2 - len1`, if any beats the cutoff.
///
/// Shifting a window by one char changes its Indel distance by at most 2, so
/// the distances at the two ends of a range bound every distance inside it;
/// a range is split only while that bound could still beat the best found.
/// The ranges are visited level by level (a FIFO gives the same order as
/// rapidfuzz's swapped window lists), because the order decides which of
/// several equally good windows is reported.
fn best_full_window<W: Windows>(
    windows: &W,
    len1: usize,
    len2: usize,
    score_cutoff: f64,
    buffers: &mut SearchBuffers,
) -> Option<(usize, usize)> {
    let count = len2 - len1;
    let maximum = 2 * len1;
    let dist_cutoff = (1.0 - score_cutoff / 100.0 + 0.00001).min(1.0);
    let mut cutoff_dist = (maximum as f64 * dist_cutoff).ceil() as usize;
    let mut best = None;

    let SearchBuffers { dists, queue, .. } = buffers;
    dists.clear();
    dists.resize(count, usize::MAX);
    queue.clear();
    queue.push((0, count - 1));

    let mut head = 0;
    while let Some(&(first, last)) = queue.get(head) {
        head += 1;
        for start in [first, last] {
            if dists[start] != usize::MAX {
                continue;
            }
            let dist = maximum - 2 * windows.lcs(start, len1);
            dists[start] = dist;
            if dist < cutoff_dist {
                cutoff_dist = dist;
                best = Some((start, dist));
                if dist == 0 {
                    return best;
                }
            }
        }

        let cell_diff = last - first;
        if cell_diff <= 1 {
            continue;
        }
        let (d_first, d_last) = (dists[first], dists[last]);
        let known_edits = d_first.abs_diff(d_last);
        // Distances are even, so the possible improvement rounds down to even.
        let max_improvement = cell_diff.saturating_sub(known_edits / 2) / 2 * 2;
        // rapidfuzz: `min(d_first, d_last) - max_improvement < cutoff_dist`
        // in signed arithmetic.
        if d_first.min(d_last) < cutoff_dist + max_improvement {
            let center = cell_diff / 2;
            queue.push((first, first + center));
            queue.push((first + center, last));
        }
    }
    best
}

/// Position masks of a needle of at most 64 chars: bit `i` of `mask(c)` is
/// set when the needle's char `i` is `c`.
///
/// Kept per thread and cleared entry by entry, since clearing or copying the
/// whole table would cost more than scoring a short pair.
struct ShortPattern {
    ascii: [u64; 128],
    /// ASCII codes set by the current needle, to clear them on the next fill.
    ascii_set: Vec<u8>,
    /// Chars outside ASCII; only looked at when the needle has any.
    other: OtherChars,
    has_other: bool,
}

impl Default for ShortPattern {
    fn default() -> Self {
        ShortPattern {
            ascii: [0; 128],
            ascii_set: Vec::new(),
            other: OtherChars {
                keys: [0; 128],
                masks: [0; 128],
            },
            has_other: false,
        }
    }
}

/// Open-addressing map from non-ASCII chars to position masks. A needle of at
/// most 64 chars keeps it at most half full.
struct OtherChars {
    keys: [u32; 128],
    masks: [u64; 128],
}

impl OtherChars {
    fn slot(&self, code: u32) -> usize {
        // Key 0 marks a free slot; it never occurs since keys are >= 128.
        let mut i = ((code as usize).wrapping_mul(0x9E37_79B9) >> 7) & 127;
        while self.keys[i] != 0 && self.keys[i] != code {
            i = (i + 1) & 127;
        }
        i
    }

    fn get(&self, code: u32) -> u64 {
        let i = self.slot(code);
        if self.keys[i] == code {
            self.masks[i]
        } else {
            0
        }
    }
}

impl ShortPattern {
    fn fill<T: Symbol>(&mut self, needle: &[T]) {
        for &code in &self.ascii_set {
            self.ascii[usize::from(code)] = 0;
        }
        self.ascii_set.clear();
        if self.has_other {
            self.other.keys = [0; 128];
            self.other.masks = [0; 128];
            self.has_other = false;
        }
        for (pos, &c) in needle.iter().enumerate().take(64) {
            let code = c.code();
            let bit = 1u64 << pos;
            if let Ok(byte) = u8::try_from(code) {
                if byte < 128 {
                    let entry = &mut self.ascii[usize::from(byte)];
                    if *entry == 0 {
                        self.ascii_set.push(byte);
                    }
                    *entry |= bit;
                    continue;
                }
            }
            self.has_other = true;
            let i = self.other.slot(code);
            self.other.keys[i] = code;
            self.other.masks[i] |= bit;
        }
    }

    #[inline(always)]
    fn mask(&self, code: u32) -> u64 {
        match self.ascii.get(code as usize) {
            Some(&mask) => mask,
            None if self.has_other => self.other.get(code),
            None => 0,
        }
    }
}

/// One step of the Hyyrö LCS recurrence on a single word. Bits of `s` that
/// are 0 mark needle positions matched so far. The bits above the needle stay
/// 1: `s - u` never borrows because `u` is a subset of `s`.
#[inline(always)]
fn lcs_step(s: u64, matches: u64) -> u64 {
    let u = s & matches;
    s.wrapping_add(u) | s.wrapping_sub(u)
}

/// Haystack of a needle of at most 64 chars, as the needle's position mask
/// of each haystack char (looked up once per char, not once per window).
struct ShortWindows<'a> {
    masks: &'a [u64],
    /// `64 - needle length`: aligns bit-reversed masks to the low bits.
    shift: u32,
}

impl Windows for ShortWindows<'_> {
    fn in_needle(&self, pos: usize) -> bool {
        self.masks[pos] != 0
    }

    fn lcs(&self, start: usize, len: usize) -> usize {
        let s = self.masks[start..start + len]
            .iter()
            .fold(!0u64, |s, &m| lcs_step(s, m));
        (!s).count_ones() as usize
    }

    fn prefix_lcs(&self, out: &mut [usize]) {
        let mut s = !0u64;
        for (slot, &m) in out.iter_mut().zip(self.masks) {
            s = lcs_step(s, m);
            *slot = (!s).count_ones() as usize;
        }
    }

    fn suffix_lcs(&self, out: &mut [usize]) {
        // LCS(a, b) = LCS(reverse a, reverse b): read the haystack backwards
        // against the needle's bit-reversed masks.
        let mut s = !0u64;
        for (slot, &m) in out.iter_mut().zip(self.masks.iter().rev()) {
            s = lcs_step(s, m.reverse_bits() >> self.shift);
            *slot = (!s).count_ones() as usize;
        }
    }
}

/// Needle longer than 64 chars: a row of `words` masks per distinct char,
/// for the needle and for its reverse (used by the suffix pass).
struct LongPattern {
    words: usize,
    forward: MaskTable,
    backward: MaskTable,
}

struct MaskTable {
    /// Rows `0..128` are the ASCII chars, then one row per other char.
    rows: Vec<u64>,
    other: HashMap<u32, usize>,
}

impl MaskTable {
    fn new<T: Symbol>(needle: impl Iterator<Item = T>, words: usize) -> Self {
        let mut table = MaskTable {
            rows: vec![0; 128 * words],
            other: HashMap::new(),
        };
        for (pos, c) in needle.enumerate() {
            let code = c.code();
            let row = if code < 128 {
                code as usize
            } else {
                let next = table.rows.len() / words;
                *table.other.entry(code).or_insert(next)
            };
            if row * words >= table.rows.len() {
                table.rows.resize((row + 1) * words, 0);
            }
            table.rows[row * words + pos / 64] |= 1u64 << (pos % 64);
        }
        table
    }

    fn row(&self, code: u32, words: usize) -> Option<&[u64]> {
        let row = if code < 128 {
            code as usize
        } else {
            *self.other.get(&code)?
        };
        self.rows.get(row * words..(row + 1) * words)
    }
}

impl LongPattern {
    fn new<T: Symbol>(needle: &[T]) -> Self {
        let words = needle.len().div_ceil(64);
        LongPattern {
            words,
            forward: MaskTable::new(needle.iter().copied(), words),
            backward: MaskTable::new(needle.iter().rev().copied(), words),
        }
    }

    /// Feeds `hay` through the multi-word recurrence and returns the LCS,
    /// also reporting it after each char to `seen` when given.
    fn run<T: Symbol>(
        &self,
        table: &MaskTable,
        hay: impl Iterator<Item = T>,
        mut seen: Option<&mut [usize]>,
    ) -> usize {
        let mut s = vec![!0u64; self.words];
        for (i, c) in hay.enumerate() {
            if let Some(row) = table.row(c.code(), self.words) {
                let mut carry = 0u64;
                for (word, &matches) in s.iter_mut().zip(row) {
                    let u = *word & matches;
                    let (sum, c1) = word.overflowing_add(u);
                    let (sum, c2) = sum.overflowing_add(carry);
                    carry = u64::from(c1 | c2);
                    *word = sum | word.wrapping_sub(u);
                }
            }
            if let Some(slot) = seen.as_deref_mut().and_then(|out| out.get_mut(i)) {
                *slot = count_zeros(&s);
            }
        }
        count_zeros(&s)
    }
}

fn count_zeros(words: &[u64]) -> usize {
    words.iter().map(|w| w.count_zeros() as usize).sum()
}

/// Haystack of a needle longer than 64 chars.
struct LongWindows<'a, T> {
    pattern: &'a LongPattern,
    hay: &'a [T],
}

impl<T: Symbol> Windows for LongWindows<'_, T> {
    fn in_needle(&self, pos: usize) -> bool {
        let p = self.pattern;
        p.forward
            .row(self.hay[pos].code(), p.words)
            .is_some_and(|row| row.iter().any(|&w| w != 0))
    }

    fn lcs(&self, start: usize, len: usize) -> usize {
        let window = self.hay[start..start + len].iter().copied();
        self.pattern.run(&self.pattern.forward, window, None)
    }

    fn prefix_lcs(&self, out: &mut [usize]) {
        let hay = self.hay.iter().copied().take(out.len());
        self.pattern.run(&self.pattern.forward, hay, Some(out));
    }

    fn suffix_lcs(&self, out: &mut [usize]) {
        let hay = self.hay.iter().rev().copied().take(out.len());
        self.pattern.run(&self.pattern.backward, hay, Some(out));
    }
}

#[cfg(test)]
mod tests;
