//! Bytes of the kept index used in place: a part of the index file mapped into memory (the
//! kernel reads a page when it is first touched, so a call pays only for the symbols and
//! posting lists it looks at), or bytes built in memory by this call.

use super::stamp::{mtime_ns, system_ns, trusted};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::ops::{Deref, Range};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

enum Backing {
    Owned(Vec<u8>),
    /// The map, and the file it maps (read through a buffer by [`Blob::find_in_lines`]).
    Mapped(memmap2::Mmap, File),
}

impl Deref for Backing {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Backing::Owned(v) => v,
            Backing::Mapped(m, _) => m,
        }
    }
}

/// A shared, read-only byte range.
#[derive(Clone)]
pub(crate) struct Blob {
    backing: Arc<Backing>,
    range: Range<usize>,
}

impl Blob {
    pub fn owned(bytes: Vec<u8>) -> Blob {
        let range = 0..bytes.len();
        Blob {
            backing: Arc::new(Backing::Owned(bytes)),
            range,
        }
    }

    /// The whole of `file`, mapped.
    pub fn map(file: &File) -> std::io::Result<Blob> {
        // SAFETY: index files are never written in place: a new index is written under a
        // temporary name and renamed over the old one, so the inode mapped here keeps its
        // bytes for as long as the map lives.
        let map = unsafe { memmap2::Mmap::map(file)? };
        let range = 0..map.len();
        Ok(Blob {
            backing: Arc::new(Backing::Mapped(map, file.try_clone()?)),
            range,
        })
    }

    /// The bytes at `range` of this blob (clamped to it), sharing its backing.
    pub fn slice(&self, range: Range<usize>) -> Blob {
        let len = self.range.len();
        let (start, end) = (range.start.min(len), range.end.min(len));
        Blob {
            backing: self.backing.clone(),
            range: self.range.start + start..self.range.start + end.max(start),
        }
    }
}

impl Blob {
    /// Takes a mapped blob's pages out of this process's resident memory (they stay in the
    /// page cache, and are read again from it when next touched): a pass over a whole
    /// table, such as the counting of every file's symbol names for the ranking
    /// statistics, then holds only what it touched since the last release. Nothing for
    /// bytes in memory.
    pub fn release_pages(&self) {
        if let Backing::Mapped(map, _) = &*self.backing {
            // memmap2 widens the range to the page boundaries around it
            let (start, end) = (self.range.start, self.range.end.min(map.len()));
            if end > start {
                // SAFETY: a read-only shared map of an index file that is never written in
                // place (`Blob::map`): dropping its pages loses nothing, the next access
                // reads the same bytes from the file again.
                let _ = unsafe {
                    map.unchecked_advise_range(
                        memmap2::UncheckedAdvice::DontNeed,
                        start,
                        end - start,
                    )
                };
            }
        }
    }

    /// Calls `hit` with the offset of every match of `finder` in this blob of `\n`-ended
    /// entries (a needle without `\n` never spans two), in order, until it returns false. A mapped blob is read through a
    /// buffer, in pieces cut after a `\n`, so that a scan of a whole dictionary or
    /// vocabulary does not bring all of its pages into the process's memory as a scan
    /// through the map would.
    pub fn find_in_lines(
        &self,
        finder: &memchr::memmem::Finder<'_>,
        mut hit: impl FnMut(usize) -> bool,
    ) {
        const PIECE: usize = 1 << 20;
        let whole: &[u8] = self;
        let Backing::Mapped(_, file) = &*self.backing else {
            for i in finder.find_iter(whole) {
                if !hit(i) {
                    return;
                }
            }
            return;
        };
        let mut buf = vec![0u8; PIECE.min(whole.len())];
        let mut at = 0;
        while at < whole.len() {
            let want = PIECE.min(whole.len() - at);
            let piece: &[u8] = match read_at(file, &mut buf[..want], (self.range.start + at) as u64)
            {
                Ok(()) => &buf[..want],
                // unreadable now: the map still has the bytes
                Err(_) => &whole[at..at + want],
            };
            // up to the piece's last `\n`, or (an entry longer than a piece) to the
            // entry's end, read through the map
            let len = if at + want == whole.len() {
                want
            } else if let Some(i) = memchr::memrchr(b'\n', piece) {
                i + 1
            } else {
                let end = memchr::memchr(b'\n', &whole[at..]).map_or(whole.len(), |i| at + i + 1);
                for i in finder.find_iter(&whole[at..end]) {
                    if !hit(at + i) {
                        return;
                    }
                }
                at = end;
                continue;
            };
            for i in finder.find_iter(&piece[..len]) {
                if !hit(at + i) {
                    return;
                }
            }
            at += len;
        }
    }
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(not(unix))]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    let mut reader = file;
    reader.seek(SeekFrom::Start(offset))?;
    reader.read_exact(buf)
}

impl Deref for Blob {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.backing[self.range.clone()]
    }
}

impl Default for Blob {
    fn default() -> Blob {
        Blob::owned(Vec::new())
    }
}

impl PartialEq for Blob {
    fn eq(&self, other: &Blob) -> bool {
        **self == **other
    }
}

impl Eq for Blob {}

impl std::fmt::Debug for Blob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Blob({} bytes)", self.len())
    }
}

