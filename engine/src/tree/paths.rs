//! A list of paths packed for fast fuzzy matching: one buffer of text and, per path, its
//! span in it and its character bag.
//!
//! Folding is full case folding (`ß` ~ `ss`, `ﬁ` ~ `fi`, final sigma), so a folded path can
//! be longer or shorter than the path as given. An ASCII path (nearly every path) folds by
//! lowering its letters: that is done when a query looks at it, into the caller's buffer
//! ([`PathList::view`]), so indexing a listing is one pass (in pieces, in parallel) that
//! finds its lines and reads each one's bag off its text; no folded copy is made. The rare
//! path with other characters is folded once, when listed; if folding changed its length it
//! also carries a map from each folded byte back to the character it came from. Every other
//! path shares offsets with its text.

use crate::text::fold::fold_char;

use crate::error::{EngineError, Result};
use rayon::prelude::*;
use std::borrow::Cow;
use std::path::Path;
use std::sync::Arc;

/// Bytes a [`PathList`] can index in place, for as long as it lives: a mapped file, say.
pub type SharedBytes = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// The listing: owned, or shared (valid UTF-8, checked when listed).
#[derive(Clone)]
enum Text {
    Owned(String),
    Shared(SharedBytes),
}

impl Default for Text {
    fn default() -> Text {
        Text::Owned(String::new())
    }
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Text::Owned(s) => write!(f, "Owned({} bytes)", s.len()),
            Text::Shared(b) => write!(f, "Shared({} bytes)", (**b).as_ref().len()),
        }
    }
}

impl Text {
    #[inline]
    fn bytes(&self) -> &[u8] {
        match self {
            Text::Owned(s) => s.as_bytes(),
            Text::Shared(b) => (**b).as_ref(),
        }
    }

    /// The text of a span: whole lines of valid UTF-8 (a line ends at an ASCII byte).
    fn str(&self, start: usize, end: usize) -> &str {
        match self {
            Text::Owned(s) => &s[start..end],
            Text::Shared(b) => std::str::from_utf8(&(**b).as_ref()[start..end])
                .expect("a shared listing is checked to be UTF-8 when listed"),
        }
    }
}

/// One path's place in the text buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathSpan {
    /// Byte range of the path as given, in the text buffer.
    pub start: u32,
    pub end: u32,
    /// Index into the non-ASCII paths' foldings, or [`ASCII`] for a path folded by lowering
    /// its letters.
    pub folded: u32,
}

/// [`PathSpan::folded`] of an ASCII path.
pub const ASCII: u32 = u32::MAX;

/// A non-ASCII path folded when listed.
#[derive(Debug, Clone, Default)]
struct Folded {
    bytes: Box<[u8]>,
    /// `None` when folding kept every character's length (folded offsets are text offsets).
    unaligned: Option<Unaligned>,
}

/// Where the folded bytes of a path that folding lengthened or shortened came from.
#[derive(Debug, Clone, Default)]
struct Unaligned {
    /// Per folded byte, the byte offset in the path of the character it folds from.
    origin: Box<[u32]>,
    /// The folded bytes with ASCII letters in their original case: what CamelCase humps are
    /// read from, offset for offset with the folded path.
    shape: Box<[u8]>,
}

impl Unaligned {
    fn of(path: &str) -> Unaligned {
        let mut origin = Vec::with_capacity(path.len() + 4);
        let mut shape = Vec::with_capacity(path.len() + 4);
        let mut buf = [0u8; 4];
        for (at, c) in path.char_indices() {
            if c.is_ascii() {
                origin.push(at as u32);
                shape.push(c as u8);
                continue;
            }
            fold_char(c, |f| {
                for &b in f.encode_utf8(&mut buf).as_bytes() {
                    origin.push(at as u32);
                    shape.push(b);
                }
            });
        }
        Unaligned {
            origin: origin.into(),
            shape: shape.into(),
        }
    }
}

impl Folded {
    fn of(path: &str) -> Folded {
        let mut bytes = Vec::with_capacity(path.len() + 4);
        let mut uneven = false;
        fold_bytes_with(path, &mut bytes, |_| uneven = true);
        Folded {
            bytes: bytes.into(),
            unaligned: uneven.then(|| Unaligned::of(path)),
        }
    }
}

