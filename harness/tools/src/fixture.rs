//! What a call runs against: a source tree, an item store or a path list.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// What a call runs against, as the caller named it (`None`: the default the door chooses:
/// `.` on the command line, the start root or store in the server).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FixtureRef {
    Root(Option<PathBuf>),
    Store(Option<PathBuf>),
    /// `find_path` over a path list file.
    Paths(PathBuf),
}

impl FixtureRef {
    /// `root`, `store` or `paths`: how a recorded call says which kind its fixture is.
    pub fn kind(&self) -> FixtureKind {
        match self {
            FixtureRef::Root(_) => FixtureKind::Root,
            FixtureRef::Store(_) => FixtureKind::Store,
            FixtureRef::Paths(_) => FixtureKind::Paths,
        }
    }
}

/// The kind of a fixture, without its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FixtureKind {
    Root,
    Store,
    Paths,
}
