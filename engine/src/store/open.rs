//! Opening a store file: from the kept store ([`super::cache`]) when it matches the file,
//! else parsed and indexed, and then kept.

use super::cache;
use super::item_store::Store;
use super::load;
use crate::error::{EngineError, Result};
use std::path::{Path, PathBuf};

/// How [`Store::load_with`] loads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreOptions {
    /// Reuse (and keep) the parsed and indexed store in the cache directory; off, the file
    /// is parsed every time and nothing is written.
    pub cache: bool,
    /// The cache directory; `None` takes [`crate::cache_dir::cache_dir`].
    pub cache_dir: Option<PathBuf>,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            cache: true,
            cache_dir: None,
        }
    }
}

impl Store {
    /// Reads and indexes the store at `path` (todo.json shape or JSON Lines), through the
    /// cache (see [`StoreOptions`]).
    pub fn load(path: &Path) -> Result<Store> {
        Store::load_with(path, &StoreOptions::default())
    }

    /// [`Store::load`] with options. A cached store is used only when the file's canonical
    /// path, size and modification time are those it was built from; a cache that is
    /// missing, stale, corrupt or from another findbench version is rebuilt, and a cache
    /// that cannot be written is skipped: the cache never changes an answer or fails a
    /// load.
    pub fn load_with(path: &Path, options: &StoreOptions) -> Result<Store> {
        let cache = options
            .cache
            .then(|| {
                options
                    .cache_dir
                    .clone()
                    .or_else(crate::cache_dir::cache_dir)
            })
            .flatten()
            .and_then(|dir| cache::Entry::for_file(&dir, path));
        if let Some(store) = cache.as_ref().and_then(|c| c.read(path)) {
            return Ok(store);
        }
        let bytes = std::fs::read(path).map_err(|e| EngineError::File {
            path: path.to_path_buf(),
            message: format!("cannot read store: {e}"),
            hint: Some("pass an existing todo.json or .jsonl file with --store".into()),
        })?;
        let (format, items) = load::parse_store(path, &bytes)?;
        let store = Store::build(path.to_path_buf(), format, items)?;
        if let Some(cache) = cache {
            cache.write(&store);
        }
        Ok(store)
    }
}
