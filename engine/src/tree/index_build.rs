//! Building the tree index file (`tree/cache.rs` describes it) in memory bounded whatever
//! the tree's size: the files the walk lists are read a batch at a time, in parallel, and
//! added in path order to a segment, which is spilled when it holds
//! `SEGMENT_BYTES` (`tree/segments/mod.rs`); the segments are merged on disk
//! and the file is written part by part, to a temporary name renamed over the index.

use super::found_runs::{FoundRuns, Listed};
use super::head_records::{write_stamps, RecordSpill, SpilledRecords};
use super::index_format::{fingerprint, HeadStart, FORMAT, HEADER_BYTES, MAGIC, PARTS};
use super::options::TreeOptions;
use super::postings::{Builder, Encoded};
use super::reused_records::ReusedRecords;
use super::segments::{self, Scratch, Segment, Spilled, SYMBOL_BYTES};
use super::stamp::{system_ns, FileRecord, Stamp};
use super::symbol_table::SymbolTable;
use super::walk;
use rayon::prelude::*;
use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::Path;
use std::time::SystemTime;

/// How many files the index build reads at once (in parallel) before adding them in file
/// order: enough to keep every core busy, few enough that a batch is a small part of the
/// build's memory.
const READ_BATCH: usize = 1024;

/// A file of one batch of the index build: to read, or taken from the last index (its
/// record and its number there).
enum Batched {
    ToRead(Listed),
    Reused(u32, FileRecord),
}

/// A file of one batch, ready to add: read (its record and words), or taken.
enum Added {
    Read(FileRecord, Vec<u8>),
    Reused(u32, FileRecord),
}

/// The last index's files, symbols and words: what an unchanged file is taken from.
pub(super) struct Old {
    pub records: ReusedRecords,
    pub symbols: std::sync::Arc<SymbolTable>,
    pub enc: Encoded,
}

/// The merged symbol table and posting tables, spilled, ready to be written.
pub(super) struct Parts {
    symbols: Spilled,
    postings: [Spilled; 4],
}

impl Parts {
    /// The symbol table and posting lists in memory (when the index could not be written).
    pub(super) fn into_memory(self) -> io::Result<(SymbolTable, Encoded)> {
        use super::blob::Blob;
        let bad = || io::Error::new(io::ErrorKind::InvalidData, "a merged table does not read");
        let symbols =
            SymbolTable::from_bytes(Blob::owned(self.symbols.into_bytes()?)).ok_or_else(bad)?;
        let [vocab, starts, offsets, lists] = self.postings;
        let enc = Encoded {
            vocab: Blob::owned(vocab.into_bytes()?),
            starts: Blob::owned(starts.into_bytes()?),
            offsets: Blob::owned(offsets.into_bytes()?),
            lists: Blob::owned(lists.into_bytes()?),
        };
        enc.validate().then_some((symbols, enc)).ok_or_else(bad)
    }
}

