//! The files of an index just built, as the records it wrote: what `findbench index`
//! counts the ranking statistics from (`retrieval/kept_runs.rs`), a batch of files at a
//! time. A [`Tree`](super::Tree) of the same files holds a [`TreeFile`] for each (about
//! 300 bytes with its names, against 150 for a record): on a tree of half a million files
//! that difference is most of the index build's memory. The files of a batch are made as
//! [`Tree`](super::Tree) makes them from the same records, so the statistics counted are
//! byte for byte those counted over the tree (`tree/record_files.rs` tests).

use super::content::ContentKind;
use super::file::{Source, TreeFile};
use super::index_format::Head;
use super::options::TreeOptions;
use super::report::WalkReport;
use super::source_tree::KeptStamp;
use super::stamp::{trusted, FileRecord};
use super::symbol_table::SymbolTable;
use crate::encoding::fnv::FnvParts;
use std::path::Path;
use std::sync::Arc;

/// The files of an index as its records, in the index's order (by path).
pub struct RecordFiles {
    records: Vec<FileRecord>,
    symbols: Arc<SymbolTable>,
    source: Arc<Source>,
    kept: Option<KeptStamp>,
}

impl RecordFiles {
    /// The files of `head`, whose symbols are in `symbols`, written to `index_path`; and
    /// what the walk that found them met besides.
    pub(super) fn new(
        root: &Path,
        options: &TreeOptions,
        index_path: &Path,
        head: Head,
        symbols: Arc<SymbolTable>,
    ) -> (RecordFiles, WalkReport) {
        let kept = kept_stamp(&head, index_path);
        // counted by kind as a tree of the same files counts them (`Tree::report`)
        let mut report = WalkReport {
            files: head.files.len(),
            errors: head.errors,
            messages: head.messages,
            ..WalkReport::default()
        };
        for r in &head.files {
            match r.kind {
                ContentKind::Binary => report.binary += 1,
                ContentKind::TooLarge => report.too_large += 1,
                ContentKind::Unreadable(_) => report.unreadable += 1,
                ContentKind::Text => {}
            }
        }
        let source = Arc::new(Source {
            root: root.to_path_buf(),
            max_file_bytes: options.max_file_bytes,
        });
        let files = RecordFiles {
            records: head.files,
            symbols,
            source,
            kept,
        };
        (files, report)
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Where statistics derived from these files are kept, and the stamp they must match;
    /// `None` when a file's mtime is within the racy window ([`super::Tree::kept`]).
    pub fn kept(&self) -> Option<&KeptStamp> {
        self.kept.as_ref()
    }

    /// Files `start..start + n` (fewer at the end), made as the tree of the index makes
    /// them: their text read from the root on first use, their symbols from the table.
    pub fn batch(&self, start: usize, n: usize) -> Vec<TreeFile> {
        let end = start.saturating_add(n).min(self.records.len());
        (start.min(end)..end)
            .map(|i| {
                let r = &self.records[i];
                TreeFile::indexed(
                    r.path.clone(),
                    r.size,
                    r.kind.clone(),
                    (self.symbols.clone(), i as u32),
                    r.name_bag,
                    self.source.clone(),
                )
            })
            .collect()
    }

    /// The path of file `i`.
    pub fn path(&self, i: usize) -> &str {
        &self.records[i].path
    }

    /// The bytes of file `i`'s text: its size when it holds text, else none.
    pub fn text_bytes(&self, i: usize) -> u64 {
        let r = &self.records[i];
        match r.kind {
            ContentKind::Text => r.size,
            _ => 0,
        }
    }

    /// How many of the files hold text.
    pub fn text_files(&self) -> usize {
        self.records
            .iter()
            .filter(|r| r.kind == ContentKind::Text)
            .count()
    }

    /// The symbol table the files' symbols are read from.
    pub fn symbol_table(&self) -> &SymbolTable {
        &self.symbols
    }
}

/// Where what is derived from the index `head` may be kept, and its stamp: a hash of the
/// root and of every file's path, size and mtime. `None` unless every file's mtime is
/// trusted: a file within the racy window may change again without its size or mtime
/// showing it.
pub(super) fn kept_stamp(head: &Head, index_path: &Path) -> Option<KeptStamp> {
    if !head.files.iter().all(|f| trusted(f.mtime, head.built_ns)) {
        return None;
    }
    // hashed as it goes: gathering every file's part first held a copy of every path
    let mut stamp = FnvParts::new();
    stamp.bytes(head.root.as_bytes());
    stamp.end_part();
    for f in &head.files {
        stamp.bytes(f.path.as_bytes());
        stamp.bytes(&f.size.to_le_bytes());
        stamp.bytes(&f.mtime.to_le_bytes());
        stamp.end_part();
    }
    Some(KeptStamp {
        index_path: index_path.to_path_buf(),
        stamp: stamp.finish(),
        edited: Vec::new(),
    })
}
