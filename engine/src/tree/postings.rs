//! Word posting lists: for every word of the tree's text, the files that hold it, so that
//! `grep` reads only the files that can match (the approach of Zoekt and Google Code Search,
//! with words instead of trigrams: a tree's vocabulary is small enough to scan whole).
//!
//! A word is a maximal run of ASCII letters, digits, `_` and non-ASCII bytes, ASCII-folded.
//! A search string matches a file only if each of its word pieces is a substring of one of
//! the file's words, so the candidates of a string are found by scanning the vocabulary for
//! the piece (one `memmem` pass over a few megabytes) and joining those words' lists. That
//! is a superset of the files that match, never a subset: grep still confirms each one.
//!
//! Words longer than [`WINDOW`] bytes are kept as overlapping windows of [`WINDOW`] bytes
//! every [`STEP`] bytes, and a query piece is cut to [`STEP`] bytes, so that any piece of a
//! long word still lies whole inside one window (a minified line does not bloat the list).

use super::blob::{self, Blob};
use crate::encoding::fx_hash::FxBuild;
use crate::encoding::varint::{get_varint, put_varint};
use memchr::memmem;
use std::ops::Range;

/// Longest word kept whole.
pub(crate) const WINDOW: usize = 64;
/// Start distance of the windows of a longer word, and the longest query piece looked up.
pub(crate) const STEP: usize = WINDOW / 2;
/// A piece whose vocabulary hits name more words than this is not worth joining: every file
/// is a candidate for it (grep confirms each file anyway, so results are the same).
const MAX_WORDS_PER_PIECE: usize = 200_000;

/// True for a byte that belongs to a word.
#[inline]
fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// The distinct words of `folded` (text already ASCII-folded, as [`super::Content::Text`]
/// keeps it), sorted, each followed by `\n`.
pub(crate) fn words_of(folded: &[u8]) -> Vec<u8> {
    // distinct first, then sorted: a text repeats most of its words, and sorting every
    // occurrence compared them again and again (a fifth of an index build)
    let mut words: std::collections::HashSet<&[u8], FxBuild> = Default::default();
    let mut i = 0;
    let n = folded.len();
    while i < n {
        if !is_word(folded[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < n && is_word(folded[i]) {
            i += 1;
        }
        let word = &folded[start..i];
        if word.len() <= WINDOW {
            words.insert(word);
        } else {
            let mut at = 0;
            while at < word.len() {
                words.insert(&word[at..(at + WINDOW).min(word.len())]);
                at += STEP;
            }
        }
    }
    let mut words: Vec<&[u8]> = words.into_iter().collect();
    words.sort_unstable();
    let mut out = Vec::with_capacity(words.iter().map(|w| w.len() + 1).sum());
    for w in words {
        out.extend_from_slice(w);
        out.push(b'\n');
    }
    out
}

/// The word pieces of a search string, folded and cut to [`STEP`] bytes: what each
/// matching file must hold inside its words.
pub(crate) fn pieces_of(needle: &[u8]) -> Vec<Vec<u8>> {
    needle
        .split(|&b| !is_word(b))
        .filter(|p| !p.is_empty())
        .map(|p| p.iter().take(STEP).map(u8::to_ascii_lowercase).collect())
        .collect()
}

/// How many words' lists a pass over every list reads between releases of their pages.
const RELEASE_WORDS: usize = 4096;

/// The encoded lists: `vocab` holds the sorted words each followed by `\n`; `starts[w]` is
/// where word `w` begins in it; `offsets[w]..offsets[w + 1]` is its list in `lists`, file
/// numbers as ascending deltas in varints. Integers are little-endian `u32`.
#[derive(Clone, Default, PartialEq, Eq)]
pub(crate) struct Encoded {
    pub vocab: Blob,
    pub starts: Blob,
    pub offsets: Blob,
    pub lists: Blob,
}

impl std::fmt::Debug for Encoded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Postings")
            .field("words", &(self.starts.len() / 4))
            .field("bytes", &self.bytes())
            .finish()
    }
}

impl Encoded {
    pub fn bytes(&self) -> usize {
        self.vocab.len() + self.starts.len() + self.offsets.len() + self.lists.len()
    }

    /// Number of distinct words.
    pub fn words(&self) -> usize {
        self.starts.len() / 4
    }

    fn u32_at(table: &[u8], i: usize) -> u32 {
        blob::u32_at(table, i)
    }