/// The files of `found` read (or taken from `old`) and gathered into segments of at most
/// about `segment_bytes`, spilled through `scratch`, then merged: every file's record
/// (without its symbols, which the merged table holds), spilled with its segment; the
/// merged tables; and the number of files read.
pub(super) fn read_and_merge(
    root: &Path,
    options: &TreeOptions,
    found: FoundRuns<Listed>,
    old: Option<Old>,
    scratch: &Scratch,
    segment_bytes: usize,
) -> io::Result<(SpilledRecords, Parts, usize)> {
    let (mut old_records, old_symbols, old_enc) = match old {
        Some(o) => (Some(o.records), Some(o.symbols), Some(o.enc)),
        None => (None, None, None),
    };
    let mut old_words = match (&old_enc, &old_records) {
        (Some(enc), Some(records)) => Some(OldWords::new(enc, records.len(), FORWARD_WORDS)),
        _ => None,
    };
    // the records of the segment being gathered; those of the segments spilled are in
    // `spilled`, so that the build never holds a record for every file
    let mut files: Vec<FileRecord> = Vec::new();
    let mut spilled = RecordSpill::new(scratch)?;
    let mut segments = Vec::new();
    let (mut builder, mut held_symbols) = (Builder::new(), 0);
    let mut files_read = 0;
    // the files found in path order, merged from their runs a batch at a time
    let mut found = found.sorted()?;
    let mut batch = Vec::with_capacity(READ_BATCH);
    loop {
        batch.clear();
        for listed in found.by_ref().take(READ_BATCH) {
            let listed = listed?;
            // decided in path order beside the last index's records
            let reused = old_records.as_mut().and_then(|o| o.take(&listed));
            batch.push(match reused {
                Some((j, record)) => Batched::Reused(j, record),
                None => Batched::ToRead(listed),
            });
        }
        if batch.is_empty() {
            break;
        }
        let read: Vec<Added> = batch
            .par_drain(..)
            .map(|f| match f {
                Batched::ToRead(f) => {
                    let path = root.join(&f.path);
                    let (record, words) =
                        walk::read_record(&path, f.path, f.mtime, f.failed, options);
                    Added::Read(record, words)
                }
                Batched::Reused(j, record) => Added::Reused(j, record),
            })
            .collect();
        for item in read {
            let file = (spilled.len() + files.len()) as u32;
            match item {
                Added::Read(record, words) => {
                    files_read += 1;
                    builder.add_listed(file, &words);
                    files.push(record);
                }
                Added::Reused(j, mut record) => {
                    // a file is taken only where the last index is (`old_records`)
                    if let (Some(words), Some(enc), Some(symbols)) =
                        (old_words.as_mut(), &old_enc, &old_symbols)
                    {
                        builder.add_indexed(file, enc, words.of(j));
                        record.symbols = symbols.symbols_of(j as usize);
                    }
                    files.push(record);
                }
            }
            held_symbols += files.last().map_or(0, |r| r.symbols.len());
            if held_symbols * SYMBOL_BYTES + builder.held_bytes() >= segment_bytes {
                let full = std::mem::take(&mut builder);
                segments.push(spill(&mut files, &mut spilled, full, scratch)?);
                held_symbols = 0;
            }
        }
        // the old table's pages read for this batch are not held for the rest of the build
        if let Some(table) = &old_symbols {
            table.release_pages();
        }
    }
    if !files.is_empty() || segments.is_empty() {
        segments.push(spill(&mut files, &mut spilled, builder, scratch)?);
    }
    drop((old_words, old_records, old_symbols));
    drop(old_enc);
    let (symbols, postings) = segments::merge(segments, scratch)?.into_parts();
    Ok((spilled.finish()?, Parts { symbols, postings }, files_read))
}

/// How many words of the last index's forward lists a build holds at once.
const FORWARD_WORDS: u64 = 4 << 20;

/// The words of the last index's files, a window of files at a time: an unchanged file's
/// words are added again from there, and the forward lists of a whole large index would
/// be a word number for every posting.
struct OldWords<'a> {
    enc: &'a Encoded,
    /// The most words a window holds (one file's at least).
    most: u64,
    counts: Vec<u32>,
    window: std::ops::Range<u32>,
    starts: Vec<u32>,
    words: Vec<u32>,
}

impl<'a> OldWords<'a> {
    fn new(enc: &'a Encoded, files: usize, most: u64) -> Self {
        OldWords {
            enc,
            most,
            counts: enc.words_per_file(files),
            window: 0..0,
            starts: Vec::new(),
            words: Vec::new(),
        }
    }

    /// File `j`'s words (unchanged files are asked for in ascending order).
    fn of(&mut self, j: u32) -> &[u32] {
        if !self.window.contains(&j) {
            let (mut end, mut held) = (j, 0u64);
            while let Some(&n) = self.counts.get(end as usize) {
                if end > j && held + u64::from(n) > self.most {
                    break;
                }
                held += u64::from(n);
                end += 1;
            }
            (self.starts, self.words) = self.enc.per_file_in(j..end, &self.counts);
            self.window = j..end;
            // each window reads every list: its pages are not held between windows
            self.enc.lists.release_pages();
        }
        let i = j.saturating_sub(self.window.start) as usize;
        match (self.starts.get(i), self.starts.get(i + 1)) {
            (Some(&from), Some(&to)) => self.words.get(from as usize..to as usize).unwrap_or(&[]),
            _ => &[],
        }
    }
}

/// Builds and spills the segment of `files` and `builder`; the records of `files` (without
/// their symbols, which the segment's table holds) are moved to `records`.
fn spill(
    files: &mut Vec<FileRecord>,
    records: &mut RecordSpill,
    builder: Builder,
    scratch: &Scratch,
) -> io::Result<Segment> {
    let table = SymbolTable::build(files.iter().map(|r| r.symbols.as_slice()));
    files.iter_mut().for_each(|r| r.symbols = Vec::new());
    let segment = Segment::spill_in_turn(scratch, table, || builder.finish())?;
    files.iter().try_for_each(|r| records.push(r))?;
    files.clear();
    Ok(segment)
}

/// A writer that counts and checksums what passes through it.
struct Checked<'a> {
    out: &'a mut dyn Write,
    crc: crc32fast::Hasher,
    len: u64,
}

