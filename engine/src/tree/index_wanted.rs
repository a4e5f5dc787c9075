//! When a tree's kept index is wanted and who builds it: the engine starts no process; it
//! says what is wanted ([`IndexWanted`]), and its caller claims the build by a marker beside
//! the index ([`BuildClaim`]) so that two processes do not build one root at once.

use super::cache::index_path;
use super::index_format::OptionsKey;
use super::options::TreeOptions;
use std::path::{Path, PathBuf};

/// A marker beside the index while a process of its own builds it.
pub fn building_marker(index_path: &Path) -> PathBuf {
    index_path.with_extension("building")
}

/// How long a marker keeps another build from being claimed: a builder that died leaves
/// one behind.
const MARKER_STALE: std::time::Duration = std::time::Duration::from_secs(600);

/// A tree answered without its kept index, whose index is wanted so that the next call is
/// warm. The engine starts no process: it says what is wanted, and its caller (the CLI)
/// decides whether to build it and how (`findbench index ROOT --background`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexWanted {
    /// The canonical root to index.
    pub root: PathBuf,
    /// The cache directory the index goes into (`FINDBENCH_CACHE` of the builder).
    pub cache_dir: PathBuf,
    marker: PathBuf,
}

/// The index of `root` is wanted when the walk options are the ones `findbench index` uses
/// (another key would build an index no call of the command line reads).
pub(super) fn wanted(root: &Path, options: &TreeOptions, cache_dir: &Path) -> Option<IndexWanted> {
    if options.no_cache || !options.walks_as_default() {
        return None;
    }
    let canonical = root.canonicalize().ok()?;
    let marker = building_marker(&index_path(cache_dir, &canonical, &OptionsKey::of(options)));
    Some(IndexWanted {
        root: canonical,
        cache_dir: cache_dir.to_path_buf(),
        marker,
    })
}

/// The refresh of the index at `index_path` (of the root `root`, built with the options
/// `findbench index` uses), wanted by a tree that changed too much since it was written.
pub(super) fn wanted_refresh(root: &Path, index_path: &Path) -> Option<IndexWanted> {
    Some(IndexWanted {
        root: root.canonicalize().ok()?,
        cache_dir: index_path.parent()?.parent()?.to_path_buf(),
        marker: building_marker(index_path),
    })
}

/// A build of one root claimed by its marker: the builder removes the marker when done
/// (`findbench index` does); [`BuildClaim::release`] removes it when no build started.
#[derive(Debug)]
pub struct BuildClaim {
    marker: PathBuf,
}

impl IndexWanted {
    /// Claims the build unless another is under way (a marker younger than
    /// [`MARKER_STALE`] beside the index): `None` when one is, or the marker cannot be
    /// written.
    pub fn claim(&self) -> Option<BuildClaim> {
        let fresh = std::fs::metadata(&self.marker)
            .and_then(|m| m.modified())
            .is_ok_and(|t| t.elapsed().is_ok_and(|age| age < MARKER_STALE));
        if fresh {
            return None;
        }
        if let Some(dir) = self.marker.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        std::fs::write(&self.marker, std::process::id().to_string()).ok()?;
        Some(BuildClaim {
            marker: self.marker.clone(),
        })
    }
}

impl BuildClaim {
    /// No build started after all: the next call may claim it again.
    pub fn release(self) {
        let _ = std::fs::remove_file(&self.marker);
    }
}