    /// Checks the tables' sizes against each other, so that a damaged file is refused.
    /// (Reading never panics either way: an entry out of bounds is skipped, a list that
    /// does not decode stops; the file's checksum guards the values.)
    pub fn validate(&self) -> bool {
        let words = self.words();
        self.starts.len().is_multiple_of(4)
            && self.offsets.len() == (words + 1) * 4
            && Self::u32_at(&self.offsets, words) as usize == self.lists.len()
            && self.vocab.last().is_none_or(|&b| b == b'\n')
            && (words > 0 || self.vocab.is_empty())
    }

    /// Calls `each` with every file number of word `w`; clears `ok` on a damaged list.
    fn for_each_file(&self, w: usize, mut each: impl FnMut(u32), ok: &mut bool) {
        let (from, to) = (
            Self::u32_at(&self.offsets, w) as usize,
            Self::u32_at(&self.offsets, w + 1) as usize,
        );
        let Some(list) = self.lists.get(from..to) else {
            *ok = false;
            return;
        };
        let (mut at, mut file) = (0, 0u32);
        let mut first = true;
        while at < list.len() {
            let Some(delta) = get_varint(list, &mut at) else {
                *ok = false;
                return;
            };
            file = if first {
                delta
            } else {
                match file.checked_add(delta) {
                    Some(f) => f,
                    None => {
                        *ok = false;
                        return;
                    }
                }
            };
            first = false;
            each(file);
        }
    }

    /// The word at index `w` (without its `\n`).
    pub fn word(&self, w: usize) -> &[u8] {
        let start = Self::u32_at(&self.starts, w) as usize;
        let end = if w + 1 < self.words() {
            Self::u32_at(&self.starts, w + 1) as usize
        } else {
            self.vocab.len()
        };
        self.vocab
            .get(start..end.saturating_sub(1).max(start))
            .unwrap_or_default()
    }

    /// For every file, the indices of its words (the forward lists), to rebuild the lists
    /// when some files change.
    #[cfg(test)]
    pub fn per_file(&self, files: usize) -> Vec<Vec<u32>> {
        let (starts, words) = self.per_file_in(0..files as u32, &self.words_per_file(files));
        (0..files)
            .map(|f| words[starts[f] as usize..starts[f + 1] as usize].to_vec())
            .collect()
    }

    /// Lets go of the mapped pages of the lists read so far every [`RELEASE_WORDS`] words
    /// of a pass over every list (a refresh's), which would otherwise hold them all.
    fn release_lists_every(&self, w: usize) {
        if w % RELEASE_WORDS == RELEASE_WORDS - 1 {
            self.lists.release_pages();
        }
    }

    /// How many words each of `files` files holds.
    pub fn words_per_file(&self, files: usize) -> Vec<u32> {
        let mut counts = vec![0u32; files];
        let mut ok = true;
        for w in 0..self.words() {
            self.release_lists_every(w);
            self.for_each_file(
                w,
                |f| {
                    if let Some(c) = counts.get_mut(f as usize) {
                        *c += 1;
                    }
                },
                &mut ok,
            );
        }
        counts
    }

    /// The forward lists of the files `range` only, in one array: file `range.start + i`'s
    /// words are `words[starts[i]..starts[i + 1]]`, ascending. `counts` is what
    /// [`Encoded::words_per_file`] gave (a damaged list yields fewer words, never more
    /// than the counts).
    pub fn per_file_in(&self, range: Range<u32>, counts: &[u32]) -> (Vec<u32>, Vec<u32>) {
        let span = range.end.saturating_sub(range.start) as usize;
        let mut starts = Vec::with_capacity(span + 1);
        let mut at = 0u32;
        for f in range.clone() {
            starts.push(at);
            at += counts.get(f as usize).copied().unwrap_or(0);
        }
        starts.push(at);
        let mut fill: Vec<u32> = starts[..span].to_vec();
        let mut words = vec![0u32; at as usize];
        let mut ok = true;
        for w in 0..self.words() {
            self.release_lists_every(w);
            self.for_each_file(
                w,
                |f| {
                    if !range.contains(&f) {
                        return;
                    }
                    let i = (f - range.start) as usize;
                    if fill[i] < starts[i + 1] {
                        words[fill[i] as usize] = w as u32;
                        fill[i] += 1;
                    }
                },
                &mut ok,
            );
        }
        (starts, words)
    }

