//! The ranking statistics of a tree ([`super::bm25f::FieldIndex`]), kept on disk beside the
//! tree index (`trees/<hash>.fields`), so that a question on an unchanged tree reads the
//! lists of its own few terms instead of tokenising every file again.
//!
//! The file: a header (magic, format, a fingerprint of this engine and of the sources that
//! decide the statistics, the key: the tree's stamp from the kept index and the profile
//! rules the statistics depend on, the counts, the four average field lengths, the lengths
//! of the parts, a CRC-32 of the small parts), then each file's four field lengths, the
//! vocabulary (sorted terms, each ended by `\n`), the term table (for each term, where its
//! word and its list start, and a CRC-32 of the term and its list), and the lists: for each
//! posting, the file number as a varint delta and its four frequencies as varints.
//!
//! The lengths are read at open and the vocabulary, the table and each list only where a
//! lookup lands (a binary search of a few dozen small reads), so that memory stays small
//! however large the tree. A file that is short, foreign, from another build or for
//! another tree or profile is not used and is rebuilt; a list that fails its checksum makes
//! the caller rebuild the statistics in memory and remove the file. Written to a temporary
//! name and renamed, as the tree index is.

use super::posting::{Posting, NF};
use crate::encoding::fnv::fnv;
use crate::encoding::varint::{get_varint, put_varint};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

const MAGIC: &[u8; 8] = b"FBFIELDS";
const FORMAT: u32 = 2;
/// magic, format, fingerprint, key, files, terms, 4 averages, 4 part lengths, crc
pub(super) const HEADER_BYTES: usize = 8 + 4 + 8 + 8 + 4 + 4 + NF * 8 + 4 * 8 + 4;
/// One term table entry: vocabulary start (u64), list start (u64), CRC of term and list.
const ENTRY_BYTES: usize = 8 + 8 + 4;

/// This engine's version and sources (`sources_fingerprint.rs`): statistics kept by any
/// other build are counted again.
fn fingerprint() -> u64 {
    fnv(&[
        crate::version::VERSION.as_bytes(),
        &FORMAT.to_le_bytes(),
        &crate::sources_fingerprint::SOURCES_FINGERPRINT.to_le_bytes(),
    ])
}

/// The file of the statistics kept beside the tree index at `index_path`.
pub fn path_beside(index_path: &Path) -> PathBuf {
    index_path.with_extension("fields")
}

/// What the statistics hold, to be written: every term's postings in term order.
pub struct Statistics<'a> {
    pub lengths: &'a [[u32; NF]],
    pub average: [f64; NF],
    /// Sorted by term.
    pub terms: Vec<(&'a str, &'a [Posting])>,
}

/// Writes the statistics for `key` to `path` (temporary name, then rename); why not, if not.
pub fn write(path: &Path, key: u64, stats: &Statistics<'_>) -> Result<(), String> {
    let lengths = length_bytes(stats.lengths);
    let mut vocab = Vec::new();
    let mut table = Vec::with_capacity((stats.terms.len() + 1) * ENTRY_BYTES);
    let mut lists = Vec::new();
    for (term, postings) in &stats.terms {
        let (word_at, list_at) = (vocab.len() as u64, lists.len() as u64);
        vocab.extend_from_slice(term.as_bytes());
        vocab.push(b'\n');
        let mut last = 0u32;
        for p in *postings {
            put_posting(&mut lists, p.file - last, &p.tf);
            last = p.file;
        }
        let mut crc = crc32fast::Hasher::new();
        crc.update(term.as_bytes());
        crc.update(&lists[list_at as usize..]);
        put_entry(&mut table, word_at, list_at, crc.finalize());
    }
    // the sentinel: where the last word and list end
    put_entry(&mut table, vocab.len() as u64, lists.len() as u64, 0);
    let parts = [&lengths, &vocab, &table, &lists].map(|p| p.len() as u64);
    let header = header(key, stats.terms.len(), stats.average, parts, &lengths);

    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let temp = temp_beside(path, "tmp");
    let written = (|| -> std::io::Result<()> {
        let mut out = std::io::BufWriter::new(File::create(&temp)?);
        for part in [&header, &lengths, &vocab, &table, &lists] {
            out.write_all(part)?;
        }
        out.flush()?;
        drop(out);
        std::fs::rename(&temp, path)
    })();
    written.map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        format!("{}: {e}", path.display())
    })
}

