//! A source tree: its files in path order, their paths for `find path`, a symbol table,
//! and what it knows of its files ([`TreeState`]: every file's symbols, with the kept
//! index's word posting lists; none yet; or what a first call's pass found).

use super::content::{Content, ContentKind};
use super::edits::Overlay;
use super::file::TreeFile;
use super::history::{History, HistoryReader, TreeHistory};
use super::options::TreeOptions;
use super::paths::PathList;
use super::postings;
use super::report::WalkReport;
use super::symbol_table::SymbolTable;
use crate::first_call::state::FirstCallState;
use crate::worker_scratch::FILES_PER_JOB;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// A source tree.
#[derive(Debug)]
pub struct Tree {
    root: PathBuf,
    /// Shared by a first call's tree with the unindexed tree it was made from
    /// ([`Tree::for_first_call`]).
    files: Arc<Vec<TreeFile>>,
    /// The files' paths for `find path`, listed on first use: no other mode reads them
    /// (listing them held up a first `ask` before its first read, and again for each
    /// tree it made).
    paths: OnceLock<PathList>,
    /// What the walk met besides files (its errors); the counts per kind are in `counted`.
    walk: WalkReport,
    /// The walk report with its counts per kind, and the dump size: counted on first use,
    /// as they ask every file's kind, which a tree walked without the kept index learns
    /// only when it reads the file.
    counted: OnceLock<Counted>,
    /// The symbols of every file ([`TreeState::Indexed`]), of none ([`TreeState::Unindexed`])
    /// or of the files a first call scanned ([`TreeState::FirstCall`]), files in order.
    symbols: Arc<SymbolTable>,
    /// Where derived statistics of this tree may be kept, and the stamp of the content
    /// they must match; `None` for a tree held in memory (`--no-cache`).
    pub(super) kept: Option<KeptStamp>,
    /// The files changed since the kept index was written, laid over it (`tree/edits.rs`):
    /// the symbols of those read again are in its table, not in `symbols`.
    pub(super) overlay: Option<Arc<Overlay>>,
    /// What the tree knows of its files, and so what a mode may ask of it.
    pub(super) state: TreeState,
    /// The commits before the tree's revision, as its caller read them
    /// ([`Tree::set_history`]); shared by a first call's tree.
    pub(super) history: Arc<TreeHistory>,
    /// This tree's number among the trees the process made: what keeps statistics derived
    /// from it apart from another's (`retrieval::index_for`), whatever address it has.
    serial: u64,
}

