//! What an import is asked to do besides reading: `--root` and `--redact`.

use crate::error::TracesError;
use std::path::{Path, PathBuf};

/// What an import is asked to do besides reading.
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// `--root DIR` (absolute): the tree every trace names, in place of the session's.
    pub root: Option<PathBuf>,
    /// `--redact`: the question as its SHA-256, not its text.
    pub redact: bool,
}

impl ImportOptions {
    /// Checks `--root` is a directory and makes it absolute (a trace names its tree
    /// wherever replay runs).
    pub fn new(root: Option<&Path>, redact: bool) -> Result<ImportOptions, TracesError> {
        let root = match root {
            Some(dir) if !dir.is_dir() => {
                return Err(TracesError::file(dir, "--root is not a directory"))
            }
            Some(dir) => Some(
                dir.canonicalize()
                    .map_err(|e| TracesError::file(dir, format!("--root: {e}")))?,
            ),
            None => None,
        };
        Ok(ImportOptions { root, redact })
    }
}