impl Write for Checked<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out.write(buf)?;
        self.crc.update(&buf[..n]);
        self.len += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Writes the index of the head `start` and `records`, the walk's `stamps` and `parts` to a
/// temporary file beside `path` and renames it over `path`; the bytes written, or why not.
pub(super) fn write(
    path: &Path,
    start: &HeadStart,
    records: &SpilledRecords,
    stamps: FoundRuns<Stamp>,
    parts: &Parts,
) -> Result<u64, String> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let nanos = system_ns(SystemTime::now());
    // unique per process and per call: threads of one process may build at once too
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let call = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let temp = dir.join(format!(".{name}.{}.{nanos}.{call}.tmp", std::process::id()));
    let written = (|| -> io::Result<u64> {
        let mut file = File::create(&temp)?;
        let mut out = BufWriter::with_capacity(1 << 20, &mut file);
        // the header is written last, when the parts' checksums are known
        out.write_all(&[0u8; HEADER_BYTES])?;
        // the head encoded as it is written, its records copied from their spill: its
        // bytes are never held whole (`tree/head_records.rs`)
        let mut head_out = Checked {
            out: &mut out,
            crc: crc32fast::Hasher::new(),
            len: 0,
        };
        postcard::to_io(start, &mut head_out).map_err(io::Error::other)?;
        records.write_to(&mut head_out)?;
        let head_len = head_out.len;
        // the stamps, merged from their runs as they are written; one checksum covers the
        // head and them
        write_stamps(stamps, &mut head_out)?;
        let (stamps_len, head_crc) = (head_out.len - head_len, head_out.crc.finalize());
        let mut lens = vec![head_len, stamps_len];
        let mut symbols = Checked {
            out: &mut out,
            crc: crc32fast::Hasher::new(),
            len: 0,
        };
        parts.symbols.copy_to(&mut symbols)?;
        lens.push(symbols.len);
        let symbols_crc = symbols.crc.finalize();
        // the posting tables are checked together, when a search first needs them
        let mut postings = Checked {
            out: &mut out,
            crc: crc32fast::Hasher::new(),
            len: 0,
        };
        for part in &parts.postings {
            let before = postings.len;
            part.copy_to(&mut postings)?;
            lens.push(postings.len - before);
        }
        let postings_crc = postings.crc.finalize();
        out.flush()?;
        drop(out);
        let mut header = Vec::with_capacity(HEADER_BYTES);
        header.extend_from_slice(MAGIC);
        header.extend_from_slice(&FORMAT.to_le_bytes());
        header.extend_from_slice(&fingerprint().to_le_bytes());
        debug_assert_eq!(lens.len(), PARTS);
        for len in &lens {
            header.extend_from_slice(&len.to_le_bytes());
        }
        header.extend_from_slice(&head_crc.to_le_bytes());
        header.extend_from_slice(&symbols_crc.to_le_bytes());
        header.extend_from_slice(&postings_crc.to_le_bytes());
        file.seek(SeekFrom::Start(0))?;
        file.write_all(&header)?;
        drop(file);
        std::fs::rename(&temp, path)?;
        Ok(HEADER_BYTES as u64 + lens.iter().sum::<u64>())
    })();
    written.map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        format!("{}: {e}", path.display())
    })
}

/// Where the index build spills its segments: beside the index at `path`, or in memory
/// when its directory cannot be made.
pub(super) fn scratch_beside(path: &Path) -> Scratch {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    match path.parent() {
        Some(dir) if std::fs::create_dir_all(dir).is_ok() => {
            Scratch::in_dir(dir.to_path_buf(), &name)
        }
        _ => Scratch::memory(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::postings::words_of;

    #[test]
    fn the_old_words_read_a_window_at_a_time_are_the_forward_lists() {
        let texts: Vec<String> = (0..40)
            .map(|i| {
                format!(
                    "fn f{i}() {{ alpha{} beta }} // {}",
                    i % 3,
                    "gamma ".repeat(i % 4)
                )
            })
            .collect();
        let mut builder = Builder::new();
        for (i, t) in texts.iter().enumerate() {
            builder.add_listed(i as u32, &words_of(t.as_bytes()));
        }
        let enc = builder.finish();
        let whole = enc.per_file(texts.len());
        assert!(whole.iter().all(|w| w.len() >= 3), "{whole:?}");
        for most in [1, 5, 13, u64::MAX] {
            let mut windows = OldWords::new(&enc, texts.len(), most);
            // unchanged files asked for in order, some skipped (changed or removed)
            for j in (0..texts.len()).filter(|j| j % 7 != 3) {
                assert_eq!(
                    windows.of(j as u32),
                    whole[j].as_slice(),
                    "file {j}, {most}"
                );
            }
        }
    }
}
