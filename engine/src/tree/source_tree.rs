//! An indexed source tree: its files in path order, their paths for `find path`, every
//! file's symbols in one table and, for a tree from the kept index, its word posting lists.

use super::content::{Content, ContentKind};
use super::file::{name_bag_of, TreeFile};
use super::options::TreeOptions;
use super::paths::PathList;
use super::postings;
use super::report::WalkReport;
use super::scanned::Scanned;
use super::symbol_table::SymbolTable;
use crate::worker_scratch::FILES_PER_JOB;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// An indexed source tree.
#[derive(Debug)]
pub struct Tree {
    root: PathBuf,
    /// Shared by a partial tree with the tree it was made from ([`Tree::with_some_symbols`]).
    files: Arc<Vec<TreeFile>>,
    /// The files' name bags where they differ from the files' own: a partial tree's, whose
    /// table holds names of files it shares with the tree it was made from
    /// ([`Tree::name_bag`]).
    name_bags: Option<Arc<Vec<u64>>>,
    /// The files' paths for `find path`, listed on first use: no other mode reads them
    /// (listing them held up a first `ask` before its first read, and again for each
    /// partial tree it made).
    paths: OnceLock<PathList>,
    /// What the walk met besides files (its errors); the counts per kind are in `counted`.
    walk: WalkReport,
    /// The walk report with its counts per kind, and the dump size: counted on first use,
    /// as they ask every file's kind, which a tree walked without the kept index learns
    /// only when it reads the file.
    counted: OnceLock<Counted>,
    /// Every file's symbols, files in order.
    symbols: Arc<SymbolTable>,
    /// The kept index's word lists; `None` for a tree held in memory.
    postings: Option<postings::Lazy>,
    /// Where derived statistics of this tree may be kept, and the stamp of the content
    /// they must match; `None` for a tree held in memory (`--no-cache`).
    pub(super) kept: Option<KeptStamp>,
    /// The words each file was searched for and holds, for a tree `ask` answers without
    /// the kept index: what [`Tree::candidates`] narrows by when there are no posting lists.
    pub(super) held: Option<Arc<HeldWords>>,
    /// A tree loaded without its kept index (none was usable): how to build it when a mode
    /// needs all of it ([`Tree::ready`]).
    pub(super) cold: Option<Arc<Cold>>,
    /// What a mode derived from this tree for one call and hands on with it (the ranking
    /// statistics the first `ask` on a root computes for its question): opaque here.
    attached: Option<Attached>,
}

/// What [`Tree::report`] and [`Tree::dump_bytes`] give.
#[derive(Debug)]
struct Counted {
    report: WalkReport,
    dump_bytes: usize,
}

impl Counted {
    /// Counts `files` by kind into the walk's report: the same whether the tree was walked,
    /// kept in the index or refreshed.
    fn of(walk: &WalkReport, files: &[TreeFile]) -> Counted {
        // a tree walked without the kept index probes the files no read has met yet, in
        // parallel as the walk of a tree did when it probed every file
        files
            .par_iter()
            .with_max_len(FILES_PER_JOB)
            .filter(|f| f.known_kind().is_none())
            .for_each(|f| {
                f.content_kind();
            });
        let mut report = walk.clone();
        report.files = files.len();
        report.binary = 0;
        report.too_large = 0;
        report.unreadable = 0;
        // what an agent without find tools reads: the whole listing, then every text file
        // the listing: each path and its newline, as `PathList::listing_bytes` counts it
        let mut dump_bytes: usize = files.iter().map(|f| f.path.len() + 1).sum();
        for f in files {
            match f.content_kind() {
                ContentKind::Binary => report.binary += 1,
                ContentKind::TooLarge => report.too_large += 1,
                ContentKind::Unreadable(_) => report.unreadable += 1,
                ContentKind::Text => dump_bytes += f.size() as usize,
            }
        }
        Counted { report, dump_bytes }
    }
}

/// A value of any type riding along with a tree ([`Tree::attached`]).
#[derive(Clone)]
struct Attached(Arc<dyn std::any::Any + Send + Sync>);