    /// The files (as a bit set over `files`) that may hold every needle, each needle a
    /// string that must occur in the file's folded text. `None` when the lists cannot
    /// narrow the search (no piece to look up).
    pub fn candidates<S: AsRef<[u8]>>(&self, needles: &[S], files: usize) -> Option<Vec<u64>> {
        let mut result: Option<Vec<u64>> = None;
        for needle in needles {
            for piece in pieces_of(needle.as_ref()) {
                let Some(bits) = self.files_with(&piece, files) else {
                    continue;
                };
                result = Some(match result {
                    None => bits,
                    Some(mut acc) => {
                        acc.iter_mut().zip(&bits).for_each(|(a, b)| *a &= b);
                        acc
                    }
                });
            }
        }
        result
    }

    /// The files whose words contain `piece`, or `None` when too many words do.
    fn files_with(&self, piece: &[u8], files: usize) -> Option<Vec<u64>> {
        let mut bits = vec![0u64; files.div_ceil(64)];
        let mut words = Vec::new();
        let mut too_many = false;
        self.vocab.find_in_lines(&memmem::Finder::new(piece), |at| {
            let word = blob::entry_holding(&self.starts, self.words(), at);
            if words.last() != Some(&word) {
                words.push(word);
                too_many = words.len() > MAX_WORDS_PER_PIECE;
            }
            !too_many
        });
        if too_many {
            return None;
        }
        let mut ok = true;
        for w in words {
            self.for_each_file(
                w,
                |f| {
                    if let Some(slot) = bits.get_mut(f as usize / 64) {
                        *slot |= 1 << (f % 64);
                    }
                },
                &mut ok,
            );
        }
        Some(bits)
    }
}

/// Posting lists that are read from the index file only when a search first needs them (a
/// question answered by `find` never reads them): the reader runs once, and `None` (a damaged
/// part) means no narrowing, never a wrong answer.
pub(crate) struct Lazy {
    cell: std::sync::OnceLock<Option<Encoded>>,
    reader: std::sync::Mutex<Option<Reader>>,
}

type Reader = Box<dyn FnOnce() -> Option<Encoded> + Send>;

impl Lazy {
    pub fn ready(encoded: Encoded) -> Lazy {
        let cell = std::sync::OnceLock::new();
        let _ = cell.set(Some(encoded));
        Lazy {
            cell,
            reader: std::sync::Mutex::new(None),
        }
    }

    pub fn on_demand(reader: Reader) -> Lazy {
        Lazy {
            cell: std::sync::OnceLock::new(),
            reader: std::sync::Mutex::new(Some(reader)),
        }
    }

    /// The lists, read now if they were not yet (`None` when damaged).
    pub fn into_inner(self) -> Option<Encoded> {
        self.get();
        self.cell.into_inner().flatten()
    }

    pub fn get(&self) -> Option<&Encoded> {
        self.cell
            .get_or_init(|| {
                let reader = self.reader.lock().unwrap_or_else(|p| p.into_inner()).take();
                reader.and_then(|read| read())
            })
            .as_ref()
    }
}

impl std::fmt::Debug for Lazy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.cell.get() {
            Some(Some(e)) => e.fmt(f),
            Some(None) => f.write_str("Postings(unusable)"),
            None => f.write_str("Postings(not read yet)"),
        }
    }
}

/// Builds the lists from every file's words, the files added in ascending order: each
/// word's list is encoded as its files come (a varint delta from the word's last file), and
/// the words are the builder's own, so that a file's words can be dropped once added.
#[derive(Default)]
pub(crate) struct Builder {
    /// Each word's id; the word is held here only.
    ids: std::collections::HashMap<Box<[u8]>, u32, FxBuild>,
    /// Per word id: its encoded list, and the last file in it.
    lists: Vec<Vec<u8>>,
    last: Vec<u32>,
    /// About how many bytes the words and lists take ([`Builder::held_bytes`]).
    held: usize,
}

/// What a word costs the builder beside its bytes and its list's: its map entry, its boxed
/// bytes' and its list's headers and its last file.
const WORD_OVERHEAD: usize = 80;

impl Builder {
    pub fn new() -> Self {
        Builder::default()
    }

    fn add(&mut self, word: &[u8], file: u32) {
        let id = match self.ids.get(word) {
            Some(&id) => id as usize,
            None => {
                let id = self.lists.len();
                self.held += word.len() + WORD_OVERHEAD;
                self.ids.insert(word.into(), id as u32);
                self.lists.push(Vec::new());
                self.last.push(0);
                id
            }
        };
        let list = &mut self.lists[id];
        let capacity = list.capacity();
        match list.is_empty() {
            true => put_varint(list, file),
            // a word listed twice for one file (never, from `words_of`) is kept once
            false if file <= self.last[id] => return,
            false => put_varint(list, file - self.last[id]),
        }
        self.held += list.capacity() - capacity;
        self.last[id] = file;
    }

