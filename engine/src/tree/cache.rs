//! The kept tree index: one file per root under `<cache dir>/trees/`, named by a hash of the
//! canonical root and the walk options, holding every file's path, size, mtime, content
//! kind and symbols, the walk's errors, the mtimes of the directories and ignore files it
//! walked, and the word posting lists ([`super::postings`]).
//!
//! A call first checks the index against the disk: every recorded directory and ignore file
//! and every file is `stat`ed (in parallel). When nothing moved, the index is the tree and no
//! file is read. When a few files changed, they are laid over the index (`tree/edits.rs`),
//! and `findbench index` keeps the ones it read beside it (`tree/kept_changes.rs`).
//! Otherwise the root is walked again and only the files whose size or mtime changed (or
//! that are new) are read; the others keep their records and words, and the index is
//! written again. A file or directory whose mtime is within [`super::stamp::RACY_NS`] of
//! the last build is not trusted (it may have changed in the same clock tick as it was
//! read; git's "racily clean" rule) and is looked at again.
//!
//! The file: an 88-byte header (magic, format number, a fingerprint of this engine's version
//! and of the sources that decide what the index holds, the lengths of the seven parts, a
//! CRC-32 each of the head with the stamps, the symbol table and the posting tables), then
//! the parts: the head (postcard-encoded file records), the stamps of the directories and
//! ignore files walked, the symbol table ([`super::symbol_table`]) and the four posting
//! tables. The file is mapped, not read: the symbol table and the posting lists
//! are used in place, so a call brings into memory only the pages it looks at (their
//! checksums are computed through a small buffer, the posting tables' only when a search
//! first needs them). Anything that does not check out (short, foreign, another version, a
//! checksum or decoding error, another root) is reported and rebuilt, never trusted (posting
//! tables that fail their checksum when read are not used, and the file is removed so that
//! the next call rebuilds it). It is
//! written to a temporary name in the same directory and renamed, so that a reader never
//! sees half a file and two processes building at once each write a whole one.

use super::content::ContentKind;
use super::edits::{self, Changes};
use super::file::{Source, TreeFile};
use super::index_build::{self, Old};
use super::index_format::{fingerprint, Head, HeadStart, OptionsKey, FORMAT, MAGIC};
use super::index_read::{read_mapped, MappedIndex};
use super::kept_changes::{self, KeptChanges};
use super::options::TreeOptions;
use super::postings::Lazy;
use super::record_files::{kept_stamp, RecordFiles};
use super::report::WalkReport;
use super::reused_records::{OldRecords, ReusedRecords};
use super::root::{check_root, ROOT_HINT};
use super::segments::{Scratch, SEGMENT_BYTES};
use super::source_tree::Tree;
use super::stamp::{system_ns, FileRecord};
use super::symbol_table::SymbolTable;
use super::walk;
use crate::encoding::fnv::fnv;
use crate::error::{EngineError, Result};
use serde::Serialize;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Instant, SystemTime};

/// What `open` did with the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IndexState {
    /// No usable index: every file was read.
    Built,
    /// Something changed: the changed and new files were read.
    Refreshed,
    /// Nothing changed: no file was read.
    Unchanged,
    /// A few files changed: those edited or added were read again (or taken from the
    /// changes kept beside the index) and laid over the index, which was not written
    /// (`tree/edits.rs`; what a call on a tree loads, never `findbench index`).
    Edited,
    /// A few files changed: `findbench index` read those edited or added and kept them
    /// beside the index (`tree/kept_changes.rs`) instead of writing it again.
    ChangesKept,
}

/// What [`open_as`] gives: the tree of the index, or, for `findbench index` after a build
/// or refresh, the files as the records written (`tree/record_files.rs`).
pub enum Indexed {
    Tree(Box<Tree>),
    Records(RecordFiles),
}

