//! The file records of an index head (`tree/index_format.rs`), never all in memory while an
//! index is built and counted. The build writes each segment's records to a spill once the
//! segment is spilled (`tree/index_build.rs`) and writes the head from that spill; `findbench
//! index` then counts its statistics from the head's records as written, decoded a batch at
//! a time from the mapped file (`tree/record_files.rs`). The records are encoded as the
//! head's `Vec<FileRecord>` is (postcard: a varint count, then each record), so a head
//! written from a spill is byte for byte the head encoded whole (tests below). The stamps of
//! the directories and ignore files walked, a part of their own, are written the same way
//! from the walk's sorted runs (`tree/found_runs.rs`) and read a chunk at a time.

use super::blob::Blob;
use super::found_runs::FoundRuns;
use super::index_format::HeadStart;
use super::segments::{Scratch, SpillWriter, Spilled};
use super::stamp::{FileRecord, Stamp};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::io::{self, Write};
use std::marker::PhantomData;

/// Records written one after the other as the build makes them.
pub(super) struct RecordSpill {
    out: SpillWriter,
    count: usize,
}

impl RecordSpill {
    pub(super) fn new(scratch: &Scratch) -> io::Result<RecordSpill> {
        Ok(RecordSpill {
            out: scratch.writer()?,
            count: 0,
        })
    }

    /// How many records were pushed.
    pub(super) fn len(&self) -> usize {
        self.count
    }

    /// Appends `record` (its symbols are not written: the symbol table holds them).
    pub(super) fn push(&mut self, record: &FileRecord) -> io::Result<()> {
        postcard::to_io(record, &mut self.out).map_err(io::Error::other)?;
        self.count += 1;
        Ok(())
    }

    pub(super) fn finish(self) -> io::Result<SpilledRecords> {
        Ok(SpilledRecords {
            bytes: self.out.finish()?,
            count: self.count,
        })
    }
}

/// The records of a build, spilled in file order.
pub(super) struct SpilledRecords {
    bytes: Spilled,
    count: usize,
}

impl SpilledRecords {
    /// Writes the records as the head's `files` field: their count, then each.
    pub(super) fn write_to(&self, out: &mut dyn Write) -> io::Result<()> {
        postcard::to_io(&self.count, &mut *out).map_err(io::Error::other)?;
        self.bytes.copy_to(out)
    }

    /// The records, in memory (when the index written could not be read back).
    pub(super) fn into_records(self) -> io::Result<Vec<FileRecord>> {
        let count = self.count;
        let bytes = Blob::owned(self.bytes.into_bytes()?);
        HeadRecords {
            bytes,
            count,
            of: PhantomData,
        }
        .decode_all()
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
    }
}

/// Writes the walk's `stamps` in path order as the index's stamps part: their count, then
/// each, as postcard encodes a `Vec<Stamp>`, merged from their runs as they are written.
pub(super) fn write_stamps(stamps: FoundRuns<Stamp>, out: &mut dyn Write) -> io::Result<()> {
    let count = stamps.len();
    postcard::to_io(&count, &mut *out).map_err(io::Error::other)?;
    let mut written = 0;
    for stamp in stamps.sorted()? {
        postcard::to_io(&stamp?, &mut *out).map_err(io::Error::other)?;
        written += 1;
    }
    match written == count {
        true => Ok(()),
        false => Err(io::Error::other("the stamps merged are not those taken")),
    }
}

/// The records of an index as `tree/edits.rs` reads them: a chunk at a time, in order, so
/// that an index read from its mapped head is never decoded whole ([`HeadList`]).
pub(super) trait IndexRecords: Sync {
    /// Calls `each` with each chunk and the number of its first record; false when the
    /// records could not all be read.
    fn each_chunk(&self, each: &mut dyn FnMut(usize, &[FileRecord])) -> bool;
}

/// How many records a chunk holds.
pub(super) const CHUNK: usize = 8192;

impl IndexRecords for Vec<FileRecord> {
    fn each_chunk(&self, each: &mut dyn FnMut(usize, &[FileRecord])) -> bool {
        for (k, chunk) in self.chunks(CHUNK).enumerate() {
            each(k * CHUNK, chunk);
        }
        true
    }
}

/// A head's bytes split: its start decoded, its records left encoded.
pub(super) fn split_head(bytes: &Blob) -> Result<(HeadStart, HeadRecords), String> {
    let (start, rest) = postcard::take_from_bytes::<HeadStart>(bytes)
        .map_err(|e| format!("damaged index head: {e}"))?;
    let records = HeadList::of_encoded(&bytes.slice(bytes.len() - rest.len()..bytes.len()))?;
    Ok((start, records))
}

