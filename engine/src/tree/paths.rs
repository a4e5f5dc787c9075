//! A list of paths packed for fast fuzzy matching: one buffer of text, one of folded bytes,
//! and per path its span, the start of its file name, its depth and a character bag.

use crate::error::{EngineError, Result};
use std::path::Path;

/// One path's place in the packed buffers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathSpan {
    pub start: u32,
    pub end: u32,
    /// Offset of the file name (after the last `/`) from `start`.
    pub name: u32,
    /// Number of `/` in the path.
    pub depth: u32,
}

/// Paths indexed once for `find path`: no allocation per path at query time.
#[derive(Debug, Clone, Default)]
pub struct PathList {
    source: String,
    text: String,
    /// `text` case-folded byte for byte: ASCII lowered, and any other character lowered only
    /// when that keeps its UTF-8 length, so offsets into both buffers agree.
    folded: Vec<u8>,
    spans: Vec<PathSpan>,
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

/// Folds text byte for byte (see [`PathList`]): the same transform for paths and queries.
pub fn fold_bytes(text: &str, out: &mut Vec<u8>) {
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
            let mut lower = c.to_lowercase();
            let l = lower.next().unwrap_or(c);
            let same_len = lower.next().is_none() && l.len_utf8() == c.len_utf8();
            let c2 = if same_len { l } else { c };
            out.extend_from_slice(c2.encode_utf8(&mut buf).as_bytes());
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
        fold_bytes(&text, &mut folded);
        let estimate = memchr::memchr_iter(b'\n', &folded).count() + 1;
        let mut spans = Vec::with_capacity(estimate);
        let mut bags = Vec::with_capacity(estimate);
        let mut start = 0;
        let ends = memchr::memchr_iter(b'\n', &folded).chain(std::iter::once(folded.len()));
        for end in ends {
            if start > end {
                break;
            }
            let line_end = if end > start && folded[end - 1] == b'\r' {
                end - 1
            } else {
                end
            };
            if line_end > start {
                let (mut bag, mut depth, mut name) = (0u64, 0u32, 0usize);
                for (k, &b) in folded[start..line_end].iter().enumerate() {
                    bag |= BAG_BITS[b as usize];
                    if b == b'/' {
                        depth += 1;
                        name = k + 1;
                    }
                }
                bags.push(bag);
                spans.push(PathSpan {
                    start: start as u32,
                    end: line_end as u32,
                    name: name as u32,
                    depth,
                });
            }
            start = end + 1;
        }
        PathList {
            source: source.to_string(),
            text,
            folded,
            spans,
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
            bags: Vec::with_capacity(paths),
        }
    }

    /// Appends one path.
    pub fn push(&mut self, path: &str) {
        let start = self.text.len();
        self.text.push_str(path);
        let fold_start = self.folded.len();
        fold_bytes(path, &mut self.folded);
        debug_assert_eq!(self.folded.len(), self.text.len());
        let folded = &self.folded[fold_start..];
        let name = memchr::memrchr(b'/', folded).map_or(0, |i| i + 1);
        let depth = memchr::memchr_iter(b'/', folded).count();
        self.bags.push(bag_of(folded));
        self.spans.push(PathSpan {
            start: start as u32,
            end: self.text.len() as u32,
            name: name as u32,
            depth: depth as u32,
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
    pub fn folded(&self, index: usize) -> &[u8] {
        let s = self.spans[index];
        &self.folded[s.start as usize..s.end as usize]
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
    fn folding_keeps_offsets() {
        let mut out = Vec::new();
        fold_bytes("Straße/ÄRGER", &mut out);
        assert_eq!(out.len(), "Straße/ÄRGER".len());
        assert_eq!(String::from_utf8(out).unwrap(), "straße/ärger");
    }
}
