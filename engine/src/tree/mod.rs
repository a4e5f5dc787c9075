//! A source tree loaded once: every file's path, folded stem, language, the symbols in its
//! first lines, and (read on first use) the text of the files `grep` and `ask` open.
//!
//! [`Tree::load`] is the only place code modes touch the filesystem. A process that answers
//! many queries on one root (the harness) loads it once and shares it (`Send + Sync`).
//!
//! Loading goes through the kept index ([`cache`]): paths, sizes, mtimes, symbols and word
//! posting lists on disk under the cache directory, refreshed from size and mtime. Then a
//! file's text is read only when a mode asks for it ([`TreeFile::text`]), and `grep` asks
//! only for the files [`Tree::candidates`] names. With [`TreeOptions::no_cache`] (or no
//! cache directory) every file is read and kept in memory, as a one-off walk needs.

mod blob;
pub(crate) mod cache;
pub mod paths;
pub(crate) mod postings;
pub mod symbol_table;
pub mod symbols;
mod walk;

pub use cache::{IndexState, IndexStats};

pub use paths::PathList;
pub use symbol_table::SymbolTable;
pub use symbols::{Language, Symbol, SymbolKind};

use crate::error::Result;
use crate::text::camel::snake;
use crate::text::char_bag::char_bag;
use crate::text::fold::fold;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// How a tree is walked and what is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeOptions {
    /// Files larger than this keep their path but not their text.
    pub max_file_bytes: u64,
    /// Honour `.gitignore`, `.ignore` and `.git/info/exclude` inside the root (never the
    /// user's global excludes, so that results do not depend on the machine).
    pub gitignore: bool,
    /// Include hidden files and directories (`.name`).
    pub hidden: bool,
    /// Follow symbolic links (loops are detected and skipped).
    pub follow_links: bool,
    /// Walker threads; 0 picks from the machine.
    pub threads: usize,
    /// Neither read nor write the kept index: walk and read every file (`--no-cache`).
    pub no_cache: bool,
    /// Where the index is kept; `None` is [`crate::cache_dir::cache_dir`] (`$FINDBENCH_CACHE`,
    /// else the platform cache directory).
    pub cache_dir: Option<PathBuf>,
}

impl Default for TreeOptions {
    fn default() -> Self {
        TreeOptions {
            max_file_bytes: 1 << 20,
            gitignore: true,
            hidden: false,
            follow_links: true,
            threads: 0,
            no_cache: false,
            cache_dir: None,
        }
    }
}

/// What is known of a file's content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// UTF-8 text (invalid sequences replaced) and its ASCII-folded copy of the same length.
    Text { text: String, folded: String },
    /// A NUL byte in the first 8 KiB.
    Binary,
    /// Larger than [`TreeOptions::max_file_bytes`].
    TooLarge,
    /// Could not be read; the reason.
    Unreadable(String),
}

impl Content {
    pub fn text(&self) -> Option<&str> {
        match self {
            Content::Text { text, .. } => Some(text),
            _ => None,
        }
    }

    pub fn folded(&self) -> Option<&str> {
        match self {
            Content::Text { folded, .. } => Some(folded),
            _ => None,
        }
    }

    /// What kind of content this is, without the text.
    pub fn kind(&self) -> ContentKind {
        match self {
            Content::Text { .. } => ContentKind::Text,
            Content::Binary => ContentKind::Binary,
            Content::TooLarge => ContentKind::TooLarge,
            Content::Unreadable(why) => ContentKind::Unreadable(why.clone()),
        }
    }
}

/// What kind of content a file has, as the index keeps it (the text is read on demand).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ContentKind {
    Text,
    Binary,
    TooLarge,
    Unreadable(String),
}

/// A text file's text and its ASCII-folded copy, once read.
#[derive(Debug, Clone)]
struct Loaded {
    text: String,
    folded: String,
}

/// Where a file's text is read from on first use.
#[derive(Debug)]
pub(crate) struct Source {
    root: PathBuf,
    max_file_bytes: u64,
}

/// The folded parts of a relative path that name a file.
pub(crate) struct PathParts {
    pub stem: String,
    pub stem_snake: String,
    pub dir: String,
    pub ext: String,
}

impl PathParts {
    pub(crate) fn of(path: &str) -> PathParts {
        let (dir, name) = match path.rfind('/') {
            Some(i) => (&path[..i], &path[i + 1..]),
            None => ("", path),
        };
        let (stem, ext) = match name.rfind('.') {
            Some(i) if i > 0 => (&name[..i], &name[i + 1..]),
            _ => (name, ""),
        };
        PathParts {
            stem: fold(stem),
            stem_snake: snake(stem),
            dir: fold(dir),
            ext: fold(ext),
        }
    }
}

