//! The index build in segments, so that its memory does not grow with the tree: the files
//! are read in path order and their symbols and words gathered into a segment; when the
//! segment holds [`SEGMENT_BYTES`], its symbol table ([`super::symbol_table`]) and posting
//! lists ([`super::postings`]) are built and spilled to a temporary file beside the index,
//! and the next segment begins. The segments are then merged on disk, each read once in
//! order through a small buffer: the symbol tables by their sorted dictionaries
//! ([`symbols`]), the posting lists by their sorted vocabularies ([`postings`]). Segments
//! cover ascending ranges of files and symbols, so a string's or a word's lists are the
//! segments' lists one after the other: the merged index is byte for byte the one a single
//! segment gives (`tree/segments/tests.rs`).
//!
//! Where no file can be written beside the index (a read-only cache), the segments are
//! kept in memory instead and merged the same way.

mod postings;
mod symbols;
#[cfg(test)]
mod tests;

use super::postings::Encoded;
use super::symbol_table::SymbolTable;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

/// How much a segment may hold in memory (its files' symbols and its words' lists, as
/// [`Segment::held`] estimates them) before it is spilled: the build's memory beside the
/// list of files.
pub(super) const SEGMENT_BYTES: usize = 24 << 20;

/// Bytes a symbol takes while its file's record holds it (a `Symbol` with its two strings).
pub(super) const SYMBOL_BYTES: usize = 112;

/// The buffer each reader of a spilled part reads through.
const READ_BUFFER: usize = 32 << 10;

/// Where spilled bytes go: temporary files in a directory, named apart per process and
/// call, or memory when there is no directory to write to.
#[derive(Clone)]
pub(super) struct Scratch {
    dir: Option<PathBuf>,
    prefix: String,
}

impl Scratch {
    /// Temporary files in `dir` (which must exist), their names starting with `.{name}`.
    pub(super) fn in_dir(dir: PathBuf, name: &str) -> Scratch {
        static CALLS: AtomicU64 = AtomicU64::new(0);
        let call = CALLS.fetch_add(1, Ordering::Relaxed);
        Scratch {
            dir: Some(dir),
            prefix: format!(".{name}.{}.{call}", std::process::id()),
        }
    }

    /// Everything kept in memory.
    pub(super) fn memory() -> Scratch {
        Scratch {
            dir: None,
            prefix: String::new(),
        }
    }

    /// A writer of one spilled part.
    pub(super) fn writer(&self) -> io::Result<SpillWriter> {
        static PARTS: AtomicU64 = AtomicU64::new(0);
        let Some(dir) = &self.dir else {
            return Ok(SpillWriter::Memory(Vec::new()));
        };
        let part = PARTS.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!("{}.{part}.segment.tmp", self.prefix));
        let file = File::create(&path)?;
        Ok(SpillWriter::File(
            BufWriter::with_capacity(256 << 10, file),
            Removed(path),
        ))
    }
}

/// A temporary file, removed when dropped (whatever the build's outcome).
pub(super) struct Removed(PathBuf);

impl Drop for Removed {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Bytes being spilled.
pub(super) enum SpillWriter {
    File(BufWriter<File>, Removed),
    Memory(Vec<u8>),
}

impl Write for SpillWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            SpillWriter::File(w, _) => w.write(buf),
            SpillWriter::Memory(v) => v.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            SpillWriter::File(w, _) => w.flush(),
            SpillWriter::Memory(_) => Ok(()),
        }
    }
}

impl SpillWriter {
    /// The bytes written, to read back.
    pub(super) fn finish(self) -> io::Result<Spilled> {
        match self {
            SpillWriter::File(w, removed) => {
                let file = w.into_inner().map_err(|e| e.into_error())?;
                let len = file.metadata()?.len();
                Ok(Spilled::File(removed, len))
            }
            SpillWriter::Memory(v) => Ok(Spilled::Memory(v)),
        }
    }
}

/// Spilled bytes, read back in order.
pub(super) enum Spilled {
    File(Removed, u64),
    Memory(Vec<u8>),
}

impl Spilled {
    pub(super) fn len(&self) -> u64 {
        match self {
            Spilled::File(_, len) => *len,
            Spilled::Memory(v) => v.len() as u64,
        }
    }

    /// A reader of the bytes at `range`.
    pub(super) fn reader(&self, range: Range<u64>) -> io::Result<Box<dyn BufRead + '_>> {
        if range.start > range.end || range.end > self.len() {
            return Err(invalid("a spilled range out of bounds"));
        }
        match self {
            Spilled::File(Removed(path), _) => {
                let mut file = File::open(path)?;
                file.seek(SeekFrom::Start(range.start))?;
                let part = file.take(range.end - range.start);
                Ok(Box::new(BufReader::with_capacity(READ_BUFFER, part)))
            }
            Spilled::Memory(v) => Ok(Box::new(&v[range.start as usize..range.end as usize])),
        }
    }

    /// Writes every byte to `out`.
    pub(super) fn copy_to(&self, out: &mut dyn Write) -> io::Result<()> {
        let mut reader = self.reader(0..self.len())?;
        io::copy(&mut reader, out)?;
        Ok(())
    }

    /// A reader of every byte that owns them: a spilled file is opened and removed (the
    /// reader holds it open).
    pub(super) fn into_reader(self) -> io::Result<Box<dyn BufRead>> {
        match self {
            Spilled::File(removed, _) => {
                let file = File::open(&removed.0)?;
                drop(removed);
                Ok(Box::new(BufReader::with_capacity(READ_BUFFER, file)))
            }
            Spilled::Memory(v) => Ok(Box::new(io::Cursor::new(v))),
        }
    }

    /// The bytes, in memory.
    pub(super) fn into_bytes(self) -> io::Result<Vec<u8>> {
        match self {
            Spilled::File(removed, _) => std::fs::read(&removed.0),
            Spilled::Memory(v) => Ok(v),
        }
    }
}