/// One path as a query sees it: its folded bytes, their original-case shape (offset for
/// offset), the offset of its file name (after the last `/`) in the folded bytes, and its
/// depth (the number of `/`).
#[derive(Debug, Clone, Copy)]
pub struct PathView<'a> {
    pub folded: &'a [u8],
    pub shape: &'a [u8],
    pub name: usize,
    pub depth: u32,
}

/// Paths indexed once for `find path`: no allocation per path at query time.
#[derive(Debug, Clone, Default)]
pub struct PathList {
    source: String,
    text: Text,
    spans: Vec<PathSpan>,
    /// Which characters occur in each path ([`bag_bit`]): a query whose bag is not a subset
    /// (give or take one character for typos) cannot match. Kept, so a list searched again
    /// (a tree's) does not read every path for it again.
    bags: Vec<u64>,
    /// The foldings of the non-ASCII paths ([`PathSpan::folded`]).
    folds: Vec<Folded>,
}

/// The bit of a folded byte in a character bag: letters and digits have their own bits,
/// the separators `/ _ - .` theirs, other bytes share bits.
#[inline]
pub fn bag_bit(b: u8) -> u64 {
    BAG_BITS[b as usize]
}

const fn bag_bit_of(b: u8) -> u64 {
    let bit = match b {
        b'a'..=b'z' => b - b'a',
        b'0'..=b'9' => 26 + (b - b'0'),
        b'_' => 36,
        b'-' => 37,
        b'.' => 38,
        b'/' => 39,
        b' ' => 40,
        0x80..=0xff => 41 + (b & 15),
        _ => 57 + (b % 7),
    };
    1u64 << bit
}

/// [`bag_bit`] for every byte: one load per byte.
static BAG_BITS: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = bag_bit_of(b as u8);
        b += 1;
    }
    table
};

/// [`bag_bit`] of every byte lowered: the bag of an ASCII path read straight off its text.
static LOWER_BAG_BITS: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = bag_bit_of((b as u8).to_ascii_lowercase());
        b += 1;
    }
    table
};

/// The character bag of folded bytes.
pub fn bag_of(bytes: &[u8]) -> u64 {
    bag_with(&BAG_BITS, bytes)
}

/// The bag of `bytes` through `table`, four bytes at a time (independent ORs).
#[inline]
pub(crate) fn bag_with(table: &[u64; 256], bytes: &[u8]) -> u64 {
    let mut acc = [0u64; 4];
    let mut quads = bytes.chunks_exact(4);
    for q in &mut quads {
        acc[0] |= table[q[0] as usize];
        acc[1] |= table[q[1] as usize];
        acc[2] |= table[q[2] as usize];
        acc[3] |= table[q[3] as usize];
    }
    let tail = quads
        .remainder()
        .iter()
        .fold(0, |a, &b| a | table[b as usize]);
    acc[0] | acc[1] | acc[2] | acc[3] | tail
}

/// The number of `/` in a path (short: a plain count beats a search).
#[inline]
pub fn depth_of(bytes: &[u8]) -> u32 {
    bytes.iter().filter(|&&b| b == b'/').count() as u32
}

/// Bytes of listing a worker indexes at a time, at least.
const PIECE: usize = 1 << 18;

/// `bytes` cut into pieces for the workers, each but the last ending just after a newline
/// (the path index's and a listing's scan alike).
pub(crate) fn pieces(bytes: &[u8]) -> Vec<(usize, usize)> {
    let count = (bytes.len() / PIECE).clamp(1, 4 * rayon::current_num_threads().max(1));
    let mut out = Vec::with_capacity(count);
    let mut start = 0;
    for k in 1..count {
        let at = (bytes.len() * k / count).max(start);
        match memchr::memchr(b'\n', &bytes[at..]) {
            Some(i) => {
                out.push((start, at + i + 1));
                start = at + i + 1;
            }
            None => break,
        }
    }
    out.push((start, bytes.len()));
    out
}

