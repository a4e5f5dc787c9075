//! The tree index file's format: its header's constants, the engine fingerprint it is
//! written under, its head (what the walk met, then the file records) and the stamps of the
//! directories and ignore files walked, shared by the reader (`tree/index_read.rs`) and the
//! writer (`tree/index_build.rs`).

use super::options::TreeOptions;
use super::stamp::FileRecord;
use crate::encoding::fnv::fnv;
use serde::{Deserialize, Serialize};

pub(super) const MAGIC: &[u8; 8] = b"FBTREEIX";
/// Bumped when the layout changes; the fingerprint covers the rest.
pub(super) const FORMAT: u32 = 3;
/// The head, the stamps, the symbol table and the four posting tables.
pub(super) const PARTS: usize = 7;
pub(super) const HEADER_BYTES: usize = 8 + 4 + 8 + PARTS * 8 + 3 * 4;

/// The walk options that change what the index holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct OptionsKey {
    max_file_bytes: u64,
    gitignore: bool,
    hidden: bool,
    follow_links: bool,
}

impl OptionsKey {
    pub(super) fn of(o: &TreeOptions) -> OptionsKey {
        OptionsKey {
            max_file_bytes: o.max_file_bytes,
            gitignore: o.gitignore,
            hidden: o.hidden,
            follow_links: o.follow_links,
        }
    }
}

/// What the head holds before its file records.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct HeadStart {
    /// The canonical root, as the key was made from it.
    pub root: String,
    pub options: OptionsKey,
    /// When the walk that wrote this index began.
    pub built_ns: i64,
    pub errors: usize,
    pub messages: Vec<String>,
}

/// The head whole (the stamps are a part of their own, encoded as a `Vec<Stamp>` is, so
/// that a call reads them a chunk at a time: `tree/head_records.rs`). Postcard writes a struct as its fields one after the other, so this is
/// the start's bytes, then the records' count and each record: the build writes a head in
/// those two parts without holding its records (`tree/head_records.rs`).
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Head {
    pub start: HeadStart,
    /// Sorted by path: the posting lists number files in this order.
    pub files: Vec<FileRecord>,
}

/// This engine's version and sources (`sources_fingerprint.rs`): an index written by any
/// other build of them is rebuilt, not trusted.
pub(super) fn fingerprint() -> u64 {
    fnv(&[
        crate::version::VERSION.as_bytes(),
        &FORMAT.to_le_bytes(),
        &crate::sources_fingerprint::SOURCES_FINGERPRINT.to_le_bytes(),
    ])
}
