//! Query corpora: YAML files of cases (README.md, "Writing a corpus"), loaded, validated and turned
//! into engine requests before anything runs, with each fixture loaded once and shared.
//!
//! - [`schema`]: the YAML shape (serde types, unknown keys denied);
//! - [`load`]: files, directories and globs to validated [`Corpus`] values;
//! - [`args`]: a case's `mode`, `query` and `args` to an engine request;
//! - [`git`]: fixtures pinned to a commit of a repository (`{git: DIR, rev: REV}`);
//! - [`commits`]: a localization corpus from a repository's history;
//! - [`symbols`]: a corpus of the definitions ctags finds;
//! - [`relative`]: the fixture paths they write, relative to the corpus file.

pub mod args;
pub mod commits;
pub mod git;
pub mod load;
pub mod relative;
pub mod schema;
pub mod symbols;
pub mod yaml_error;

pub use load::{expand_paths, load_corpora, load_corpora_with, parse_corpus_str};
pub use schema::{Budget, ExpectedOutcome};

use findbench_engine::{Fixture, Mode, Request};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;

/// One loaded corpus file.
#[derive(Debug)]
pub struct Corpus {
    /// The path as given (or found in a directory), for reports.
    pub path: PathBuf,
    /// sha256 of the file's bytes, hex.
    pub sha256: String,
    pub suite: String,
    pub fixture: Arc<LoadedFixture>,
    pub budget: Budget,
    pub gate: Option<crate::gate_settings::Thresholds>,
    pub cases: Vec<Case>,
    /// What a person should know but that does not stop the run (a fixture outside the
    /// corpus's repository), each `file:line: message`; the CLI prints them on stderr.
    pub warnings: Vec<String>,
}

/// What kind of thing a fixture is, as named in the corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FixtureKind {
    Store,
    Root,
    Paths,
}

impl FixtureKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FixtureKind::Store => "store",
            FixtureKind::Root => "root",
            FixtureKind::Paths => "paths",
        }
    }
}

/// A fixture loaded and indexed once, shared by every case (and every corpus) that uses it.
#[derive(Debug)]
pub struct LoadedFixture {
    pub kind: FixtureKind,
    /// The path as resolved against the corpus file, for reports.
    pub path: PathBuf,
    /// The project the fixture is a tree of, which a split keeps on one side (`findbench
    /// tune`): a `git` fixture's repository, whatever its commit, else `path` itself.
    pub project: PathBuf,
    pub fixture: Fixture,
    pub item_count: usize,
    pub dump_bytes: usize,
}

/// One case, ready to run.
#[derive(Debug)]
pub struct Case {
    pub suite: String,
    pub id: String,
    pub query: String,
    pub mode: Mode,
    pub request: Request,
    pub expect: Expect,
    pub tags: Vec<String>,
    pub known_failure: Option<String>,
    pub file: PathBuf,
    pub line: usize,
    pub fixture: Arc<LoadedFixture>,
}

/// A case's expectations, with the suite's budget applied.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Expect {
    pub outcome: Option<ExpectedOutcome>,
    pub top: Option<String>,
    pub contains: Vec<String>,
    pub within: Option<usize>,
    pub excludes: Vec<String>,
    pub quality: Option<String>,
    pub max_bytes: Option<u64>,
}

impl Expect {
    /// The keys a correct answer ranks: `top` first, then `contains`. Empty when the case
    /// names no items (then it takes no part in hit@k and MRR).
    pub fn relevant(&self) -> Vec<String> {
        let mut keys: Vec<String> = self.top.iter().cloned().collect();
        for k in &self.contains {
            if !keys.contains(k) {
                keys.push(k.clone());
            }
        }
        keys
    }
}