/// Each file's four field lengths, as the file lays them out.
pub(super) fn length_bytes(lengths: &[[u32; NF]]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(lengths.len() * NF * 4);
    for len in lengths {
        for v in len {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
    }
    bytes
}

/// One posting of a list: the file as a delta from the list's previous file, then its
/// frequencies.
pub(super) fn put_posting(out: &mut Vec<u8>, delta: u32, tf: &[u16; NF]) {
    put_varint(out, delta);
    for &tf in tf {
        put_varint(out, u32::from(tf));
    }
}

/// One term table entry ([`ENTRY_BYTES`]).
pub(super) fn put_entry(out: &mut Vec<u8>, word_at: u64, list_at: u64, crc: u32) {
    out.extend_from_slice(&word_at.to_le_bytes());
    out.extend_from_slice(&list_at.to_le_bytes());
    out.extend_from_slice(&crc.to_le_bytes());
}

/// The header of statistics for `key` of `terms` terms whose parts (the file lengths
/// `lengths`, vocabulary, table, lists) are `parts` bytes long.
pub(super) fn header(
    key: u64,
    terms: usize,
    average: [f64; NF],
    parts: [u64; 4],
    lengths: &[u8],
) -> Vec<u8> {
    let mut crc = crc32fast::Hasher::new();
    crc.update(lengths);
    header_of(key, terms, average, parts, lengths.len() / (NF * 4), &crc)
}

/// [`header`] for `files` files whose length bytes have the CRC `lengths_crc`: what a
/// writer that streams the lengths to disk (`kept_runs.rs`) computes as they pass.
pub(super) fn header_of(
    key: u64,
    terms: usize,
    average: [f64; NF],
    parts: [u64; 4],
    files: usize,
    lengths_crc: &crc32fast::Hasher,
) -> Vec<u8> {
    let mut header = Vec::with_capacity(HEADER_BYTES);
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&FORMAT.to_le_bytes());
    header.extend_from_slice(&fingerprint().to_le_bytes());
    header.extend_from_slice(&key.to_le_bytes());
    header.extend_from_slice(&(files as u32).to_le_bytes());
    header.extend_from_slice(&(terms as u32).to_le_bytes());
    for a in average {
        header.extend_from_slice(&a.to_bits().to_le_bytes());
    }
    for part in parts {
        header.extend_from_slice(&part.to_le_bytes());
    }
    // the header and the file lengths are read whole at open and checked here; the
    // vocabulary and table are checked entry by entry through the per-term CRC
    let mut crc = crc32fast::Hasher::new();
    crc.update(&header);
    crc.combine(lengths_crc);
    header.extend_from_slice(&crc.finalize().to_le_bytes());
    header
}

/// A temporary file beside `path`, its name this process's and this call's alone, ending
/// in `.{what}`.
pub(super) fn temp_beside(path: &Path, what: &str) -> PathBuf {
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    dir.join(format!(".{name}.{}.{call}.{what}", std::process::id()))
}

/// Statistics opened from disk: the file lengths in memory, the terms read on demand.
#[derive(Debug)]
pub struct Kept {
    /// Each file's field lengths (the caller may take them).
    pub lengths: Vec<[u32; NF]>,
    pub average: [f64; NF],
    files: usize,
    terms: usize,
    /// Offsets of the vocabulary, the table and the lists in the file.
    vocab_at: u64,
    table_at: u64,
    lists_at: u64,
    file: Mutex<File>,
    path: PathBuf,
}

/// A term table entry: where the term's word and list start, and their CRC-32.
#[derive(Debug, Clone, Copy)]
struct Entry {
    word_at: u64,
    list_at: u64,
    crc: u32,
}

/// A list that does not check out: the statistics must be rebuilt.
#[derive(Debug)]
pub struct Damaged;

impl Kept {
    /// Opens the statistics at `path` if they were written for `key` and `files` files by
    /// this build; `None` otherwise (missing, foreign, stale or damaged).
    pub fn open(path: &Path, key: u64, files: usize) -> Option<Kept> {
        Self::open_with(path, key, files, true)
    }

    /// True when [`Kept::open`] would open the statistics at `path`, checked through a
    /// buffer without holding every file's lengths: what `findbench index` asks.
    pub fn is_kept(path: &Path, key: u64, files: usize) -> bool {
        Self::open_with(path, key, files, false).is_some()
    }

