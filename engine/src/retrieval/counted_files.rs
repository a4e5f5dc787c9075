//! The files the kept statistics are counted over: a tree's, or the records of an index
//! just written (`tree/record_files.rs`), which `findbench index` counts from so that it
//! never holds a [`TreeFile`] for every file of the tree at once.

use crate::tree::{ContentKind, RecordFiles, Tree, TreeFile};
use std::borrow::Cow;

/// Files in a fixed order, read a batch at a time.
pub(crate) trait CountedFiles: Sync {
    fn len(&self) -> usize;
    /// Files `start..start + n` (fewer at the end).
    fn batch(&self, start: usize, n: usize) -> Cow<'_, [TreeFile]>;
    /// The path of file `i`.
    fn path(&self, i: usize) -> &str;
    /// The bytes of file `i`'s text: its size when it holds text, else none (a binary
    /// file, one over the size limit or unreadable has no text field).
    fn text_bytes(&self, i: usize) -> u64;
    /// Lets go of the pages of the symbol table read so far (`tree/blob.rs`).
    fn release_pages(&self);
}

impl CountedFiles for Tree {
    fn len(&self) -> usize {
        Tree::len(self)
    }

    fn batch(&self, start: usize, n: usize) -> Cow<'_, [TreeFile]> {
        let files = self.files();
        let end = start.saturating_add(n).min(files.len());
        Cow::Borrowed(&files[start.min(end)..end])
    }

    fn path(&self, i: usize) -> &str {
        &self.files()[i].path
    }

    fn text_bytes(&self, i: usize) -> u64 {
        text_bytes(&self.files()[i])
    }

    fn release_pages(&self) {
        self.symbol_table().release_pages();
    }
}

impl CountedFiles for RecordFiles {
    fn len(&self) -> usize {
        RecordFiles::len(self)
    }

    fn batch(&self, start: usize, n: usize) -> Cow<'_, [TreeFile]> {
        Cow::Owned(RecordFiles::batch(self, start, n))
    }

    fn path(&self, i: usize) -> &str {
        RecordFiles::path(self, i)
    }

    fn text_bytes(&self, i: usize) -> u64 {
        RecordFiles::text_bytes(self, i)
    }

    fn release_pages(&self) {
        self.symbol_table().release_pages();
    }
}

/// The bytes of a file's text: its size when it holds text, else none (a file of a tree
/// walked without the index learns its kind here, by a probe).
fn text_bytes(file: &TreeFile) -> u64 {
    match file.content_kind() {
        ContentKind::Text => file.size(),
        _ => 0,
    }
}
