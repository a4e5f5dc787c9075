//! One file's field lengths and its frequencies of a few terms, counted without listing
//! every term it holds: what the ranking statistics of some terms need
//! ([`super::bm25f::FieldIndex::for_terms`], the first `ask` on a root).

use super::fields::{self, Field, Syntax};
use super::posting::NF;
use super::tokens::{for_each_part, holds_term, term_in, term_of, TermStarts};
use super::word_parts::{bytes_among, part_end, term_starts};
use crate::encoding::fx_hash::FxBuild;
use crate::profile::Profile;
use crate::tree::TreeFile;
use std::collections::HashMap;

/// How many files the statistics count at once (`FieldIndex::build`, `kept_runs.rs`):
/// enough to keep every core busy, few enough that their counts are a small part of the
/// statistics.
pub(super) const COUNT_BATCH: usize = 1024;

/// A file's field lengths and its terms with their counts per field.
pub(crate) type FileTerms = ([u32; NF], HashMap<String, [u16; NF], FxBuild>);

/// The terms of one file with their counts per field (a count stops at `u16::MAX`, what a
/// posting holds), and the file's field lengths: how many terms each field holds, every
/// one counted.
pub(crate) fn file_terms(file: &TreeFile, profile: &Profile) -> FileTerms {
    let mut counts: HashMap<String, [u16; NF], FxBuild> = HashMap::default();
    let mut len = [0u32; NF];
    // each part's term made in one buffer: a string is made only for a term the file did
    // not hold yet
    let mut folded = String::new();
    let mut add = |part: &str, field: Field| {
        len[field.index()] += 1;
        let term = term_in(part, &mut folded);
        let slot = match counts.get_mut(term) {
            Some(slot) => slot,
            None => counts.entry(term.to_string()).or_insert([0; NF]),
        };
        let slot = &mut slot[field.index()];
        *slot = slot.saturating_add(1);
    };
    for_each_part(path_of(file), |p| add(p, Field::Path));
    // read for this pass only: holding every file's text would hold the whole tree
    if let Some(text) = file.text_once() {
        let text: &str = &text;
        if file.language.is_some() {
            // the tree's symbols are the whole-file scan of the symbol reader
            for symbol in file.symbols_once().iter() {
                for_each_part(&symbol.name, |p| add(p, Field::Symbols));
            }
        }
        for_each_text_part(file, profile, text, add);
    }
    (len, counts)
}

/// The part of a file's path its path field holds: without the last extension, which
/// names a format, not a subject.
pub(crate) fn path_of(file: &TreeFile) -> &str {
    match file.path.rfind('.') {
        Some(i) if !file.ext().is_empty() && !file.path[i..].contains('/') => &file.path[..i],
        _ => file.path.as_str(),
    }
}

/// A file in a language the tree scans, or with a source extension of the profile.
pub(crate) fn is_source(file: &TreeFile, profile: &Profile) -> bool {
    file.language.is_some()
        || profile
            .grep
            .source_extensions
            .iter()
            .any(|e| e == file.ext())
}

/// One file's field lengths, and the terms it holds (by their place in the list asked
/// for) with their frequencies per field.
pub(crate) type FileCounts = ([u32; NF], Vec<(usize, [u16; NF])>);

/// The lines of a text that hold some of a question's terms (numbered from 1), each with
/// how many of them it holds: most first, then by line number.
pub(crate) type TermLines = Vec<(u32, usize)>;

/// A file's numbers and the lines of its terms ([`counted_with_lines`]).
pub(crate) type CountsAndLines = (FileCounts, TermLines);

/// Files whose numbers for `terms` ([`counted_of_read`]) were counted before the ranking
/// asked for them: the first pass over a root counts the length sample's files it reads
/// (their field lengths are the sample's, their symbols scanned for them already), so a
/// sampled file the ranking scores is not read and scanned a second time. On a tree of a
/// few hundred files the sample is a third of the tree or all of it.
#[derive(Debug, Default)]
pub(crate) struct Counted {
    terms: Vec<String>,
    files: HashMap<u32, CountsAndLines>,
}