    fn open_with(path: &Path, key: u64, files: usize, with_lengths: bool) -> Option<Kept> {
        let mut file = File::open(path).ok()?;
        let len = file.metadata().ok()?.len();
        let mut header = [0u8; HEADER_BYTES];
        file.read_exact(&mut header).ok()?;
        let u64_at =
            |at: usize| u64::from_le_bytes(header[at..at + 8].try_into().unwrap_or([0; 8]));
        let u32_at =
            |at: usize| u32::from_le_bytes(header[at..at + 4].try_into().unwrap_or([0; 4]));
        if &header[..8] != MAGIC || u32_at(8) != FORMAT || u64_at(12) != fingerprint() {
            return None;
        }
        if u64_at(20) != key || u32_at(28) as usize != files {
            return None;
        }
        let terms = u32_at(32) as usize;
        let mut average = [0f64; NF];
        for (i, a) in average.iter_mut().enumerate() {
            *a = f64::from_bits(u64_at(36 + i * 8));
        }
        let parts_at = 36 + NF * 8;
        let parts: Vec<u64> = (0..4).map(|i| u64_at(parts_at + i * 8)).collect();
        let total = parts
            .iter()
            .try_fold(HEADER_BYTES as u64, |a, &b| a.checked_add(b))?;
        if total != len
            || parts[0] != (files * NF * 4) as u64
            || parts[2] != ((terms + 1) * ENTRY_BYTES) as u64
        {
            return None;
        }
        let mut crc = crc32fast::Hasher::new();
        crc.update(&header[..HEADER_BYTES - 4]);
        let raw = match with_lengths {
            true => {
                let mut raw = vec![0u8; parts[0] as usize];
                file.read_exact(&mut raw).ok()?;
                crc.update(&raw);
                raw
            }
            false => {
                let mut part = (&mut file).take(parts[0]);
                let mut buf = vec![0u8; 256 << 10];
                loop {
                    match part.read(&mut buf).ok()? {
                        0 => break,
                        n => crc.update(&buf[..n]),
                    }
                }
                Vec::new()
            }
        };
        if crc.finalize() != u32_at(HEADER_BYTES - 4) {
            return None;
        }
        let lengths = raw
            .chunks_exact(NF * 4)
            .map(|c| {
                let mut len = [0u32; NF];
                for (i, v) in len.iter_mut().enumerate() {
                    *v = u32::from_le_bytes(c[i * 4..i * 4 + 4].try_into().unwrap_or([0; 4]));
                }
                len
            })
            .collect();
        let vocab_at = HEADER_BYTES as u64 + parts[0];
        let table_at = vocab_at + parts[1];
        let lists_at = table_at + parts[2];
        Some(Kept {
            lengths,
            average,
            files,
            terms,
            vocab_at,
            table_at,
            lists_at,
            file: Mutex::new(file),
            path: path.to_path_buf(),
        })
    }

    /// Removes the file (after a list failed its check), so the next call rebuilds it.
    pub fn discard(&self) {
        let _ = std::fs::remove_file(&self.path);
    }

    fn read_at(file: &mut File, at: u64, len: usize) -> Option<Vec<u8>> {
        let mut buf = vec![0u8; len];
        file.seek(SeekFrom::Start(at)).ok()?;
        file.read_exact(&mut buf).ok()?;
        Some(buf)
    }

    /// Table entry `i`.
    fn entry(&self, file: &mut File, i: usize) -> Option<Entry> {
        let raw = Self::read_at(file, self.table_at + (i * ENTRY_BYTES) as u64, ENTRY_BYTES)?;
        let u64_at = |at: usize| u64::from_le_bytes(raw[at..at + 8].try_into().unwrap_or([0; 8]));
        Some(Entry {
            word_at: u64_at(0),
            list_at: u64_at(8),
            crc: u32::from_le_bytes(raw[16..20].try_into().unwrap_or([0; 4])),
        })
    }

    /// Term `i`'s word (without its `\n`), its entry, and where its list ends.
    fn word(&self, file: &mut File, i: usize) -> Option<(Vec<u8>, Entry, u64)> {
        let this = self.entry(file, i)?;
        let next = self.entry(file, i + 1)?;
        let len = next.word_at.checked_sub(this.word_at)?.checked_sub(1)? as usize;
        let word = Self::read_at(file, self.vocab_at + this.word_at, len)?;
        Some((word, this, next.list_at))
    }

