//! The files of an index just built, as the records it wrote: what `findbench index`
//! counts the ranking statistics from (`retrieval/kept_runs.rs`), a batch of files at a
//! time. The records stay encoded in the mapped index (`tree/head_records.rs`) and are
//! decoded a batch at a time, so counting holds no record, let alone a [`TreeFile`], for
//! every file of the tree. The files of a batch are made as [`Tree`](super::Tree) makes
//! them from the same records, so the statistics counted are byte for byte those counted
//! over the tree (`retrieval/kept_runs_tests.rs`).

use super::content::ContentKind;
use super::file::{Source, TreeFile};
use super::head_records::HeadRecords;
use super::index_format::HeadStart;
use super::options::TreeOptions;
use super::report::WalkReport;
use super::source_tree::KeptStamp;
use super::stamp::{trusted, FileRecord};
use super::symbol_table::SymbolTable;
use crate::encoding::fnv::FnvParts;
use std::path::Path;
use std::sync::Arc;

/// One in how many records the offset is kept: where a batch starts decoding.
const ANCHOR: usize = 1024;

/// The files of an index as its records, in the index's order (by path).
pub struct RecordFiles {
    records: HeadRecords,
    /// The byte offset of every [`ANCHOR`]th record.
    anchors: Vec<usize>,
    text_files: usize,
    text_bytes: u64,
    symbols: Arc<SymbolTable>,
    source: Arc<Source>,
    kept: Option<KeptStamp>,
}

impl RecordFiles {
    /// The files of the head `start` and `records`, whose symbols are in `symbols`, written
    /// to `index_path`; and what the walk that found them met besides. Every record is
    /// decoded once here (and checked: in path order, as many as the head says).
    pub(super) fn new(
        root: &Path,
        options: &TreeOptions,
        index_path: &Path,
        start: HeadStart,
        records: HeadRecords,
        symbols: Arc<SymbolTable>,
    ) -> Result<(RecordFiles, WalkReport), String> {
        // counted by kind as a tree of the same files counts them (`Tree::report`)
        let mut report = WalkReport {
            files: records.len(),
            errors: start.errors,
            messages: start.messages,
            ..WalkReport::default()
        };
        let mut stamp = KeptStampOf::new(&start.root, start.built_ns);
        let (mut anchors, mut text_files, mut text_bytes) = (Vec::new(), 0, 0);
        let mut decoded = records.decoded_at(0);
        let mut last: Option<FileRecord> = None;
        for i in 0..records.len() {
            if i % ANCHOR == 0 {
                anchors.push(decoded.offset());
            }
            let r = decoded.next_record()?;
            if last.as_ref().is_some_and(|last| last.path >= r.path) {
                return Err("damaged index (records out of order)".into());
            }
            match r.kind {
                ContentKind::Binary => report.binary += 1,
                ContentKind::TooLarge => report.too_large += 1,
                ContentKind::Unreadable(_) => report.unreadable += 1,
                ContentKind::Text => {
                    text_files += 1;
                    text_bytes += r.size;
                }
            }
            stamp.add(&r);
            last = Some(r);
        }
        decoded.check_end()?;
        records.release_pages();
        let source = Arc::new(Source {
            root: root.to_path_buf(),
            max_file_bytes: options.max_file_bytes,
        });
        let files = RecordFiles {
            records,
            anchors,
            text_files,
            text_bytes,
            symbols,
            source,
            kept: stamp.finish(index_path),
        };
        Ok((files, report))
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.len() == 0
    }

    /// Where statistics derived from these files are kept, and the stamp they must match;
    /// `None` when a file's mtime is within the racy window ([`super::Tree::kept`]).
    pub fn kept(&self) -> Option<&KeptStamp> {
        self.kept.as_ref()
    }

    /// Files `start..start + n` (fewer at the end), made as the tree of the index makes
    /// them: their text read from the root on first use, their symbols from the table.
    pub fn batch(&self, start: usize, n: usize) -> Vec<TreeFile> {
        let end = start.saturating_add(n).min(self.len());
        let mut files = Vec::with_capacity(end.saturating_sub(start));
        self.each_from(start, end, |i, r| {
            files.push(TreeFile::indexed(
                r.path,
                r.size,
                r.kind,
                (self.symbols.clone(), i as u32),
                r.name_bag,
                self.source.clone(),
            ))
        });
        files
    }

