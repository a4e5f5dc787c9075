//! Reading the tree index file (`tree/cache.rs` describes it, `tree/index_format.rs` lays
//! it out): its header and checksums checked, its head's start decoded, its records and
//! stamps left mapped until they are needed (`tree/head_records.rs`), its symbol table
//! mapped, its posting lists checked on first use.

use super::blob::{self, verified_stamp, Blob, Identity};
use super::head_records::{split_head, HeadList, HeadRecords, HeadStamps};
use super::index_format::{
    fingerprint, Head, HeadStart, OptionsKey, FORMAT, HEADER_BYTES, MAGIC, PARTS,
};
use super::postings::{Encoded, Lazy};
use super::symbol_table::SymbolTable;
use std::fs::File;
use std::path::Path;
use std::sync::Arc;

/// An index read from disk: its head (`H`: decoded whole, or [`MappedHead`]), the stamps of
/// the directories and ignore files its walk met (mapped), and its posting lists to read
/// on first use.
pub(super) struct ReadIndex<H> {
    pub head: H,
    pub stamps: HeadStamps,
    /// The head's checksum: what changes kept beside the index are keyed to.
    pub head_crc: u32,
    pub symbols: Arc<SymbolTable>,
    pub postings: Lazy,
    pub bytes: u64,
    pub words: usize,
    pub postings_bytes: usize,
}

/// A head as mapped: its start decoded, its records not.
pub(super) struct MappedHead {
    pub start: HeadStart,
    pub records: HeadRecords,
}

pub(super) type OldIndex = ReadIndex<Head>;
pub(super) type MappedIndex = ReadIndex<MappedHead>;

impl MappedIndex {
    /// Its records decoded (checked to be in path order).
    pub(super) fn decoded(self) -> Result<OldIndex, String> {
        let files = self.head.records.decode_all()?;
        // decoded: the head's pages are not held for the life of the map
        self.head.records.release_pages();
        Ok(ReadIndex {
            head: Head {
                start: self.head.start,
                files,
            },
            stamps: self.stamps,
            head_crc: self.head_crc,
            symbols: self.symbols,
            postings: self.postings,
            bytes: self.bytes,
            words: self.words,
            postings_bytes: self.postings_bytes,
        })
    }
}

/// Reads and checks the index at `path`: the head's start and the symbol table now, the
/// head's records when decoded ([`MappedIndex::decoded`]), the posting lists when first
/// needed (from the file already open and mapped, so that an index renamed over this one
/// meanwhile cannot mix with it); or why it cannot be used.
pub(super) fn read_mapped(
    path: &Path,
    root: &str,
    key: &OptionsKey,
) -> Result<MappedIndex, String> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err("no index yet".into()),
        Err(e) => return Err(format!("cannot open the index: {e}")),
    };
    let len = file
        .metadata()
        .map_err(|e| format!("cannot read the index: {e}"))?
        .len();
    if len < HEADER_BYTES as u64 {
        return Err("truncated index (shorter than its header)".into());
    }
    let map = Blob::map(&file).map_err(|e| format!("cannot map the index: {e}"))?;
    let header = &map[..HEADER_BYTES];
    if &header[..8] != MAGIC {
        return Err("not an index file (bad magic)".into());
    }
    let u64_at = |at: usize| u64::from_le_bytes(header[at..at + 8].try_into().unwrap_or([0; 8]));
    let u32_at = |at: usize| u32::from_le_bytes(header[at..at + 4].try_into().unwrap_or([0; 4]));
    if u32_at(8) != FORMAT || u64_at(12) != fingerprint() {
        return Err("written by another version of findbench".into());
    }
    let lens: Vec<u64> = (0..PARTS).map(|i| u64_at(20 + i * 8)).collect();
    let crc_at = 20 + PARTS * 8;
    let (head_crc, symbols_crc, postings_crc) =
        (u32_at(crc_at), u32_at(crc_at + 4), u32_at(crc_at + 8));
    let body = lens.iter().try_fold(0u64, |a, &b| a.checked_add(b));
    if body.and_then(|b| b.checked_add(HEADER_BYTES as u64)) != Some(len) || map.len() as u64 != len
    {
        return Err(format!(
            "truncated or padded index ({len} bytes, the header says otherwise)"
        ));
    }
    // where each part starts: all within the map, as the lengths add up to it
    let mut starts = [HEADER_BYTES; PARTS + 1];
    for i in 0..PARTS {
        starts[i + 1] = starts[i] + lens[i] as usize;
    }
    let part = |i: usize| map.slice(starts[i]..starts[i + 1]);
    let head_bytes = part(0);
    // through a buffer, not the map: a pass that touched every page of the head would hold
    // them all (the records are decoded a batch at a time where they need not be whole);
    // the checksum covers the head and the stamps after it
    if blob::crc_of(&file, starts[0] as u64, lens[0] + lens[1]).ok() != Some(head_crc) {
        return Err("damaged index (checksum mismatch)".into());
    }
    let (start, records) = split_head(&head_bytes)?;
    let stamps = HeadList::of_encoded(&part(1))?;
    // the start decoded: its pages are not held for the life of the map (the records'
    // are read again as they are needed)
    head_bytes.release_pages();
    if start.root != root || &start.options != key {
        return Err("the index is for another root or other walk options".into());
    }
    // the table's checksum is computed once per written file: a file whose identity
    // (length, mtime, ctime, inode) is the one recorded when it last checked out is trusted
    let identity = Identity::of(&file, symbols_crc);
    let stamp = verified_stamp(path);
    if identity.is_none() || std::fs::read(&stamp).ok() != identity.map(|i| i.bytes()) {
        if blob::crc_of(&file, starts[2] as u64, lens[2]).ok() != Some(symbols_crc) {
            return Err("damaged index (symbol table checksum mismatch)".into());
        }
        if let Some(identity) = identity.filter(Identity::settled) {
            // not kept is only a checksum again next time
            let _ = std::fs::write(&stamp, identity.bytes());
        }
    }
    let symbols = SymbolTable::from_bytes(part(2))
        .filter(|t| t.file_range(records.len().saturating_sub(1)).end as usize == t.len())
        .ok_or("damaged index (symbol table)")?;
    let tables = [part(3), part(4), part(5), part(6)];
    let (postings_start, postings_len) = (starts[3] as u64, lens[3..].iter().sum::<u64>());
    let index_path = path.to_path_buf();
    let reader = move || {
        if blob::crc_of(&file, postings_start, postings_len).ok() != Some(postings_crc) {
            // answered without narrowing; the next call finds no index and rebuilds it
            let _ = std::fs::remove_file(&index_path);
            return None;
        }
        let [vocab, starts, offsets, lists] = tables;
        let enc = Encoded {
            vocab,
            starts,
            offsets,
            lists,
        };
        if !enc.validate() {
            let _ = std::fs::remove_file(&index_path);
            return None;
        }
        Some(enc)
    };
    Ok(ReadIndex {
        head: MappedHead { start, records },
        stamps,
        head_crc,
        symbols: Arc::new(symbols),
        postings: Lazy::on_demand(Box::new(reader)),
        bytes: len,
        words: (lens[4] / 4) as usize,
        postings_bytes: postings_len as usize,
    })
}
