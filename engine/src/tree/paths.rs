//! A list of paths packed for fast fuzzy matching: one buffer of text, one of folded bytes,
//! and per path its spans, the start of its file name, its depth and a character bag.
//!
//! Folding is full case folding (`ß` ~ `ss`, `ﬁ` ~ `fi`, final sigma), so a folded path can
//! be longer or shorter than the path as given. Such paths (rare: only some non-ASCII
//! characters change length) carry a map from each folded byte back to the character it
//! came from; every other path, ASCII ones included, shares offsets with its text.

use crate::text::fold::fold_char;

use crate::error::{EngineError, Result};
use std::path::Path;

/// One path's place in the packed buffers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathSpan {
    /// Byte range of the path as given, in the text buffer.
    pub start: u32,
    pub end: u32,
    /// Byte range of the folded path, in the folded buffer.
    pub folded_start: u32,
    pub folded_end: u32,
    /// Offset of the file name (after the last `/`) in the folded path.
    pub name: u32,
    /// Number of `/` in the path.
    pub depth: u32,
    /// Index into the unaligned paths' maps, or [`ALIGNED`] when folding kept every
    /// character's length (folded offsets are text offsets).
    pub unaligned: u32,
}

/// [`PathSpan::unaligned`] of a path whose folded bytes line up with its text.
pub const ALIGNED: u32 = u32::MAX;

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

/// Paths indexed once for `find path`: no allocation per path at query time.
#[derive(Debug, Clone, Default)]
pub struct PathList {
    source: String,
    text: String,
    /// `text` case-folded: ASCII lowered, any other character fully folded.
    folded: Vec<u8>,
    spans: Vec<PathSpan>,
    /// Maps of the paths whose folding changed their length ([`PathSpan::unaligned`]).
    unaligned: Vec<Unaligned>,
    /// Which characters occur in each path ([`bag_bit`]): a query whose bag is not a subset
    /// (give or take one character for typos) cannot match.
    bags: Vec<u64>,
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

/// [`bag_bit`] for every byte: one load per byte when indexing 100k paths.
static BAG_BITS: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = bag_bit_of(b as u8);
        b += 1;
    }
    table
};

/// The character bag of folded bytes.
pub fn bag_of(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0, |acc, &b| acc | bag_bit(b))
}

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

impl PathList {
    /// Indexes paths given one per line (a `find` or `git ls-files` listing); blank lines
    /// and a trailing `\r` are dropped, `./` prefixes kept as given.
    pub fn from_text(source: &str, listing: &str) -> PathList {
        PathList::from_listing(source, listing.to_string())
    }

    /// Like [`PathList::from_text`], taking raw bytes (invalid UTF-8 shown lossily).
    pub fn from_bytes(source: &str, bytes: Vec<u8>) -> PathList {
        match String::from_utf8(bytes) {
            Ok(text) => PathList::from_listing(source, text),
            Err(e) => {
                PathList::from_listing(source, String::from_utf8_lossy(e.as_bytes()).into_owned())
            }
        }
    }

    /// Indexes a listing in place: the listing itself becomes the text buffer (newlines
    /// stay between spans), folded in one pass; one more pass per path computes its bag,
    /// depth and file-name offset.
    fn from_listing(source: &str, text: String) -> PathList {
        let mut folded = Vec::with_capacity(text.len());
        let mut uneven: Vec<usize> = Vec::new();
        fold_bytes_with(&text, &mut folded, |at| uneven.push(at));
        let estimate = memchr::memchr_iter(b'\n', &folded).count() + 1;
        let mut spans = Vec::with_capacity(estimate);
        let mut bags = Vec::with_capacity(estimate);
        let mut unaligned = Vec::new();
        let mut uneven = uneven.into_iter().peekable();
        // folding never makes or removes a newline: the n-th line of both buffers is a path
        let text_ends =
            memchr::memchr_iter(b'\n', text.as_bytes()).chain(std::iter::once(text.len()));
        let folded_ends = memchr::memchr_iter(b'\n', &folded).chain(std::iter::once(folded.len()));
        let (mut start, mut fstart) = (0, 0);
        for (end, fend) in text_ends.zip(folded_ends) {
            let strip = usize::from(end > start && text.as_bytes()[end - 1] == b'\r');
            let (line_end, fline_end) = (end - strip, fend - strip);
            while uneven.next_if(|&u| u < start).is_some() {}
            if line_end > start {
                let (mut bag, mut depth, mut name) = (0u64, 0u32, 0usize);
                for (k, &b) in folded[fstart..fline_end].iter().enumerate() {
                    bag |= BAG_BITS[b as usize];
                    if b == b'/' {
                        depth += 1;
                        name = k + 1;
                    }
                }
                let index = if uneven.peek().is_some_and(|&u| u < line_end) {
                    unaligned.push(Unaligned::of(&text[start..line_end]));
                    (unaligned.len() - 1) as u32
                } else {
                    ALIGNED
                };
                bags.push(bag);
                spans.push(PathSpan {
                    start: start as u32,
                    end: line_end as u32,
                    folded_start: fstart as u32,
                    folded_end: fline_end as u32,
                    name: name as u32,
                    depth,
                    unaligned: index,
                });
            }
            start = end + 1;
            fstart = fend + 1;
        }
        PathList {
            source: source.to_string(),
            text,
            folded,
            spans,
            unaligned,
            bags,
        }
    }

