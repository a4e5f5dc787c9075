//! Reports of a run, one exporter per file behind [`Exporter`]: `summary.md`, `cases.csv`,
//! `summary.csv`, `results.json`, `junit.xml`; and the console summary `run` prints.
//!
//! Every file is rendered in memory first, then written through
//! [`crate::atomic_file::write_atomic`] (a temporary name beside it, fsync, rename), so a
//! reader never sees a half-written report and a failed render
//! leaves the previous reports in place. The same results give the same bytes whatever
//! `--jobs` was, timing columns (`*_ms`, `within_budget`, the Latency section) and run
//! metadata (`started_at`, `threads`) aside.

pub mod console;
pub mod csv;
pub mod json;
pub mod junit;
pub mod markdown;

use crate::baseline::BaselineDiff;
use crate::error::{HarnessError, Result};
use crate::results::RunResults;
use std::path::{Path, PathBuf};

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

/// Every report `run` writes, in the order they are written.
pub fn exporters() -> Vec<Box<dyn Exporter>> {
    vec![
        Box::new(markdown::SummaryMarkdown),
        Box::new(csv::CasesCsv),
        Box::new(csv::SummaryCsv),
        Box::new(json::ResultsJson),
        Box::new(junit::JunitXml),
    ]
}

/// Renders every report, then writes each to `dir` via a temporary name and a rename.
/// Returns the paths written.
pub fn write_reports(
    dir: &Path,
    run: &RunResults,
    context: &ReportContext<'_>,
) -> Result<Vec<PathBuf>> {
    let rendered: Vec<(&'static str, Vec<u8>)> = exporters()
        .iter()
        .map(|e| e.render(run, context).map(|bytes| (e.file_name(), bytes)))
        .collect::<Result<_>>()?;
    std::fs::create_dir_all(dir)
        .map_err(|e| HarnessError::file(dir, format!("cannot create report directory: {e}")))?;
    let mut written = Vec::new();
    for (name, bytes) in rendered {
        let path = dir.join(name);
        crate::atomic_file::write_atomic(&path, &bytes)?;
        written.push(path);
    }
    Ok(written)
}

/// `0.968` as `96.8%`.
pub(crate) fn pct(rate: f64) -> String {
    format!("{:.1}%", rate * 100.0)
}
