//! What one search handles per path: a candidate ([`Hit`]), the path cut for alignment
//! ([`Cut`]), and each worker thread's reused buffers ([`Scratch`]).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

pub(super) const NONE: f32 = f32::NEG_INFINITY;

/// A candidate before its positions are worked out.
#[derive(Debug, Clone, Copy)]
pub(super) struct Hit {
    /// 0 for a true subsequence match, 1 for a typo match: ranks first.
    pub(super) tier: u8,
    pub(super) score: f32,
    pub(super) index: u32,
    /// The query byte dropped by a typo match (`u8::MAX` for none).
    pub(super) dropped: u8,
}

/// A path cut to its last `max_len` bytes for alignment (the file name end matters most).
pub(super) struct Cut<'a> {
    /// Folded bytes.
    pub(super) path: &'a [u8],
    /// Their original-case shape.
    pub(super) text: &'a [u8],
    /// The file name's offset in `path`.
    pub(super) name: usize,
    pub(super) depth: u32,
    /// Bytes cut from the front of the folded path.
    pub(super) cut: usize,
}

/// Reused buffers of one worker thread.
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) prev: Vec<f32>,
    pub(super) cur: Vec<f32>,
    /// Full score matrix and back-pointers, only when positions are wanted.
    pub(super) matrix: Vec<f32>,
    pub(super) back: Vec<u32>,
    pub(super) variant: Vec<u8>,
    /// Per query character, the earliest and latest path position it can take.
    pub(super) lo: Vec<usize>,
    pub(super) hi: Vec<usize>,
    /// The folded bytes of an ASCII path ([`PathList::view`](crate::tree::PathList::view)).
    pub(super) fold: Vec<u8>,
    /// The best true-match scores this worker has seen (`f32` bits, all positive), at most
    /// the request's limit of them.
    pub(super) kept: BinaryHeap<Reverse<u32>>,
}