impl Counted {
    /// None counted yet, for `terms`.
    pub(crate) fn new(terms: Vec<String>) -> Counted {
        Counted {
            terms,
            files: HashMap::new(),
        }
    }

    /// Keeps `file`'s numbers, counted for its terms.
    pub(crate) fn insert(&mut self, file: u32, counts: CountsAndLines) {
        self.files.insert(file, counts);
    }

    /// `file`'s numbers for `terms` (in that order), when they were counted.
    pub(crate) fn get(&self, terms: &[String], file: u32) -> Option<&CountsAndLines> {
        match self.terms == terms {
            true => self.files.get(&file),
            false => None,
        }
    }
}

/// The numbers [`file_terms`] gives for `file`, for `terms` only: its field lengths and its
/// frequencies of those of `terms` it holds (by their place in `terms`); and the lines of
/// its text that hold one of `terms`, each with how many of them it holds, as
/// [`super::best_lines`] gives them from the text (the ranking of a first call counts the
/// files it scores, and reads none of them again for its evidence). A part of a word is
/// made a term (folded and stemmed) only when one of `terms` begins it, as a term is a
/// prefix of its folded part. The fields split the text between words and a line ends at
/// a byte no word holds, so the terms of a line are those of the fields' words on it.
/// `bytes` is a buffer kept from file to file.
pub(crate) fn counted_with_lines(
    file: &TreeFile,
    profile: &Profile,
    terms: &[String],
    bytes: &mut Vec<u8>,
) -> CountsAndLines {
    let read = file.read_into(bytes);
    counted_of_read(file, profile, terms, read.then_some(bytes.as_slice()))
}

/// [`counted_with_lines`] of a file already read: `bytes` its text when
/// `TreeFile::read_into` said it holds one, `None` when it holds none (its path alone is
/// counted). What the first pass over a root counts of a sampled file it reads anyway
/// (`first_call/pass.rs`, [`Counted`]).
pub(crate) fn counted_of_read(
    file: &TreeFile,
    profile: &Profile,
    terms: &[String],
    bytes: Option<&[u8]>,
) -> CountsAndLines {
    let mut len = [0u32; NF];
    let mut tf = vec![[0u16; NF]; terms.len()];
    let starts = TermStarts::new(terms);
    let mut found_in = |part: &str, field: Field| {
        let f = field.index();
        let k = starts.place_of(part)?;
        tf[k][f] = tf[k][f].saturating_add(1);
        Some(k)
    };
    for_each_part(path_of(file), |p| {
        len[Field::Path.index()] += 1;
        found_in(p, Field::Path);
    });
    let mut lines = Vec::new();
    if let Some(bytes) = bytes {
        let text = crate::text::decoded(bytes);
        let text: &str = &text;
        if file.language.is_some() {
            file.for_each_symbol_name(text, |name| {
                for_each_part(name, |p| {
                    len[Field::Symbols.index()] += 1;
                    found_in(p, Field::Symbols);
                })
            });
        }
        // where each term was found in the text: (byte offset, term)
        let mut found: Vec<(usize, usize)> = Vec::new();
        let syntax = Syntax::of(file, is_source(file, profile));
        // only a part whose first byte begins a term may be one
        count_fields(text, syntax, starts.first_bytes(), &mut len, |p, field| {
            if let Some(k) = found_in(p, field) {
                found.push((p.as_ptr() as usize - text.as_ptr() as usize, k));
            }
        });
        lines = lines_found(text, found, terms.len());
    }
    let held = tf
        .into_iter()
        .enumerate()
        .filter(|(_, tf)| tf.iter().any(|&n| n > 0))
        .collect();
    ((len, held), lines)
}

/// Calls `each` with every part of the fields of `text` (`file`'s, split by its syntax
/// into prose and code), and the part's field.
pub(crate) fn for_each_text_part<'t>(
    file: &TreeFile,
    profile: &Profile,
    text: &'t str,
    each: impl FnMut(&'t str, Field),
) {
    parts_of_fields(text, Syntax::of(file, is_source(file, profile)), each);
}