    /// About how many bytes the builder holds: what the index build spills a segment at
    /// (`tree/segments/mod.rs`).
    pub fn held_bytes(&self) -> usize {
        self.held
    }

    /// Adds file `file`'s words given as [`words_of`] wrote them.
    pub fn add_listed(&mut self, file: u32, listed: &[u8]) {
        for word in listed.split(|&b| b == b'\n').filter(|w| !w.is_empty()) {
            self.add(word, file);
        }
    }

    /// Adds file `file`'s words given as indices into `old` (kept from the last index).
    pub fn add_indexed(&mut self, file: u32, old: &Encoded, words: &[u32]) {
        for &w in words {
            self.add(old.word(w as usize), file);
        }
    }

    pub fn finish(self) -> Encoded {
        let Builder { ids, mut lists, .. } = self;
        let mut words: Vec<(Box<[u8]>, u32)> = ids.into_iter().collect();
        words.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut vocab = Vec::with_capacity(words.iter().map(|w| w.0.len() + 1).sum());
        let mut starts = Vec::with_capacity(words.len() * 4);
        let mut offsets = Vec::with_capacity((words.len() + 1) * 4);
        let mut all = Vec::with_capacity(lists.iter().map(Vec::len).sum());
        for (word, id) in words {
            starts.extend_from_slice(&(vocab.len() as u32).to_le_bytes());
            vocab.extend_from_slice(&word);
            vocab.push(b'\n');
            offsets.extend_from_slice(&(all.len() as u32).to_le_bytes());
            // freed as it is copied: the lists are held about once
            all.extend_from_slice(&std::mem::take(&mut lists[id as usize]));
        }
        offsets.extend_from_slice(&(all.len() as u32).to_le_bytes());
        Encoded {
            vocab: Blob::owned(vocab),
            starts: Blob::owned(starts),
            offsets: Blob::owned(offsets),
            lists: Blob::owned(all),
        }
    }
}

