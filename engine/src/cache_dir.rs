//! Where findbench keeps what it builds once and reuses across calls (the store cache, the
//! tree index): `$FINDBENCH_CACHE` when set, else the platform's cache directory plus
//! `findbench` (`$XDG_CACHE_HOME/findbench`, `~/.cache/findbench`,
//! `~/Library/Caches/findbench` on macOS, `%LOCALAPPDATA%\findbench` on Windows).
//! Everything in it may be deleted at any time.

use std::path::PathBuf;

/// The cache directory, or `None` when the environment names none (no home directory).
pub fn cache_dir() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = var("FINDBENCH_CACHE") {
        return Some(PathBuf::from(dir));
    }
    let base = if cfg!(windows) {
        var("LOCALAPPDATA").map(PathBuf::from)
    } else if cfg!(target_os = "macos") {
        var("HOME").map(|h| PathBuf::from(h).join("Library/Caches"))
    } else {
        // the XDG spec ignores a relative XDG_CACHE_HOME
        var("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| var("HOME").map(|h| PathBuf::from(h).join(".cache")))
    };
    base.map(|b| b.join("findbench"))
}
