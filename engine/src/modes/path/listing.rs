//! A path listing read for one query ([`Listing`]), matched where it lies: one pass over its
//! lines, in pieces in parallel, reads each ASCII line's bag and tests it as it is found, so
//! no span or bag is kept for a line that does not match (most of them, for most queries).
//! A match is known by the offset of its line. The rare line with other characters is
//! indexed after the pass, in a [`PathList`] of such lines alone, and matched there: its
//! folding is that list's.
//!
//! Lines are what [`PathList::from_shared`] indexes: blank lines and a trailing `\r` are
//! dropped, a line that is not UTF-8 is shown lossily. So the answer is the one an indexed
//! list of the same listing gives (`modes/path/tests.rs` compares the two).

use super::scorer::Scorer;
use super::scratch::Hit;
use super::source::PathSource;
use crate::tree::paths::{bag_bit, bag_with, depth_of, pieces, PathList, PathView, SharedBytes};
use rayon::prelude::*;
use std::sync::Arc;

/// Ids at and above this are lines of the non-ASCII list ([`ListingScan::others`]); below
/// it, the offset of an ASCII line in the listing.
const OTHERS: usize = 1 << 31;

/// One path per line, as read (`--paths-from -`), not yet indexed.
#[derive(Clone)]
pub struct Listing {
    source: String,
    bytes: SharedBytes,
}

impl std::fmt::Debug for Listing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Listing({}, {} bytes)", self.source, self.bytes().len())
    }
}

impl Listing {
    /// A listing of the bytes `bytes` (a mapped file, say), from `source` (a file name or
    /// `-`).
    pub fn new(source: &str, bytes: SharedBytes) -> Listing {
        Listing {
            source: source.to_string(),
            bytes,
        }
    }

    /// [`Listing::new`] of bytes read into memory.
    pub fn from_bytes(source: &str, bytes: Vec<u8>) -> Listing {
        Listing::new(source, Arc::new(bytes))
    }

    /// Where the listing came from.
    pub fn source(&self) -> &str {
        &self.source
    }

    #[inline]
    fn bytes(&self) -> &[u8] {
        (*self.bytes).as_ref()
    }

    /// The listing indexed: for a listing searched more than once, or too large for a line's
    /// offset to be its id.
    pub fn indexed(&self) -> PathList {
        PathList::from_shared(&self.source, self.bytes.clone())
    }

    /// Whether every line's offset fits below [`OTHERS`], so a scan can name lines by it.
    pub(super) fn scannable(&self) -> bool {
        self.bytes().len() < OTHERS
    }

    /// The number of paths (non-blank lines).
    pub fn len(&self) -> usize {
        let bytes = self.bytes();
        lines(bytes, 0, bytes.len()).count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes of printing every path, one per line ([`PathList::listing_bytes`]): a line that
    /// is not UTF-8 as it is shown.
    pub fn listing_bytes(&self) -> usize {
        let bytes = self.bytes();
        lines(bytes, 0, bytes.len())
            .map(|(s, e)| String::from_utf8_lossy(&bytes[s..e]).len() + 1)
            .sum()
    }
}

/// The non-blank lines of `bytes[start..end]` (whole lines), as `(start, end)` without the
/// line break or a `\r` before it.
fn lines(bytes: &[u8], start: usize, end: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut from = start;
    memchr::memchr_iter(b'\n', &bytes[start..end])
        .map(move |i| start + i)
        .chain((end == bytes.len()).then_some(end))
        .filter_map(move |line| {
            let begin = from;
            from = line + 1;
            let strip = usize::from(line > begin && bytes[line - 1] == b'\r');
            (line - strip > begin).then_some((begin, line - strip))
        })
}

/// Per byte, the bag bit of the byte lowered, kept only where the query's bag has it: a
/// line's bag through this table lacks what the full bag lacks of the query's.
fn lowered_bag_table(query_bag: u64) -> [u64; 256] {
    let mut table = [0u64; 256];
    for (b, bit) in table.iter_mut().enumerate() {
        *bit = bag_bit((b as u8).to_ascii_lowercase()) & query_bag;
    }
    table
}

/// What the scan of one piece finds: its matches, and its lines that are not all ASCII
/// (`(start, end)`), left for [`ListingScan::others`].
type PieceScan = (Vec<Hit>, Vec<(usize, usize)>);

/// A listing as one search reads it: ASCII lines where they lie, the others indexed.
pub(super) struct ListingScan<'a> {
    bytes: &'a [u8],
    /// The lines that are not all ASCII, in listing order (id [`OTHERS`] + index).
    others: PathList,
}

