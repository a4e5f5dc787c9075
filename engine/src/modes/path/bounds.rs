//! The parts of an alignment's upper bound that depend on the query alone: per query byte,
//! the most its match can add ([`Bound`], and [`TypoBound`] for the query less one byte),
//! and the pair tables an ASCII path is read against for a tighter bound ([`Pairs`]).

use super::pattern::{is_separator, Pat};
use super::weights::Weights;

/// The parts of an alignment's upper bound that depend on the query alone ([`Scorer::bound`](super::scorer::Scorer::bound)).
#[derive(Clone, Copy)]
pub(super) struct Bound {
    /// Off for weights under which a gap can gain (a negative `gap`).
    pub(super) enabled: bool,
    /// The bound before the file-name bonus, for a path without and with ASCII capitals
    /// (only capitals make CamelCase humps).
    pub(super) base: [f32; 2],
    /// The bonus per query character in the file name.
    pub(super) filename: f32,
    /// Slack for rounding (the profile's `bound_slack` of the terms' magnitude).
    pub(super) slack: [f32; 2],
}

impl Bound {
    /// Per query character: its match, and the most its position can add. The first one
    /// starts a run (a boundary or a hump at best); each later one either continues a run
    /// (the consecutive bonus, and the bonus of the character before it: a boundary when
    /// that query character is a separator, else at best a hump) or starts one after a gap
    /// (the cheapest gap, then a boundary or a hump at best). Any alignment chooses one of
    /// the two for each character, so the sum of the larger is a bound.
    pub(super) fn of(query: &[u8], w: &Weights) -> Bound {
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
            slack: magnitude.map(|m| w.bound_slack * (1.0 + m)),
        }
    }
}

/// Per byte value, which query bytes it can stand for in a pair ([`Scorer::pair_bound`](super::scorer::Scorer::pair_bound)):
/// bit `k` of `second[y]` when `y` matches query byte `k`; of `first[x]` when `x` matches
/// query byte `k - 1`; of `capital[y]` when `y` is a capital matching query byte `k`; and
/// `separator[x]` / `small[x]` all ones when `x` is a separator / a small letter.
pub(super) struct Pairs {
    pub(super) first: [u64; 256],
    pub(super) second: [u64; 256],
    pub(super) capital: [u64; 256],
    pub(super) separator: [u64; 256],
    pub(super) small: [u64; 256],
}

impl Pairs {
    /// `None` for a query longer than the masks hold.
    pub(super) fn of(pattern: &[Pat]) -> Option<Box<Pairs>> {
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
pub(super) struct TypoBound {
    /// Off where a gap can gain, or where a typo score falls as its alignment rises.
    pub(super) enabled: bool,
    pub(super) base: [f32; 2],
}

impl TypoBound {
    pub(super) fn of(query: &[u8], w: &Weights) -> TypoBound {
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