/// The spans and bags of the lines of `bytes[start..end]` (whole lines), and the foldings of
/// its non-ASCII ones (numbered from 0).
fn index_lines(bytes: &[u8], start: usize, end: usize, ascii: bool) -> Piece {
    // a guess (real listings run 40 to 100 bytes a line): growing is cheaper than a pass
    let mut spans = Vec::with_capacity((end - start) / 64 + 1);
    let mut bags = Vec::with_capacity((end - start) / 64 + 1);
    let mut folds = Vec::new();
    let mut from = start;
    let ends = memchr::memchr_iter(b'\n', &bytes[start..end])
        .map(|i| start + i)
        .chain((end == bytes.len()).then_some(end));
    for line in ends {
        let strip = usize::from(line > from && bytes[line - 1] == b'\r');
        let line_end = line - strip;
        if line_end > from {
            let line_bytes = &bytes[from..line_end];
            let folded = if ascii || line_bytes.is_ascii() {
                bags.push(bag_with(&LOWER_BAG_BITS, line_bytes));
                ASCII
            } else {
                let f = Folded::of(&String::from_utf8_lossy(line_bytes));
                bags.push(bag_of(&f.bytes));
                folds.push(f);
                (folds.len() - 1) as u32
            };
            spans.push(PathSpan {
                start: from as u32,
                end: line_end as u32,
                folded,
            });
        }
        from = line + 1;
    }
    (spans, bags, folds)
}

/// What [`index_lines`] makes of one piece: spans, bags, foldings.
type Piece = (Vec<PathSpan>, Vec<u64>, Vec<Folded>);

/// Folds text (see [`PathList`]): the same transform for paths and queries.
pub fn fold_bytes(text: &str, out: &mut Vec<u8>) {
    fold_bytes_with(text, out, |_| {});
}

/// Like [`fold_bytes`], calling `uneven` with the byte offset in `text` of every character
/// that does not fold to one character of its own length (`ß` to `ss`, `K` (Kelvin) to `k`):
/// there, folded bytes no longer stand byte for byte for the text's.
pub fn fold_bytes_with(text: &str, out: &mut Vec<u8>, mut uneven: impl FnMut(usize)) {
    let bytes = text.as_bytes();
    let mut at = 0;
    let mut buf = [0u8; 4];
    while at < bytes.len() {
        // ASCII runs in bulk; the rare non-ASCII character one at a time
        let run = bytes[at..]
            .iter()
            .position(|&b| b >= 0x80)
            .unwrap_or(bytes.len() - at);
        out.extend(bytes[at..at + run].iter().map(|b| b.to_ascii_lowercase()));
        at += run;
        if let Some(c) = text[at..].chars().next() {
            let (before, mut chars) = (out.len(), 0);
            fold_char(c, |f| {
                chars += 1;
                out.extend_from_slice(f.encode_utf8(&mut buf).as_bytes());
            });
            if chars != 1 || out.len() - before != c.len_utf8() {
                uneven(at);
            }
            at += c.len_utf8();
        }
    }
}

/// The largest path list `find path` indexes: spans are 32-bit offsets into the listing.
pub const MAX_LISTING_BYTES: u64 = u32::MAX as u64;

/// A path list of `len` bytes from `source`, refused past [`MAX_LISTING_BYTES`] with what
/// to do instead (an offset past it would wrap and name another path).
pub fn check_listing_size(source: &Path, len: u64) -> Result<()> {
    if len <= MAX_LISTING_BYTES {
        return Ok(());
    }
    Err(EngineError::Content {
        path: source.to_path_buf(),
        message: format!(
            "the path list is {len} bytes; `find path` takes lists of up to {MAX_LISTING_BYTES} \
             bytes (4 GiB): split it (e.g. by top directory) and ask each part"
        ),
    })
}

impl PathList {
    /// Indexes paths given one per line (a `find` or `git ls-files` listing); blank lines
    /// and a trailing `\r` are dropped, `./` prefixes kept as given.
    pub fn from_text(source: &str, listing: &str) -> PathList {
        PathList::from_listing(source, Text::Owned(listing.to_string()))
    }

    /// Like [`PathList::from_text`], taking raw bytes (invalid UTF-8 shown lossily).
    pub fn from_bytes(source: &str, bytes: Vec<u8>) -> PathList {
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
        PathList::from_listing(source, Text::Owned(text))
    }

