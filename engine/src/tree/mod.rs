//! A source tree loaded once: every file's path, folded stem, language, the symbols in its
//! first lines, and the text of the files `grep` and the symbol scan need.
//!
//! [`Tree::load`] is the only place code modes touch the filesystem. A process that answers
//! many queries on one root (the harness) loads it once and shares it (`Send + Sync`).

pub mod paths;
pub mod symbols;
mod walk;

pub use paths::PathList;
pub use symbols::{Language, Symbol, SymbolKind};

use crate::error::Result;
use crate::text::camel::snake;
use crate::text::char_bag::char_bag;
use crate::text::fold::fold;
use std::path::{Path, PathBuf};

/// How a tree is walked and what is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeOptions {
    /// Files larger than this keep their path but not their text.
    pub max_file_bytes: u64,
    /// How many leading lines of a source file are scanned for declarations (the spec's 80).
    pub symbol_lines: usize,
    /// Honour `.gitignore`, `.ignore` and `.git/info/exclude` inside the root (never the
    /// user's global excludes, so that results do not depend on the machine).
    pub gitignore: bool,
    /// Include hidden files and directories (`.name`).
    pub hidden: bool,
    /// Follow symbolic links (loops are detected and skipped).
    pub follow_links: bool,
    /// Walker threads; 0 picks from the machine.
    pub threads: usize,
}

impl Default for TreeOptions {
    fn default() -> Self {
        TreeOptions {
            max_file_bytes: 1 << 20,
            symbol_lines: 80,
            gitignore: true,
            hidden: false,
            follow_links: true,
            threads: 0,
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
    pub size: u64,
    pub content: Content,
    pub symbols: Vec<Symbol>,
    /// The letters and digits of the stem, directory and symbol names
    /// ([`crate::text::char_bag`]): a `find code` term with a character outside it matches
    /// no step of this file, so the file is skipped without a string search.
    pub name_bag: u64,
}

impl TreeFile {
    /// Builds the file record for `path` (relative, `/`-separated) with its content.
    pub fn new(path: String, size: u64, content: Content, symbol_lines: usize) -> TreeFile {
        let (dir, name) = match path.rfind('/') {
            Some(i) => (&path[..i], &path[i + 1..]),
            None => ("", path.as_str()),
        };
        let (stem, ext) = match name.rfind('.') {
            Some(i) if i > 0 => (&name[..i], &name[i + 1..]),
            _ => (name, ""),
        };
        let ext = fold(ext);
        let language = Language::from_extension(&ext);
        let symbols = match (language, content.text()) {
            (Some(lang), Some(text)) => symbols::scan(lang, text, symbol_lines),
            _ => Vec::new(),
        };
        let (stem, stem_snake, dir) = (fold(stem), snake(stem), fold(dir));
        let name_bag = symbols.iter().fold(
            char_bag(&stem) | char_bag(&stem_snake) | char_bag(&dir),
            |bag, s| bag | char_bag(&s.snake),
        );
        TreeFile {
            stem,
            stem_snake,
            dir,
            name_bag,
            ext,
            language,
            size,
            content,
            symbols,
            path,
        }
    }

    /// The file's text, when it is a readable text file. Code outside `tree/` reads text only
    /// through this and [`TreeFile::folded`], so that how text is kept can change here alone.
    pub fn text(&self) -> Option<&str> {
        self.content.text()
    }

    /// The ASCII-folded copy of [`TreeFile::text`], byte for byte the same length.
    pub fn folded(&self) -> Option<&str> {
        self.content.folded()
    }
}

/// Counts of what the walk met but could not index fully.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
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
}

impl Tree {
    /// Walks `root` in parallel and indexes every file that is not ignored.
    pub fn load(root: &Path, options: &TreeOptions) -> Result<Tree> {
        let (files, report) = walk::walk(root, options)?;
        Ok(Tree::from_files(root.to_path_buf(), files, report))
    }

    /// Indexes files already in memory (paths relative, `/`-separated); for tests and
    /// generated benchmark trees.
    pub fn from_memory<'a>(
        name: &str,
        files: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Tree {
        let options = TreeOptions::default();
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
                    options.symbol_lines,
                )
            })
            .collect();
        let report = WalkReport::default();
        Tree::from_files(PathBuf::from(name), files, report)
    }

    /// Indexes file records built by the caller (for tests of unreadable or binary files).
    pub fn from_parts(name: &str, files: Vec<TreeFile>) -> Tree {
        Tree::from_files(PathBuf::from(name), files, WalkReport::default())
    }

    fn from_files(root: PathBuf, mut files: Vec<TreeFile>, mut report: WalkReport) -> Tree {
        // byte order of the shown path: stable whatever order the walker threads finished in
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let total: usize = files.iter().map(|f| f.path.len()).sum();
        let mut paths = PathList::with_capacity(&root.display().to_string(), total, files.len());
        for f in &files {
            paths.push(&f.path);
        }
        // What an agent without find tools reads: the whole listing, then every text file.
        let dump_bytes = paths.listing_bytes()
            + files
                .iter()
                .filter_map(|f| f.content.text())
                .map(str::len)
                .sum::<usize>();
        report.files = files.len();
        Tree {
            root,
            files,
            paths,
            report,
            dump_bytes,
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
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
