//! The parallel walk: `ignore`'s walker honours `.gitignore`; each worker reads, classifies
//! and scans the files it meets, so reading is parallel too.
//!
//! Three uses: a walk that keeps every file's text in memory (no cache); a walk for the
//! kept index, which keeps no text but each file's words, and reuses the record of a file
//! whose size and mtime are those the last index saw; and the walk of a call without the
//! kept index, which opens no file (each is read once, later, by the mode that needs it).

use super::content::{read_content, Content};
use super::file::{extension, name_bag_of, PathParts, Source, TreeFile};
use super::found_runs::{FoundRuns, Listed};
use super::options::TreeOptions;
use super::postings;
use super::report::WalkReport;
use super::root::{check_root, ROOT_HINT};
use super::segments::Scratch;
use super::stamp::{self, FileRecord, Stamp};
use super::symbols::{self, Language};
use crate::error::{EngineError, Result};
use crate::text::fold::fold;
use ignore::{WalkBuilder, WalkState};
use rayon::prelude::*;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// Walk errors kept verbatim in the report.
const MAX_MESSAGES: usize = 20;
/// Files whose rules change what the walk sees, checked in every directory walked.
pub(super) const IGNORE_FILES: [&str; 2] = [".gitignore", ".ignore"];

/// Walks `root` and reads every file into memory.
pub(super) fn walk_in_memory(
    root: &Path,
    options: &TreeOptions,
) -> Result<(Vec<TreeFile>, WalkReport)> {
    let walked = run(root, options, Purpose::Memory)?;
    Ok((walked.files, walked.report))
}

/// Walks `root` keeping every file's path and the names it makes ([`TreeFile::unread`], made
/// on the pool once the paths are sorted), neither opening nor `stat`ing a file (its size
/// and what it holds are learnt when the file is first read, see
/// [`TreeFile::content_kind`]): the first call on a root with no kept index. Sorted by
/// path; each file reads from `source`.
pub(super) fn walk_paths_only(
    root: &Path,
    options: &TreeOptions,
    source: &Arc<Source>,
) -> Result<(Vec<TreeFile>, WalkReport)> {
    let walked = run(root, options, Purpose::PathsOnly)?;
    let mut paths = walked.paths;
    // on the pool's threads: on one, sorting a large tree's paths held up the first read
    // (paths are distinct: unstable is deterministic). The paths are sorted, not the
    // records: a record is 288 bytes, and each was moved on every push that grew a
    // worker's list, on the merge of the lists and again by the sort (two fifths of a first
    // call's page faults, docs/index.md)
    paths.par_sort_unstable();
    let files = paths
        .into_par_iter()
        .map(|path| TreeFile::unread(path, source.clone()))
        .collect();
    Ok((files, walked.report))
}

/// What the walk for the index found: files, and the directories and ignore files whose
/// mtimes tell a later call whether to walk again (each to sort by path,
/// [`FoundRuns::sorted`]), and the walk's errors.
pub(super) struct IndexWalk {
    pub found: FoundRuns<Listed>,
    pub stamps: FoundRuns<Stamp>,
    pub report: WalkReport,
}

/// How many files (or stamps) a walker thread lists before handing them over.
const HAND_OVER: usize = 4096;

/// Walks `root` for the index, each file found listed with its size and mtime, and each
/// directory and ignore file stamped, held in runs of about `run_bytes` spilled through
/// `scratch` (`tree/found_runs.rs`). Which
/// files the last index's records serve is decided by the build, in path order
/// (`tree/reused_records.rs`), so that the walk holds nothing per file of that index.
pub(super) fn walk_for_index(
    root: &Path,
    options: &TreeOptions,
    scratch: &Scratch,
    run_bytes: usize,
) -> Result<IndexWalk> {
    let runs = Mutex::new(FoundRuns::new(scratch.clone(), run_bytes));
    let stamps = Mutex::new(FoundRuns::new(scratch.clone(), run_bytes));
    let purpose = Purpose::Index {
        runs: &runs,
        stamps: &stamps,
    };
    let walked = run(root, options, purpose)?;
    let panicked = || EngineError::Internal("a walker thread panicked".into());
    let found = runs.into_inner().map_err(|_| panicked())?;
    let mut stamps = stamps.into_inner().map_err(|_| panicked())?;
    if options.gitignore {
        // the repository's own excludes apply to the whole root
        if let Some(stamp) = stamp_of(root, ".git/info/exclude") {
            stamps.take(&mut vec![stamp]);
        }
    }
    // not held while the files are read
    stamps.settle();
    Ok(IndexWalk {
        found,
        stamps,
        report: walked.report,
    })
}

#[derive(Clone, Copy)]
enum Purpose<'a> {
    Memory,
    /// Every file's path only: its record is made once the paths are sorted.
    PathsOnly,
    Index {
        runs: &'a Mutex<FoundRuns<Listed>>,
        stamps: &'a Mutex<FoundRuns<Stamp>>,
    },
}

struct Walked {
    /// The files read, for a walk that keeps them in memory ([`Purpose::Memory`]).
    files: Vec<TreeFile>,
    /// The files' paths, for a walk without the kept index ([`Purpose::PathsOnly`]).
    paths: Vec<String>,
    report: WalkReport,
}