/// The number of the next tree the process makes.
static NEXT_SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn next_serial() -> u64 {
    NEXT_SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// What a tree knows of its files: the modes match on it ([`Tree::state`]).
#[derive(Debug)]
pub(crate) enum TreeState {
    /// Every file's symbols are in the table: the files read into memory (`--no-cache`,
    /// tests), or the kept index's, with its word posting lists.
    Indexed { postings: Option<postings::Lazy> },
    /// Loaded without its kept index (none was usable): every file's path and no symbol
    /// table. `ask` and `find code` answer a first call from a pass over the files
    /// (`first_call/mod.rs`); a mode that needs the whole tree builds the index
    /// ([`Tree::ready`]).
    Unindexed(Box<Unindexed>),
    /// What a first call answers on: an unindexed tree's files, with a table of the symbols
    /// of the files its pass scanned and what that pass found ([`Tree::for_first_call`]).
    FirstCall(Box<FirstCallState>),
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

/// What a tree loaded without its kept index needs to build it later.
#[derive(Debug)]
pub(crate) struct Unindexed {
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
    /// A hash of the root and of every file's path, size and mtime, as the index holds them.
    pub stamp: u64,
    /// The files read again since (edited or added; their numbers, ascending): what is
    /// derived from the tree and kept under `stamp` must be laid over for them, and for
    /// the files removed (`tree/edits.rs`).
    pub edited: Vec<u32>,
}

impl Tree {
    /// The files that may contain every one of `needles` (strings matched case-insensitively
    /// as substrings of a file's text), as indices into [`Tree::files`], ascending. From the
    /// posting lists when the tree has them (a superset of the files that match: the caller
    /// still checks each file's text); every file otherwise.
    pub fn candidates<S: AsRef<[u8]>>(&self, needles: &[S]) -> Vec<usize> {
        let all = || (0..self.files.len()).collect();
        match &self.state {
            TreeState::Indexed { postings } => match postings
                .as_ref()
                .and_then(postings::Lazy::get)
                .and_then(|p| p.candidates(needles, self.files.len()))
            {
                Some(bits) => postings::bit_indices(&self.laid_over_candidates(bits)),
                None => all(),
            },
            TreeState::FirstCall(first_call) => {
                first_call.held.candidates(needles, self.files.len())
            }
            TreeState::Unindexed(_) => all(),
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
            paths: OnceLock::new(),
            walk,
            counted: OnceLock::new(),
            symbols,
            kept: None,
            overlay: None,
            state: TreeState::Indexed { postings },
            history: Arc::default(),
            serial: next_serial(),
        }
    }

    /// What this tree knows of its files.
    pub(crate) fn state(&self) -> &TreeState {
        &self.state
    }

    /// What this tree knows besides its files and its table, when it is a first call's.
    pub(crate) fn first_call_mut(&mut self) -> Option<&mut FirstCallState> {
        match &mut self.state {
            TreeState::FirstCall(first_call) => Some(first_call),
            _ => None,
        }
    }

    /// Where statistics derived from this tree may be kept, when it came from the kept
    /// index and every file's mtime is trusted.
    /// This tree's number among the trees the process made (no two share one).
    pub(crate) fn serial(&self) -> u64 {
        self.serial
    }

    pub fn kept(&self) -> Option<&KeptStamp> {
        self.kept.as_ref()
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Gives the tree the history of the commits before its revision, which `ask` weighs
    /// a task's files by (`retrieval/history.rs`); the engine reads no history itself.
    /// `false` when the tree already has one (it is kept).
    pub fn set_history(&self, history: History) -> bool {
        self.history.set(history)
    }

    /// Gives the tree a way to read its history when a ranking first wants it (a call
    /// that weighs none never runs it). `false` when it has a history or a reader already.
    pub fn set_history_reader(&self, reader: HistoryReader) -> bool {
        self.history.set_reader(reader)
    }

    /// True when the tree's caller gave it a history or a reader of one.
    pub fn has_history(&self) -> bool {
        self.history.is_given()
    }

    /// The history its caller gave the tree, read now if it gave a reader; `None` if
    /// neither, or the reader found none.
    pub fn history(&self) -> Option<&History> {
        self.history.get()
    }

    /// Every file's symbols in one table ([`TreeFile::symbols`] decodes one file's). A tree
    /// loaded without its kept index holds no table: the index's is built for it
    /// ([`Tree::ready`]; modes that need the table run on that tree).
    pub fn symbol_table(&self) -> &SymbolTable {
        match &self.state {
            TreeState::Unindexed(_) => self.ready().map_or(&self.symbols, |t| &t.symbols),
            TreeState::Indexed { .. } | TreeState::FirstCall(_) => &self.symbols,
        }
    }

    /// A first call's tree of these files, whose table holds the symbols `symbols` holds
    /// and knows which keys it answers in full ([`SymbolTable`]'s coverage). The files are
    /// this tree's, shared, not copied (a copy of every file record was a tenth of the
    /// call's page faults); a file scans its symbols from its text when a mode asks for
    /// them (a lookup finds them in the table).
    pub(crate) fn for_first_call(&self, symbols: SymbolTable, state: FirstCallState) -> Tree {
        Tree {
            root: self.root.clone(),
            files: self.files.clone(),
            paths: OnceLock::new(),
            walk: self.walk.clone(),
            counted: OnceLock::new(),
            symbols: Arc::new(symbols),
            kept: None,
            overlay: None,
            state: TreeState::FirstCall(Box::new(state)),
            history: self.history.clone(),
            serial: next_serial(),
        }
    }

    /// File `i`'s name bag: the letters and digits of its stem, directory and the names of
    /// its symbols this tree's table holds ([`TreeFile::name_bag`]; a file a first call's
    /// tree shares has the names its table holds counted too).
    pub(crate) fn name_bag(&self, i: usize) -> u64 {
        match &self.state {
            TreeState::FirstCall(first_call) => first_call.name_bags[i],
            TreeState::Indexed { .. } | TreeState::Unindexed(_) => self.files[i].name_bag,
        }
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

impl Tree {
    /// The changes laid over the kept index, if any.
    pub(crate) fn overlay(&self) -> Option<&Arc<Overlay>> {
        self.overlay.as_ref()
    }

    /// The table that holds file `file`'s symbols, and the file's number in it: the tree's
    /// ([`Tree::symbol_table`]), or for a file read again the overlay's own.
    pub(crate) fn table_of(&self, file: usize) -> (&SymbolTable, usize) {
        match self.overlay.as_deref() {
            None => (self.symbol_table(), file),
            Some(o) => match o.position(file) {
                Some(k) => (&o.table, k),
                None => (self.symbol_table(), o.in_index(file)),
            },
        }
    }

    /// True when some symbol of the tree's files has the snake form `key`: in the tree's
    /// table, with the overlay's files read again instead of those the index holds.
    pub(crate) fn names(&self, key: &str) -> bool {
        let table = self.symbol_table();
        match self.overlay.as_deref() {
            None => table.names(key),
            Some(o) => {
                o.table.names(key)
                    || table
                        .named(key)
                        .into_iter()
                        .any(|sym| o.in_tree(table.file_of(sym) as u32).is_some())
            }
        }
    }

    /// The tree's files of the index's candidate files `old` (bits by the index's
    /// numbers), with every file read again: its words are not in the lists.
    pub(crate) fn laid_over_candidates(&self, old: Vec<u64>) -> Vec<u64> {
        let Some(o) = self.overlay.as_deref() else {
            return old;
        };
        let mut bits = match o.new_of_old.is_empty() {
            true => old,
            false => {
                let mut bits = vec![0u64; self.len().div_ceil(64)];
                for new in postings::bit_indices(&old)
                    .into_iter()
                    .filter_map(|i| o.in_tree(i as u32))
                {
                    bits[new as usize / 64] |= 1 << (new % 64);
                }
                bits
            }
        };
        bits.resize(self.len().div_ceil(64), 0);
        for &i in &o.ids {
            bits[i as usize / 64] |= 1 << (i % 64);
        }
        bits
    }
}
