//! A kept index whose tree changed by a few files: the index is used as it is, and what
//! changed is laid over it ([`Overlay`]): the files edited or added since are read again,
//! the removed ones dropped, so that the call after a change costs the warm call and the
//! reading of what changed, not a refresh of the whole index (docs/index.md, "When files
//! changed").
//!
//! What changed is found without walking the tree: every recorded file and directory is
//! `stat`ed, as a warm call does. A file whose size or mtime moved was edited. A directory
//! whose mtime moved is listed, and its names compared with those the index recorded
//! ([`super::stamp::names_of`]): the same names mean a file was replaced (an editor that
//! writes a new file and renames it over the old one); a name gone is a removed file or
//! directory; a new name is walked from the root along the path to it, so that every
//! ignore rule on the way applies as in a whole walk ([`super::walk::walk_only`]). An index
//! that did not trust one of its records, an ignore file changed or added, or more than
//! [`MAX_READ`] files to read, is left to the refresh by a walk (`tree/cache.rs`).

use super::head_records::{HeadStamps, IndexRecords};
use super::kept_changes::KeptChanges;
use super::options::TreeOptions;
use super::stamp::{self, FileRecord};
use super::symbol_table::SymbolTable;
use super::walk::{read_record, walk_only, IGNORE_FILES};
use rayon::prelude::*;
use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

/// The most files an overlay reads: each is read again on every call until the index is
/// refreshed, so past this many a refresh costs less than the calls it saves.
pub(crate) const MAX_READ: usize = 256;

/// How many files read again make a call ask its caller to refresh the index where it
/// can (the command line, by a build of its own at the lowest priority: docs/index.md):
/// until then each call reads them again.
pub(crate) const REFRESH_AFTER: usize = 64;

/// A number for "no file": a removed file's place in the tree, a read file's in the index.
pub(crate) const NONE: u32 = u32::MAX;

/// What changed in a tree since its kept index was written, by file numbers.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Changes {
    /// Files of the index whose size or mtime moved, ascending.
    pub edited: Vec<u32>,
    /// Files of the index no longer in the tree, ascending.
    pub removed: Vec<u32>,
    /// Files of the tree the index does not hold, by path, sorted.
    pub added: Vec<String>,
}

impl Changes {
    pub(super) fn is_empty(&self) -> bool {
        self.edited.is_empty() && self.removed.is_empty() && self.added.is_empty()
    }
}

/// The changes laid over a kept index: the tree's files are the index's, less the removed,
/// with the edited and added ones read again.
#[derive(Debug)]
pub(crate) struct Overlay {
    /// The tree's numbers of the files read again (edited or added), ascending.
    pub(crate) ids: Vec<u32>,
    /// Their symbols: file `k` of this table is file `ids[k]` of the tree.
    pub(crate) table: Arc<SymbolTable>,
    /// For each file of the tree, its number in the index ([`NONE`] for a file read
    /// again); empty when no file was added or removed (the numbers are the same).
    pub(crate) old_of_new: Vec<u32>,
    /// For each file of the index, its number in the tree ([`NONE`] for a file removed or
    /// read again); empty when the numbers are the same.
    pub(crate) new_of_old: Vec<u32>,
    /// How many files the index holds.
    pub(crate) index_files: usize,
    /// How many of the files were read from disk (the others' records were kept by a
    /// refresh: `tree/kept_changes.rs`).
    pub(crate) from_disk: usize,
    /// True when the tree was loaded with the walk options of `findbench index` (only an
    /// index of those is refreshed by the caller: [`REFRESH_AFTER`]).
    pub(crate) default_options: bool,
}

impl Overlay {
    /// File `file`'s place among the files read again, if it is one.
    pub(crate) fn position(&self, file: usize) -> Option<usize> {
        u32::try_from(file)
            .ok()
            .and_then(|f| self.ids.binary_search(&f).ok())
    }

    /// The index's number of the tree's file `file` (not read again).
    pub(crate) fn in_index(&self, file: usize) -> usize {
        match self.old_of_new.get(file) {
            Some(&old) => old as usize,
            None => file,
        }
    }