impl std::fmt::Debug for Attached {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Attached")
    }
}

/// What a tree loaded without its kept index needs to build it later.
#[derive(Debug)]
pub(crate) struct Cold {
    pub(super) options: TreeOptions,
    pub(super) cache_dir: PathBuf,
    /// The tree from the kept index, built on first need.
    pub(super) built: std::sync::OnceLock<std::result::Result<Tree, String>>,
}

/// The identity of a tree loaded from the kept index, for what is derived from it and kept
/// beside it (the ranking statistics of `retrieval/kept.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptStamp {
    /// The tree index file; derived files sit beside it with their own extension.
    pub index_path: PathBuf,
    /// A hash of the root and of every file's path, size and mtime.
    pub stamp: u64,
}

impl Tree {
    /// The files that may contain every one of `needles` (strings matched case-insensitively
    /// as substrings of a file's text), as indices into [`Tree::files`], ascending. From the
    /// posting lists when the tree has them (a superset of the files that match: the caller
    /// still checks each file's text); every file otherwise.
    pub fn candidates<S: AsRef<[u8]>>(&self, needles: &[S]) -> Vec<usize> {
        match self
            .postings
            .as_ref()
            .and_then(postings::Lazy::get)
            .and_then(|p| p.candidates(needles, self.files.len()))
        {
            Some(bits) => postings::bit_indices(&bits),
            None => match &self.held {
                Some(held) => held.candidates(needles, self.files.len()),
                None => (0..self.files.len()).collect(),
            },
        }
    }

    /// Indexes files already in memory (paths relative, `/`-separated); for tests and
    /// generated benchmark trees.
    pub fn from_memory<'a>(
        name: &str,
        files: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Tree {
        let files = files
            .into_iter()
            .map(|(path, text)| {
                TreeFile::new(
                    path.to_string(),
                    text.len() as u64,
                    Content::Text {
                        text: text.to_string(),
                        folded: text.to_ascii_lowercase(),
                    },
                )
            })
            .collect();
        let report = WalkReport::default();
        Tree::from_files(PathBuf::from(name), files, report, None, None)
    }

    /// Indexes file records built by the caller (for tests of unreadable or binary files).
    pub fn from_parts(name: &str, files: Vec<TreeFile>) -> Tree {
        Tree::from_files(
            PathBuf::from(name),
            files,
            WalkReport::default(),
            None,
            None,
        )
    }

    /// `files` must be sorted by path when `postings` or `symbols` is given (their file
    /// numbers are positions in that order); without `symbols`, the table is built from the
    /// files' own.
    pub(super) fn from_files(
        root: PathBuf,
        mut files: Vec<TreeFile>,
        walk: WalkReport,
        postings: Option<postings::Lazy>,
        symbols: Option<Arc<SymbolTable>>,
    ) -> Tree {
        // byte order of the shown path: stable whatever order the walker threads finished in
        if postings.is_none() && symbols.is_none() {
            files.sort_by(|a, b| a.path.cmp(&b.path));
        }
        let symbols = symbols
            .unwrap_or_else(|| Arc::new(SymbolTable::build(files.iter().map(TreeFile::symbols))));
        Tree {
            root,
            files: Arc::new(files),
            name_bags: None,
            paths: OnceLock::new(),
            walk,
            counted: OnceLock::new(),
            symbols,
            postings,
            kept: None,
            held: None,
            cold: None,
            attached: None,
        }
    }

    /// This tree carrying `value` for the modes that look for it ([`Tree::attached`]).
    pub(crate) fn attach(&mut self, value: Arc<dyn std::any::Any + Send + Sync>) {
        self.attached = Some(Attached(value));
    }

    /// The value attached to this tree, when there is one of type `T`.
    pub(crate) fn attached<T: std::any::Any + Send + Sync>(&self) -> Option<Arc<T>> {
        let value = self.attached.as_ref()?.0.clone();
        value.downcast::<T>().ok()
    }

