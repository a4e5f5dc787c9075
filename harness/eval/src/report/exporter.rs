//! The one trait every report file goes out through, and what an exporter can draw on.

use crate::baseline::BaselineDiff;
use crate::error::Result;
use crate::results::RunResults;

/// What an exporter can draw on besides the results.
#[derive(Debug, Default, Clone, Copy)]
pub struct ReportContext<'a> {
    pub baseline: Option<&'a BaselineDiff>,
}

/// One report file.
pub trait Exporter {
    /// The file name inside the output directory.
    fn file_name(&self) -> &'static str;
    /// The file's bytes.
    fn render(&self, run: &RunResults, context: &ReportContext<'_>) -> Result<Vec<u8>>;
}