    /// Reads a path listing from a file.
    pub fn load(path: &Path) -> Result<PathList> {
        let bytes = std::fs::read(path).map_err(|e| EngineError::File {
            path: path.to_path_buf(),
            message: format!("cannot read path list: {e}"),
            hint: Some("pass a file with one path per line, or `-` for stdin".into()),
        })?;
        Ok(PathList::from_bytes(&path.display().to_string(), bytes))
    }

    pub fn with_capacity(source: &str, bytes: usize, paths: usize) -> PathList {
        PathList {
            source: source.to_string(),
            text: String::with_capacity(bytes),
            folded: Vec::with_capacity(bytes),
            spans: Vec::with_capacity(paths),
            unaligned: Vec::new(),
            bags: Vec::with_capacity(paths),
        }
    }

    /// Appends one path.
    pub fn push(&mut self, path: &str) {
        let start = self.text.len();
        self.text.push_str(path);
        let fold_start = self.folded.len();
        let mut uneven = false;
        fold_bytes_with(path, &mut self.folded, |_| uneven = true);
        let folded = &self.folded[fold_start..];
        let name = memchr::memrchr(b'/', folded).map_or(0, |i| i + 1);
        let depth = memchr::memchr_iter(b'/', folded).count();
        self.bags.push(bag_of(folded));
        let index = if uneven {
            self.unaligned.push(Unaligned::of(path));
            (self.unaligned.len() - 1) as u32
        } else {
            ALIGNED
        };
        self.spans.push(PathSpan {
            start: start as u32,
            end: self.text.len() as u32,
            folded_start: fold_start as u32,
            folded_end: self.folded.len() as u32,
            name: name as u32,
            depth: depth as u32,
            unaligned: index,
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
        &self.text[s.start as usize..s.end as usize]
    }

    /// The folded bytes of the path at `index`.
    #[inline]
    pub fn folded(&self, index: usize) -> &[u8] {
        let s = self.spans[index];
        &self.folded[s.folded_start as usize..s.folded_end as usize]
    }

    /// Bytes offset for offset with [`PathList::folded`], ASCII letters in their original
    /// case: where CamelCase humps are read.
    #[inline]
    pub fn shape(&self, index: usize) -> &[u8] {
        let s = self.spans[index];
        match s.unaligned {
            ALIGNED => &self.text.as_bytes()[s.start as usize..s.end as usize],
            u => &self.unaligned[u as usize].shape,
        }
    }

    /// [`PathList::folded`], [`PathList::shape`] and [`PathList::span`] of one path, from one
    /// read of its span (the scan's hot path).
    #[inline]
    pub fn view(&self, index: usize) -> (&[u8], &[u8], PathSpan) {
        let s = self.spans[index];
        let folded = &self.folded[s.folded_start as usize..s.folded_end as usize];
        let shape = match s.unaligned {
            ALIGNED => &self.text.as_bytes()[s.start as usize..s.end as usize],
            u => &self.unaligned[u as usize].shape[..],
        };
        (folded, shape, s)
    }

    /// The byte offset in [`PathList::path`] of the character that folded byte `at` of
    /// [`PathList::folded`] comes from.
    pub fn origin(&self, index: usize, at: usize) -> usize {
        match self.spans[index].unaligned {
            ALIGNED => at,
            u => self.unaligned[u as usize].origin[at] as usize,
        }
    }

    pub fn span(&self, index: usize) -> PathSpan {
        self.spans[index]
    }

    pub fn bag(&self, index: usize) -> u64 {
        self.bags[index]
    }

    pub fn bags(&self) -> &[u64] {
        &self.bags
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
mod tests {
    use super::*;

    #[test]
    fn spans_names_and_depths() {
        let list = PathList::from_text("t", "src/Auth_Middleware.py\r\n\nREADME.md\n");
        assert_eq!(list.len(), 2);
        assert_eq!(list.path(0), "src/Auth_Middleware.py");
        assert_eq!(list.folded(0), b"src/auth_middleware.py");
        assert_eq!(list.span(0).name, 4);
        assert_eq!(list.span(0).depth, 1);
        assert_eq!(list.span(1).depth, 0);
        assert_eq!(list.listing_bytes(), 22 + 9 + 2);
    }

    #[test]
    fn listing_and_pushed_paths_agree() {
        let text = "a/B_c.rs\r\n\nx\nd/e/f.txt";
        let listed = PathList::from_text("t", text);
        let mut pushed = PathList::with_capacity("t", 0, 0);
        for p in ["a/B_c.rs", "x", "d/e/f.txt"] {
            pushed.push(p);
        }
        assert_eq!(listed.len(), 3);
        for i in 0..3 {
            assert_eq!(listed.path(i), pushed.path(i));
            assert_eq!(listed.folded(i), pushed.folded(i));
            assert_eq!(listed.bag(i), pushed.bag(i));
            assert_eq!(listed.span(i).name, pushed.span(i).name);
            assert_eq!(listed.span(i).depth, pushed.span(i).depth);
        }
        assert_eq!(listed.listing_bytes(), pushed.listing_bytes());
    }

    #[test]
    fn bags_are_subsets() {
        let q = bag_of(b"auth");
        let list = PathList::from_text("t", "src/auth.py\nsrc/main.py");
        assert_eq!(list.bag(0) & q, q);
        assert_ne!(list.bag(1) & q, q);
    }

    #[test]
    fn folding_is_full_case_folding() {
        let mut out = Vec::new();
        fold_bytes("Straße/ÄRGER/ﬁle", &mut out);
        assert_eq!(String::from_utf8(out).unwrap(), "strasse/arger/file");
    }

    #[test]
    fn unaligned_paths_map_folded_bytes_back() {
        let text = "a/ΩMEGA.md\nStraße/X.txt\r\nb/ﬁ.rs\nÄrger.md";
        let listed = PathList::from_text("t", text);
        let mut pushed = PathList::with_capacity("t", 0, 0);
        for p in ["a/ΩMEGA.md", "Straße/X.txt", "b/ﬁ.rs", "Ärger.md"] {
            pushed.push(p);
        }
        for list in [&listed, &pushed] {
            assert_eq!(list.len(), 4);
            // `Ω` folds to `ω`, one character of the same length: aligned
            assert_eq!(list.span(0).unaligned, ALIGNED);
            assert_eq!(list.folded(0), "a/ωmega.md".as_bytes());
            assert_eq!(list.shape(0), "a/ΩMEGA.md".as_bytes());
            assert_eq!(list.path(1), "Straße/X.txt");
            assert_eq!(list.folded(1), b"strasse/x.txt");
            assert_eq!(list.shape(1), b"Strasse/X.txt");
            assert_eq!(list.span(1).name, 8);
            // `ß` folds to two characters: both `s` come from it, at byte 4
            assert_ne!(list.span(1).unaligned, ALIGNED);
            assert_eq!((list.origin(1, 4), list.origin(1, 5)), (4, 4));
            assert_eq!(list.origin(1, 6), 6);
            assert_eq!(list.folded(2), b"b/fi.rs");
            assert_eq!(list.origin(2, 3), 2);
            assert_eq!(list.origin(2, 4), 5);
            // `Ä` loses its diacritic: one byte standing for two
            assert_eq!(list.folded(3), b"arger.md");
            assert_eq!((list.origin(3, 0), list.origin(3, 1)), (0, 2));
        }
    }
}
