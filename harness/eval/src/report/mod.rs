//! Every document findbench writes, one module per format: `markdown`, `csv`, `json`,
//! `junit`, `html`, `console` (and the tables they draw, `table`). A run's files are
//! exporters behind [`Exporter`] (`summary.md`, `cases.csv`, `summary.csv`, `results.json`,
//! `junit.xml`, `report.html`); a replay streams its cases through the same modules' row functions and
//! renders its summary with them; `compare` renders its [`crate::compare::Comparison`] with
//! them. Nothing else in the workspace formats a report.
//!
//! Every file is rendered in memory first, then written through
//! [`crate::atomic_file::write_atomic`] (a temporary name beside it, fsync, rename), so a
//! reader never sees a half-written report and a failed render
//! leaves the previous reports in place. The same results give the same bytes whatever
//! `--jobs` was, timing columns (`*_ms`, `within_budget`, the Latency section) and run
//! metadata (`started_at`, `threads`) aside.

pub mod console;
pub mod csv;
pub mod engines;
pub mod escape;
pub mod exporter;
pub mod html;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod numbers;
pub mod rows;
pub mod svg;
pub mod table;

pub use exporter::{Exporter, ReportContext};
pub use numbers::{fmt_delta, fmt_value};

use crate::error::Result;
use crate::results::RunResults;
use std::path::{Path, PathBuf};

/// Every report `run` writes, in the order they are written.
pub fn exporters() -> Vec<Box<dyn Exporter>> {
    vec![
        Box::new(markdown::SummaryMarkdown),
        Box::new(csv::CasesCsv),
        Box::new(csv::SummaryCsv),
        Box::new(json::ResultsJson),
        Box::new(junit::JunitXml),
        Box::new(html::ReportHtml),
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
    write_files(dir, rendered)
}

/// Writes rendered documents into `dir` as one unit: staged in a sibling directory, each
/// file via a temporary name, then swapped in (report_set.rs), so a reader sees every file
/// of one run or of the other. Returns the paths written.
pub fn write_files(dir: &Path, rendered: Vec<(&str, Vec<u8>)>) -> Result<Vec<PathBuf>> {
    let names: Vec<&str> = rendered.iter().map(|(name, _)| *name).collect();
    let set = crate::report_set::ReportSet::begin(dir, &names)?;
    let mut written = Vec::new();
    for (name, bytes) in rendered {
        crate::atomic_file::write_atomic(&set.path().join(name), &bytes)?;
        written.push(dir.join(name));
    }
    set.commit()?;
    Ok(written)
}

/// Where compare's CSV goes beside its markdown: `report.md` → `report.csv`.
pub fn compare_csv_path(md: &Path) -> PathBuf {
    md.with_extension("csv")
}

/// Where compare's page goes beside its markdown: `report.md` → `report.html`.
pub fn compare_html_path(md: &Path) -> PathBuf {
    md.with_extension("html")
}

/// Writes compare's release report: markdown at `md`, the CSV and the HTML page beside it.
/// Returns the paths written.
pub fn write_compare(md: &Path, c: &crate::compare::Comparison) -> Result<Vec<PathBuf>> {
    let rendered = [
        (md.to_path_buf(), markdown::compare(c).into_bytes()),
        (compare_csv_path(md), csv::compare(c)?),
        (compare_html_path(md), html::compare(c).into_bytes()),
    ];
    for (path, bytes) in &rendered {
        crate::atomic_file::write_atomic(path, bytes)?;
    }
    Ok(rendered.into_iter().map(|(p, _)| p).collect())
}
