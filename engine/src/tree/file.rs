//! One file of a tree: its path and the folded parts that name it, its language and
//! symbols, and its text, read on first use.

use super::content::{
    probe_kind, read_and_probe_into, read_folded_head, read_text_into, text_of, Content,
    ContentKind,
};
use super::symbol_table::SymbolTable;
use super::symbols::{self, Language, PackedSymbols, Symbol, SymbolList};
use crate::text::camel::snake;
use crate::text::char_bag::char_bag;
use crate::text::fold::fold;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// A text file's text and its ASCII-folded copy, once read.
#[derive(Debug, Clone)]
struct Loaded {
    text: String,
    folded: String,
}

/// Where a file's text is read from on first use.
#[derive(Debug)]
pub(crate) struct Source {
    pub(super) root: PathBuf,
    pub(super) max_file_bytes: u64,
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

    /// The four parts in one string, and where the last three start in it.
    fn joined(self) -> (Box<str>, [u32; 3]) {
        let mut names = self.stem;
        let mut starts = [0; 3];
        for (start, part) in starts.iter_mut().zip([self.stem_snake, self.dir, self.ext]) {
            // a path's parts are far shorter than 4 GiB
            *start = names.len() as u32;
            names.push_str(&part);
        }
        (names.into_boxed_str(), starts)
    }
}

/// [`TreeFile::name_bag`]: the characters of the stem, the directory and the symbols'
/// names (kept in the index, so that a warm load does not count them again).
pub(crate) fn name_bag_of<L: SymbolList + ?Sized>(
    stem: &str,
    stem_snake: &str,
    dir: &str,
    symbols: &L,
) -> u64 {
    symbols.views().fold(
        char_bag(stem) | char_bag(stem_snake) | char_bag(dir),
        |bag, s| bag | char_bag(s.snake),
    )
}

/// What is known of a file without its text: its size and what it holds.
#[derive(Debug, Clone)]
struct Known {
    size: u64,
    kind: ContentKind,
}

/// One file of the tree.
#[derive(Debug, Clone)]
pub struct TreeFile {
    /// Relative to the root, `/`-separated; a non-UTF-8 name is shown lossily.
    pub path: String,
    /// The folded stem, the stem's snake form, the folded directory and the folded
    /// extension, one after another ([`TreeFile::stem`] and the others read them): one
    /// allocation a file, not four, in a tree of a million files.
    names: Box<str>,
    /// Where the snake form, the directory and the extension start in `names`.
    starts: [u32; 3],
    pub language: Option<Language>,
    /// The symbols, once decoded (set at construction for a file built in memory).
    symbols: OnceLock<Vec<Symbol>>,
    /// The tree's symbol table and this file's place in it, to decode them from.
    symbol_slot: Option<(Arc<SymbolTable>, u32)>,
    /// The letters and digits of the stem, directory and symbol names
    /// ([`crate::text::char_bag`]): a `find code` term with a character outside it matches
    /// no step of this file, so the file is skipped without a string search.
    pub name_bag: u64,
    /// Its size and what it holds: set at construction, except for a file met by a walk
    /// without the kept index, which learns them from the first full read of it or, when
    /// something asks before any read, from a probe of its first 8 KiB
    /// ([`TreeFile::content_kind`]).
    known: OnceLock<Known>,
    /// The text, once read (set at construction for a tree held in memory); boxed, as
    /// most files of a large tree are never read.
    loaded: OnceLock<Option<Box<Loaded>>>,
    /// Where to read the text from; `None` for a file built in memory.
    source: Option<Arc<Source>>,
}

impl TreeFile {
    /// Folded file name without its last extension (`find_service` of `find_service.h`).
    pub fn stem(&self) -> &str {
        &self.names[..self.starts[0] as usize]
    }

    /// The stem's words joined by `_` (`command_router` of `CommandRouter.h`).
    pub fn stem_snake(&self) -> &str {
        &self.names[self.starts[0] as usize..self.starts[1] as usize]
    }

    /// Folded directory part, without a trailing `/` (empty at the root).
    pub fn dir(&self) -> &str {
        &self.names[self.starts[1] as usize..self.starts[2] as usize]
    }