    /// The postings of `term`: empty when no file holds it, `Err` when the file does not
    /// check out.
    pub fn postings(&self, term: &str) -> Result<Vec<Posting>, Damaged> {
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let (mut lo, mut hi) = (0usize, self.terms);
        let target = term.as_bytes();
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let (word, entry, list_end) = self.word(&mut file, mid).ok_or(Damaged)?;
            let Entry { list_at, crc, .. } = entry;
            match word.as_slice().cmp(target) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => {
                    let len = list_end.checked_sub(list_at).ok_or(Damaged)? as usize;
                    let list =
                        Self::read_at(&mut file, self.lists_at + list_at, len).ok_or(Damaged)?;
                    let mut check = crc32fast::Hasher::new();
                    check.update(&word);
                    check.update(&list);
                    if check.finalize() != crc {
                        return Err(Damaged);
                    }
                    return self.decode(&list).ok_or(Damaged);
                }
            }
        }
        Ok(Vec::new())
    }

    fn decode(&self, list: &[u8]) -> Option<Vec<Posting>> {
        let mut out = Vec::new();
        let (mut at, mut file) = (0usize, 0u32);
        while at < list.len() {
            file = file.checked_add(get_varint(list, &mut at)?)?;
            if file as usize >= self.files {
                return None;
            }
            let mut tf = [0u16; NF];
            for v in tf.iter_mut() {
                *v = u16::try_from(get_varint(list, &mut at)?).ok()?;
            }
            out.push(Posting { file, tf });
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Terms = Vec<(String, Vec<Posting>)>;

    fn sample() -> (Vec<[u32; NF]>, Terms) {
        let lengths = vec![[3, 1, 4, 1], [5, 9, 2, 6], [0, 0, 0, 0]];
        let terms = vec![
            (
                "alpha".to_string(),
                vec![
                    Posting {
                        file: 0,
                        tf: [1, 0, 2, 0],
                    },
                    Posting {
                        file: 1,
                        tf: [0, 300, 0, 1],
                    },
                ],
            ),
            (
                "beta".to_string(),
                vec![Posting {
                    file: 1,
                    tf: [0, 0, 0, 7],
                }],
            ),
        ];
        (lengths, terms)
    }

    fn write_sample(path: &Path, key: u64) {
        let (lengths, terms) = sample();
        let stats = Statistics {
            lengths: &lengths,
            average: [1.5, 2.0, 3.0, 4.25],
            terms: terms
                .iter()
                .map(|(t, p)| (t.as_str(), p.as_slice()))
                .collect(),
        };
        write(path, key, &stats).unwrap();
    }

    #[test]
    fn written_statistics_read_back_term_by_term() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.fields");
        write_sample(&path, 7);
        let mut kept = Kept::open(&path, 7, 3).unwrap();
        let (lengths, terms) = sample();
        // the caller takes the lengths; the lists still decode
        assert_eq!(std::mem::take(&mut kept.lengths), lengths);
        assert_eq!(kept.average, [1.5, 2.0, 3.0, 4.25]);
        for (term, postings) in &terms {
            let got = kept.postings(term).unwrap();
            assert_eq!(got.len(), postings.len());
            for (a, b) in got.iter().zip(postings) {
                assert_eq!((a.file, a.tf), (b.file, b.tf));
            }
        }
        for absent in ["", "a", "alphabet", "gamma", "zzz"] {
            assert!(kept.postings(absent).unwrap().is_empty(), "{absent}");
        }
    }

    #[test]
    fn another_key_size_or_damage_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.fields");
        write_sample(&path, 7);
        // checked without the lengths as opened with them
        assert!(Kept::is_kept(&path, 7, 3));
        assert!(Kept::open(&path, 8, 3).is_none(), "another tree");
        assert!(!Kept::is_kept(&path, 8, 3), "another tree");
        assert!(Kept::open(&path, 7, 4).is_none(), "another file count");
        let bytes = std::fs::read(&path).unwrap();
        // truncated
        std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        assert!(Kept::open(&path, 7, 3).is_none());
        assert!(!Kept::is_kept(&path, 7, 3));
        // a file length flipped: the header CRC
        let mut flipped = bytes.clone();
        flipped[HEADER_BYTES] ^= 1;
        std::fs::write(&path, &flipped).unwrap();
        assert!(Kept::open(&path, 7, 3).is_none());
        assert!(!Kept::is_kept(&path, 7, 3), "a file length flipped");
        // the last byte of the lists (beta's list): opens, but that list is refused
        let mut flipped = bytes.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        std::fs::write(&path, &flipped).unwrap();
        let kept = Kept::open(&path, 7, 3).unwrap();
        assert!(kept.postings("alpha").is_ok());
        assert!(kept.postings("beta").is_err());
    }

    fn u64_at(bytes: &[u8], at: usize) -> u64 {
        u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
    }

    fn u32_at(bytes: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
    }

    /// The sample's file, byte by byte as the module's documentation lays it out: a header
    /// of 8 + 4 + 8 + 8 + 4 + 4 + 4 x 8 + 4 x 8 + 4 = 104 bytes, 3 files' lengths (48), the
    /// vocabulary `alpha\nbeta\n` (11), three table entries of 20 (the last the sentinel),
    /// and the lists: alpha's file 0 (delta 0) with 1, 0, 2, 0 and file 1 (delta 1) with 0,
    /// 300 (two bytes: 0xac 0x02), 0, 1; beta's file 1 with 0, 0, 0, 7.
    #[test]
    fn the_file_laid_out_by_hand() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.fields");
        write_sample(&path, 7);
        let b = std::fs::read(&path).unwrap();
        assert_eq!(b.len(), 104 + 48 + 11 + 60 + 16);
        assert_eq!(&b[..8], b"FBFIELDS");
        assert_eq!(u32_at(&b, 8), 2);
        assert_eq!((u64_at(&b, 20), u32_at(&b, 28), u32_at(&b, 32)), (7, 3, 2));
        let average: Vec<f64> = (0..4)
            .map(|i| f64::from_bits(u64_at(&b, 36 + 8 * i)))
            .collect();
        assert_eq!(average, [1.5, 2.0, 3.0, 4.25]);
        let parts: Vec<u64> = (0..4).map(|i| u64_at(&b, 68 + 8 * i)).collect();
        assert_eq!(parts, [48, 11, 60, 16]);
        let mut crc = crc32fast::Hasher::new();
        crc.update(&b[..100]);
        crc.update(&b[104..152]);
        assert_eq!(u32_at(&b, 100), crc.finalize());
        let lengths: Vec<u32> = (0..12).map(|i| u32_at(&b, 104 + 4 * i)).collect();
        assert_eq!(lengths, [3, 1, 4, 1, 5, 9, 2, 6, 0, 0, 0, 0]);
        assert_eq!(&b[152..163], b"alpha\nbeta\n");
        let alpha: &[u8] = &[0, 1, 0, 2, 0, 1, 0, 0xac, 0x02, 0, 1];
        let beta: &[u8] = &[1, 0, 0, 0, 7];
        assert_eq!(&b[223..], [alpha, beta].concat());
        let crc_of = |term: &[u8], list: &[u8]| {
            let mut crc = crc32fast::Hasher::new();
            crc.update(term);
            crc.update(list);
            crc.finalize()
        };
        let entry = |i: usize| {
            let at = 163 + 20 * i;
            (u64_at(&b, at), u64_at(&b, at + 8), u32_at(&b, at + 16))
        };
        assert_eq!(entry(0), (0, 0, crc_of(b"alpha", alpha)));
        assert_eq!(entry(1), (6, 11, crc_of(b"beta", beta)));
        assert_eq!(entry(2), (11, 16, 0));
    }

    /// A term's postings as (file, frequencies).
    type List = Vec<(u32, [u16; NF])>;

    /// Writes `lengths` and `terms` (sorted) for key 1.
    fn write_terms(path: &Path, lengths: &[[u32; NF]], terms: &[(&str, List)]) {
        let lists: Vec<Vec<Posting>> = terms
            .iter()
            .map(|(_, l)| l.iter().map(|&(file, tf)| Posting { file, tf }).collect())
            .collect();
        let stats = Statistics {
            lengths,
            average: [1.0; NF],
            terms: terms
                .iter()
                .zip(&lists)
                .map(|((t, _), l)| (*t, l.as_slice()))
                .collect(),
        };
        write(path, 1, &stats).unwrap();
    }

    fn read_back(kept: &Kept, term: &str) -> List {
        kept.postings(term)
            .unwrap()
            .iter()
            .map(|p| (p.file, p.tf))
            .collect()
    }

    /// Seven terms, each found by the binary search wherever it sits, the words between
    /// them not; lists whose files are far apart (deltas of 2 and 3, then 4); a list naming
    /// a file past the count does not check out; no file and no term read back empty.
    #[test]
    fn every_term_of_a_longer_vocabulary_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.fields");
        let lengths = [[1, 2, 3, 4]; 10];
        let terms: Vec<(&str, List)> = vec![
            ("b", vec![(0, [1, 0, 0, 0])]),
            (
                "d",
                vec![(2, [0, 1, 0, 0]), (5, [0, 0, 2, 0]), (9, [3, 0, 0, 1])],
            ),
            ("f", vec![(9, [0, 0, 0, 9])]),
            ("h", vec![(1, [1, 1, 1, 1]), (4, [2, 2, 2, 2])]),
            ("j", vec![(3, [0, 5, 0, 0])]),
            ("l", vec![(10, [1, 0, 0, 0])]),
            ("n", vec![(7, [0, 0, 1, 0])]),
        ];
        write_terms(&path, &lengths, &terms);
        let kept = Kept::open(&path, 1, 10).unwrap();
        for (term, list) in &terms {
            if *term == "l" {
                // file 10 of 10
                assert!(kept.postings(term).is_err());
            } else {
                assert_eq!(&read_back(&kept, term), list, "{term}");
            }
        }
        for absent in ["a", "c", "e", "g", "i", "k", "m", "o"] {
            assert!(read_back(&kept, absent).is_empty(), "{absent}");
        }
        write_terms(&path, &[], &[]);
        let kept = Kept::open(&path, 1, 0).unwrap();
        assert!(kept.lengths.is_empty() && read_back(&kept, "b").is_empty());
    }

    /// `bytes` with its header's CRC made right again after a change.
    fn checked_out(mut bytes: Vec<u8>) -> Vec<u8> {
        let files_bytes = u64_at(&bytes, 68) as usize;
        let mut crc = crc32fast::Hasher::new();
        crc.update(&bytes[..HEADER_BYTES - 4]);
        crc.update(&bytes[HEADER_BYTES..HEADER_BYTES + files_bytes]);
        bytes[HEADER_BYTES - 4..HEADER_BYTES].copy_from_slice(&crc.finalize().to_le_bytes());
        bytes
    }

    /// A header that checks out is still refused when it is another build's or another
    /// format's, or when its parts' lengths (the same total) do not fit its counts.
    #[test]
    fn a_header_of_another_build_or_of_parts_that_do_not_fit_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.fields");
        write_sample(&path, 7);
        let bytes = std::fs::read(&path).unwrap();
        let opens = |b: Vec<u8>| {
            std::fs::write(&path, checked_out(b)).unwrap();
            Kept::open(&path, 7, 3).is_some()
        };
        assert!(opens(bytes.clone()), "the file as written");
        for other in [0u64, 1] {
            let mut b = bytes.clone();
            b[12..20].copy_from_slice(&other.to_le_bytes());
            assert!(!opens(b), "fingerprint {other}");
        }
        let mut b = bytes.clone();
        b[8..12].copy_from_slice(&1u32.to_le_bytes());
        assert!(!opens(b), "format 1");
        let mut b = bytes.clone();
        b[0] = b'X';
        assert!(!opens(b), "magic");
        // `moved` bytes of part `from` counted in part `to`
        let shifted = |from: usize, to: usize, moved: u64| {
            let mut b = bytes.clone();
            let at = |k: usize| 68 + 8 * k;
            let (f, t) = (u64_at(&b, at(from)) - moved, u64_at(&b, at(to)) + moved);
            b[at(from)..at(from) + 8].copy_from_slice(&f.to_le_bytes());
            b[at(to)..at(to) + 8].copy_from_slice(&t.to_le_bytes());
            b
        };
        assert!(!opens(shifted(1, 0, 8)), "the lengths' part");
        assert!(!opens(shifted(3, 2, 10)), "the table's part");
    }

    /// The statistics sit beside the tree index, under their own extension; a discarded
    /// file is gone.
    #[test]
    fn the_file_beside_the_index_and_its_discarding() {
        assert_eq!(
            path_beside(Path::new("cache/trees/0a1b.idx")),
            Path::new("cache/trees/0a1b.fields")
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.fields");
        write_sample(&path, 7);
        Kept::open(&path, 7, 3).unwrap().discard();
        assert!(!path.exists());
    }
}