/// [`TreeFile::name_bag`]: the characters of the stem, the directory and the symbols'
/// names (kept in the index, so that a warm load does not count them again).
pub(crate) fn name_bag_of(stem: &str, stem_snake: &str, dir: &str, symbols: &[Symbol]) -> u64 {
    symbols.iter().fold(
        char_bag(stem) | char_bag(stem_snake) | char_bag(dir),
        |bag, s| bag | char_bag(&s.snake),
    )
}

/// One file of the tree.
#[derive(Debug, Clone)]
pub struct TreeFile {
    /// Relative to the root, `/`-separated; a non-UTF-8 name is shown lossily.
    pub path: String,
    /// Folded file name without its last extension (`find_service` of `find_service.h`).
    pub stem: String,
    /// The stem's words joined by `_` (`command_router` of `CommandRouter.h`).
    pub stem_snake: String,
    /// Folded directory part, without a trailing `/` (empty at the root).
    pub dir: String,
    /// Folded last extension, without the dot.
    pub ext: String,
    pub language: Option<Language>,
    /// Bytes on disk (for a file built in memory, of its text).
    pub size: u64,
    /// The symbols, once decoded (set at construction for a file built in memory).
    symbols: OnceLock<Vec<Symbol>>,
    /// The tree's symbol table and this file's place in it, to decode them from.
    symbol_slot: Option<(Arc<SymbolTable>, u32)>,
    /// The letters and digits of the stem, directory and symbol names
    /// ([`crate::text::char_bag`]): a `find code` term with a character outside it matches
    /// no step of this file, so the file is skipped without a string search.
    pub name_bag: u64,
    kind: ContentKind,
    /// The text, once read (set at construction for a tree held in memory).
    loaded: OnceLock<Option<Loaded>>,
    /// Where to read the text from; `None` for a file built in memory.
    source: Option<Arc<Source>>,
}

impl TreeFile {
    /// Builds the file record for `path` (relative, `/`-separated) with its content.
    pub fn new(path: String, size: u64, content: Content) -> TreeFile {
        let parts = PathParts::of(&path);
        let symbols = match (Language::from_extension(&parts.ext), content.text()) {
            (Some(lang), Some(text)) => symbols::scan_file(lang, text),
            _ => Vec::new(),
        };
        let kind = content.kind();
        let loaded = OnceLock::new();
        if let Content::Text { text, folded } = content {
            let _ = loaded.set(Some(Loaded { text, folded }));
        }
        let name_bag = name_bag_of(&parts.stem, &parts.stem_snake, &parts.dir, &symbols);
        let file = TreeFile::with_parts(path, parts, size, kind, name_bag, loaded, None);
        let _ = file.symbols.set(symbols);
        file
    }

    /// A file of the kept index: its text is read from `source` when first asked for.
    /// Its symbols are decoded from `symbols` (where it is file `slot`) when first asked for.
    pub(crate) fn indexed(
        path: String,
        size: u64,
        kind: ContentKind,
        symbols: (Arc<SymbolTable>, u32),
        name_bag: u64,
        source: Arc<Source>,
    ) -> TreeFile {
        let parts = PathParts::of(&path);
        let mut file = TreeFile::with_parts(
            path,
            parts,
            size,
            kind,
            name_bag,
            OnceLock::new(),
            Some(source),
        );
        file.symbol_slot = Some(symbols);
        file
    }

    fn with_parts(
        path: String,
        parts: PathParts,
        size: u64,
        kind: ContentKind,
        name_bag: u64,
        loaded: OnceLock<Option<Loaded>>,
        source: Option<Arc<Source>>,
    ) -> TreeFile {
        let PathParts {
            stem,
            stem_snake,
            dir,
            ext,
        } = parts;
        let language = Language::from_extension(&ext);
        TreeFile {
            stem,
            stem_snake,
            dir,
            name_bag,
            ext,
            language,
            size,
            kind,
            symbols: OnceLock::new(),
            symbol_slot: None,
            path,
            loaded,
            source,
        }
    }

    /// The file's declarations, in line order (decoded from the tree's symbol table on
    /// first use, and kept).
    pub fn symbols(&self) -> &[Symbol] {
        self.symbols.get_or_init(|| self.decode_symbols())
    }

