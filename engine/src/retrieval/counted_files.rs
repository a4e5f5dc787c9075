//! The files the kept statistics are counted over: a tree's, or the records of an index
//! just written (`tree/record_files.rs`), which `findbench index` counts from so that it
//! never holds a record, let alone a [`TreeFile`], for every file of the tree at once.

use crate::tree::{ContentKind, RecordFiles, Tree, TreeFile};
use rayon::prelude::*;
use std::borrow::Cow;

/// Files in a fixed order, read a batch at a time.
pub(crate) trait CountedFiles: Sync {
    fn len(&self) -> usize;
    /// Files `start..start + n` (fewer at the end).
    fn batch(&self, start: usize, n: usize) -> Cow<'_, [TreeFile]>;
    /// Calls `each` with every file's number and path, in order.
    fn each_path(&self, each: &mut dyn FnMut(usize, &str));
    /// The bytes of every file's text ([`text_bytes`]).
    fn text_bytes_total(&self) -> u64;
    /// The bytes of the text of each file of `chosen` ([`text_bytes`]).
    fn text_bytes_of(&self, chosen: &[usize]) -> Vec<u64>;
    /// Lets go of the pages read so far (`tree/blob.rs`).
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

    fn each_path(&self, each: &mut dyn FnMut(usize, &str)) {
        for (i, f) in self.files().iter().enumerate() {
            each(i, &f.path);
        }
    }

    fn text_bytes_total(&self) -> u64 {
        // on the pool: a file whose kind no read has learnt yet is probed here
        self.files().par_iter().map(text_bytes).sum()
    }

    fn text_bytes_of(&self, chosen: &[usize]) -> Vec<u64> {
        chosen
            .iter()
            .map(|&i| text_bytes(&self.files()[i]))
            .collect()
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

    fn each_path(&self, each: &mut dyn FnMut(usize, &str)) {
        RecordFiles::each_path(self, each)
    }

    fn text_bytes_total(&self) -> u64 {
        RecordFiles::text_bytes(self)
    }

    fn text_bytes_of(&self, chosen: &[usize]) -> Vec<u64> {
        RecordFiles::text_bytes_of(self, chosen)
    }

    fn release_pages(&self) {
        RecordFiles::release_pages(self)
    }
}

/// The bytes of a file's text: its size when it holds text, else none (a binary file, one
/// over the size limit or unreadable has no text field; a file of a tree walked without
/// the index learns its kind here, by a probe).
fn text_bytes(file: &TreeFile) -> u64 {
    match file.content_kind() {
        ContentKind::Text => file.size(),
        _ => 0,
    }
}
