//! How a tree is walked and what is kept of it.

use std::path::PathBuf;

/// How a tree is walked and what is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeOptions {
    /// Files larger than this keep their path but not their text.
    pub max_file_bytes: u64,
    /// Honour `.gitignore`, `.ignore` and `.git/info/exclude` inside the root (never the
    /// user's global excludes, so that results do not depend on the machine).
    pub gitignore: bool,
    /// Include hidden files and directories (`.name`).
    pub hidden: bool,
    /// Follow symbolic links (loops are detected and skipped).
    pub follow_links: bool,
    /// Walker threads; 0 picks from the machine.
    pub threads: usize,
    /// Neither read nor write the kept index: walk and read every file (`--no-cache`).
    pub no_cache: bool,
    /// Where the index is kept; `None` is [`crate::cache_dir::cache_dir`] (`$FINDBENCH_CACHE`,
    /// else the platform cache directory).
    pub cache_dir: Option<PathBuf>,
}

impl Default for TreeOptions {
    fn default() -> Self {
        TreeOptions {
            max_file_bytes: 1 << 20,
            gitignore: true,
            hidden: false,
            follow_links: true,
            threads: 0,
            no_cache: false,
            cache_dir: None,
        }
    }
}

impl TreeOptions {
    /// The cache directory these options keep things in (the index, a work tree's history):
    /// `cache_dir`, else [`crate::cache_dir::cache_dir`]; none with `no_cache` or when no
    /// directory is known.
    pub fn kept_in(&self) -> Option<PathBuf> {
        if self.no_cache {
            return None;
        }
        self.cache_dir.clone().or_else(crate::cache_dir::cache_dir)
    }

    /// True when these options walk a tree as `findbench index` does (the options of its
    /// kept index: size limit, ignore files, hidden files, links): only such an index is
    /// one a caller builds in the background.
    pub fn walks_as_default(&self) -> bool {
        let d = TreeOptions::default();
        (
            self.max_file_bytes,
            self.gitignore,
            self.hidden,
            self.follow_links,
        ) == (d.max_file_bytes, d.gitignore, d.hidden, d.follow_links)
    }
}