/// What a head lists, one after the other: the file records, or the stamps of the
/// directories and ignore files walked (`tree/index_format.rs`).
pub(crate) trait HeadEntry: DeserializeOwned {
    /// What one is called in an error, and what they all are.
    const WHAT: &'static str;
    const LIST: &'static str;
    /// The path the list is sorted by.
    fn path(&self) -> &str;
}

impl HeadEntry for FileRecord {
    const WHAT: &'static str = "a file record";
    const LIST: &'static str = "records";
    fn path(&self) -> &str {
        &self.path
    }
}

impl HeadEntry for Stamp {
    const WHAT: &'static str = "a stamp";
    const LIST: &'static str = "stamps";
    fn path(&self) -> &str {
        &self.path
    }
}

/// Entries of a head, encoded (mapped from the index, or in memory) as postcard encodes a
/// `Vec<T>`: their count, then each.
pub(crate) struct HeadList<T> {
    bytes: Blob,
    count: usize,
    of: PhantomData<fn() -> T>,
}

/// The file records of a head.
pub(crate) type HeadRecords = HeadList<FileRecord>;
/// The stamps of the directories and ignore files the walk met.
pub(crate) type HeadStamps = HeadList<Stamp>;

impl<T: HeadEntry> HeadList<T> {
    /// The list encoded in `bytes`: a varint count, then the entries.
    pub(super) fn of_encoded(bytes: &Blob) -> Result<HeadList<T>, String> {
        let (count, rest) = postcard::take_from_bytes::<usize>(bytes)
            .map_err(|e| format!("damaged index head: {e}"))?;
        Ok(HeadList {
            bytes: bytes.slice(bytes.len() - rest.len()..bytes.len()),
            count,
            of: PhantomData,
        })
    }

    pub(super) fn len(&self) -> usize {
        self.count
    }

    /// The entries from the one that starts `at` bytes in (0, or an offset [`Decoded`]
    /// gave), in order.
    pub(super) fn decoded_at(&self, at: usize) -> Decoded<'_, T> {
        Decoded {
            list: self,
            rest: self.bytes.get(at..).unwrap_or(&[]),
            at,
            unreleased: 0,
        }
    }

    /// The entry that starts `at` bytes in (0, or an offset this gave), and where the next
    /// one starts.
    pub(super) fn record_at(&self, at: usize) -> Result<(T, usize), String> {
        let mut decoded = self.decoded_at(at);
        let record = decoded.next_record()?;
        Ok((record, decoded.offset()))
    }

    /// Every entry, checked to be in path order and as many as the head says.
    pub(super) fn decode_all(&self) -> Result<Vec<T>, String> {
        let mut all: Vec<T> = Vec::with_capacity(self.count.min(self.bytes.len()));
        let mut decoded = self.decoded_at(0);
        for _ in 0..self.count {
            let entry = decoded.next_record()?;
            if all.last().is_some_and(|last| last.path() >= entry.path()) {
                return Err(format!("damaged index ({} out of order)", T::LIST));
            }
            all.push(entry);
        }
        decoded.check_end()?;
        Ok(all)
    }

    /// Calls `each` with each chunk of [`CHUNK`] entries and the number of its first; false
    /// when they could not all be decoded. Decoded once: the pages are let go of as it goes.
    pub(super) fn each_chunk(&self, each: &mut dyn FnMut(usize, &[T])) -> bool {
        let mut decoded = self.decoded_at(0);
        let mut chunk = Vec::with_capacity(CHUNK.min(self.count));
        let mut first = 0;
        while first < self.count {
            chunk.clear();
            for _ in first..(first + CHUNK).min(self.count) {
                match decoded.next_record() {
                    Ok(r) => chunk.push(r),
                    Err(_) => return false,
                }
            }
            each(first, &chunk);
            first += chunk.len();
        }
        // decoded once: the pages are not held for the rest of the call
        self.release_pages();
        decoded.check_end().is_ok()
    }

    /// Lets go of the pages read so far (`tree/blob.rs`).
    pub(super) fn release_pages(&self) {
        self.bytes.release_pages();
    }
}

impl<T: HeadEntry + Serialize> HeadList<T> {
    /// `entries` encoded as a head holds them.
    #[cfg(test)]
    pub(super) fn of(entries: &[T]) -> HeadList<T> {
        let bytes = postcard::to_allocvec(entries).unwrap_or_default();
        HeadList::of_encoded(&Blob::owned(bytes)).expect("a list just encoded")
    }

    /// `count` entries encoded in `bytes` (which may be damaged).
    #[cfg(test)]
    pub(super) fn of_bytes(bytes: Blob, count: usize) -> HeadList<T> {
        HeadList {
            bytes,
            count,
            of: PhantomData,
        }
    }
}