/// [`for_each_text_part`] for a text of `syntax`. The text is cut into parts once, whole,
/// and each part goes to the field whose range holds it: a field ends and starts next to
/// a byte no part holds (a delimiter, the newline that ends a comment), so no part crosses
/// two fields and a part's bytes have the neighbours they have in its field alone (the
/// parts are those of each field cut alone, held by a test). Cut field by field, the many
/// short strings and comments of a file each paid a block's setup.
fn parts_of_fields<'t>(text: &'t str, syntax: Syntax, mut each: impl FnMut(&'t str, Field)) {
    let mut ranges: Vec<(usize, Field)> = Vec::new();
    fields::split(text, syntax, |_, end, field| ranges.push((end, field)));
    let mut range = 0;
    for_each_part(text, |part| {
        let at = part.as_ptr() as usize - text.as_ptr() as usize;
        // the ranges are consecutive and cover the text: the first that ends past the
        // part's start holds it
        while ranges[range].0 <= at {
            range += 1;
        }
        each(part, ranges[range].1);
    });
}

/// The lengths of the fields of `text` (split by `syntax`: how many of [`parts_of_fields`]'
/// parts each holds) added to `len`, and `each(part, field)` called for the parts whose
/// first byte `first` marks, in order: the parts' starts are read from bit masks 64 bytes
/// at a time ([`term_starts`]) and counted per field, and only the few parts a caller asks
/// about are cut (making every part was most of the counting of a file's text).
pub(crate) fn count_fields<'t>(
    text: &'t str,
    syntax: Syntax,
    first: &[bool; 256],
    len: &mut [u32; NF],
    mut each: impl FnMut(&'t str, Field),
) {
    let mut ranges: Vec<(usize, Field)> = Vec::new();
    fields::split(text, syntax, |_, end, field| ranges.push((end, field)));
    let bytes = text.as_bytes();
    // the bytes asked about, compared sixteen at a time when they are few
    let wanted: Vec<u8> = (0..=255u8).filter(|&b| first[b as usize]).collect();
    let mut range = 0;
    term_starts(bytes, |base, starts| {
        let asked_here = match wanted.len() {
            0 => 0,
            1..=8 => {
                let block = &bytes[base..bytes.len().min(base + 64)];
                starts & bytes_among(block, &wanted)
            }
            _ => starts,
        };
        let mut rest = starts;
        while rest != 0 {
            // the range that holds the first start left, and the block's starts within it
            // (the ranges are consecutive and cover the text)
            let at = base + rest.trailing_zeros() as usize;
            while ranges[range].0 <= at {
                range += 1;
            }
            let (end, field) = ranges[range];
            let within = match end - base {
                k if k >= 64 => rest,
                k => rest & ((1u64 << k) - 1),
            };
            rest &= !within;
            len[field.index()] += within.count_ones();
            let mut asked = within & asked_here;
            while asked != 0 {
                let start = base + asked.trailing_zeros() as usize;
                asked &= asked - 1;
                if first[bytes[start] as usize] {
                    // a part is ASCII: its ends are character boundaries
                    each(&text[start..part_end(bytes, start)], field);
                }
            }
        }
    });
}

/// Orders lines of [`TermLines`]: most terms first, then by line number.
pub(crate) fn best_first(lines: &mut TermLines) {
    lines.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
}

/// The lines (numbered from 1) on which `found` (byte offsets into `text`, each with a
/// term's place among `terms` of them) are, each with how many terms it holds: most first,
/// then by line number.
fn lines_found(text: &str, mut found: Vec<(usize, usize)>, terms: usize) -> TermLines {
    found.sort_unstable();
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut seen = vec![false; terms];
    let (mut line, mut counted_to) = (1u32, 0usize);
    let mut current: Option<u32> = None;
    for (at, k) in found {
        line += memchr::memchr_iter(b'\n', &bytes[counted_to..at]).count() as u32;
        counted_to = at;
        if current != Some(line) {
            if let Some(done) = current {
                out.push((done, seen.iter().filter(|s| **s).count()));
            }
            seen.iter_mut().for_each(|s| *s = false);
            current = Some(line);
        }
        seen[k] = true;
    }
    if let Some(done) = current {
        out.push((done, seen.iter().filter(|s| **s).count()));
    }
    best_first(&mut out);
    out
}