    /// The tree's number of the index's file `old`, `None` when it was removed or read
    /// again.
    pub(crate) fn in_tree(&self, old: u32) -> Option<u32> {
        let new = match self.new_of_old.get(old as usize) {
            Some(&new) => new,
            None if self.position(old as usize).is_some() => NONE,
            None => old,
        };
        (new != NONE).then_some(new)
    }
}

/// What changed in the tree at `root` since the index of `stamps` and `files` was written
/// at `built_ns`; `None` when the index did not trust one of its records (written within
/// the racy window of its build), an ignore file changed, or more than [`MAX_READ`] files
/// would be read: the tree is then walked again.
pub(super) fn changes(
    root: &Path,
    options: &TreeOptions,
    stamps: &HeadStamps,
    files: &dyn IndexRecords,
    built_ns: i64,
) -> Option<Changes> {
    let changed_dirs = changed_dirs(root, stamps, built_ns)?;
    // the changed directories' entries; one that cannot be listed is gone (or is a
    // directory no more: its name, in the directory above, is then new)
    let listings: Vec<(&str, Option<Vec<String>>)> = changed_dirs
        .par_iter()
        .map(|dir| {
            let dir = dir.as_str();
            let names = std::fs::read_dir(root.join(dir)).ok().map(|entries| {
                entries
                    .flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            });
            (dir, names)
        })
        .collect();
    let mut listed_paths: Vec<String> = Vec::new();
    for (dir, names) in &listings {
        for name in names.iter().flatten() {
            listed_paths.push(match dir.is_empty() {
                true => name.clone(),
                false => format!("{dir}/{name}"),
            });
        }
    }
    // which of the listed paths the index holds as files, found in the same pass over its
    // records as the files that moved
    let wanted: HashSet<&str> = listed_paths.iter().map(String::as_str).collect();
    let mut held: HashSet<String> = HashSet::new();
    let mut changes = Changes::default();
    let mut untrusted = false;
    let mut removed: HashSet<String> = HashSet::new();
    let read = files.each_chunk(&mut |first, chunk| {
        untrusted = untrusted || chunk.iter().any(|f| !stamp::trusted(f.mtime, built_ns));
        if untrusted {
            return;
        }
        hold_wanted(chunk, &wanted, &mut held);
        let moved: Vec<(usize, bool)> = chunk
            .par_iter()
            .enumerate()
            .filter_map(|(i, f)| {
                // as the walk saw it: through a link it follows, else the entry itself
                let path = root.join(&f.path);
                let meta = match options.follow_links {
                    true => std::fs::metadata(&path),
                    false => std::fs::symlink_metadata(&path),
                };
                let same = meta
                    .as_ref()
                    .is_ok_and(|m| m.len() == f.size && stamp::mtime_ns(m) == f.mtime);
                match (same, meta) {
                    (true, _) => None,
                    (false, Ok(m)) if m.is_file() => Some((i, true)),
                    // gone, or another kind of entry (which, if the walk keeps it, the
                    // listing of its directory finds again)
                    (false, _) => Some((i, false)),
                }
            })
            .collect();
        for (i, edited) in moved {
            let number = (first + i) as u32;
            match edited {
                true => changes.edited.push(number),
                false => {
                    changes.removed.push(number);
                    removed.insert(chunk[i].path.clone());
                }
            }
        }
    });
    if !read || untrusted || changes.edited.len() > MAX_READ {
        return None;
    }
    if !changed_dirs.is_empty() {
        // the directories walked and the ignore files met (a new one is not known), of
        // those listed
        let stamped = stamped_of(stamps, &wanted)?;
        let gone: HashSet<&str> = listings
            .iter()
            .filter(|(_, names)| names.is_none())
            .map(|(dir, _)| *dir)
            .collect();
        // a path the index holds as a file or a directory that is another kind of entry
        // now is read as added, having been removed
        let is_new = |held: &HashSet<String>, p: &str| {
            !(held.contains(p) || stamped.contains(p)) || removed.contains(p) || gone.contains(p)
        };
        // the names of the changed directories the index does not hold as they are
        let mut new_names: Vec<String> = Vec::new();
        for path in listed_paths {
            if is_new(&held, &path) {
                // a new ignore file changes what the walk keeps below it
                let name = path.rsplit('/').next().unwrap_or(&path);
                if options.gitignore && IGNORE_FILES.contains(&name) {
                    return None;
                }
                new_names.push(path);
            }
        }
        if !new_names.is_empty() {
            let mut added = walk_only(root, options, along_paths_to(&new_names)).ok()?;
            let held = held_of(files, &added)?;
            added.retain(|p| is_new(&held, p));
            added.sort_unstable();
            changes.added = added;
        }
    }
    (changes.edited.len() + changes.added.len() <= MAX_READ).then_some(changes)
}

