//! The checks a tree root must pass before it is walked, for the engine and for every front
//! end that names a root (one place, so that all of them say the same).

use crate::error::{EngineError, Result};
use std::path::Path;

/// What to pass instead, when a root given to [`crate::Tree::load`] fails the checks.
pub(super) const ROOT_HINT: &str = "pass a directory with --root";

/// Fails unless `root` exists, is a directory and can be listed. A root that cannot be
/// listed is a file error (exit 3) naming it, not a tree with nothing in it (which would
/// read as "no match"). `hint` says what to pass instead.
pub fn check_root(root: &Path, hint: &str) -> Result<()> {
    let file_error = |message: String| EngineError::File {
        path: root.to_path_buf(),
        message,
        hint: Some(hint.to_string()),
    };
    let meta = std::fs::metadata(root).map_err(|e| file_error(format!("cannot open root: {e}")))?;
    if !meta.is_dir() {
        return Err(file_error("root is not a directory".into()));
    }
    std::fs::read_dir(root).map_err(|e| file_error(format!("cannot read root: {e}")))?;
    Ok(())
}