/// Which of `terms` `file` holds in some field (`true` at a term's place), as
/// [`counted_with_lines`] finds them, without counting its fields or scanning its symbols:
/// the terms of its path and of its whole text. The fields split the text between words,
/// so their terms are the text's; and a symbol's name is made of words of its file's text,
/// so its terms are too (held by every symbol reader test:
/// `engine/tests/symbol_reading/mod.rs`). `may_hold` marks the terms the file may hold at
/// all (its folded path or text holds their letters); `bytes` is a buffer kept from file
/// to file.
pub(crate) fn held_terms(
    file: &TreeFile,
    terms: &[String],
    may_hold: &[bool],
    bytes: &mut Vec<u8>,
) -> Vec<bool> {
    let mut held = path_terms(file, terms, may_hold);
    let unknown = |held: &[bool]| (0..terms.len()).any(|k| may_hold[k] && !held[k]);
    if !unknown(&held) || !file.read_into(bytes) {
        return held;
    }
    // the words of a text are ASCII runs: the same in the bytes as in their lossy decoding
    for (k, t) in terms.iter().enumerate() {
        if may_hold[k] && !held[k] {
            held[k] = holds_term(bytes, t);
        }
    }
    held
}

/// Which of `terms` (those `may_hold` marks) the path field of `file` holds.
pub(crate) fn path_terms(file: &TreeFile, terms: &[String], may_hold: &[bool]) -> Vec<bool> {
    let mut held = vec![false; terms.len()];
    for_each_part(path_of(file), |part| {
        for (k, t) in terms.iter().enumerate() {
            if may_hold[k]
                && !held[k]
                && part.len() >= t.len()
                && part.as_bytes()[..t.len()].eq_ignore_ascii_case(t.as_bytes())
                && term_of(part) == *t
            {
                held[k] = true;
            }
        }
    });
    held
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::Tree;
    use proptest::prelude::*;

    /// The parts of each field's range of `text` cut alone (what the counting did before
    /// it cut the text once), with their offsets.
    fn parts_field_by_field(text: &str, syntax: Syntax) -> Vec<(usize, String, Field)> {
        let mut out = Vec::new();
        fields::split(text, syntax, |start, end, field| {
            for_each_part(&text[start..end], |p| {
                out.push((offset_in(text, p), p.to_string(), field))
            });
        });
        out
    }

    /// Where `part`, a slice of `text`, starts in it.
    fn offset_in(text: &str, part: &str) -> usize {
        part.as_ptr() as usize - text.as_ptr() as usize
    }

    fn parts_once(text: &str, syntax: Syntax) -> Vec<(usize, String, Field)> {
        let mut out = Vec::new();
        parts_of_fields(text, syntax, |p, field| {
            out.push((offset_in(text, p), p.to_string(), field))
        });
        out
    }

    /// This crate's `retrieval` sources: code, strings and comments of every kind.
    fn retrieval_sources() -> Vec<String> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/retrieval");
        std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| std::fs::read_to_string(entry.unwrap().path()).unwrap())
            .collect()
    }

    /// A text cut once gives each field the parts it has cut alone: on this crate's own
    /// sources (code, strings, comments of every kind) in every syntax.
    #[test]
    fn the_parts_of_a_text_cut_once_are_those_of_its_fields() {
        let mut compared = 0;
        for text in retrieval_sources() {
            for syntax in fields::every_syntax() {
                let want = parts_field_by_field(&text, syntax);
                assert_eq!(parts_once(&text, syntax), want);
                compared += want.len();
            }
        }
        assert!(compared > 10_000, "{compared}");
    }

    /// What [`count_fields`] gives of `text`: each field's length, and the parts it was
    /// asked about (those starting with `a`, `H` or `x`), with their offsets.
    fn counted_fields(text: &str, syntax: Syntax) -> ([u32; NF], Vec<(usize, String, Field)>) {
        let mut first = [false; 256];
        for b in [b'a', b'H', b'x'] {
            first[b as usize] = true;
        }
        let (mut len, mut asked) = ([0u32; NF], Vec::new());
        count_fields(text, syntax, &first, &mut len, |p, field| {
            asked.push((offset_in(text, p), p.to_string(), field));
        });
        (len, asked)
    }

    /// The same from the parts cut once, one by one.
    fn counted_part_by_part(
        text: &str,
        syntax: Syntax,
    ) -> ([u32; NF], Vec<(usize, String, Field)>) {
        let parts = parts_once(text, syntax);
        let mut len = [0u32; NF];
        for (_, _, field) in &parts {
            len[field.index()] += 1;
        }
        let asked = parts
            .into_iter()
            .filter(|(_, p, _)| matches!(p.as_bytes()[0], b'a' | b'H' | b'x'))
            .collect();
        (len, asked)
    }

    /// The fields' lengths counted from the starts' masks, and the parts asked about, are
    /// those of the parts made one by one: on this crate's sources in every syntax.
    #[test]
    fn fields_counted_by_their_starts_are_those_of_their_parts() {
        let mut asked = 0;
        for text in retrieval_sources() {
            for syntax in fields::every_syntax() {
                let want = counted_part_by_part(&text, syntax);
                assert_eq!(counted_fields(&text, syntax), want);
                asked += want.1.len();
            }
        }
        assert!(asked > 1_000, "{asked}");
    }

    proptest! {
        /// The same on texts drawn from delimiters, case humps, digits and letters outside
        /// ASCII.
        #[test]
        fn any_text_cut_once_gives_each_field_its_parts(
            text in "([\"'`#/*\\\n _]|[aZ9]|é|HTTPServer|x1Y){0,60}",
        ) {
            for syntax in fields::every_syntax() {
                prop_assert_eq!(parts_once(&text, syntax), parts_field_by_field(&text, syntax));
                prop_assert_eq!(counted_fields(&text, syntax), counted_part_by_part(&text, syntax));
            }
        }
    }

    /// The counts of `terms` from every term of a file, as `file_terms` lists them.
    fn listed((len, counts): FileTerms, terms: &[String]) -> FileCounts {
        let held = terms
            .iter()
            .enumerate()
            .filter_map(|(t, term)| counts.get(term).map(|&tf| (t, tf)))
            .collect();
        (len, held)
    }

    /// The counts of a few terms are what listing every term gives for them, in every field,
    /// for files of every syntax, a saturated one included.
    #[test]
    fn the_counts_of_some_terms_are_those_of_every_term() {
        let saturated = "word ".repeat(70_000);
        let tree = Tree::from_memory(
            "t",
            [
                ("src/gzip/header.rs", "/// Parses the gzip Header.\npub fn parse_header(h: &[u8]) -> Header { todo!(\"parsed\") }\nstruct HeaderParser;\n"),
                ("lib/parsing.py", "# parse it\ndef parse_headers(x):\n    '''Headers parsed'''\n    return 'header'\n"),
                ("docs/Parsing.md", "# Parsing headers\n\nThe header is parsed twice. Sparse parsers.\n"),
                ("big.txt", saturated.as_str()),
                ("data.bin", "\0binary header"),
            ],
        );
        let profile = Profile::default();
        let terms: Vec<String> = ["head", "pars", "word", "spars", "absent"]
            .map(String::from)
            .to_vec();
        let mut bytes = Vec::new();
        for f in tree.files() {
            let want = listed(file_terms(f, &profile), &terms);
            assert_eq!(
                counted_with_lines(f, &profile, &terms, &mut bytes).0,
                want,
                "{}",
                f.path
            );
        }
        // the terms held are those counted, whichever terms the file may hold
        for f in tree.files() {
            let ((_, counts), _) = counted_with_lines(f, &profile, &terms, &mut bytes);
            let all = vec![true; terms.len()];
            let held = held_terms(f, &terms, &all, &mut bytes);
            let want: Vec<bool> = (0..terms.len())
                .map(|k| counts.iter().any(|c| c.0 == k))
                .collect();
            assert_eq!(held, want, "{}", f.path);
            let only_first = held_terms(f, &terms, &[true, false, false, false, false], &mut bytes);
            assert_eq!(only_first[1..], [false; 4], "{}", f.path);
        }
        // the numbers are not empty: the test compares something
        let header = tree.file("src/gzip/header.rs").unwrap();
        let ((len, held), _) = counted_with_lines(header, &profile, &terms, &mut bytes);
        assert!(len.iter().all(|&l| l > 0), "{len:?}");
        assert_eq!(held.iter().map(|h| h.0).collect::<Vec<_>>(), [0, 1]);
    }

    /// The path field drops the last extension only: a dot in a directory or a name's
    /// leading dot starts none.
    #[test]
    fn the_path_field_is_the_path_without_its_last_extension() {
        let paths = [
            "src/a.rs",
            "src/archive.tar.gz",
            "src/.gitignore",
            "v1.2/Makefile",
            "notes.",
        ];
        let tree = Tree::from_memory("t", paths.map(|p| (p, "")));
        let cut: Vec<&str> = paths
            .iter()
            .map(|p| path_of(tree.file(p).unwrap()))
            .collect();
        assert_eq!(
            cut,
            [
                "src/a",
                "src/archive.tar",
                "src/.gitignore",
                "v1.2/Makefile",
                "notes."
            ]
        );
    }

    /// Source: a file of a scanned language, or of one of the profile's source extensions.
    #[test]
    fn a_file_is_source_by_its_language_or_its_extension() {
        let tree = Tree::from_memory("t", [("a.rs", ""), ("a.zig", ""), ("a.md", "")]);
        let profile = Profile::default();
        let source = ["a.rs", "a.zig", "a.md"].map(|p| is_source(tree.file(p).unwrap(), &profile));
        assert_eq!(source, [true, true, false]);
    }

    /// Numbers counted for some terms are given back for those terms only, in that order.
    #[test]
    fn counted_numbers_are_kept_for_their_terms() {
        let terms: Vec<String> = ["head", "pars"].map(String::from).to_vec();
        let mut counted = Counted::new(terms.clone());
        let numbers: CountsAndLines = (([1, 2, 3, 4], vec![(1, [0, 0, 5, 0])]), vec![(7, 1)]);
        counted.insert(3, numbers.clone());
        assert_eq!(counted.get(&terms, 3), Some(&numbers));
        assert_eq!(counted.get(&terms, 2), None);
        let swapped: Vec<String> = ["pars", "head"].map(String::from).to_vec();
        assert_eq!(counted.get(&swapped, 3), None);
    }

    /// The terms of a path are its parts' whole terms (`gz` begins `gzip` and is not one;
    /// `rs` is the extension), among those that may be held; a file's text is read only
    /// for those its path does not hold (`main`).
    #[test]
    fn the_terms_a_path_and_a_text_hold() {
        let tree = Tree::from_memory("t", [("src/gzip/x.rs", "fn main() {}\n")]);
        let file = tree.file("src/gzip/x.rs").unwrap();
        let terms: Vec<String> = ["gzip", "gz", "src", "rs", "main"]
            .map(String::from)
            .to_vec();
        let all = [true; 5];
        assert_eq!(
            path_terms(file, &terms, &all),
            [true, false, true, false, false]
        );
        let some = [false, true, true, true, true];
        assert_eq!(
            path_terms(file, &terms, &some),
            [false, false, true, false, false]
        );
        let mut bytes = Vec::new();
        let held = held_terms(file, &terms, &all, &mut bytes);
        assert_eq!(held, [true, false, true, false, true]);
    }
}