    /// Where statistics derived from this tree may be kept, when it came from the kept
    /// index and every file's mtime is trusted.
    pub fn kept(&self) -> Option<&KeptStamp> {
        self.kept.as_ref()
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Every file's symbols in one table ([`TreeFile::symbols`] decodes one file's). A tree
    /// loaded without its kept index holds no table: the index's is built for it
    /// ([`Tree::ready`]; modes that need the table run on that tree).
    pub fn symbol_table(&self) -> &SymbolTable {
        match &self.cold {
            Some(_) => self.ready().map_or(&self.symbols, |t| &t.symbols),
            None => &self.symbols,
        }
    }

    /// A tree of these files whose symbol table holds the symbols given (`symbols[i]`
    /// what is known of file `i`'s) and knows which keys it answers in full
    /// ([`SymbolTable`]'s coverage): what `ask` runs on for the first call on a root. The
    /// files are this tree's, shared, not copied (a copy of every file record was a tenth
    /// of the call's page faults); a file scans its symbols from its text when a mode asks
    /// for them (a lookup finds them in the table), and its name bag counts the names the
    /// table holds of it ([`Tree::name_bag`]).
    pub(crate) fn with_some_symbols(
        &self,
        symbols: &[Scanned],
        coverage: Arc<super::symbol_table::Coverage>,
        held: HeldWords,
    ) -> Tree {
        let table = Arc::new(
            SymbolTable::build(symbols.iter().map(Scanned::symbols)).with_coverage(coverage),
        );
        let name_bags: Vec<u64> = self
            .files
            .par_iter()
            .zip(symbols)
            .enumerate()
            .map(|(i, (f, s))| match s {
                Scanned::Not => self.name_bag(i),
                // the names the table holds of it count in its name bag
                s => self.name_bag(i) | name_bag_of(&f.stem, &f.stem_snake, &f.dir, s.symbols()),
            })
            .collect();
        Tree {
            root: self.root.clone(),
            files: self.files.clone(),
            name_bags: Some(Arc::new(name_bags)),
            paths: OnceLock::new(),
            walk: self.walk.clone(),
            counted: OnceLock::new(),
            symbols: table,
            postings: None,
            kept: None,
            held: Some(Arc::new(held)),
            cold: None,
            attached: None,
        }
    }

    /// File `i`'s name bag: the letters and digits of its stem, directory and the names of
    /// its symbols this tree's table holds ([`TreeFile::name_bag`]; a file a partial tree
    /// shares has the names its table holds counted too).
    pub(crate) fn name_bag(&self, i: usize) -> u64 {
        match &self.name_bags {
            Some(bags) => bags[i],
            None => self.files[i].name_bag,
        }
    }

    /// The words every file's text was searched for and which each holds, when the tree
    /// was made with them ([`Tree::with_some_symbols`]).
    pub(crate) fn held_words(&self) -> Option<&HeldWords> {
        self.held.as_deref()
    }

    /// Every file, ordered by path.
    pub fn files(&self) -> &[TreeFile] {
        &self.files
    }

