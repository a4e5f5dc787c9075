//! The files a refresh read for a few changes, kept beside the index instead of rewriting
//! it (`trees/<hash>.changes`, docs/index-changes.md): when at most
//! [`super::edits::MAX_READ`] files changed, `findbench index` reads the edited and added
//! ones and writes their records (with their symbols) here, so that it costs what changed,
//! not the whole tree; a later load lays the changes over the index as it does for any
//! change (`tree/edits.rs`), taking a changed file's record from here when its size and
//! mtime still match instead of reading the file again.
//!
//! The file: an 8-byte magic, the format, the fingerprint of the engine that wrote it, the
//! checksum of the index head it was written against, the body's length and checksum, then
//! the body (postcard). Written to a temporary name and renamed. One that does not check
//! out, or belongs to another index (the index was written since), is not used.

use super::stamp::{trusted, FileRecord};
use super::symbols::Symbol;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"FBCHANGE";
const FORMAT: u32 = 1;
const HEADER_BYTES: usize = 8 + 4 + 8 + 4 + 8 + 4;

/// The records kept, by path: those whose file still has their size and mtime stand for
/// the file.
#[derive(Debug, Default)]
pub(super) struct KeptChanges {
    records: HashMap<String, FileRecord>,
    /// When the refresh that wrote them began: a record whose mtime is within the racy
    /// window of it may have changed unseen (`tree/stamp.rs`).
    written_ns: i64,
}

#[derive(Serialize, Deserialize)]
struct Body {
    written_ns: i64,
    files: Vec<(FileRecord, Vec<Symbol>)>,
}

impl KeptChanges {
    /// The record of `path` when its file has `size` and `mtime` still, and that mtime was
    /// safely before the refresh that kept it.
    pub(super) fn record(&self, path: &str, size: u64, mtime: i64) -> Option<FileRecord> {
        self.records
            .get(path)
            .filter(|r| r.size == size && r.mtime == mtime && trusted(mtime, self.written_ns))
            .cloned()
    }

    #[cfg(test)]
    fn is_empty(&self) -> bool {
        self.records.is_empty()
    }
}

/// Where the changes of the index at `index_path` are kept.
pub(super) fn path_of(index_path: &Path) -> PathBuf {
    index_path.with_extension("changes")
}

/// The changes kept beside the index at `index_path` whose head checksum is `base`; none
/// when there are none, or they were written by another engine or against another index
/// (a damaged file is removed).
pub(super) fn read(index_path: &Path, fingerprint: u64, base: u32) -> KeptChanges {
    let path = path_of(index_path);
    let Ok(bytes) = std::fs::read(&path) else {
        return KeptChanges::default();
    };
    match decode(&bytes, fingerprint, base) {
        Decoded::Kept(kept) => kept,
        Decoded::OtherIndex => KeptChanges::default(),
        Decoded::Damaged => {
            // written again by the next refresh
            let _ = std::fs::remove_file(&path);
            KeptChanges::default()
        }
    }
}

enum Decoded {
    Kept(KeptChanges),
    /// Written by another engine, or against an index written since: not for this one.
    OtherIndex,
    Damaged,
}

fn decode(bytes: &[u8], fingerprint: u64, base: u32) -> Decoded {
    if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
        return Decoded::Damaged;
    }
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap_or([0; 4]));
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or([0; 8]));
    if u32_at(8) != FORMAT || u64_at(12) != fingerprint || u32_at(20) != base {
        return Decoded::OtherIndex;
    }
    let (len, crc) = (u64_at(24), u32_at(32));
    let body = &bytes[HEADER_BYTES..];
    if body.len() as u64 != len || crc32fast::hash(body) != crc {
        return Decoded::Damaged;
    }
    let Ok(body) = postcard::from_bytes::<Body>(body) else {
        return Decoded::Damaged;
    };
    let records = body
        .files
        .into_iter()
        .map(|(mut record, symbols)| {
            record.symbols = symbols;
            (record.path.clone(), record)
        })
        .collect();
    Decoded::Kept(KeptChanges {
        records,
        written_ns: body.written_ns,
    })
}