impl IndexRecords for HeadRecords {
    fn each_chunk(&self, each: &mut dyn FnMut(usize, &[FileRecord])) -> bool {
        HeadList::each_chunk(self, each)
    }
}

/// How many bytes of mapped entries a pass decodes before it lets go of their pages: a
/// pass over every record (a count, a sample) then holds no more of them than this.
pub(super) const RELEASE_EVERY: usize = 8 << 20;

/// Entries decoded one after another.
pub(super) struct Decoded<'a, T> {
    list: &'a HeadList<T>,
    rest: &'a [u8],
    at: usize,
    /// Bytes decoded since the pages were last released.
    unreleased: usize,
}

impl<T: HeadEntry> Decoded<'_, T> {
    /// Where the next entry starts.
    pub(super) fn offset(&self) -> usize {
        self.at
    }

    pub(super) fn next_record(&mut self) -> Result<T, String> {
        let (entry, rest) = postcard::take_from_bytes::<T>(self.rest)
            .map_err(|e| format!("damaged index head ({}): {e}", T::WHAT))?;
        let len = self.rest.len() - rest.len();
        self.at += len;
        self.rest = rest;
        self.unreleased += len;
        if self.unreleased >= RELEASE_EVERY {
            self.list.release_pages();
            self.unreleased = 0;
        }
        Ok(entry)
    }

    /// An error unless every byte was decoded.
    pub(super) fn check_end(&self) -> Result<(), String> {
        match self.rest.is_empty() {
            true => Ok(()),
            false => Err(format!("damaged index head (bytes after its {})", T::LIST)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::content::ContentKind;
    use super::super::index_format::{Head, OptionsKey};
    use super::super::options::TreeOptions;
    use super::super::stamp::Stamp;
    use super::*;

    fn record(path: &str, kind: ContentKind) -> FileRecord {
        FileRecord {
            path: path.into(),
            size: path.len() as u64 * 1000,
            mtime: -5 + path.len() as i64,
            kind,
            symbols: Vec::new(),
            name_bag: 7,
        }
    }

    fn start() -> HeadStart {
        HeadStart {
            root: "/r/é".into(),
            options: OptionsKey::of(&TreeOptions::default()),
            built_ns: 123_456_789,
            errors: 2,
            messages: vec!["a".into(), "b".into()],
        }
    }

    fn records(n: usize) -> Vec<FileRecord> {
        (0..n)
            .map(|i| {
                let kind = match i % 4 {
                    0 => ContentKind::Text,
                    1 => ContentKind::Binary,
                    2 => ContentKind::TooLarge,
                    _ => ContentKind::Unreadable(format!("denied {i}")),
                };
                record(&format!("d/{i:05}.rs"), kind)
            })
            .collect()
    }

    /// The head as the build writes it: its start, then the spilled records.
    fn written_in_parts(files: &[FileRecord], scratch: &Scratch) -> Vec<u8> {
        let mut spill = RecordSpill::new(scratch).unwrap();
        files.iter().for_each(|r| spill.push(r).unwrap());
        let spilled = spill.finish().unwrap();
        let mut out = postcard::to_allocvec(&start()).unwrap();
        spilled.write_to(&mut out).unwrap();
        out
    }

    #[test]
    fn a_head_written_from_a_spill_is_the_head_encoded_whole() {
        let dir = tempfile::tempdir().unwrap();
        // 200 records: a count past one varint byte
        for n in [0, 1, 200] {
            let files = records(n);
            let whole = postcard::to_allocvec(&Head {
                start: start(),
                files: files.clone(),
            })
            .unwrap();
            for scratch in [Scratch::in_dir(dir.path().into(), "t"), Scratch::memory()] {
                assert_eq!(written_in_parts(&files, &scratch), whole, "{n} records");
            }
            let (start_read, read) = split_head(&Blob::owned(whole)).unwrap();
            assert_eq!(start_read.root, "/r/é");
            assert_eq!(start_read.messages, ["a", "b"]);
            assert_eq!(read.len(), n);
            assert_eq!(read.decode_all().unwrap(), files);
        }
    }

    fn stamps(n: usize) -> Vec<Stamp> {
        (0..n)
            .map(|i| Stamp {
                path: format!("d/{:05}", (i * 7919) % n.max(1)),
                size: i as u64 * 4096,
                mtime: 1_700_000_000_000_000_000 + i as i64,
                names: (i % 3 != 0).then_some(i as u64 * 0x9e37_79b9),
            })
            .collect()
    }

    /// The stamps handed over in walk order, spilled in runs or held, are written as the
    /// sorted `Vec<Stamp>` is encoded, and read back a chunk at a time.
    #[test]
    fn stamps_written_from_their_runs_are_the_stamps_encoded_whole() {
        let dir = tempfile::tempdir().unwrap();
        for n in [0, 1, 200, 3 * CHUNK + 5] {
            let found = stamps(n);
            let mut sorted = found.clone();
            sorted.sort_by(|a, b| a.path.cmp(&b.path));
            let whole = postcard::to_allocvec(&sorted).unwrap();
            for (run_bytes, scratch) in [
                (usize::MAX, Scratch::memory()),
                (3000, Scratch::in_dir(dir.path().into(), "t")),
            ] {
                let mut runs = FoundRuns::new(scratch, run_bytes);
                for chunk in found.chunks(97) {
                    runs.take(&mut chunk.to_vec());
                }
                runs.settle();
                let mut written = Vec::new();
                write_stamps(runs, &mut written).unwrap();
                assert_eq!(written, whole, "{n} stamps in runs of {run_bytes} bytes");
            }
            let read = HeadStamps::of_encoded(&Blob::owned(whole)).unwrap();
            assert_eq!(read.decode_all().unwrap(), sorted);
            let mut chunked = Vec::new();
            assert!(read.each_chunk(&mut |first, chunk| {
                assert_eq!(first, chunked.len());
                assert!(chunk.len() <= CHUNK);
                chunked.extend_from_slice(chunk);
            }));
            assert_eq!(chunked, sorted);
        }
    }

    #[test]
    fn stamps_cut_short_do_not_read() {
        let bytes = postcard::to_allocvec(&stamps(3)).unwrap();
        let read = HeadStamps::of_encoded(&Blob::owned(bytes[..bytes.len() - 2].to_vec())).unwrap();
        assert!(!read.each_chunk(&mut |_, _| {}));
        let err = read.decode_all().unwrap_err();
        assert!(err.starts_with("damaged index head (a stamp)"), "{err}");
    }

    /// The records spilled come back whole in memory; a chunked pass over them, held or
    /// mapped, numbers each chunk by its first record, and a damaged list is not read.
    #[test]
    fn records_spilled_come_back_whole_and_chunks_are_numbered() {
        let files = records(2 * CHUNK + 3);
        let mut spill = RecordSpill::new(&Scratch::memory()).unwrap();
        files.iter().for_each(|r| spill.push(r).unwrap());
        assert_eq!(spill.len(), files.len());
        assert_eq!(spill.finish().unwrap().into_records().unwrap(), files);
        let mapped = HeadRecords::of(&files);
        for list in [&files as &dyn IndexRecords, &mapped] {
            let (mut firsts, mut all) = (Vec::new(), Vec::new());
            assert!(list.each_chunk(&mut |first, chunk| {
                firsts.push(first);
                all.extend_from_slice(chunk);
            }));
            assert_eq!(firsts, [0, CHUNK, 2 * CHUNK]);
            assert_eq!(all, files);
        }
        let bytes = postcard::to_allocvec(&files[..3]).unwrap();
        let cut = HeadRecords::of_encoded(&Blob::owned(bytes[..bytes.len() - 2].to_vec()));
        assert!(!IndexRecords::each_chunk(&cut.unwrap(), &mut |_, _| {}));
    }

    #[test]
    fn records_decode_from_any_offset_one_gave() {
        let files = records(50);
        let bytes = written_in_parts(&files, &Scratch::memory());
        let (_, read) = split_head(&Blob::owned(bytes)).unwrap();
        let mut all = read.decoded_at(0);
        let offsets: Vec<usize> = (0..50)
            .map(|_| {
                let at = all.offset();
                all.next_record().unwrap();
                at
            })
            .collect();
        all.check_end().unwrap();
        for i in [0, 1, 31, 49] {
            let got = read.decoded_at(offsets[i]).next_record().unwrap();
            assert_eq!(got, files[i]);
        }
    }

    #[test]
    fn records_out_of_order_cut_or_padded_do_not_read() {
        let mut files = records(3);
        files.swap(0, 2);
        let bytes = written_in_parts(&files, &Scratch::memory());
        let (_, read) = split_head(&Blob::owned(bytes)).unwrap();
        assert_eq!(
            read.decode_all().unwrap_err(),
            "damaged index (records out of order)"
        );

        let bytes = written_in_parts(&records(3), &Scratch::memory());
        let cut = Blob::owned(bytes[..bytes.len() - 3].to_vec());
        let (_, read) = split_head(&cut).unwrap();
        let err = read.decode_all().unwrap_err();
        assert!(
            err.starts_with("damaged index head (a file record)"),
            "{err}"
        );

        let mut padded = bytes.clone();
        padded.push(0);
        let (_, read) = split_head(&Blob::owned(padded)).unwrap();
        assert_eq!(
            read.decode_all().unwrap_err(),
            "damaged index head (bytes after its records)"
        );
    }
}