    /// The declarations for one pass over the whole tree: the kept ones when they were
    /// decoded already, else decoded now and not kept.
    pub fn symbols_once(&self) -> std::borrow::Cow<'_, [Symbol]> {
        match self.symbols.get() {
            Some(symbols) => std::borrow::Cow::Borrowed(symbols),
            None => std::borrow::Cow::Owned(self.decode_symbols()),
        }
    }

    fn decode_symbols(&self) -> Vec<Symbol> {
        self.symbol_slot
            .as_ref()
            .map(|(table, slot)| table.symbols_of(*slot as usize))
            .unwrap_or_default()
    }

    /// What kind of content the file has (known without reading it).
    pub fn content_kind(&self) -> &ContentKind {
        &self.kind
    }

    fn loaded(&self) -> Option<&Loaded> {
        if self.kind != ContentKind::Text {
            return None;
        }
        self.loaded
            .get_or_init(|| {
                let source = self.source.as_ref()?;
                let (_, content) =
                    walk::read_content(&source.root.join(&self.path), source.max_file_bytes);
                match content {
                    Content::Text { text, folded } => Some(Loaded { text, folded }),
                    _ => None,
                }
            })
            .as_ref()
    }

    /// The file's text for one pass over the whole tree: the kept text when it was read
    /// already, else read now and not kept (so that a pass over every file does not hold
    /// the whole tree in memory).
    pub fn text_once(&self) -> Option<std::borrow::Cow<'_, str>> {
        self.text_and_folded_once().map(|(text, _)| text)
    }

    /// The text and its folded copy for one use: borrowed when kept, else read now and not
    /// kept (a search over many candidates holds one file at a time, not all of them).
    pub fn text_and_folded_once(
        &self,
    ) -> Option<(std::borrow::Cow<'_, str>, std::borrow::Cow<'_, str>)> {
        use std::borrow::Cow;
        if self.kind != ContentKind::Text {
            return None;
        }
        if let Some(loaded) = self.loaded.get() {
            return loaded.as_ref().map(|l| {
                (
                    Cow::Borrowed(l.text.as_str()),
                    Cow::Borrowed(l.folded.as_str()),
                )
            });
        }
        let source = self.source.as_ref()?;
        match walk::read_content(&source.root.join(&self.path), source.max_file_bytes).1 {
            Content::Text { text, folded } => Some((Cow::Owned(text), Cow::Owned(folded))),
            _ => None,
        }
    }

    /// The first `n` bytes of [`TreeFile::folded`] (cut back to a character boundary),
    /// reading only the start of the file when its text is not kept: what a check of a
    /// file's header needs, without holding every candidate's text.
    pub fn folded_head(&self, n: usize) -> Option<std::borrow::Cow<'_, str>> {
        if self.kind != ContentKind::Text {
            return None;
        }
        if let Some(loaded) = self.loaded.get() {
            return loaded.as_ref().map(|l| {
                let mut end = l.folded.len().min(n);
                while !l.folded.is_char_boundary(end) {
                    end -= 1;
                }
                std::borrow::Cow::Borrowed(&l.folded[..end])
            });
        }
        let source = self.source.as_ref()?;
        walk::read_folded_head(&source.root.join(&self.path), source.max_file_bytes, n)
            .map(std::borrow::Cow::Owned)
    }

    /// The file's text, when it is a readable text file (read on first use and kept). Code
    /// outside `tree/` reads text only through this, [`TreeFile::folded`] and
    /// [`TreeFile::read`], so that how text is kept can change here alone.
    pub fn text(&self) -> Option<&str> {
        self.loaded().map(|l| l.text.as_str())
    }

    /// The ASCII-folded copy of [`TreeFile::text`], byte for byte the same length.
    pub fn folded(&self) -> Option<&str> {
        self.loaded().map(|l| l.folded.as_str())
    }

    /// The text and its folded copy, or why there is none, in words for a person:
    /// `binary file`, `too large to read`, `unreadable: <reason>`.
    pub fn read(&self) -> std::result::Result<(&str, &str), String> {
        match &self.kind {
            ContentKind::Binary => Err("binary file".into()),
            ContentKind::TooLarge => Err("too large to read".into()),
            ContentKind::Unreadable(why) => Err(format!("unreadable: {why}")),
            ContentKind::Text => match self.loaded() {
                Some(l) => Ok((&l.text, &l.folded)),
                None => Err("unreadable: changed or removed since the tree was indexed".into()),
            },
        }
    }
}

/// The last extension of a `/`-separated path, without the dot (empty when none).
fn extension(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name.rfind('.') {
        Some(i) if i > 0 => &name[i + 1..],
        _ => "",
    }
}

/// Counts of what the walk met but could not index fully.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WalkReport {
    pub files: usize,
    pub binary: usize,
    pub too_large: usize,
    pub unreadable: usize,
    /// Walk errors: symlink loops, unreadable directories, broken links.
    pub errors: usize,
    /// The first few walk errors, for a person to read.
    pub messages: Vec<String>,
}

