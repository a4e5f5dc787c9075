//! What a tree's ranking statistics are made of ([`FieldIndex`]; built, kept and read in
//! [`super::bm25f`]): a type of its own, apart from the code that builds it from a tree, so
//! that a first call's tree can hold its statistics (`first_call/state.rs`).

use super::file_counts::Counted;
use super::kept::Kept;
use super::posting::{Posting, NF};
use crate::encoding::fx_hash::FxBuild;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

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