/// Which entries a walk takes, by their paths as shown: an entry it does not take is
/// neither listed nor, for a directory, entered.
type Along = Box<dyn Fn(&str) -> bool + Send + Sync + 'static>;

/// The files a walk from `root` meets along the paths `along` takes (the walk's every rule
/// applied on the way: ignore files, hidden files, links), as shown, in no order: how the
/// files added under a directory are found without walking the rest of the tree
/// (`tree/edits.rs`).
pub(super) fn walk_only(
    root: &Path,
    options: &TreeOptions,
    along: impl Fn(&str) -> bool + Send + Sync + 'static,
) -> Result<Vec<String>> {
    Ok(run_along(root, options, Purpose::PathsOnly, Some(Box::new(along)))?.paths)
}

fn run(root: &Path, options: &TreeOptions, purpose: Purpose<'_>) -> Result<Walked> {
    run_along(root, options, purpose, None)
}

fn run_along(
    root: &Path,
    options: &TreeOptions,
    purpose: Purpose<'_>,
    along: Option<Along>,
) -> Result<Walked> {
    check_root(root, ROOT_HINT)?;
    let mut builder = WalkBuilder::new(root);
    if let Some(along) = along {
        let from = root.to_path_buf();
        builder.filter_entry(move |entry| along(&shown_path(&from, entry.path())));
    }
    builder
        .hidden(!options.hidden)
        .follow_links(options.follow_links)
        .git_ignore(options.gitignore)
        .git_exclude(options.gitignore)
        .ignore(options.gitignore)
        .git_global(false)
        .parents(false)
        .require_git(false)
        .threads(options.threads);
    let shared = Mutex::new(Walked {
        files: Vec::new(),
        paths: Vec::new(),
        report: WalkReport::default(),
    });
    builder.build_parallel().run(|| {
        let mut worker = Worker {
            root,
            options,
            purpose,
            files: Vec::new(),
            listed: Vec::new(),
            paths: Vec::new(),
            stamps: Vec::new(),
            report: WalkReport::default(),
            shared: &shared,
        };
        Box::new(move |entry| {
            worker.visit(entry);
            WalkState::Continue
        })
    });
    shared
        .into_inner()
        .map_err(|_| EngineError::Internal("a walker thread panicked".into()))
}

/// `path` relative to `root`, `/`-separated, a non-UTF-8 name shown lossily. The walker
/// joins every path onto `root` as given, so on Unix its bytes are cut off (comparing
/// `Path` components, as `strip_prefix` does, was a tenth of the walk's own time).
fn shown_path(root: &Path, path: &Path) -> String {
    #[cfg(unix)]
    {
        let root_bytes = root.as_os_str().as_encoded_bytes();
        if let Some(rest) = path.as_os_str().as_encoded_bytes().strip_prefix(root_bytes) {
            let rel = match rest.first() {
                _ if root_bytes.ends_with(b"/") => Some(rest),
                None => Some(rest),
                Some(b'/') => Some(&rest[1..]),
                Some(_) => None,
            };
            if let Some(rel) = rel {
                // what `to_string_lossy` gives on Unix, where a name is its bytes
                return String::from_utf8_lossy(rel).into_owned();
            }
        }
    }
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .replace(std::path::MAIN_SEPARATOR, "/")
}

/// The stamp of `rel` under `root`, when it exists.
fn stamp_of(root: &Path, rel: &str) -> Option<Stamp> {
    let meta = std::fs::metadata(root.join(rel)).ok()?;
    Some(Stamp {
        path: rel.to_string(),
        size: meta.len(),
        mtime: stamp::mtime_ns(&meta),
        names: None,
    })
}

/// What the index records of the file at `path` (shown as `shown`), read, classified and
/// scanned now, and the words its posting lists hold: the walk for the index reads each
/// file it cannot reuse this way, and a tree edited in place its edited files
/// (`tree/edits.rs`). `failed` is why its metadata could not be read, if it could not.
pub(super) fn read_record(
    path: &Path,
    shown: String,
    mtime: i64,
    failed: Option<String>,
    options: &TreeOptions,
) -> (FileRecord, Vec<u8>) {
    let (size, content) = match failed {
        None => read_content(path, options.max_file_bytes),
        Some(why) => (0, Content::Unreadable(why)),
    };
    let language = Language::from_extension(&fold(extension(&shown)));
    let (symbols, words) = match (&content, language) {
        (Content::Text { text, folded }, Some(lang)) => (
            symbols::scan_file(lang, text),
            postings::words_of(folded.as_bytes()),
        ),
        (Content::Text { folded, .. }, None) => (Vec::new(), postings::words_of(folded.as_bytes())),
        _ => (Vec::new(), Vec::new()),
    };
    let parts = PathParts::of(&shown);
    let name_bag = name_bag_of(&parts.stem, &parts.stem_snake, &parts.dir, &symbols[..]);
    let record = FileRecord {
        path: shown,
        size,
        mtime,
        kind: content.kind(),
        symbols,
        name_bag,
    };
    (record, words)
}