impl Indexed {
    fn into_tree(self) -> Result<Tree> {
        match self {
            Indexed::Tree(tree) => Ok(*tree),
            Indexed::Records(_) => Err(EngineError::Internal(
                "the index gave its records, not a tree".into(),
            )),
        }
    }
}

/// What the kept index of a root holds (`findbench index DIR`).
#[derive(Debug, Clone, Serialize)]
pub struct IndexStats {
    /// The canonical root.
    pub root: PathBuf,
    pub cache_path: PathBuf,
    pub state: IndexState,
    /// Why an index on disk was not used, when there was one or none.
    pub rebuilt_because: Option<String>,
    pub files: usize,
    pub text_files: usize,
    pub symbols: usize,
    /// Distinct words in the posting lists.
    pub words: usize,
    /// Bytes of the posting lists (vocabulary, tables, lists).
    pub postings_bytes: usize,
    /// Bytes of the index file.
    pub index_bytes: u64,
    /// Files read by this call (0 when the index was unchanged).
    pub files_read: usize,
    #[serde(rename = "walk")]
    pub report: WalkReport,
    /// Why the index could not be written (the tree is still answered from memory).
    pub write_error: Option<String>,
    pub duration_ms: f64,
}

pub(super) fn index_path(cache_dir: &Path, canonical: &Path, key: &OptionsKey) -> PathBuf {
    let options = postcard::to_allocvec(key).unwrap_or_default();
    let root = canonical.to_string_lossy();
    let hash = fnv(&[root.as_bytes(), &options]);
    cache_dir.join("trees").join(format!("{hash:016x}.idx"))
}

/// The tree at `root` from the index kept under `cache_dir`, built or refreshed as needed.
pub(super) fn open(
    root: &Path,
    options: &TreeOptions,
    cache_dir: &Path,
) -> Result<(Tree, IndexStats)> {
    let opened = open_as(root, options, cache_dir, false, false, SEGMENT_BYTES)?;
    let (indexed, stats) = opened
        .ok_or_else(|| EngineError::Internal("the index was neither read nor built".into()))?;
    Ok((indexed.into_tree()?, stats))
}

/// [`open`] when a usable index of `root` is kept (refreshed as needed); `None` when there
/// is none yet or it cannot be used, without walking the tree.
pub(super) fn open_if_indexed(
    root: &Path,
    options: &TreeOptions,
    cache_dir: &Path,
) -> Result<Option<(Tree, IndexStats)>> {
    match open_as(root, options, cache_dir, true, false, SEGMENT_BYTES)? {
        Some((indexed, stats)) => Ok(Some((indexed.into_tree()?, stats))),
        None => Ok(None),
    }
}

/// [`open`] for `findbench index`: after a build or a refresh, the files as the records
/// written, not a tree (whose every file costs twice a record's memory).
pub(super) fn open_for_index(
    root: &Path,
    options: &TreeOptions,
    cache_dir: &Path,
) -> Result<(Indexed, IndexStats)> {
    open_as(root, options, cache_dir, false, true, SEGMENT_BYTES)?
        .ok_or_else(|| EngineError::Internal("the index was neither read nor built".into()))
}

/// [`open`], the index built in segments of `segment_bytes` (`tree/segments/mod.rs`).
#[cfg(test)]
pub(super) fn open_in_segments(
    root: &Path,
    options: &TreeOptions,
    cache_dir: &Path,
    segment_bytes: usize,
) -> Result<(Tree, IndexStats)> {
    let opened = open_as(root, options, cache_dir, false, false, segment_bytes)?;
    let (indexed, stats) = opened
        .ok_or_else(|| EngineError::Internal("the index was neither read nor built".into()))?;
    Ok((indexed.into_tree()?, stats))
}

