//! What a file is, for the prior of task ranking: an implementation file is what a task
//! changes; tests, documentation (changelogs included), data and other text mention the
//! same words without being the place to change. Decided by the rules that already say what
//! a file is: its language or source extension, the test patterns of `find code`, and the
//! documentation and data extensions of `grep`.

use crate::modes::code::is_test_file;
use crate::profile::{Profile, TaskRankingWeights};
use crate::tree::TreeFile;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Source,
    Test,
    Docs,
    Data,
    Other,
}

impl FileKind {
    pub fn of(file: &TreeFile, profile: &Profile) -> FileKind {
        let has = |list: &[String]| list.contains(&file.ext);
        let source = file.language.is_some() || has(&profile.grep.source_extensions);
        if is_test_file(file, &profile.code) {
            FileKind::Test
        } else if source {
            FileKind::Source
        } else if has(&profile.grep.docs_extensions) {
            FileKind::Docs
        } else if has(&profile.grep.data_extensions) {
            FileKind::Data
        } else {
            FileKind::Other
        }
    }

    pub fn is_source(self) -> bool {
        self == FileKind::Source
    }

    /// The prior the profile gives this kind.
    pub fn prior(self, w: &TaskRankingWeights) -> f64 {
        match self {
            FileKind::Source => w.source_prior,
            FileKind::Test => w.test_prior,
            FileKind::Docs => w.docs_prior,
            FileKind::Data => w.data_prior,
            FileKind::Other => w.other_prior,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            FileKind::Source => "source",
            FileKind::Test => "test",
            FileKind::Docs => "docs",
            FileKind::Data => "data",
            FileKind::Other => "text",
        }
    }
}