/// The set bits of `bits`, ascending.
pub(crate) fn bit_indices(bits: &[u64]) -> Vec<usize> {
    let mut out = Vec::new();
    for (i, &word) in bits.iter().enumerate() {
        let mut w = word;
        while w != 0 {
            out.push(i * 64 + w.trailing_zeros() as usize);
            w &= w - 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(texts: &[&str]) -> Encoded {
        let listed: Vec<Vec<u8>> = texts
            .iter()
            .map(|t| words_of(t.to_ascii_lowercase().as_bytes()))
            .collect();
        let mut b = Builder::new();
        for (i, l) in listed.iter().enumerate() {
            b.add_listed(i as u32, l);
        }
        b.finish()
    }

    fn found(p: &Encoded, needles: &[&str], files: usize) -> Option<Vec<usize>> {
        p.candidates(needles, files).map(|b| bit_indices(&b))
    }

    #[test]
    fn words_are_folded_split_and_distinct() {
        let text = "fn ReplayService() { replay_service(ÉTé); Replay }".to_ascii_lowercase();
        let w = words_of(text.as_bytes());
        let w = String::from_utf8(w).unwrap();
        assert_eq!(w, "fn\nreplay\nreplay_service\nreplayservice\nÉté\n");
    }

    #[test]
    fn a_substring_of_a_word_finds_its_file_and_no_other() {
        let p = build(&["struct ReplayService;", "fn main() {}", "// replays here"]);
        assert!(p.validate());
        assert_eq!(found(&p, &["replay"], 3), Some(vec![0, 2]));
        assert_eq!(found(&p, &["service"], 3), Some(vec![0]));
        assert_eq!(found(&p, &["replay", "service"], 3), Some(vec![0]));
        assert_eq!(found(&p, &["absent"], 3), Some(vec![]));
        // punctuation splits a needle into pieces, each of which must be held
        assert_eq!(found(&p, &["main()"], 3), Some(vec![1]));
        // nothing to look up: no narrowing
        assert_eq!(found(&p, &["()"], 3), None);
    }

    #[test]
    fn a_piece_of_a_long_word_is_found_in_its_windows() {
        let long: String = (0..300)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        let text = format!("x {long} Y");
        let p = build(&[&text, "other"]);
        for start in [0, 31, 33, 100, 250, 268] {
            let piece = &long[start..(start + 32).min(long.len())];
            assert_eq!(found(&p, &[piece], 2), Some(vec![0]), "piece at {start}");
        }
        // a needle longer than a window is looked up by its first STEP bytes
        assert_eq!(found(&p, &[&long[10..200]], 2), Some(vec![0]));
    }

    #[test]
    fn forward_lists_invert_the_postings() {
        let p = build(&["alpha beta", "beta gamma", ""]);
        let per = p.per_file(3);
        let names = |f: usize| -> Vec<String> {
            per[f]
                .iter()
                .map(|&w| String::from_utf8(p.word(w as usize).to_vec()).unwrap())
                .collect()
        };
        assert_eq!(names(0), ["alpha", "beta"]);
        assert_eq!(names(1), ["beta", "gamma"]);
        assert!(names(2).is_empty());
    }

    #[test]
    fn damaged_tables_are_refused() {
        let p = build(&["alpha beta", "beta gamma"]);
        assert!(p.validate());
        // one table edited: a copy of its bytes, changed
        let edit = |table: &Blob, change: &dyn Fn(&mut Vec<u8>)| {
            let mut bytes = table.to_vec();
            change(&mut bytes);
            Blob::owned(bytes)
        };
        let mut bad = p.clone();
        bad.offsets = edit(&p.offsets, &|b| {
            b.pop();
        });
        assert!(!bad.validate());
        let mut bad = p.clone();
        bad.lists = edit(&p.lists, &|b| b.push(0x80));
        assert!(!bad.validate());
        let mut bad = p.clone();
        bad.vocab = edit(&p.vocab, &|b| {
            b.pop();
        });
        assert!(!bad.validate());
        // damaged values with consistent sizes never panic and never lose a file
        let mut bad = p.clone();
        bad.lists = edit(&p.lists, &|b| b.iter_mut().for_each(|b| *b = 0xff));
        assert!(bad.validate());
        let _ = bad.candidates(&["beta"], 2);
        let _ = bad.per_file(2);
    }

    /// The lists as the format defines them, from a sorted map: each word's files
    /// ascending, the first as it is and the rest as deltas.
    fn reference(texts: &[&str]) -> Encoded {
        let mut map: std::collections::BTreeMap<Vec<u8>, Vec<u32>> = Default::default();
        for (file, text) in texts.iter().enumerate() {
            let listed = words_of(text.to_ascii_lowercase().as_bytes());
            for word in listed.split(|&b| b == b'\n').filter(|w| !w.is_empty()) {
                map.entry(word.to_vec()).or_default().push(file as u32);
            }
        }
        let (mut vocab, mut starts, mut offsets, mut lists) = (vec![], vec![], vec![], vec![]);
        for (word, files) in &map {
            starts.extend_from_slice(&(vocab.len() as u32).to_le_bytes());
            vocab.extend_from_slice(word);
            vocab.push(b'\n');
            offsets.extend_from_slice(&(lists.len() as u32).to_le_bytes());
            let mut last = None;
            for &f in files {
                put_varint(&mut lists, last.map_or(f, |l| f - l));
                last = Some(f);
            }
        }
        offsets.extend_from_slice(&(lists.len() as u32).to_le_bytes());
        Encoded {
            vocab: Blob::owned(vocab),
            starts: Blob::owned(starts),
            offsets: Blob::owned(offsets),
            lists: Blob::owned(lists),
        }
    }

    #[test]
    fn the_builder_writes_the_lists_the_format_defines() {
        // files far apart (deltas of several varint bytes), words shared and not, a word
        // longer than a window, and files with no word at all
        let long = "x".repeat(WINDOW * 2 + 5);
        let mut texts: Vec<String> = (0..400)
            .map(|i| match i % 7 {
                0 => format!("alpha beta_{} gamma", i % 13),
                3 => format!("{long} beta_{} Delta{}", i % 5, i),
                5 => String::new(),
                _ => format!("gamma fn f{}() {{ alpha }}", i % 11),
            })
            .collect();
        texts.push("zulu alpha".into());
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        let built = build(&texts);
        assert_eq!(built, reference(&texts));
        assert!(built.validate());
        // and one file added again with the same words is not listed twice
        let mut b = Builder::new();
        b.add_listed(3, b"alpha\n");
        b.add_listed(3, b"alpha\n");
        b.add_listed(300, b"alpha\n");
        assert_eq!(b.finish(), reference_of(&[(3, "alpha"), (300, "alpha")]));
    }

    fn reference_of(files: &[(u32, &str)]) -> Encoded {
        let mut texts = vec![""; files.iter().map(|f| f.0 as usize + 1).max().unwrap_or(0)];
        for &(file, text) in files {
            texts[file as usize] = text;
        }
        reference(&texts)
    }
}