/// Entry `i` of a table of little-endian `u32`s (0 past its end: a damaged table reads as
/// empty entries, never a panic).
pub(crate) fn u32_at(table: &[u8], i: usize) -> u32 {
    table
        .get(i * 4..i * 4 + 4)
        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Which of `count` entries holds byte `at` of their text, given `starts` (a `u32` table
/// of where each entry begins, ascending): the last start at or before `at`.
pub(crate) fn entry_holding(starts: &[u8], count: usize, at: usize) -> usize {
    let (mut lo, mut hi) = (0, count);
    while lo + 1 < hi {
        let mid = (lo + hi) / 2;
        if u32_at(starts, mid) as usize <= at {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// The CRC-32 of `len` bytes of `file` from `start`, read through a small buffer: checking
/// a part does not bring the whole of it into the memory of the process, as reading it
/// through the map would.
pub(crate) fn crc_of(file: &File, start: u64, len: u64) -> std::io::Result<u32> {
    let mut reader = file;
    reader.seek(SeekFrom::Start(start))?;
    let mut hasher = crc32fast::Hasher::new();
    let mut buf = vec![0u8; 256 * 1024];
    let mut left = len;
    while left > 0 {
        let want = left.min(buf.len() as u64) as usize;
        reader.read_exact(&mut buf[..want])?;
        hasher.update(&buf[..want]);
        left -= want as u64;
    }
    Ok(hasher.finalize())
}

/// Where the identity of an index file whose symbol table checked out is kept.
pub(super) fn verified_stamp(index_path: &Path) -> PathBuf {
    index_path.with_extension("verified")
}

/// What tells one written index file from another without reading it: its length, mtime,
/// ctime and inode (any write to it, or a new file renamed over it, changes one of them:
/// the ctime even when the mtime is put back), with the symbol table's checksum it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Identity {
    len: u64,
    mtime: i64,
    ctime: i64,
    inode: u64,
    crc: u32,
}

impl Identity {
    pub(super) fn of(file: &File, crc: u32) -> Option<Identity> {
        let meta = file.metadata().ok()?;
        #[cfg(unix)]
        let (ctime, inode) = {
            use std::os::unix::fs::MetadataExt;
            (meta.ctime() * 1_000_000_000 + meta.ctime_nsec(), meta.ino())
        };
        #[cfg(not(unix))]
        let (ctime, inode) = (0, 0);
        Some(Identity {
            len: meta.len(),
            mtime: mtime_ns(&meta),
            ctime,
            inode,
            crc,
        })
    }

    /// Old enough that a write in the same clock tick as the check cannot hide behind the
    /// same times (git's racily-clean rule): only such an identity is kept.
    pub(super) fn settled(&self) -> bool {
        let now = system_ns(SystemTime::now());
        trusted(self.mtime, now) && trusted(self.ctime, now)
    }

    pub(super) fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(36);
        out.extend_from_slice(&self.len.to_le_bytes());
        out.extend_from_slice(&self.mtime.to_le_bytes());
        out.extend_from_slice(&self.ctime.to_le_bytes());
        out.extend_from_slice(&self.inode.to_le_bytes());
        out.extend_from_slice(&self.crc.to_le_bytes());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_mapped_file_and_its_slices_read_its_bytes() {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(b"0123456789").unwrap();
        let whole = Blob::map(&file).unwrap();
        assert_eq!(&*whole, b"0123456789");
        let part = whole.slice(2..6);
        assert_eq!(&*part, b"2345");
        assert_eq!(&*part.slice(1..3), b"34");
        // clamped, never out of bounds
        assert_eq!(&*part.slice(3..99), b"5");
        assert_eq!(&*part.slice(9..99), b"");
        assert_eq!(part, Blob::owned(b"2345".to_vec()));
        assert_eq!(
            crc_of(&file, 2, 4).unwrap(),
            crc32fast::hash(b"2345"),
            "the streamed checksum is the checksum of the bytes"
        );
        assert!(crc_of(&file, 8, 4).is_err(), "past the end is an error");
    }

    #[test]
    fn released_pages_read_the_same_bytes_again() {
        let bytes: Vec<u8> = (0..3 * 4096 + 17).map(|i| (i * 7 % 251) as u8).collect();
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(&bytes).unwrap();
        let whole = Blob::map(&file).unwrap();
        let part = whole.slice(5000..9000);
        assert_eq!(&*part, &bytes[5000..9000]);
        part.release_pages();
        whole.release_pages();
        assert_eq!(&*whole, &bytes[..]);
        assert_eq!(&*part, &bytes[5000..9000]);
        let owned = Blob::owned(bytes.clone());
        owned.release_pages();
        assert_eq!(&*owned, &bytes[..]);
    }

    /// A scan through the buffer finds what a scan of the bytes finds, across pieces and
    /// in entries longer than a piece.
    #[test]
    fn a_scan_in_pieces_finds_every_match_of_a_scan_of_the_bytes() {
        let mut text = Vec::new();
        for i in 0..200_000 {
            text.extend_from_slice(format!("word{i}_cursor_{}\n", i % 7).as_bytes());
        }
        // one entry longer than a piece, with matches inside and at its end
        text.extend_from_slice(&b"x".repeat(3 << 20));
        text.extend_from_slice(b"cursor_9\ntail_cursor_9\n");
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(b"HEAD").unwrap();
        file.write_all(&text).unwrap();
        let mapped = Blob::map(&file).unwrap().slice(4..4 + text.len());
        let owned = Blob::owned(text.clone());
        for needle in ["cursor_9", "cursor_", "d19999", "xcursor", "nothing"] {
            let finder = memchr::memmem::Finder::new(needle.as_bytes());
            let want: Vec<usize> = finder.find_iter(&text).collect();
            for blob in [&mapped, &owned] {
                let mut got = Vec::new();
                blob.find_in_lines(&finder, |i| {
                    got.push(i);
                    true
                });
                assert_eq!(got, want, "{needle}");
                // stopped after the first
                let mut first = Vec::new();
                blob.find_in_lines(&finder, |i| {
                    first.push(i);
                    false
                });
                assert_eq!(first, want.iter().copied().take(1).collect::<Vec<_>>());
            }
        }
    }
}