    /// Like [`PathList::from_bytes`], indexing bytes kept elsewhere (a mapped file) without
    /// copying them; copied only when they are not UTF-8, to show them lossily.
    pub fn from_shared(source: &str, bytes: SharedBytes) -> PathList {
        let lossy = || String::from_utf8_lossy((*bytes).as_ref()).into_owned();
        match PathList::index(source, Text::Shared(bytes.clone()), true) {
            Some(list) => list,
            None => PathList::from_listing(source, Text::Owned(lossy())),
        }
    }

    /// Indexes a listing in place: the listing itself becomes the text buffer (newlines
    /// stay between spans); one pass finds the lines, in pieces in parallel. Only non-ASCII
    /// lines are folded here (and only looked for in a piece that is not all ASCII).
    fn from_listing(source: &str, text: Text) -> PathList {
        PathList::index(source, text, false).expect("a listing not checked cannot fail")
    }

    /// [`PathList::from_listing`]; with `check`, also whether the text is UTF-8 (`None`
    /// when it is not), piece by piece: a piece ends at a newline, so at a character
    /// boundary, and an all-ASCII piece needs no more checking.
    fn index(source: &str, text: Text, check: bool) -> Option<PathList> {
        let bytes = text.bytes();
        let parts = pieces(bytes)
            .into_par_iter()
            .map(|(start, end)| {
                let piece = &bytes[start..end];
                let ascii = piece.is_ascii();
                if check && !ascii && std::str::from_utf8(piece).is_err() {
                    return None;
                }
                Some(index_lines(bytes, start, end, ascii))
            })
            .collect::<Option<Vec<_>>>()?;
        let count = parts.iter().map(|(s, _, _)| s.len()).sum();
        let (mut spans, mut bags) = (Vec::with_capacity(count), Vec::with_capacity(count));
        let mut folds = Vec::new();
        for (part, part_bags, part_folds) in parts {
            bags.extend(part_bags);
            let offset = folds.len() as u32;
            spans.extend(part.into_iter().map(|mut s| {
                if s.folded != ASCII {
                    s.folded += offset;
                }
                s
            }));
            folds.extend(part_folds);
        }
        Some(PathList {
            source: source.to_string(),
            text,
            spans,
            bags,
            folds,
        })
    }

    /// Reads a path listing from a file.
    pub fn load(path: &Path) -> Result<PathList> {
        let cannot_read = |e: std::io::Error| EngineError::File {
            path: path.to_path_buf(),
            message: format!("cannot read path list: {e}"),
            hint: Some("pass a file with one path per line, or `-` for stdin".into()),
        };
        check_listing_size(path, std::fs::metadata(path).map_err(cannot_read)?.len())?;
        let bytes = std::fs::read(path).map_err(cannot_read)?;
        Ok(PathList::from_bytes(&path.display().to_string(), bytes))
    }

    pub fn with_capacity(source: &str, bytes: usize, paths: usize) -> PathList {
        PathList {
            source: source.to_string(),
            text: Text::Owned(String::with_capacity(bytes)),
            spans: Vec::with_capacity(paths),
            bags: Vec::with_capacity(paths),
            folds: Vec::new(),
        }
    }

    /// Appends one path.
    pub fn push(&mut self, path: &str) {
        let text = match &mut self.text {
            Text::Owned(text) => text,
            Text::Shared(bytes) => {
                let owned = std::str::from_utf8((**bytes).as_ref())
                    .expect("a shared listing is checked to be UTF-8 when listed")
                    .to_string();
                self.text = Text::Owned(owned);
                let Text::Owned(text) = &mut self.text else {
                    unreachable!()
                };
                text
            }
        };
        let start = text.len();
        text.push_str(path);
        let end = text.len();
        let folded = if path.is_ascii() {
            self.bags.push(bag_with(&LOWER_BAG_BITS, path.as_bytes()));
            ASCII
        } else {
            let f = Folded::of(path);
            self.bags.push(bag_of(&f.bytes));
            self.folds.push(f);
            (self.folds.len() - 1) as u32
        };
        self.spans.push(PathSpan {
            start: start as u32,
            end: end as u32,
            folded,
        });
    }