fn encode(records: &[FileRecord], written_ns: i64, fingerprint: u64, base: u32) -> Vec<u8> {
    let body = Body {
        written_ns,
        files: records
            .iter()
            .map(|r| (r.clone(), r.symbols.clone()))
            .collect(),
    };
    let body = postcard::to_allocvec(&body).unwrap_or_default();
    let mut out = Vec::with_capacity(HEADER_BYTES + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT.to_le_bytes());
    out.extend_from_slice(&fingerprint.to_le_bytes());
    out.extend_from_slice(&base.to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// Keeps `records` (read by a refresh that began at `written_ns`) beside the index at
/// `index_path` whose head checksum is `base`: to a temporary name, then renamed. The
/// bytes written, or why not.
pub(super) fn write(
    index_path: &Path,
    records: &[FileRecord],
    written_ns: i64,
    fingerprint: u64,
    base: u32,
) -> Result<u64, String> {
    let path = path_of(index_path);
    let bytes = encode(records, written_ns, fingerprint, base);
    let temp = path.with_extension(format!("changes.{}.tmp", std::process::id()));
    let written = std::fs::write(&temp, &bytes).and_then(|()| std::fs::rename(&temp, &path));
    written.map(|()| bytes.len() as u64).map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        format!("{}: {e}", path.display())
    })
}

/// Removes the changes kept beside the index at `index_path` (the index was written whole).
pub(super) fn remove(index_path: &Path) {
    let _ = std::fs::remove_file(path_of(index_path));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::content::ContentKind;

    fn record(path: &str, size: u64, mtime: i64) -> FileRecord {
        FileRecord {
            path: path.into(),
            size,
            mtime,
            kind: ContentKind::Text,
            symbols: vec![Symbol {
                kind: crate::tree::symbols::SymbolKind::Function,
                name: "zebra_handler".into(),
                snake: "zebra_handler".into(),
                line: 2,
                definition: true,
                test: false,
            }],
            name_bag: 7,
        }
    }

    const NOW: i64 = 10_000_000_000;

    #[test]
    fn a_record_stands_for_its_file_while_its_size_and_mtime_hold() {
        let bytes = encode(&[record("src/a.rs", 40, 1_000)], NOW, 9, 5);
        let Decoded::Kept(kept) = decode(&bytes, 9, 5) else {
            panic!("not decoded");
        };
        let r = kept.record("src/a.rs", 40, 1_000).expect("kept");
        assert_eq!(r.symbols[0].name, "zebra_handler");
        assert_eq!(r.name_bag, 7);
        assert!(kept.record("src/a.rs", 41, 1_000).is_none(), "size moved");
        assert!(kept.record("src/a.rs", 40, 1_001).is_none(), "mtime moved");
        assert!(kept.record("src/b.rs", 40, 1_000).is_none(), "not kept");
    }

    #[test]
    fn a_record_within_the_racy_window_of_its_refresh_is_not_trusted() {
        let mtime = NOW - 1_000_000_000;
        let bytes = encode(&[record("src/a.rs", 40, mtime)], NOW, 9, 5);
        let Decoded::Kept(kept) = decode(&bytes, 9, 5) else {
            panic!("not decoded");
        };
        assert!(kept.record("src/a.rs", 40, mtime).is_none());
    }

    #[test]
    fn changes_of_another_index_or_engine_are_not_used_and_a_damaged_file_is_told_apart() {
        let bytes = encode(&[record("src/a.rs", 40, 1_000)], NOW, 9, 5);
        assert!(matches!(decode(&bytes, 9, 6), Decoded::OtherIndex));
        assert!(matches!(decode(&bytes, 8, 5), Decoded::OtherIndex));
        let mut flipped = bytes.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        assert!(matches!(decode(&flipped, 9, 5), Decoded::Damaged));
        assert!(matches!(
            decode(&bytes[..bytes.len() - 1], 9, 5),
            Decoded::Damaged
        ));
        assert!(matches!(decode(b"FBCHANG", 9, 5), Decoded::Damaged));
    }

    #[test]
    fn written_changes_are_read_back_and_removed() {
        let dir = tempfile::tempdir().unwrap();
        let index = dir.path().join("0123.idx");
        let n = write(&index, &[record("src/a.rs", 40, 1_000)], NOW, 9, 5).unwrap();
        assert_eq!(n, std::fs::metadata(path_of(&index)).unwrap().len());
        assert!(read(&index, 9, 5).record("src/a.rs", 40, 1_000).is_some());
        assert!(read(&index, 9, 6).is_empty());
        assert!(path_of(&index).exists(), "another index's changes are left");
        std::fs::write(path_of(&index), b"FBCHANGE junk").unwrap();
        assert!(read(&index, 9, 5).is_empty());
        assert!(!path_of(&index).exists(), "a damaged file is removed");
        write(&index, &[], NOW, 9, 5).unwrap();
        remove(&index);
        assert!(!path_of(&index).exists());
    }
}