/// True when an index of `root` for these options is kept and written by this build (its
/// header checks out; the rest is checked when it is opened).
pub(super) fn is_indexed(root: &Path, options: &TreeOptions, cache_dir: &Path) -> bool {
    let Ok(canonical) = root.canonicalize() else {
        return false;
    };
    let path = index_path(cache_dir, &canonical, &OptionsKey::of(options));
    let mut header = [0u8; 20];
    File::open(&path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut header))
        .is_ok()
        && &header[..8] == MAGIC
        && header[8..12] == FORMAT.to_le_bytes()
        && header[12..20] == fingerprint().to_le_bytes()
}

/// The index of `root`, read, refreshed or built; `None` when `only_if_indexed` and there
/// is no usable one. With `records`, an index built or refreshed gives its files as the
/// records written ([`Indexed::Records`]) when it reads back, else a tree.
fn open_as(
    root: &Path,
    options: &TreeOptions,
    cache_dir: &Path,
    only_if_indexed: bool,
    records: bool,
    segment_bytes: usize,
) -> Result<Option<(Indexed, IndexStats)>> {
    let started = Instant::now();
    check_root(root, ROOT_HINT)?;
    let canonical = root.canonicalize().map_err(|e| EngineError::File {
        path: root.to_path_buf(),
        message: format!("cannot resolve root: {e}"),
        hint: None,
    })?;
    let key = OptionsKey::of(options);
    let path = index_path(cache_dir, &canonical, &key);
    let root_shown = canonical.to_string_lossy().into_owned();
    let (mapped, mut rebuilt_because) = match read_mapped(&path, &root_shown, &key) {
        Ok(mapped) => (Some(mapped), None),
        Err(_) if only_if_indexed => return Ok(None),
        Err(why) => (None, Some(why)),
    };
    // (files, text files, symbols, walk report) of the tree or records
    let stats = |counts: Counts,
                 rebuilt_because: Option<String>,
                 enc_words,
                 enc_bytes,
                 state,
                 files_read,
                 index_bytes,
                 write_error| {
        IndexStats {
            root: canonical.clone(),
            cache_path: path.clone(),
            state,
            rebuilt_because,
            files: counts.0,
            text_files: counts.1,
            symbols: counts.2,
            words: enc_words,
            postings_bytes: enc_bytes,
            index_bytes,
            files_read,
            report: counts.3,
            write_error,
            duration_ms: started.elapsed().as_secs_f64() * 1e3,
        }
    };
    let mapped = match mapped {
        // `findbench index` on a tree changed by a few files or none: the index's records
        // as mapped, never decoded whole (`tree/record_files.rs`)
        Some(m) if records => {
            let built_ns = m.head.start.built_ns;
            match edits::changes(root, options, &m.stamps, &m.head.records, built_ns) {
                Some(changes) => {
                    let (words, enc_bytes, index_bytes) = (m.words, m.postings_bytes, m.bytes);
                    match records_with_changes(root, options, &path, m, &changes) {
                        Ok(with) => {
                            let state = match changes.is_empty() {
                                true => IndexState::Unchanged,
                                false => IndexState::ChangesKept,
                            };
                            let s = stats(
                                with.counts,
                                None,
                                words,
                                enc_bytes,
                                state,
                                with.files_read,
                                index_bytes,
                                with.write_error,
                            );
                            return Ok(Some((Indexed::Records(with.files), s)));
                        }
                        Err(why) => {
                            rebuilt_because = Some(why);
                            None
                        }
                    }
                }
                None => Some(m),
            }
        }
        mapped => mapped,
    };
    // the last index's records, what a refresh takes unchanged files from: still mapped for
    // `findbench index` (its changes were looked for in the mapped records above), decoded
    // by a call that lays a few changes over a tree
    let old = match mapped {
        Some(m) if records => Some((
            m.head.start.built_ns,
            OldRecords::Mapped(m.head.records),
            m.symbols,
            m.postings,
        )),
        Some(m) => match m.decoded() {
            Ok(old) => {
                let h = &old.head;
                match edits::changes(root, options, &old.stamps, &h.files, h.start.built_ns) {
                    Some(changes) => {
                        // a few changes: laid over the index; `findbench index` keeps the files
                        // it read beside it instead of writing the index again
                        let written_ns = system_ns(SystemTime::now());
                        let state = match (changes.is_empty(), only_if_indexed) {
                            (true, _) => IndexState::Unchanged,
                            (false, true) => IndexState::Edited,
                            (false, false) => IndexState::ChangesKept,
                        };
                        let kept = match changes.is_empty() {
                            true => KeptChanges::default(),
                            false => kept_changes::read(&path, fingerprint(), old.head_crc),
                        };
                        let changes = (!changes.is_empty()).then_some(changes);
                        let (tree, changed) = tree_of(
                            root,
                            options,
                            &path,
                            old.head,
                            old.symbols,
                            old.postings,
                            changes.as_ref().map(|c| (c, &kept)),
                        );
                        let read = tree.overlay().map_or(0, |o| o.from_disk);
                        let written = match state {
                            IndexState::ChangesKept => kept_changes::write(
                                &path,
                                &changed,
                                written_ns,
                                fingerprint(),
                                old.head_crc,
                            )
                            .err(),
                            _ => None,
                        };
                        let s = stats(
                            counts_of(&tree),
                            None,
                            old.words,
                            old.postings_bytes,
                            state,
                            read,
                            old.bytes,
                            written,
                        );
                        return Ok(Some((Indexed::Tree(Box::new(tree)), s)));
                    }
                    None => Some((
                        old.head.start.built_ns,
                        OldRecords::Decoded(old.head.files),
                        old.symbols,
                        old.postings,
                    )),
                }
            }
            Err(_) if only_if_indexed => return Ok(None),
            Err(why) => {
                rebuilt_because = Some(why);
                None
            }
        },
        None => None,
    };
    // the old words are needed to keep unchanged files' words; damaged, they cannot be
    let old = old.and_then(
        |(built_ns, records, symbols, postings)| match postings.into_inner() {
            Some(enc) => Some(Old {
                records: ReusedRecords::new(records, built_ns),
                symbols,
                enc,
            }),
            None => {
                rebuilt_because = Some("damaged index (posting lists)".into());
                None
            }
        },
    );
    let mut state = if old.is_some() {
        IndexState::Refreshed
    } else {
        IndexState::Built
    };
    // taken before the walk: a file written while it runs has a later mtime
    let built_ns = system_ns(SystemTime::now());
    let scratch = index_build::scratch_beside(&path);
    let walked = walk::walk_for_index(root, options, &scratch, segment_bytes)?;
    let start = HeadStart {
        root: root_shown.clone(),
        options: key.clone(),
        built_ns,
        errors: walked.report.errors,
        messages: walked.report.messages,
    };
    let mut stamps = walked.stamps;
    let (spilled, parts, files_read) = match index_build::read_and_merge(
        root,
        options,
        walked.found,
        old,
        &scratch,
        segment_bytes,
    ) {
        Ok(built) => built,
        Err(_) => {
            // a segment could not be spilled (a full disk): built again in memory
            state = IndexState::Built;
            let memory = Scratch::memory();
            let walked = walk::walk_for_index(root, options, &memory, segment_bytes)?;
            stamps = walked.stamps;
            index_build::read_and_merge(root, options, walked.found, None, &memory, segment_bytes)
                .map_err(|e| EngineError::Internal(format!("cannot build the index: {e}")))?
        }
    };
    let written = index_build::write(&path, &start, &spilled, stamps, &parts);
    // the changes kept beside the index it replaces belong to that one
    kept_changes::remove(&path);
    // the files from the index as written (mapped, as the next call reads it), or from the
    // tables in memory when it could not be written or read back
    let read_back = match &written {
        Ok(_) => read_mapped(&path, &root_shown, &key),
        Err(why) => Err(why.clone()),
    };
    let read_back = read_back.and_then(|back| {
        let (words, bytes, index_bytes) = (back.words, back.postings_bytes, back.bytes);
        let indexed = if records {
            let (files, report) = RecordFiles::new(
                root,
                options,
                &path,
                back.head.start,
                back.head.records,
                back.symbols,
            )?;
            let symbols = files.symbol_table().len();
            let counts = (files.len(), files.text_files(), symbols, report);
            (Indexed::Records(files), counts)
        } else {
            let back = back.decoded()?;
            let tree = tree_of(
                root,
                options,
                &path,
                back.head,
                back.symbols,
                back.postings,
                None,
            )
            .0;
            let counts = counts_of(&tree);
            (Indexed::Tree(Box::new(tree)), counts)
        };
        Ok((indexed, words, bytes, index_bytes))
    });
    let (indexed, counts, words, enc_bytes, index_bytes, write_error) = match read_back {
        Ok(((indexed, counts), words, bytes, index_bytes)) => {
            (indexed, counts, words, bytes, index_bytes, None)
        }
        Err(why) => {
            let files = spilled
                .into_records()
                .map_err(|e| EngineError::Internal(format!("cannot build the index: {e}")))?;
            let (symbols, enc) = parts
                .into_memory()
                .map_err(|e| EngineError::Internal(format!("cannot build the index: {e}")))?;
            let (words, bytes) = (enc.words(), enc.bytes());
            let head = Head { start, files };
            let symbols = Arc::new(symbols);
            let (tree, _) = tree_of(root, options, &path, head, symbols, Lazy::ready(enc), None);
            let counts = counts_of(&tree);
            let why = match written {
                Err(e) => e,
                Ok(_) => format!("the index written does not read back: {why}"),
            };
            (
                Indexed::Tree(Box::new(tree)),
                counts,
                words,
                bytes,
                0,
                Some(why),
            )
        }
    };
    let s = stats(
        counts,
        rebuilt_because,
        words,
        enc_bytes,
        state,
        files_read,
        index_bytes,
        write_error,
    );
    Ok(Some((indexed, s)))
}