impl ListingScan<'_> {
    /// The ASCII line at offset `id`.
    #[inline]
    fn line(&self, id: usize) -> &[u8] {
        let rest = &self.bytes[id..];
        let mut end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        if end > 0 && rest[end - 1] == b'\r' {
            end -= 1;
        }
        &rest[..end]
    }
}

impl PathSource for ListingScan<'_> {
    #[inline]
    fn given(&self, id: usize) -> &str {
        if id >= OTHERS {
            return self.others.path(id - OTHERS);
        }
        std::str::from_utf8(self.line(id)).expect("an ASCII line is UTF-8")
    }
    #[inline]
    fn path_bytes(&self, id: usize) -> &[u8] {
        if id >= OTHERS {
            return self.others.path_bytes(id - OTHERS);
        }
        self.line(id)
    }
    #[inline]
    fn scan_bytes(&self, id: usize) -> &[u8] {
        if id >= OTHERS {
            return self.others.scan_bytes(id - OTHERS);
        }
        self.line(id)
    }
    #[inline]
    fn is_ascii(&self, id: usize) -> bool {
        if id >= OTHERS {
            return PathSource::is_ascii(&self.others, id - OTHERS);
        }
        true
    }
    #[inline]
    fn shape(&self, id: usize) -> &[u8] {
        if id >= OTHERS {
            return self.others.shape(id - OTHERS);
        }
        self.line(id)
    }
    #[inline]
    fn view<'a>(&'a self, id: usize, buf: &'a mut Vec<u8>) -> PathView<'a> {
        if id >= OTHERS {
            return self.others.view(id - OTHERS, buf);
        }
        // as PathList::view folds an ASCII path: its letters lowered into `buf`
        let text = self.line(id);
        buf.clear();
        buf.extend(text.iter().map(u8::to_ascii_lowercase));
        let folded: &'a [u8] = buf;
        PathView {
            folded,
            shape: text,
            name: memchr::memrchr(b'/', folded).map_or(0, |i| i + 1),
            depth: depth_of(folded),
        }
    }
    #[inline]
    fn origin(&self, id: usize, at: usize) -> usize {
        if id >= OTHERS {
            return self.others.origin(id - OTHERS, at);
        }
        at
    }
}

/// Which lines of `listing` match (`scorer.classify` of each), and the listing as the rest
/// of the search reads them. A listing must be [`Listing::scannable`].
pub(super) fn scan_listing<'a>(
    listing: &'a Listing,
    scorer: &Scorer,
) -> (ListingScan<'a>, Vec<Hit>) {
    let bytes = listing.bytes();
    let table = lowered_bag_table(scorer.bag);
    let mut scan = ListingScan {
        bytes,
        others: PathList::default(),
    };
    let parts: Vec<PieceScan> = pieces(bytes)
        .into_par_iter()
        .map(|(start, end)| {
            let (mut hits, mut others) = (Vec::new(), Vec::new());
            let ascii = bytes[start..end].is_ascii();
            // the lines [`lines`] finds, in a plain loop: this one is hot
            let mut from = start;
            while from < end {
                let next = memchr::memchr(b'\n', &bytes[from..end]).map_or(end, |i| from + i);
                let to = next - usize::from(next > from && bytes[next - 1] == b'\r');
                let line = &bytes[from..to];
                let ascii_line = ascii || line.is_ascii();
                if !line.is_empty() && !ascii_line {
                    others.push((from, to));
                } else if !line.is_empty() {
                    let bag = bag_with(&table, line);
                    hits.extend(scorer.classify(&scan, from, bag, line));
                }
                from = next + 1;
            }
            (hits, others)
        })
        .collect();
    let mut hits = Vec::with_capacity(parts.iter().map(|(h, _)| h.len()).sum());
    let mut others = Vec::new();
    for (part_hits, part_others) in parts {
        hits.extend(part_hits);
        others.extend(part_others);
    }
    if others.is_empty() {
        return (scan, hits);
    }
    let mut list = PathList::with_capacity(&listing.source, 0, others.len());
    for &(from, to) in &others {
        list.push(&String::from_utf8_lossy(&bytes[from..to]));
    }
    scan.others = list;
    let others = &scan.others;
    hits.extend((0..others.len()).filter_map(|k| {
        let (bag, bytes) = others.scan(k);
        let hit = scorer.classify(others, k, bag, bytes)?;
        Some(Hit {
            index: (OTHERS + k) as u32,
            ..hit
        })
    }));
    (scan, hits)
}