    /// Calls `each` with every file's number and path, in order.
    pub fn each_path(&self, mut each: impl FnMut(usize, &str)) {
        self.each_from(0, self.len(), |i, r| each(i, &r.path));
        // the pass's last pages are not held for the rest of the call
        self.records.release_pages();
    }

    /// The bytes of the text of each file of `chosen`: its size when it holds text, else
    /// none.
    pub fn text_bytes_of(&self, chosen: &[usize]) -> Vec<u64> {
        self.records_at(chosen).iter().map(text_bytes).collect()
    }

    /// The records of the files `chosen`, each decoded from its anchor (a few hundred
    /// files at most: a sample, the files a few changes touched).
    pub(super) fn records_at(&self, chosen: &[usize]) -> Vec<FileRecord> {
        let mut records = Vec::with_capacity(chosen.len());
        for &i in chosen {
            self.each_from(i, i + 1, |_, r| records.push(r));
        }
        // spread over the head, the pages of a few hundred files' anchors add up
        self.records.release_pages();
        records
    }

    /// The bytes of every file's text.
    pub fn text_bytes(&self) -> u64 {
        self.text_bytes
    }

    /// How many of the files hold text.
    pub fn text_files(&self) -> usize {
        self.text_files
    }

    /// The symbol table the files' symbols are read from.
    pub fn symbol_table(&self) -> &SymbolTable {
        &self.symbols
    }

    /// Lets go of the pages of the records and of the symbol table read so far.
    pub fn release_pages(&self) {
        self.records.release_pages();
        self.symbols.release_pages();
    }

    /// Decodes records `start..end` (checked in [`RecordFiles::new`]) into `each`, from the
    /// anchor at or before `start`.
    fn each_from(&self, start: usize, end: usize, mut each: impl FnMut(usize, FileRecord)) {
        let Some(&at) = self.anchors.get(start / ANCHOR) else {
            return;
        };
        let mut decoded = self.records.decoded_at(at);
        for i in start / ANCHOR * ANCHOR..end {
            match decoded.next_record() {
                Ok(r) if i >= start => each(i, r),
                Ok(_) => {}
                Err(_) => return,
            }
        }
    }
}

fn text_bytes(r: &FileRecord) -> u64 {
    match r.kind {
        ContentKind::Text => r.size,
        _ => 0,
    }
}

/// Where what is derived from the index of `files` may be kept, and its stamp
/// ([`KeptStampOf`]).
pub(super) fn kept_stamp(
    start: &HeadStart,
    files: &[FileRecord],
    index_path: &Path,
) -> Option<KeptStamp> {
    let mut stamp = KeptStampOf::new(&start.root, start.built_ns);
    files.iter().for_each(|f| stamp.add(f));
    stamp.finish(index_path)
}

/// The stamp of what is derived from an index, hashed a file at a time: a hash of the root
/// and of every file's path, size and mtime. None unless every file's mtime is trusted: a
/// file within the racy window may change again without its size or mtime showing it.
struct KeptStampOf {
    hash: FnvParts,
    built_ns: i64,
    trusted: bool,
}

impl KeptStampOf {
    fn new(root: &str, built_ns: i64) -> KeptStampOf {
        let mut hash = FnvParts::new();
        hash.bytes(root.as_bytes());
        hash.end_part();
        KeptStampOf {
            hash,
            built_ns,
            trusted: true,
        }
    }

    fn add(&mut self, f: &FileRecord) {
        self.trusted &= trusted(f.mtime, self.built_ns);
        self.hash.bytes(f.path.as_bytes());
        self.hash.bytes(&f.size.to_le_bytes());
        self.hash.bytes(&f.mtime.to_le_bytes());
        self.hash.end_part();
    }

    fn finish(self, index_path: &Path) -> Option<KeptStamp> {
        self.trusted.then(|| KeptStamp {
            index_path: index_path.to_path_buf(),
            stamp: self.hash.finish(),
            edited: Vec::new(),
        })
    }
}