/// How many segments are merged at once: each is read through a few open files, so a tree
/// of many segments is merged a group at a time into larger segments first.
const FAN_IN: usize = 32;

/// One segment: the symbol table and the posting tables of a run of files, spilled.
pub(super) struct Segment {
    table: Spilled,
    /// The vocabulary, word starts, list offsets and lists ([`Encoded`]'s four tables).
    postings: [Spilled; 4],
}

/// `bytes` written to a file of `scratch` (or kept in memory).
fn spilled(scratch: &Scratch, bytes: &[u8]) -> io::Result<Spilled> {
    let mut out = scratch.writer()?;
    out.write_all(bytes)?;
    out.finish()
}

impl Segment {
    /// Spills the symbol table and posting lists of a run of files.
    #[cfg(test)]
    pub(super) fn spill(
        scratch: &Scratch,
        table: &SymbolTable,
        postings: &Encoded,
    ) -> io::Result<Segment> {
        let table = spilled(scratch, table.bytes())?;
        Segment::with_table(scratch, table, postings)
    }

    /// [`Segment::spill`], one of its tables in memory at a time: the symbol table is
    /// spilled and dropped before the posting lists are encoded (`postings`), which lowers
    /// the build's peak by the table's size.
    pub(super) fn spill_in_turn(
        scratch: &Scratch,
        table: SymbolTable,
        postings: impl FnOnce() -> Encoded,
    ) -> io::Result<Segment> {
        let table = spilled(scratch, table.bytes())?;
        Segment::with_table(scratch, table, &postings())
    }

    fn with_table(scratch: &Scratch, table: Spilled, postings: &Encoded) -> io::Result<Segment> {
        Ok(Segment {
            table,
            postings: [
                spilled(scratch, &postings.vocab)?,
                spilled(scratch, &postings.starts)?,
                spilled(scratch, &postings.offsets)?,
                spilled(scratch, &postings.lists)?,
            ],
        })
    }

    /// A reader of the table's bytes at `range`.
    fn table_reader(&self, range: Range<usize>) -> io::Result<Box<dyn BufRead + '_>> {
        self.table.reader(range.start as u64..range.end as u64)
    }

    /// A reader of posting table `part` (0 vocabulary, 1 starts, 2 offsets, 3 lists).
    fn postings_reader(&self, part: usize) -> io::Result<Box<dyn BufRead + '_>> {
        let p = &self.postings[part];
        p.reader(0..p.len())
    }

    /// The number of distinct words of the segment's posting lists.
    fn words(&self) -> usize {
        (self.postings[1].len() / 4) as usize
    }
}

/// The symbol table and the posting tables of every segment's files, in order, each
/// spilled through `scratch`.
pub(super) fn merge(mut segments: Vec<Segment>, scratch: &Scratch) -> io::Result<Segment> {
    loop {
        if segments.len() == 1 {
            if let Some(one) = segments.pop() {
                return Ok(one);
            }
        }
        if segments.len() <= FAN_IN {
            return merge_group(&segments, scratch);
        }
        let mut merged = Vec::with_capacity(segments.len().div_ceil(FAN_IN));
        let mut left = segments.into_iter().peekable();
        while left.peek().is_some() {
            let group: Vec<Segment> = left.by_ref().take(FAN_IN).collect();
            merged.push(merge_group(&group, scratch)?);
        }
        segments = merged;
    }
}

fn merge_group(segments: &[Segment], scratch: &Scratch) -> io::Result<Segment> {
    // the two merges read apart parts of the segments: each on a core of its own
    let (table, postings) = rayon::join(
        || -> io::Result<Spilled> {
            let mut table = scratch.writer()?;
            symbols::merge(segments, scratch, &mut table)?;
            table.finish()
        },
        || postings::merge(segments, scratch),
    );
    Ok(Segment {
        table: table?,
        postings: postings?,
    })
}

impl Segment {
    /// The symbol table and the posting tables.
    pub(super) fn into_parts(self) -> (Spilled, [Spilled; 4]) {
        (self.table, self.postings)
    }
}

/// The error of spilled bytes that do not read as what was written.
fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

/// Reads one little-endian `u32`.
fn read_u32(r: &mut dyn Read) -> io::Result<u32> {
    let mut b = [0u8; 4];
    r.read_exact(&mut b)?;
    Ok(u32::from_le_bytes(b))
}

fn put_u32(out: &mut dyn Write, v: u32) -> io::Result<()> {
    out.write_all(&v.to_le_bytes())
}

/// A segment's sorted strings (a dictionary or a vocabulary), each ended by `\n`, read in
/// order: as many as its table counts.
struct SortedStrings<'a> {
    reader: Box<dyn BufRead + 'a>,
    left: usize,
}

impl<'a> SortedStrings<'a> {
    fn new(reader: Box<dyn BufRead + 'a>, count: usize) -> Self {
        SortedStrings {
            reader,
            left: count,
        }
    }

    /// The next string (without its `\n`); `None` after the last.
    fn next(&mut self) -> io::Result<Option<Vec<u8>>> {
        if self.left == 0 {
            return Ok(None);
        }
        let mut s = Vec::new();
        self.reader.read_until(b'\n', &mut s)?;
        if s.pop() != Some(b'\n') {
            return Err(invalid(
                "strings fewer than counted, or one not ended by a newline",
            ));
        }
        self.left -= 1;
        Ok(Some(s))
    }
}
