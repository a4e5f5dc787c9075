//! Where findbench keeps what it can rebuild (tree indexes): `$FINDBENCH_CACHE` when set and
//! not empty, else the platform's cache directory with a `findbench` folder in it.

use std::path::PathBuf;

/// The environment variable that names the cache directory.
pub const CACHE_ENV: &str = "FINDBENCH_CACHE";

/// The cache directory, or `None` when neither `$FINDBENCH_CACHE` nor a home directory is
/// known (then nothing is cached). The directory may not exist yet.
pub fn cache_dir() -> Option<PathBuf> {
    let env = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(dir) = env(CACHE_ENV) {
        return Some(dir);
    }
    let platform = if cfg!(target_os = "macos") {
        env("HOME").map(|h| h.join("Library").join("Caches"))
    } else if cfg!(windows) {
        env("LOCALAPPDATA")
    } else {
        // XDG base directories: an absolute $XDG_CACHE_HOME, else ~/.cache
        env("XDG_CACHE_HOME")
            .filter(|p| p.is_absolute())
            .or_else(|| env("HOME").map(|h| h.join(".cache")))
    };
    platform.map(|dir| dir.join("findbench"))
}