/// What [`IndexStats`] counts of `tree`: its files, those holding text, its symbols, and
/// what its walk met.
fn counts_of(tree: &Tree) -> Counts {
    let text_files = tree
        .files()
        .iter()
        .filter(|f| *f.content_kind() == ContentKind::Text)
        .count();
    let report = tree.report().clone();
    (tree.len(), text_files, tree.symbol_table().len(), report)
}

/// The tree of the index `head` (its symbols in `symbols`, its words in `postings`), with
/// `changes`, when given, the files changed since laid over the index's ([`edits`]).
fn tree_of(
    root: &Path,
    options: &TreeOptions,
    index_path: &Path,
    mut head: Head,
    symbols: Arc<SymbolTable>,
    postings: Lazy,
    changes: Option<(&Changes, &KeptChanges)>,
) -> (Tree, Vec<FileRecord>) {
    // what is derived from the tree is kept only while every file's mtime is trusted: a
    // file within the racy window may change again without its size or mtime showing it;
    // the stamp is the index's, changes or not (what is derived is then laid over in
    // turn: `retrieval/bm25f.rs`)
    let mut kept = kept_stamp(&head.start, &head.files, index_path);
    let source = Arc::new(Source {
        root: root.to_path_buf(),
        max_file_bytes: options.max_file_bytes,
    });
    let mut changed = Vec::new();
    let overlay = changes.map(|(changes, kept_records)| {
        let files = std::mem::take(&mut head.files);
        let laid = edits::laid_over(root, options, files, changes, kept_records);
        let overlay = laid.overlay;
        (head.files, changed) = (laid.records, laid.changed);
        if let Some(kept) = kept.as_mut() {
            kept.edited = overlay.ids.clone();
        }
        Arc::new(overlay)
    });
    let files = head
        .files
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            let slot = match overlay.as_ref() {
                None => (symbols.clone(), i as u32),
                Some(o) => match o.position(i) {
                    Some(k) => (o.table.clone(), k as u32),
                    None => (symbols.clone(), o.in_index(i) as u32),
                },
            };
            TreeFile::indexed(r.path, r.size, r.kind, slot, r.name_bag, source.clone())
        })
        .collect();
    let report = WalkReport {
        errors: head.start.errors,
        messages: head.start.messages,
        ..WalkReport::default()
    };
    let mut tree = Tree::from_files(
        root.to_path_buf(),
        files,
        report,
        Some(postings),
        Some(symbols),
    );
    tree.kept = kept;
    tree.overlay = overlay;
    (tree, changed)
}