/// The directories of `stamps` whose names changed since `built_ns`, their stamps read a
/// chunk at a time; `None` when the index did not trust one of them or an ignore file
/// changed.
fn changed_dirs(root: &Path, stamps: &HeadStamps, built_ns: i64) -> Option<Vec<String>> {
    let mut changed: Vec<String> = Vec::new();
    let mut follow = true;
    let read = stamps.each_chunk(&mut |_, chunk| {
        // a record the index did not trust (written within the racy window of its build)
        // is not laid over but refreshed by a walk, which writes an index that trusts it:
        // what is derived from the tree is kept only for such an index (`tree/cache.rs`)
        follow = follow && chunk.iter().all(|s| stamp::trusted(s.mtime, built_ns));
        if !follow {
            return;
        }
        // an ignore file that changed is not a change an overlay can follow
        let listed: Option<Vec<&str>> = chunk
            .par_iter()
            .filter_map(|s| {
                let path = root.join(&s.path);
                let same_mtime =
                    std::fs::metadata(&path).is_ok_and(|m| stamp::mtime_ns(&m) == s.mtime);
                match (same_mtime, s.names) {
                    (true, _) => None,
                    (false, None) => Some(None),
                    (false, Some(names)) if stamp::names_of(&path) == Some(names) => None,
                    (false, Some(_)) => Some(Some(s.path.as_str())),
                }
            })
            .collect();
        match listed {
            Some(dirs) => changed.extend(dirs.into_iter().map(str::to_string)),
            None => follow = false,
        }
    });
    (read && follow).then_some(changed)
}

/// Which of the `wanted` paths `stamps` holds; `None` when they could not be read.
fn stamped_of(stamps: &HeadStamps, wanted: &HashSet<&str>) -> Option<HashSet<String>> {
    let mut stamped = HashSet::new();
    let read = stamps.each_chunk(&mut |_, chunk| {
        let found = chunk.iter().filter(|s| wanted.contains(s.path.as_str()));
        stamped.extend(found.map(|s| s.path.clone()));
    });
    read.then_some(stamped)
}

/// Which of `paths` the index holds as files; `None` when its records could not be read.
fn held_of(files: &dyn IndexRecords, paths: &[String]) -> Option<HashSet<String>> {
    let wanted: HashSet<&str> = paths.iter().map(String::as_str).collect();
    let mut held = HashSet::new();
    let read = files.each_chunk(&mut |_, chunk| hold_wanted(chunk, &wanted, &mut held));
    read.then_some(held)
}

/// Adds to `held` the paths of `chunk` that are `wanted`.
fn hold_wanted(chunk: &[FileRecord], wanted: &HashSet<&str>, held: &mut HashSet<String>) {
    let found = chunk.iter().filter(|f| wanted.contains(f.path.as_str()));
    held.extend(found.map(|f| f.path.clone()));
}

/// Which paths a walk from the root takes to reach `targets` and everything under them:
/// the directories on the way to one (entered, their other entries passed over), the
/// targets, and what lies under a target.
fn along_paths_to(targets: &[String]) -> impl Fn(&str) -> bool + Send + Sync + 'static {
    let targets: HashSet<String> = targets.iter().cloned().collect();
    let mut on_the_way: HashSet<String> = HashSet::new();
    for t in &targets {
        let mut at = t.as_str();
        while let Some(cut) = at.rfind('/') {
            at = &at[..cut];
            on_the_way.insert(at.to_string());
        }
    }
    move |path: &str| {
        if path.is_empty() || on_the_way.contains(path) || targets.contains(path) {
            return true;
        }
        let mut at = path;
        while let Some(cut) = at.rfind('/') {
            at = &at[..cut];
            if targets.contains(at) {
                return true;
            }
        }
        false
    }
}