    /// The paths of [`Tree::files`], same order, indexed for `find path`.
    pub fn paths(&self) -> &PathList {
        self.paths.get_or_init(|| {
            let total: usize = self.files.iter().map(|f| f.path.len()).sum();
            let source = self.root.display().to_string();
            let mut paths = PathList::with_capacity(&source, total, self.files.len());
            for f in self.files.iter() {
                paths.push(&f.path);
            }
            paths
        })
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// What the walk met: files, and those it could not index fully. On a tree walked
    /// without the kept index, this asks every file's kind (probing the files no read has
    /// met yet).
    pub fn report(&self) -> &WalkReport {
        &self.counted().report
    }

    /// Bytes of the whole listing plus the text of every readable text file (asks every
    /// file's kind, as [`Tree::report`] does).
    pub fn dump_bytes(&self) -> usize {
        self.counted().dump_bytes
    }

    fn counted(&self) -> &Counted {
        self.counted
            .get_or_init(|| Counted::of(&self.walk, &self.files))
    }

    /// The file at `path`, if the tree has it.
    pub fn file(&self, path: &str) -> Option<&TreeFile> {
        self.files
            .binary_search_by(|f| f.path.as_str().cmp(path))
            .ok()
            .map(|i| &self.files[i])
    }
}

/// Words every file was searched for (ASCII-folded, as the posting lists' pieces are), and
/// which of them each file holds: the candidates of a grep whose pieces are all among them.
#[derive(Debug, Default)]
pub(crate) struct HeldWords {
    /// Each word's bit.
    pub ids: std::collections::HashMap<Vec<u8>, usize>,
    /// Per file, the bits of the words it holds (at most 128 words).
    pub files: Vec<u128>,
    /// Per file, the bits of the words of `term_ids` its text holds as a term
    /// (`retrieval::tokens::holds_term`), not only as letters.
    pub terms: Vec<u128>,
    /// The words whose holding as a term was checked.
    pub term_ids: u128,
}

/// A word of [`HeldWords::word`]: its id when the pass searched every file for it, and
/// whether it also checked that it is held as a term.
#[derive(Debug, Clone, Copy)]
pub(crate) struct HeldWord {
    id: Option<usize>,
    as_term: bool,
}

impl HeldWords {
    /// `word` (ASCII-folded) as the pass knew it, looked up once for every file's
    /// [`HeldWords::may_hold`] and [`HeldWords::holds_as_term`].
    pub(crate) fn word(&self, word: &[u8]) -> HeldWord {
        let id = self.ids.get(word).copied().filter(|&id| id < 128);
        HeldWord {
            id,
            as_term: id.is_some_and(|id| self.term_ids & (1 << id) != 0),
        }
    }

    /// Whether file `file`'s text holds `word` as a term, when the pass checked that word.
    pub(crate) fn holds_as_term(&self, file: usize, word: HeldWord) -> Option<bool> {
        match word.id {
            Some(id) if word.as_term => {
                Some(self.terms.get(file).is_some_and(|t| t & (1 << id) != 0))
            }
            _ => None,
        }
    }

    /// False when file `file`'s text was searched for `word` and does not hold it; true
    /// otherwise (held, or not searched for).
    pub(crate) fn may_hold(&self, file: usize, word: HeldWord) -> bool {
        match (word.id, self.files.get(file)) {
            (Some(id), Some(held)) => held & (1 << id) != 0,
            _ => true,
        }
    }

    /// The files that hold every piece of `needles` that was searched for (every file
    /// when none was), ascending.
    fn candidates<S: AsRef<[u8]>>(&self, needles: &[S], files: usize) -> Vec<usize> {
        let mut wanted = 0u128;
        for needle in needles {
            for piece in postings::pieces_of(needle.as_ref()) {
                match self.ids.get(&piece) {
                    Some(&id) if id < 128 => wanted |= 1 << id,
                    _ => {}
                }
            }
        }
        (0..files)
            .filter(|&i| self.files.get(i).is_none_or(|held| held & wanted == wanted))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A word the pass searched every file for says which files may hold it; whether a
    /// file holds it as a term is known only for a word it checked as one, and for no word
    /// past the tracked 128 or not searched for.
    #[test]
    fn a_word_is_known_as_the_pass_searched_for_it() {
        let held = HeldWords {
            ids: [
                (b"gzip".to_vec(), 0),
                (b"head".to_vec(), 1),
                (b"late".to_vec(), 200),
            ]
            .into_iter()
            .collect(),
            files: vec![0b11, 0b01],
            terms: vec![0b01, 0b00],
            term_ids: 0b01,
        };
        let (gzip, head) = (held.word(b"gzip"), held.word(b"head"));
        assert_eq!(held.holds_as_term(0, gzip), Some(true));
        assert_eq!(held.holds_as_term(1, gzip), Some(false));
        // searched for as letters only: whether it is a term is not known
        assert_eq!(held.holds_as_term(0, head), None);
        assert!(held.may_hold(0, head) && !held.may_hold(1, head));
        for unknown in [held.word(b"zzz"), held.word(b"late")] {
            assert_eq!(held.holds_as_term(0, unknown), None);
            assert!(held.may_hold(0, unknown) && held.may_hold(1, unknown));
        }
    }
}