/// What `findbench index` gives of a tree changed by a few files or none: the index's
/// files as its records, what the tree holds counted (files, text files, symbols, walk
/// report), the files read, and why the changes read were not kept.
struct WithChanges {
    files: RecordFiles,
    counts: Counts,
    files_read: usize,
    write_error: Option<String>,
}

/// (files, text files, symbols, walk report): what [`IndexStats`] counts.
type Counts = (usize, usize, usize, WalkReport);

/// The files of the index `m` as its records, for `findbench index` on a tree changed by
/// `changes` (or none) since: the files edited or added read (or taken from the changes
/// kept) and kept beside the index (`tree/kept_changes.rs`); what the tree holds counted
/// as the index's files with the changes laid over, as a tree of them would count it.
fn records_with_changes(
    root: &Path,
    options: &TreeOptions,
    path: &Path,
    m: MappedIndex,
    changes: &Changes,
) -> std::result::Result<WithChanges, String> {
    let written_ns = system_ns(SystemTime::now());
    let head_crc = m.head_crc;
    let (start, records) = (m.head.start, m.head.records);
    let (files, report) = RecordFiles::new(root, options, path, start, records, m.symbols)?;
    let mut counts = (
        files.len(),
        files.text_files(),
        files.symbol_table().len(),
        report,
    );
    if changes.is_empty() {
        return Ok(WithChanges {
            files,
            counts,
            files_read: 0,
            write_error: None,
        });
    }
    let as_numbers = |n: &[u32]| n.iter().map(|&i| i as usize).collect::<Vec<_>>();
    let edited = files.records_at(&as_numbers(&changes.edited));
    let removed = files.records_at(&as_numbers(&changes.removed));
    let mut read_paths: Vec<&str> = edited.iter().map(|r| r.path.as_str()).collect();
    read_paths.extend(changes.added.iter().map(String::as_str));
    let kept = kept_changes::read(path, fingerprint(), head_crc);
    let (changed, read) = edits::read_again(root, options, &read_paths, &kept);
    for (r, sign) in edited
        .iter()
        .chain(&removed)
        .map(|r| (r, -1))
        .chain(changed.iter().map(|r| (r, 1)))
    {
        count_kind(&mut counts, &r.kind, sign);
    }
    let write_error =
        kept_changes::write(path, &changed, written_ns, fingerprint(), head_crc).err();
    Ok(WithChanges {
        files,
        counts,
        files_read: read,
        write_error,
    })
}

/// Adds (`sign` 1) or takes away (-1) a file of `kind` from `counts` (files, text files,
/// symbols, walk report).
fn count_kind(counts: &mut Counts, kind: &ContentKind, sign: isize) {
    let add = |n: &mut usize| *n = n.saturating_add_signed(sign);
    add(&mut counts.0);
    add(&mut counts.3.files);
    match kind {
        ContentKind::Text => add(&mut counts.1),
        ContentKind::Binary => add(&mut counts.3.binary),
        ContentKind::TooLarge => add(&mut counts.3.too_large),
        ContentKind::Unreadable(_) => add(&mut counts.3.unreadable),
    }
}