/// The records of the files `paths` under `root`, read, classified and scanned again, as
/// the walk for the index reads a file; or, for a file whose size and mtime are those of
/// its record in `kept` (a refresh read it: `tree/kept_changes.rs`), that record. With how
/// many were read.
pub(super) fn read_again(
    root: &Path,
    options: &TreeOptions,
    paths: &[&str],
    kept: &KeptChanges,
) -> (Vec<FileRecord>, usize) {
    let records: Vec<(FileRecord, bool)> = paths
        .par_iter()
        .map(|&shown| {
            let path = root.join(shown);
            let (mtime, failed) = match std::fs::metadata(&path) {
                Ok(m) => match kept.record(shown, m.len(), stamp::mtime_ns(&m)) {
                    Some(record) => return (record, false),
                    None => (stamp::mtime_ns(&m), None),
                },
                Err(e) => (0, Some(e.to_string())),
            };
            (
                read_record(&path, shown.to_string(), mtime, failed, options).0,
                true,
            )
        })
        .collect();
    let read = records.iter().filter(|(_, read)| *read).count();
    (records.into_iter().map(|(r, _)| r).collect(), read)
}

/// The index's records with a tree's changes laid over them ([`laid_over`]).
pub(super) struct LaidOver {
    /// The tree's records, sorted by path, without their symbols (in the tables).
    pub records: Vec<FileRecord>,
    pub overlay: Overlay,
    /// The records of the edited and added files, with their symbols: what a refresh keeps
    /// beside the index (`tree/kept_changes.rs`).
    pub changed: Vec<FileRecord>,
}

/// The tree's records: the index's `files` with `changes` laid over them (edited and added
/// files read again, or taken from `kept`), sorted by path, and the overlay that maps one
/// to the other (its symbol table built from the records read).
pub(super) fn laid_over(
    root: &Path,
    options: &TreeOptions,
    files: Vec<FileRecord>,
    changes: &Changes,
    kept: &KeptChanges,
) -> LaidOver {
    let mut read_paths: Vec<&str> = changes
        .edited
        .iter()
        .map(|&i| files[i as usize].path.as_str())
        .collect();
    read_paths.extend(changes.added.iter().map(String::as_str));
    let (read, from_disk) = read_again(root, options, &read_paths, kept);
    let changed = read.clone();
    let old_count = files.len();
    let dropped: HashSet<u32> = changes
        .edited
        .iter()
        .chain(&changes.removed)
        .copied()
        .collect();
    // (record, its number in the index or NONE)
    let mut merged: Vec<(FileRecord, u32)> = files
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !dropped.contains(&(*i as u32)))
        .map(|(i, r)| (r, i as u32))
        .chain(read.into_iter().map(|r| (r, NONE)))
        .collect();
    merged.sort_by(|a, b| a.0.path.cmp(&b.0.path));
    let ids: Vec<u32> = merged
        .iter()
        .enumerate()
        .filter(|(_, (_, old))| *old == NONE)
        .map(|(i, _)| i as u32)
        .collect();
    let table = Arc::new(SymbolTable::build(
        ids.iter().map(|&i| merged[i as usize].0.symbols.as_slice()),
    ));
    let same_numbers = changes.removed.is_empty() && changes.added.is_empty();
    let (old_of_new, new_of_old) = match same_numbers {
        true => (Vec::new(), Vec::new()),
        false => {
            let old_of_new: Vec<u32> = merged.iter().map(|(_, old)| *old).collect();
            let mut new_of_old = vec![NONE; old_count];
            for (new, &old) in old_of_new.iter().enumerate() {
                if old != NONE {
                    new_of_old[old as usize] = new as u32;
                }
            }
            (old_of_new, new_of_old)
        }
    };
    let records = merged
        .into_iter()
        .map(|(mut r, _)| {
            r.symbols = Vec::new();
            r
        })
        .collect();
    let overlay = Overlay {
        ids,
        table,
        old_of_new,
        new_of_old,
        index_files: old_count,
        from_disk,
        default_options: options.walks_as_default(),
    };
    LaidOver {
        records,
        overlay,
        changed,
    }
}
