//! The one trait every report file goes out through, for `run`, `replay` and `compare`
//! alike, and what an exporter can draw on besides its document.

use crate::baseline::BaselineDiff;
use crate::error::Result;
use crate::results::RunResults;
use std::path::Path;

/// What an exporter can draw on besides the results.
#[derive(Debug, Default, Clone, Copy)]
pub struct ReportContext<'a> {
    pub baseline: Option<&'a BaselineDiff>,
    /// `--out-compress`: the case files are written gzipped.
    pub compress: bool,
}

/// One report file of a document `D`: a run's [`RunResults`] (the default), a replay's
/// [`super::replay_document::ReplayReport`] or a [`crate::compare::Comparison`].
pub trait Exporter<D: ?Sized = RunResults> {
    /// The file's name in the output directory (compare names its files after `--out
    /// FILE`, by this name's extension: [`super::compare_path`]).
    fn file_name(&self) -> &'static str;

    /// The whole file's bytes.
    fn render(&self, doc: &D, context: &ReportContext<'_>) -> Result<Vec<u8>>;

    /// Puts the file at `path`, whole or not at all: rendered, then written through
    /// [`crate::atomic_file`]. A replay's case files stream their spooled cases instead.
    fn publish(&self, doc: &D, context: &ReportContext<'_>, path: &Path) -> Result<()> {
        crate::atomic_file::write_atomic(path, &self.render(doc, context)?)
    }
}
