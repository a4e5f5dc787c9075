//! Loading a tree: from the kept index ([`super::cache`]) when there is a cache directory
//! and a usable index in it; else, the first time, by one walk that keeps every file's path
//! and opens none, so that the call is answered without building the index first
//! ([`Tree::ready`] builds it when a mode needs all of it); and with no cache at all, by
//! walking and reading every file ([`super::walk`]).

use super::cache::{self, IndexStats};
use super::file::Source;
use super::index_wanted;
use super::options::TreeOptions;
use super::source_tree::{Tree, TreeState, Unindexed};
use super::walk;
use crate::error::{EngineError, Result};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

impl Tree {
    /// The tree at `root`: from the kept index, refreshed for what changed since (files
    /// whose size or mtime differ are read again, added and removed ones are seen). With no
    /// usable index yet, only every file's path is kept (its size and what it holds are
    /// learnt when it is first read): the tree answers `ask`, `grep` and `find path` as the
    /// index would, and builds the index when a mode needs it whole ([`Tree::ready`]). With
    /// [`TreeOptions::no_cache`] or no cache directory, every file is walked and read into
    /// memory.
    pub fn load(root: &Path, options: &TreeOptions) -> Result<Tree> {
        if let Some(dir) = options.kept_in() {
            return match cache::open_if_indexed(root, options, &dir)? {
                Some((tree, _)) => Ok(tree),
                None => Tree::load_unindexed(root, options, dir),
            };
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

    /// One walk keeping every file's path.
    fn load_unindexed(root: &Path, options: &TreeOptions, cache_dir: PathBuf) -> Result<Tree> {
        let source = Arc::new(Source {
            root: root.to_path_buf(),
            max_file_bytes: options.max_file_bytes,
        });
        let (files, report) = walk::walk_paths_only(root, options, &source)?;
        // sorted by path already; no table: it would scan every file (see Tree::ready)
        let none = Arc::new(super::symbol_table::SymbolTable::default());
        let mut tree = Tree::from_files(root.to_path_buf(), files, report, None, Some(none));
        tree.state = TreeState::Unindexed(Box::new(Unindexed {
            options: options.clone(),
            cache_dir,
            built: OnceLock::new(),
        }));
        Ok(tree)
    }

    /// True for a tree loaded without its kept index (see [`Tree::load`]).
    pub fn is_unindexed(&self) -> bool {
        matches!(self.state, TreeState::Unindexed(_))
    }

    /// What a tree loaded without its kept index needs to build it.
    fn unindexed(&self) -> Option<&Unindexed> {
        match &self.state {
            TreeState::Unindexed(unindexed) => Some(unindexed),
            TreeState::Indexed { .. } | TreeState::FirstCall(_) => None,
        }
    }

    /// The whole tree, as `find code` needs it (the symbol table of every file): this tree,
    /// or for one loaded without its kept index, the tree of the index, built and written
    /// now (once).
    pub fn ready(&self) -> Result<&Tree> {
        let Some(unindexed) = self.unindexed() else {
            return Ok(self);
        };
        unindexed
            .built
            .get_or_init(|| {
                cache::open(self.root(), &unindexed.options, &unindexed.cache_dir)
                    // the history its caller gave this tree is the built one's too
                    .map(|(mut tree, _)| {
                        tree.history = self.history.clone();
                        tree
                    })
                    .map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(|message| EngineError::File {
                path: self.root().to_path_buf(),
                message: message.clone(),
                hint: None,
            })
    }

    /// The tree of the kept index when it is built already (by [`Tree::ready`], or by
    /// another process since this tree was loaded): what a long-lived process answers from
    /// once it can.
    pub fn built(&self) -> Option<&Tree> {
        let unindexed = self.unindexed()?;
        if let Some(built) = unindexed.built.get() {
            return built.as_ref().ok();
        }
        if cache::is_indexed(self.root(), &unindexed.options, &unindexed.cache_dir) {
            return self.ready().ok();
        }
        None
    }

    /// The kept index this tree wants, when it was loaded without one and none has been
    /// built since, or when more files changed since its index was written (and since the
    /// changes kept beside it: `tree/kept_changes.rs`) than a call should read again
    /// ([`super::edits::REFRESH_AFTER`]): the caller decides whether to build it
    /// ([`index_wanted::IndexWanted`]). `None` for an indexed tree otherwise and with
    /// `--no-cache`.
    pub fn index_wanted(&self) -> Option<index_wanted::IndexWanted> {
        if let Some(overlay) = self.overlay() {
            // files whose records a refresh kept are not read again: only those read count
            let many = overlay.from_disk >= super::edits::REFRESH_AFTER;
            return match (many && overlay.default_options, self.kept()) {
                (true, Some(kept)) => index_wanted::wanted_refresh(self.root(), &kept.index_path),
                _ => None,
            };
        }
        let unindexed = self.unindexed()?;
        if self.built().is_some() {
            return None;
        }
        index_wanted::wanted(self.root(), &unindexed.options, &unindexed.cache_dir)
    }

    /// Builds or refreshes the kept index of `root` and says what it holds (`findbench
    /// index DIR`). An error when caching is off or no cache directory is known.
    pub fn index(root: &Path, options: &TreeOptions) -> Result<IndexStats> {
        Tree::index_and_load(root, options).map(|(_, stats)| stats)
    }

    /// [`Tree::index`], and the tree it now holds (what is derived from the tree can then be
    /// kept beside the index without loading it again).
    pub fn index_and_load(root: &Path, options: &TreeOptions) -> Result<(Tree, IndexStats)> {
        cache::open(root, options, &index_cache_dir(options)?)
    }

    /// [`Tree::index`], and its files: after a build or a refresh, as the records written
    /// (what `findbench index` counts the ranking statistics from in less memory than a
    /// tree of the same files), else the tree.
    pub fn index_for_statistics(
        root: &Path,
        options: &TreeOptions,
    ) -> Result<(cache::Indexed, IndexStats)> {
        cache::open_for_index(root, options, &index_cache_dir(options)?)
    }
}

/// Where the index is kept: an error when caching is off or no cache directory is known.
fn index_cache_dir(options: &TreeOptions) -> Result<std::path::PathBuf> {
    if options.no_cache {
        return Err(crate::error::EngineError::invalid(
            "the index is not kept with --no-cache",
        ));
    }
    options
        .cache_dir
        .clone()
        .or_else(crate::cache_dir::cache_dir)
        .ok_or_else(|| {
            crate::error::EngineError::invalid_with_hint(
                "no cache directory: neither FINDBENCH_CACHE nor a home directory is set",
                "set FINDBENCH_CACHE to a writable directory",
            )
        })
}
