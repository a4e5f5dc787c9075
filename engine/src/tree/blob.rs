//! Bytes of the kept index used in place: a part of the index file mapped into memory (the
//! kernel reads a page when it is first touched, so a call pays only for the symbols and
//! posting lists it looks at), or bytes built in memory by this call.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::ops::{Deref, Range};
use std::sync::Arc;

enum Backing {
    Owned(Vec<u8>),
    Mapped(memmap2::Mmap),
}

impl Deref for Backing {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Backing::Owned(v) => v,
            Backing::Mapped(m) => m,
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
            backing: Arc::new(Backing::Mapped(map)),
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
}
