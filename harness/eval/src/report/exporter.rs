//! The one trait every report file goes out through, for `run`, `replay` and `compare`
//! alike, its streaming form for a replay's case files, and what an exporter can draw on
//! besides its document.

use super::replay_document::ReplayReport;
use crate::baseline::BaselineDiff;
use crate::case::CaseResult;
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

/// A replay's case file (cases.jsonl, cases.csv, junit.xml), written as the cases stream
/// by: a replay does not hold its cases, so it keeps one spool per file, begun with
/// [`Self::spool_head`] and grown by [`Self::spool_cases`], and at the end the file is
/// published from its spool ([`Exporter::publish`], the spools in
/// [`super::replay_document::CaseSpools`]).
pub trait CaseStreamExporter: Exporter<ReplayReport> + Sync {
    /// What the spool holds before the first case (cases.csv's header).
    fn spool_head(&self) -> Result<Vec<u8>> {
        Ok(Vec::new())
    }

    /// Appends what `cases` add to the spool. A batch's chunks are encoded on several
    /// threads at once; their bytes, one after another in input order, are the spool's.
    fn spool_cases(&self, cases: &[CaseResult], out: &mut Vec<u8>) -> Result<()>;

    /// Whether the spool already is the report (gzipped as the report is, synced when
    /// closed, renamed into place) rather than the inside of a frame written at the end.
    fn spool_is_the_report(&self) -> bool;
}
