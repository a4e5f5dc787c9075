//! Which files an index build takes from the last index instead of reading them again. The
//! walk lists every file with its size and mtime, and the build meets them in path order
//! (`tree/found_runs.rs`); the last index's records are in path order too. One pass beside
//! both decides, holding a single record of the last index at a time, not a map from path
//! to record nor every record decoded (some 200 bytes a file: most of a refresh's memory
//! on a tree of a million files).

use super::found_runs::Listed;
use super::head_records::{HeadRecords, RELEASE_EVERY};
use super::stamp::{self, FileRecord};

/// The last index's records, as a refresh has them.
pub(super) enum OldRecords {
    /// Still mapped from the index file (`tree/head_records.rs`).
    Mapped(HeadRecords),
    /// Decoded already, by a call that looked for changes to lay over a tree.
    Decoded(Vec<FileRecord>),
}

impl OldRecords {
    fn len(&self) -> usize {
        match self {
            OldRecords::Mapped(records) => records.len(),
            OldRecords::Decoded(records) => records.len(),
        }
    }
}

/// The last index's records met in path order beside the files found.
pub(super) struct ReusedRecords {
    source: Source,
    /// How many records the last index holds.
    count: usize,
    /// Set when a record did not decode: none after it is taken.
    damaged: bool,
    /// The record met next, and its number.
    current: Option<(u32, FileRecord)>,
    next: u32,
    /// When the last index was built: an mtime too close to it is not trusted.
    built_ns: i64,
}

enum Source {
    /// The records, where the next one starts, and the bytes decoded since their pages
    /// were let go of.
    Mapped(HeadRecords, usize, usize),
    Decoded(std::vec::IntoIter<FileRecord>),
}

impl ReusedRecords {
    pub(super) fn new(records: OldRecords, built_ns: i64) -> ReusedRecords {
        let count = records.len();
        let source = match records {
            OldRecords::Mapped(records) => Source::Mapped(records, 0, 0),
            OldRecords::Decoded(records) => Source::Decoded(records.into_iter()),
        };
        let mut reused = ReusedRecords {
            source,
            count,
            damaged: false,
            current: None,
            next: 0,
            built_ns,
        };
        reused.advance();
        reused
    }

    /// How many records the last index holds.
    pub(super) fn len(&self) -> usize {
        self.count
    }

    /// The last index's record of `listed`, and its number there, when the file is unchanged
    /// since: the same path, size and mtime, its metadata read, and an mtime not too close
    /// to that build to trust ([`stamp::trusted`]). Files must be asked for in ascending
    /// path order; a record passed over is never met again.
    pub(super) fn take(&mut self, listed: &Listed) -> Option<(u32, FileRecord)> {
        while self
            .current
            .as_ref()
            .is_some_and(|(_, r)| r.path.as_str() < listed.path.as_str())
        {
            self.advance();
        }
        let (_, record) = self.current.as_ref()?;
        let unchanged = record.path == listed.path
            && listed.failed.is_none()
            && record.size == listed.size
            && record.mtime == listed.mtime
            && stamp::trusted(record.mtime, self.built_ns);
        if !unchanged {
            return None;
        }
        let taken = self.current.take();
        self.advance();
        taken
    }

    /// Decodes the next record. One that does not decode ends the pass: the files after it
    /// are read again, never taken from a damaged head.
    fn advance(&mut self) {
        self.current = None;
        if self.damaged || self.next as usize >= self.count {
            return;
        }
        let record = match &mut self.source {
            Source::Mapped(records, at, unreleased) => match records.record_at(*at) {
                Ok((record, next)) => {
                    *unreleased += next - *at;
                    *at = next;
                    // a pass over every record holds no more of their pages than this
                    if *unreleased >= RELEASE_EVERY {
                        records.release_pages();
                        *unreleased = 0;
                    }
                    Some(record)
                }
                Err(_) => None,
            },
            Source::Decoded(records) => records.next(),
        };
        match record {
            Some(record) => {
                self.current = Some((self.next, record));
                self.next += 1;
            }
            None => self.damaged = true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::blob::Blob;
    use crate::tree::content::ContentKind;

    const BUILT: i64 = 1_000_000_000_000;

    fn record(path: &str, mtime: i64) -> FileRecord {
        FileRecord {
            path: path.into(),
            size: path.len() as u64,
            mtime,
            kind: ContentKind::Text,
            symbols: Vec::new(),
            name_bag: 3,
        }
    }

    fn listed(record: &FileRecord) -> Listed {
        Listed {
            path: record.path.clone(),
            size: record.size,
            mtime: record.mtime,
            failed: None,
        }
    }

    /// The old records: `a/0` to `a/9`, every mtime trusted but `a/7`'s, written within
    /// the racy window of the build.
    fn old() -> Vec<FileRecord> {
        (0..10)
            .map(|i| {
                let mtime = if i == 7 { BUILT - 1 } else { BUILT / 2 + i };
                record(&format!("a/{i}"), mtime)
            })
            .collect()
    }

    /// What `take` gives for each file found, by its old number.
    fn taken(records: OldRecords, found: &[Listed]) -> Vec<Option<u32>> {
        let mut reused = ReusedRecords::new(records, BUILT);
        assert_eq!(reused.len(), 10);
        found
            .iter()
            .map(|f| {
                reused.take(f).map(|(j, r)| {
                    assert_eq!(r.path, f.path);
                    j
                })
            })
            .collect()
    }

    #[test]
    fn only_a_file_unchanged_since_a_trusted_record_is_taken() {
        let old = old();
        let mut found = vec![listed(&record("0", 1))];
        found.extend(old.iter().map(listed));
        // changed, in turn: its size, its mtime, its metadata unread; removed (a/4); added
        found[1 + 1].size += 1;
        found[1 + 2].mtime += 1;
        found[1 + 3].failed = Some("denied".into());
        found.remove(1 + 4);
        found.insert(5, listed(&record("a/3x", 5)));
        found.push(listed(&record("b", 1)));
        let want = vec![
            None,
            Some(0),
            None,
            None,
            None,
            None,
            Some(5),
            Some(6),
            None, // a/7, racy
            Some(8),
            Some(9),
            None,
        ];
        assert_eq!(taken(OldRecords::Decoded(old.clone()), &found), want);
        assert_eq!(
            taken(OldRecords::Mapped(HeadRecords::of(&old)), &found),
            want
        );
    }

    #[test]
    fn no_record_after_one_that_does_not_decode_is_taken() {
        let old = old();
        let whole = HeadRecords::of(&old);
        let end_of_three = (0..3).fold(0, |at, _| whole.record_at(at).unwrap().1);
        // the fourth record cut short
        let mut bytes = postcard::to_allocvec(&old).unwrap()[1..].to_vec();
        bytes.truncate(end_of_three + 2);
        let records = OldRecords::Mapped(HeadRecords::of_bytes(Blob::owned(bytes), 10));
        let found: Vec<Listed> = old.iter().map(listed).collect();
        let got = taken(records, &found);
        assert_eq!(&got[..3], &[Some(0), Some(1), Some(2)]);
        assert!(got[3..].iter().all(Option::is_none), "{got:?}");
    }
}