/// One walker thread's findings, merged into the shared list when the thread drops it.
struct Worker<'a> {
    root: &'a Path,
    options: &'a TreeOptions,
    purpose: Purpose<'a>,
    files: Vec<TreeFile>,
    /// Files listed for the index, handed over [`HAND_OVER`] at a time.
    listed: Vec<Listed>,
    paths: Vec<String>,
    stamps: Vec<Stamp>,
    report: WalkReport,
    shared: &'a Mutex<Walked>,
}

impl Worker<'_> {
    fn visit(&mut self, entry: std::result::Result<ignore::DirEntry, ignore::Error>) {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                self.error(e.to_string());
                return;
            }
        };
        let Some(file_type) = entry.file_type() else {
            return;
        };
        let path = entry.path();
        let shown = shown_path(self.root, path);
        if file_type.is_dir() {
            if let Purpose::Index { stamps, .. } = self.purpose {
                self.stamp_dir(&shown, stamps);
            }
            return;
        }
        if !file_type.is_file() {
            return;
        }
        match self.purpose {
            Purpose::Memory => {
                let (size, content) = read_content(path, self.options.max_file_bytes);
                self.files.push(TreeFile::new(shown, size, content));
            }
            // nothing more: a `stat` per file would double the walk's time, and the file is
            // read once when a mode needs it
            Purpose::PathsOnly => self.paths.push(shown),
            Purpose::Index { runs, .. } => {
                // read later (or taken from the last index), a batch at a time in file
                // order, so that the words of every file are never held at once
                let listed = match std::fs::metadata(path) {
                    Ok(m) => Listed {
                        path: shown,
                        size: m.len(),
                        mtime: stamp::mtime_ns(&m),
                        failed: None,
                    },
                    Err(e) => Listed {
                        path: shown,
                        size: 0,
                        mtime: 0,
                        failed: Some(e.to_string()),
                    },
                };
                self.listed.push(listed);
                if self.listed.len() >= HAND_OVER {
                    lock(runs).take(&mut self.listed);
                }
            }
        }
    }

    /// Records a walked directory's mtime, and its ignore files', handed over to `stamps`
    /// [`HAND_OVER`] at a time.
    fn stamp_dir(&mut self, shown: &str, stamps: &Mutex<FoundRuns<Stamp>>) {
        if let Some(mut stamp) = stamp_of(self.root, shown) {
            stamp.names = stamp::names_of(&self.root.join(shown));
            self.stamps.push(stamp);
        }
        if self.options.gitignore {
            for name in IGNORE_FILES {
                let rel = if shown.is_empty() {
                    name.to_string()
                } else {
                    format!("{shown}/{name}")
                };
                if let Some(stamp) = stamp_of(self.root, &rel) {
                    self.stamps.push(stamp);
                }
            }
        }
        if self.stamps.len() >= HAND_OVER {
            lock(stamps).take(&mut self.stamps);
        }
    }

    fn error(&mut self, message: String) {
        self.report.errors += 1;
        if self.report.messages.len() < MAX_MESSAGES {
            self.report.messages.push(message);
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Drop for Worker<'_> {
    fn drop(&mut self) {
        if let Purpose::Index { runs, stamps } = self.purpose {
            lock(runs).take(&mut self.listed);
            lock(stamps).take(&mut self.stamps);
        }
        let mut shared = lock(self.shared);
        shared.files.append(&mut self.files);
        shared.paths.append(&mut self.paths);
        let r = &mut shared.report;
        r.errors += self.report.errors;
        let room = MAX_MESSAGES.saturating_sub(r.messages.len());
        r.messages.extend(self.report.messages.drain(..).take(room));
    }
}

#[cfg(test)]
mod tests {
    use super::shown_path;
    use std::path::Path;

    /// The bytes cut off are the components `strip_prefix` compares, for roots written
    /// every way a user may write them.
    #[test]
    fn a_path_is_shown_relative_to_its_root_however_the_root_is_written() {
        for (root, path, shown) in [
            (".", "./src/main.rs", "src/main.rs"),
            ("src", "src/main.rs", "main.rs"),
            ("src/", "src/main.rs", "main.rs"),
            ("src//", "src//main.rs", "main.rs"),
            ("a/./b", "a/./b/c.rs", "c.rs"),
            ("/abs/root", "/abs/root/x/y.rs", "x/y.rs"),
            ("/abs/root", "/abs/root", ""),
            // a root that is a prefix of the bytes but not of the components
            ("/abs/ro", "/abs/root/x.rs", "/abs/root/x.rs"),
        ] {
            let (root, path) = (Path::new(root), Path::new(path));
            let by_components = path
                .strip_prefix(root)
                .unwrap_or(path)
                .to_string_lossy()
                .into_owned();
            assert_eq!(by_components, shown, "{root:?} {path:?}");
            assert_eq!(shown_path(root, path), by_components, "{root:?} {path:?}");
        }
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            let path = Path::new(std::ffi::OsStr::from_bytes(b"root/caf\xe9.rs"));
            assert_eq!(shown_path(Path::new("root"), path), "caf\u{FFFD}.rs");
        }
    }
}
