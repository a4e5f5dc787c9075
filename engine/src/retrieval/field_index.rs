//! What a tree's ranking statistics are made of ([`FieldIndex`]; built, kept and read in
//! [`super::bm25f`]): a type of its own, apart from the code that builds it from a tree, so
//! that a first call's tree can hold its statistics (`first_call/state.rs`).

use super::file_counts::Counted;
use super::kept::Kept;
use super::posting::{Posting, NF};
use crate::encoding::fx_hash::FxBuild;
use crate::tree::edits::Overlay;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// One file's count of each term it holds, per field.
pub(crate) type TermCounts = HashMap<String, [u16; NF], FxBuild>;

/// The statistics of one tree.
#[derive(Debug)]
pub struct FieldIndex {
    /// Same order as the tree's files.
    pub(super) lengths: Vec<[u32; NF]>,
    pub(super) average: [f64; NF],
    pub(super) terms: Terms,
}

/// Each term's postings: built in memory, or read on demand from the kept file.
#[derive(Debug)]
pub(super) enum Terms {
    Memory {
        vocabulary: HashMap<String, u32, FxBuild>,
        postings: Vec<Vec<Posting>>,
    },
    Kept(Kept),
    /// The kept file's lists, by the index's file numbers, laid over by the tree's changes
    /// since (`tree/edits.rs`): the files read again counted again (their postings these,
    /// by the tree's numbers, ascending), the removed ones dropped.
    Edited {
        kept: Kept,
        overlay: Arc<Overlay>,
        files: Vec<(u32, TermCounts)>,
    },
    /// Which files hold some terms only, without their frequencies (the first `ask` on a
    /// root, which has no kept statistics: `first_call/mod.rs`, and counts a file's
    /// frequencies when its score is needed: `FieldIndex::count`); a term looked up
    /// outside them reads as held by no file and is pushed to `missed`, so that the caller
    /// finds its files and asks again.
    Held {
        holders: HashMap<String, Vec<u32>>,
        missed: Arc<Mutex<Vec<String>>>,
        /// Files counted before they were scored (the length sample's, by the first pass).
        counted: Counted,
    },
}
