//! The file records of an index head (`tree/index_format.rs`), never all in memory while an
//! index is built and counted. The build writes each segment's records to a spill once the
//! segment is spilled (`tree/index_build.rs`) and writes the head from that spill; `findbench
//! index` then counts its statistics from the head's records as written, decoded a batch at
//! a time from the mapped file (`tree/record_files.rs`). The records are encoded as the
//! head's `Vec<FileRecord>` is (postcard: a varint count, then each record), so a head
//! written from a spill is byte for byte the head encoded whole (tests below).

use super::blob::Blob;
use super::edits::{IndexRecords, CHUNK};
use super::index_format::HeadStart;
use super::segments::{Scratch, SpillWriter, Spilled};
use super::stamp::FileRecord;
use std::io::{self, Write};

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
        HeadRecords { bytes, count }
            .decode_all()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
    }
}

/// A head's bytes split: its start decoded, its records left encoded.
pub(super) fn split_head(bytes: &Blob) -> Result<(HeadStart, HeadRecords), String> {
    let (start, rest) = postcard::take_from_bytes::<HeadStart>(bytes)
        .map_err(|e| format!("damaged index head: {e}"))?;
    let (count, rest) =
        postcard::take_from_bytes::<usize>(rest).map_err(|e| format!("damaged index head: {e}"))?;
    let records = bytes.slice(bytes.len() - rest.len()..bytes.len());
    Ok((
        start,
        HeadRecords {
            bytes: records,
            count,
        },
    ))
}

/// The records of a head, encoded (mapped from the index, or in memory).
pub(crate) struct HeadRecords {
    bytes: Blob,
    count: usize,
}

impl HeadRecords {
    pub(super) fn len(&self) -> usize {
        self.count
    }

    /// The records from the one that starts `at` bytes in (0, or an offset [`Decoded`]
    /// gave), in order.
    pub(super) fn decoded_at(&self, at: usize) -> Decoded<'_> {
        Decoded {
            records: self,
            rest: self.bytes.get(at..).unwrap_or(&[]),
            at,
            unreleased: 0,
        }
    }

    /// The record that starts `at` bytes in (0, or an offset this gave), and where the next
    /// one starts.
    pub(super) fn record_at(&self, at: usize) -> Result<(FileRecord, usize), String> {
        let mut decoded = self.decoded_at(at);
        let record = decoded.next_record()?;
        Ok((record, decoded.offset()))
    }

    /// Every record, checked to be in path order and as many as the head says.
    pub(super) fn decode_all(&self) -> Result<Vec<FileRecord>, String> {
        let mut files: Vec<FileRecord> = Vec::with_capacity(self.count.min(self.bytes.len()));
        let mut records = self.decoded_at(0);
        for _ in 0..self.count {
            let record = records.next_record()?;
            if files.last().is_some_and(|last| last.path >= record.path) {
                return Err("damaged index (files out of order)".into());
            }
            files.push(record);
        }
        records.check_end()?;
        Ok(files)
    }

    /// `files` encoded as a head holds them.
    #[cfg(test)]
    pub(super) fn of(files: &[FileRecord]) -> HeadRecords {
        let bytes = postcard::to_allocvec(files).unwrap_or_default();
        let (count, rest) = postcard::take_from_bytes::<usize>(&bytes).unwrap_or((0, &[]));
        HeadRecords::of_bytes(Blob::owned(rest.to_vec()), count)
    }

    /// `count` records encoded in `bytes` (which may be damaged).
    #[cfg(test)]
    pub(super) fn of_bytes(bytes: Blob, count: usize) -> HeadRecords {
        HeadRecords { bytes, count }
    }

    /// Lets go of the pages read so far (`tree/blob.rs`).
    pub(super) fn release_pages(&self) {
        self.bytes.release_pages();
    }
}

impl IndexRecords for HeadRecords {
    fn each_chunk(&self, each: &mut dyn FnMut(usize, &[FileRecord])) -> bool {
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
}

/// How many bytes of mapped records a pass decodes before it lets go of their pages: a
/// pass over every record (a count, a sample) then holds no more of them than this.
pub(super) const RELEASE_EVERY: usize = 8 << 20;

/// Records decoded one after another.
pub(super) struct Decoded<'a> {
    records: &'a HeadRecords,
    rest: &'a [u8],
    at: usize,
    /// Bytes decoded since the pages were last released.
    unreleased: usize,
}

impl Decoded<'_> {
    /// Where the next record starts.
    pub(super) fn offset(&self) -> usize {
        self.at
    }

    pub(super) fn next_record(&mut self) -> Result<FileRecord, String> {
        let (record, rest) = postcard::take_from_bytes::<FileRecord>(self.rest)
            .map_err(|e| format!("damaged index head (a file record): {e}"))?;
        let len = self.rest.len() - rest.len();
        self.at += len;
        self.rest = rest;
        self.unreleased += len;
        if self.unreleased >= RELEASE_EVERY {
            self.records.release_pages();
            self.unreleased = 0;
        }
        Ok(record)
    }

    /// An error unless every byte was decoded.
    pub(super) fn check_end(&self) -> Result<(), String> {
        match self.rest.is_empty() {
            true => Ok(()),
            false => Err("damaged index head (bytes after its records)".into()),
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
            stamps: vec![Stamp {
                path: "src".into(),
                size: 4,
                mtime: 9,
                names: Some(3),
            }],
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
            "damaged index (files out of order)"
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
