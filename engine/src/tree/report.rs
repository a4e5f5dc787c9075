//! What a walk met but could not index fully.

use serde::{Deserialize, Serialize};

/// Counts of what the walk met but could not index fully.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WalkReport {
    pub files: usize,
    pub binary: usize,
    pub too_large: usize,
    pub unreadable: usize,
    /// Walk errors: symlink loops, unreadable directories, broken links.
    pub errors: usize,
    /// The first few walk errors, for a person to read.
    pub messages: Vec<String>,
}