    /// Folded last extension, without the dot.
    pub fn ext(&self) -> &str {
        &self.names[self.starts[2] as usize..]
    }

    /// Builds the file record for `path` (relative, `/`-separated) with its content.
    pub fn new(path: String, size: u64, content: Content) -> TreeFile {
        let parts = PathParts::of(&path);
        let symbols = match (Language::from_extension(&parts.ext), content.text()) {
            (Some(lang), Some(text)) => symbols::scan_file(lang, text),
            _ => Vec::new(),
        };
        let known = OnceLock::from(Known {
            size,
            kind: content.kind(),
        });
        let loaded = OnceLock::new();
        if let Content::Text { text, folded } = content {
            let _ = loaded.set(Some(Box::new(Loaded { text, folded })));
        }
        let name_bag = name_bag_of(&parts.stem, &parts.stem_snake, &parts.dir, &symbols[..]);
        let file = TreeFile::with_parts(path, parts, known, name_bag, loaded, None);
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
            OnceLock::from(Known { size, kind }),
            name_bag,
            OnceLock::new(),
            Some(source),
        );
        file.symbol_slot = Some(symbols);
        file
    }

    /// A file met by a walk without the kept index: nothing but its path is known yet.
    /// Its size, kind and text are read from `source` when first asked for, and its symbols
    /// are scanned from that text when first asked for.
    pub(crate) fn unread(path: String, source: Arc<Source>) -> TreeFile {
        let parts = PathParts::of(&path);
        let name_bag = name_bag_of(
            &parts.stem,
            &parts.stem_snake,
            &parts.dir,
            &PackedSymbols::EMPTY,
        );
        TreeFile::with_parts(
            path,
            parts,
            OnceLock::new(),
            name_bag,
            OnceLock::new(),
            Some(source),
        )
    }

    fn with_parts(
        path: String,
        parts: PathParts,
        known: OnceLock<Known>,
        name_bag: u64,
        loaded: OnceLock<Option<Box<Loaded>>>,
        source: Option<Arc<Source>>,
    ) -> TreeFile {
        let language = Language::from_extension(&parts.ext);
        let (names, starts) = parts.joined();
        TreeFile {
            names,
            starts,
            name_bag,
            language,
            known,
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

    /// Calls `each` with the name of every declaration of the file, for a caller that holds
    /// its text already and needs the names only: a file whose symbols are neither kept
    /// nor in a table scans its text, making no symbol of any name (no string, no snake
    /// form; the counting of a ranked first call scans hundreds of files so).
    pub(crate) fn for_each_symbol_name(&self, text: &str, mut each: impl FnMut(&str)) {
        match (self.symbols.get(), &self.symbol_slot, self.language) {
            (Some(symbols), _, _) => symbols.iter().for_each(|s| each(&s.name)),
            (None, None, Some(language)) if self.source.is_some() => {
                symbols::scan_file_keeping(language, text, &mut |name| {
                    each(name);
                    false
                });
            }
            _ => self.decode_symbols().iter().for_each(|s| each(&s.name)),
        }
    }

    fn decode_symbols(&self) -> Vec<Symbol> {
        match (&self.symbol_slot, self.language) {
            (Some((table, slot)), _) => table.symbols_of(*slot as usize),
            // a file of a tree walked without its index: scanned from its text
            (None, Some(language)) if self.source.is_some() => self
                .text_once()
                .map(|text| symbols::scan_file(language, &text))
                .unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    /// What kind of content the file has: known without reading it, except for a file
    /// of a tree walked without the kept index that no read has met yet, whose first 8 KiB
    /// are probed now (once).
    pub fn content_kind(&self) -> &ContentKind {
        &self.known().kind
    }

    /// Bytes on disk (for a file built in memory, of its text); for a file of a tree
    /// walked without the kept index, what the open file's metadata says, learnt as
    /// [`TreeFile::content_kind`] is.
    pub fn size(&self) -> u64 {
        self.known().size
    }

    fn known(&self) -> &Known {
        self.known.get_or_init(|| match &self.source {
            Some(source) => {
                let (size, kind) = probe_kind(&source.root.join(&self.path), source.max_file_bytes);
                Known { size, kind }
            }
            // every constructor without a source sets what is known
            None => Known {
                size: 0,
                kind: ContentKind::Unreadable("no content known".into()),
            },
        })
    }

    /// The kind when it is known already, without probing the file.
    pub(crate) fn known_kind(&self) -> Option<&ContentKind> {
        self.known.get().map(|k| &k.kind)
    }

    /// True unless the file is known to hold no text (its kind is text, or not known yet).
    fn may_be_text(&self) -> bool {
        self.known_kind().is_none_or(|k| *k == ContentKind::Text)
    }

    /// Reads the file's text bytes from its source into `bytes` (cleared first): true when
    /// it has text, which is `String::from_utf8_lossy(bytes)`. A file whose kind is not
    /// known yet learns it from this read (what the probe would have said), so that it is
    /// opened once, not probed first (its size too, from the open file).
    fn read_source_into(&self, bytes: &mut Vec<u8>) -> bool {
        let Some(source) = &self.source else {
            bytes.clear();
            return false;
        };
        let path = source.root.join(&self.path);
        match self.known_kind() {
            Some(ContentKind::Text) => read_text_into(&path, source.max_file_bytes, bytes),
            Some(_) => {
                bytes.clear();
                false
            }
            None => {
                let ((size, kind), text) = read_and_probe_into(&path, source.max_file_bytes, bytes);
                // another thread may have learnt it first: the same file says the same
                let _ = self.known.set(Known { size, kind });
                text
            }
        }
    }

    /// The text and folded copy read from the source now (not kept).
    fn read_loaded(&self) -> Option<Loaded> {
        let mut bytes = Vec::new();
        if !self.read_source_into(&mut bytes) {
            return None;
        }
        match text_of(bytes) {
            Content::Text { text, folded } => Some(Loaded { text, folded }),
            _ => None,
        }
    }

    fn loaded(&self) -> Option<&Loaded> {
        if !self.may_be_text() {
            return None;
        }
        self.loaded
            .get_or_init(|| self.read_loaded().map(Box::new))
            .as_deref()
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
        if !self.may_be_text() {
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
        self.read_loaded()
            .map(|l| (Cow::Owned(l.text), Cow::Owned(l.folded)))
    }

    /// The bytes of the file's text for one pass over the whole tree, read into `bytes`
    /// (its allocation reused from file to file, so that the pass allocates nothing per
    /// file): true when the file has text, which is `String::from_utf8_lossy(bytes)`. A
    /// file whose kind is not known yet learns it from this read: the pass reads each file
    /// once, and nothing probes it afterwards.
    pub(crate) fn read_into(&self, bytes: &mut Vec<u8>) -> bool {
        if !self.may_be_text() {
            bytes.clear();
            return false;
        }
        if let Some(loaded) = self.loaded.get() {
            bytes.clear();
            return match loaded {
                Some(l) => {
                    bytes.extend_from_slice(l.text.as_bytes());
                    true
                }
                None => false,
            };
        }
        self.read_source_into(bytes)
    }

    /// The first `n` bytes of [`TreeFile::folded`] (cut back to a character boundary),
    /// reading only the start of the file when its text is not kept: what a check of a
    /// file's header needs, without holding every candidate's text.
    pub fn folded_head(&self, n: usize) -> Option<std::borrow::Cow<'_, str>> {
        if *self.content_kind() != ContentKind::Text {
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
        read_folded_head(&source.root.join(&self.path), source.max_file_bytes, n)
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
        // the text first: a file whose kind is not known yet learns it from this read
        let loaded = self.loaded();
        match self.content_kind() {
            ContentKind::Binary => Err("binary file".into()),
            ContentKind::TooLarge => Err("too large to read".into()),
            ContentKind::Unreadable(why) => Err(format!("unreadable: {why}")),
            ContentKind::Text => match loaded {
                Some(l) => Ok((&l.text, &l.folded)),
                None => Err("unreadable: changed or removed since the tree was indexed".into()),
            },
        }
    }
}

/// The last extension of a `/`-separated path, without the dot (empty when none).
pub(super) fn extension(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name.rfind('.') {
        Some(i) if i > 0 => &name[i + 1..],
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::content::read_content;

    /// A file of a tree walked without the kept index knows its size and kind lazily, and
    /// whichever way it learns them (a probe when asked first, a full read by the pass, a
    /// read of its text) they are what `read_content` gives; the text read is its too.
    #[test]
    fn an_unread_files_size_and_kind_are_what_read_content_gives() {
        let dir = tempfile::tempdir().unwrap();
        let max = 16 << 10;
        let files: Vec<(&str, Vec<u8>)> = vec![
            ("text.rs", b"fn Main() {}\n".to_vec()),
            ("invalid.rs", b"fn a\xffb() {}\n\xc3".to_vec()),
            ("binary.bin", b"ab\0cd".to_vec()),
            // a NUL past the first 8 KiB: text, as git and grep say
            ("late_nul.txt", [vec![b'a'; 9000], vec![0]].concat()),
            ("big.txt", vec![b'x'; max as usize + 1]),
            ("empty.txt", Vec::new()),
        ];
        for (name, bytes) in &files {
            std::fs::write(dir.path().join(name), bytes).unwrap();
        }
        // a directory fails when read (after it opens), a missing file when opened
        std::fs::create_dir(dir.path().join("a_dir")).unwrap();
        let names: Vec<&str> = files
            .iter()
            .map(|(n, _)| *n)
            .chain(["a_dir", "missing.rs"])
            .collect();
        let source = Arc::new(Source {
            root: dir.path().to_path_buf(),
            max_file_bytes: max,
        });
        let unread = |name: &str| TreeFile::unread(name.to_string(), source.clone());
        for name in names {
            let (size, content) = read_content(&dir.path().join(name), max);
            let kind = content.kind();
            let probed = unread(name);
            assert_eq!(probed.known_kind(), None, "{name}: known before any read");
            assert_eq!(probed.content_kind(), &kind, "{name}: probed");
            assert_eq!(probed.size(), size, "{name}: probed");
            let passed = unread(name);
            let mut bytes = b"left over from another file".to_vec();
            let text = passed
                .read_into(&mut bytes)
                .then(|| String::from_utf8_lossy(&bytes).into_owned());
            assert_eq!(
                passed.known_kind(),
                Some(&kind),
                "{name}: after the pass's read"
            );
            assert_eq!(text.as_deref(), content.text(), "{name}: the pass's text");
            assert_eq!(passed.size(), size, "{name}: after the pass's read");
            let read = unread(name);
            assert_eq!(read.text(), content.text(), "{name}: text");
            assert_eq!(
                read.known_kind(),
                Some(&kind),
                "{name}: after its text was read"
            );
            let once = unread(name);
            let text_once = once.text_once().map(|t| t.into_owned());
            assert_eq!(text_once.as_deref(), content.text(), "{name}: text once");
            assert_eq!(once.known_kind(), Some(&kind), "{name}: after one read");
            assert_eq!(unread(name).read().ok().map(|(t, _)| t), content.text());
        }
    }

    /// The four name parts read back from the one string they are kept in are the parts
    /// of the path, whatever is empty (no directory, no extension, a dot file).
    #[test]
    fn a_files_name_parts_are_its_paths_parts() {
        let cases = [
            (
                "src/Net/CommandRouter.h",
                ["commandrouter", "command_router", "src/net", "h"],
            ),
            ("Makefile", ["makefile", "makefile", "", ""]),
            ("a/.gitignore", [".gitignore", "gitignore", "a", ""]),
            (
                "docs/README.zh-CN.md",
                ["readme.zh-cn", "readme_zh_cn", "docs", "md"],
            ),
            ("x/Übung.RS", ["ubung", "ubung", "x", "rs"]),
        ];
        for (path, [stem, stem_snake, dir, ext]) in cases {
            let file = TreeFile::new(
                path.to_string(),
                0,
                Content::Text {
                    text: String::new(),
                    folded: String::new(),
                },
            );
            let got = [file.stem(), file.stem_snake(), file.dir(), file.ext()];
            assert_eq!(got, [stem, stem_snake, dir, ext], "{path}");
            let parts = PathParts::of(path);
            assert_eq!(
                got,
                [&parts.stem[..], &parts.stem_snake, &parts.dir, &parts.ext]
            );
        }
    }
}
