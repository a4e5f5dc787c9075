//! Loading a tree: from the kept index ([`super::cache`]) when there is a cache directory,
//! else by walking and reading every file ([`super::walk`]).

use super::cache::{self, IndexStats};
use super::options::TreeOptions;
use super::source_tree::Tree;
use super::walk;
use crate::error::Result;
use std::path::Path;

impl Tree {
    /// The tree at `root`: from the kept index, refreshed for what changed since (files
    /// whose size or mtime differ are read again, added and removed ones are seen), or, with
    /// [`TreeOptions::no_cache`] or no cache directory, by walking and reading every file.
    pub fn load(root: &Path, options: &TreeOptions) -> Result<Tree> {
        if !options.no_cache {
            if let Some(dir) = options
                .cache_dir
                .clone()
                .or_else(crate::cache_dir::cache_dir)
            {
                return cache::open(root, options, &dir).map(|(tree, _)| tree);
            }
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

    /// Builds or refreshes the kept index of `root` and says what it holds (`findbench
    /// index DIR`). An error when caching is off or no cache directory is known.
    pub fn index(root: &Path, options: &TreeOptions) -> Result<IndexStats> {
        Tree::index_and_load(root, options).map(|(_, stats)| stats)
    }

    /// [`Tree::index`], and the tree it now holds (what is derived from the tree can then be
    /// kept beside the index without loading it again).
    pub fn index_and_load(root: &Path, options: &TreeOptions) -> Result<(Tree, IndexStats)> {
        if options.no_cache {
            return Err(crate::error::EngineError::invalid(
                "the index is not kept with --no-cache",
            ));
        }
        let dir = options
            .cache_dir
            .clone()
            .or_else(crate::cache_dir::cache_dir)
            .ok_or_else(|| {
                crate::error::EngineError::invalid_with_hint(
                    "no cache directory: neither FINDBENCH_CACHE nor a home directory is set",
                    "set FINDBENCH_CACHE to a writable directory",
                )
            })?;
        cache::open(root, options, &dir)
    }
}