/// An indexed source tree.
#[derive(Debug)]
pub struct Tree {
    root: PathBuf,
    files: Vec<TreeFile>,
    paths: PathList,
    report: WalkReport,
    dump_bytes: usize,
    /// Every file's symbols, files in order.
    symbols: Arc<SymbolTable>,
    /// The kept index's word lists; `None` for a tree held in memory.
    postings: Option<postings::Lazy>,
    /// Where derived statistics of this tree may be kept, and the stamp of the content
    /// they must match; `None` for a tree held in memory (`--no-cache`).
    kept: Option<KeptStamp>,
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
    /// The tree at `root`: from the kept index, refreshed for what changed since (files
    /// whose size or mtime differ are read again, added and removed ones are seen), or, with
    /// [`TreeOptions::no_cache`] or no cache directory, by walking and reading every file.
    pub fn load(root: &Path, options: &TreeOptions) -> Result<Tree> {
        if !options.no_cache {
            if let Some(dir) = options
                .cache_dir
                .clone()
                .or_else(crate::cache_dir::cache_dir)
            {
                return cache::open(root, options, &dir).map(|(tree, _)| tree);
            }
        }
        let (files, report) = walk::walk_in_memory(root, options)?;
        Ok(Tree::from_files(
            root.to_path_buf(),
            files,
            report,
            None,
            None,
        ))
    }

    /// Builds or refreshes the kept index of `root` and says what it holds (`findbench
    /// index DIR`). An error when caching is off or no cache directory is known.
    pub fn index(root: &Path, options: &TreeOptions) -> Result<IndexStats> {
        Tree::index_and_load(root, options).map(|(_, stats)| stats)
    }

    /// [`Tree::index`], and the tree it now holds (what is derived from the tree can then be
    /// kept beside the index without loading it again).
    pub fn index_and_load(root: &Path, options: &TreeOptions) -> Result<(Tree, IndexStats)> {
        if options.no_cache {
            return Err(crate::error::EngineError::invalid(
                "the index is not kept with --no-cache",
            ));
        }
        let dir = options
            .cache_dir
            .clone()
            .or_else(crate::cache_dir::cache_dir)
            .ok_or_else(|| {
                crate::error::EngineError::invalid_with_hint(
                    "no cache directory: neither FINDBENCH_CACHE nor a home directory is set",
                    "set FINDBENCH_CACHE to a writable directory",
                )
            })?;
        cache::open(root, options, &dir)
    }

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
            None => (0..self.files.len()).collect(),
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
    fn from_files(
        root: PathBuf,
        mut files: Vec<TreeFile>,
        mut report: WalkReport,
        postings: Option<postings::Lazy>,
        symbols: Option<Arc<SymbolTable>>,
    ) -> Tree {
        // byte order of the shown path: stable whatever order the walker threads finished in
        if postings.is_none() && symbols.is_none() {
            files.sort_by(|a, b| a.path.cmp(&b.path));
        }
        let symbols = symbols
            .unwrap_or_else(|| Arc::new(SymbolTable::build(files.iter().map(TreeFile::symbols))));
        let total: usize = files.iter().map(|f| f.path.len()).sum();
        let mut paths = PathList::with_capacity(&root.display().to_string(), total, files.len());
        for f in &files {
            paths.push(&f.path);
        }
        // What an agent without find tools reads: the whole listing, then every text file.
        let dump_bytes = paths.listing_bytes()
            + files
                .iter()
                .filter(|f| f.kind == ContentKind::Text)
                .map(|f| f.size as usize)
                .sum::<usize>();
        // the counts follow the files, so they are the same whether the tree was walked,
        // kept in the index or refreshed
        report.files = files.len();
        report.binary = 0;
        report.too_large = 0;
        report.unreadable = 0;
        for f in &files {
            match f.kind {
                ContentKind::Binary => report.binary += 1,
                ContentKind::TooLarge => report.too_large += 1,
                ContentKind::Unreadable(_) => report.unreadable += 1,
                ContentKind::Text => {}
            }
        }
        Tree {
            root,
            files,
            paths,
            report,
            dump_bytes,
            symbols,
            postings,
            kept: None,
        }
    }

    /// Where statistics derived from this tree may be kept, when it came from the kept
    /// index and every file's mtime is trusted.
    pub fn kept(&self) -> Option<&KeptStamp> {
        self.kept.as_ref()
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Every file's symbols in one table ([`TreeFile::symbols`] decodes one file's).
    pub fn symbol_table(&self) -> &SymbolTable {
        &self.symbols
    }

    /// Every file, ordered by path.
    pub fn files(&self) -> &[TreeFile] {
        &self.files
    }

    /// The paths of [`Tree::files`], same order, indexed for `find path`.
    pub fn paths(&self) -> &PathList {
        &self.paths
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    pub fn report(&self) -> &WalkReport {
        &self.report
    }

    /// Bytes of the whole listing plus the text of every readable text file.
    pub fn dump_bytes(&self) -> usize {
        self.dump_bytes
    }

    /// The file at `path`, if the tree has it.
    pub fn file(&self, path: &str) -> Option<&TreeFile> {
        self.files
            .binary_search_by(|f| f.path.as_str().cmp(path))
            .ok()
            .map(|i| &self.files[i])
    }
}