    /// Where the list came from (a file name, `-`, or a root).
    pub fn source(&self) -> &str {
        &self.source
    }

    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The path at `index` as given.
    pub fn path(&self, index: usize) -> &str {
        let s = self.spans[index];
        self.text.str(s.start as usize, s.end as usize)
    }

    /// The bytes of [`PathList::path`].
    #[inline]
    pub fn path_bytes(&self, index: usize) -> &[u8] {
        let s = self.spans[index];
        &self.text.bytes()[s.start as usize..s.end as usize]
    }

    /// The folded bytes of the path at `index` (see [`PathList::view`] for the scan's way,
    /// which allocates nothing).
    pub fn folded(&self, index: usize) -> Cow<'_, [u8]> {
        match self.spans[index].folded {
            ASCII => Cow::Owned(self.path_bytes(index).to_ascii_lowercase()),
            f => Cow::Borrowed(&self.folds[f as usize].bytes),
        }
    }

    /// Bytes offset for offset with [`PathList::folded`], ASCII letters in their original
    /// case: where CamelCase humps are read.
    pub fn shape(&self, index: usize) -> &[u8] {
        match self.spans[index].folded {
            ASCII => self.path_bytes(index),
            f => self.folds[f as usize]
                .unaligned
                .as_ref()
                .map_or(self.path_bytes(index), |u| &u.shape),
        }
    }

    /// The path at `index` as a query sees it ([`PathView`]); an ASCII path is folded into
    /// `buf` (the scan's hot path: one buffer per worker, no allocation per path).
    #[inline]
    pub fn view<'a>(&'a self, index: usize, buf: &'a mut Vec<u8>) -> PathView<'a> {
        let s = self.spans[index];
        let text = &self.text.bytes()[s.start as usize..s.end as usize];
        let (folded, shape): (&[u8], &[u8]) = match s.folded {
            ASCII => {
                buf.clear();
                buf.extend(text.iter().map(u8::to_ascii_lowercase));
                let buf: &'a Vec<u8> = buf;
                (buf, text)
            }
            f => {
                let f = &self.folds[f as usize];
                (&f.bytes, f.unaligned.as_ref().map_or(text, |u| &u.shape))
            }
        };
        PathView {
            folded,
            shape,
            name: memchr::memrchr(b'/', folded).map_or(0, |i| i + 1),
            depth: depth_of(folded),
        }
    }

    /// The bytes a scan reads of the path at `index`, offset for offset with its folding once
    /// ASCII letters are lowered: the text of an ASCII path, the folding of any other.
    #[inline]
    pub fn scan_bytes(&self, index: usize) -> &[u8] {
        let s = self.spans[index];
        match s.folded {
            ASCII => &self.text.bytes()[s.start as usize..s.end as usize],
            f => &self.folds[f as usize].bytes,
        }
    }

    /// [`PathList::bag`] and [`PathList::scan_bytes`] of one path (the scan's hot path).
    #[inline]
    pub fn scan(&self, index: usize) -> (u64, &[u8]) {
        (self.bags[index], self.scan_bytes(index))
    }

    /// The byte offset in [`PathList::path`] of the character that folded byte `at` of
    /// [`PathList::folded`] comes from.
    pub fn origin(&self, index: usize, at: usize) -> usize {
        match self.spans[index].folded {
            ASCII => at,
            f => self.folds[f as usize]
                .unaligned
                .as_ref()
                .map_or(at, |u| u.origin[at] as usize),
        }
    }

    pub fn span(&self, index: usize) -> PathSpan {
        self.spans[index]
    }

    /// Which characters occur in the folded path ([`bag_bit`]); an ASCII path's was read off
    /// its text when listed.
    #[inline]
    pub fn bag(&self, index: usize) -> u64 {
        self.bags[index]
    }

    /// Bytes of printing the whole list, one path per line.
    pub fn listing_bytes(&self) -> usize {
        self.spans
            .iter()
            .map(|s| (s.end - s.start) as usize + 1)
            .sum()
    }
}

#[cfg(test)]
mod tests;
