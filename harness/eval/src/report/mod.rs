//! Every document findbench writes, one module per format: `markdown`, `csv`, `json`,
//! `junit`, `html` (with its charts, `svg`), `console` (and the tables they draw, `table`).
//! Every report file goes out through one trait, [`Exporter`], generic over its document:
//! a run's [`crate::results::RunResults`] ([`exporters`]: `summary.md`, `cases.csv`,
//! `summary.csv`, `results.json`, `junit.xml`, `report.html`), a replay's
//! [`replay_document::ReplayReport`] ([`replay_exporters`] and [`replay_case_exporters`],
//! the same six files) and `compare`'s [`crate::compare::Comparison`]
//! ([`compare_exporters`]: the markdown, CSV and HTML release report). Nothing else in the
//! workspace formats a report.
//!
//! Every file is written through [`crate::atomic_file`] (a temporary name beside it, fsync,
//! rename), so a reader never sees a half-written report. A run's and compare's files, and
//! a replay's summaries, are rendered in memory first, so a failed render leaves the
//! previous reports in place; a replay's case files are assembled from the spools its cases
//! streamed to. The same results give the same bytes whatever `--jobs` was, timing columns
//! (`*_ms`, `within_budget`, the Latency section) and run metadata (`started_at`,
//! `threads`) aside.

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
pub mod replay_document;
pub mod rows;
pub mod svg;
pub mod table;

pub use exporter::{Exporter, ReportContext};
pub use numbers::{fmt_delta, fmt_value};

use crate::compare::Comparison;
use crate::error::Result;
use crate::results::RunResults;
use replay_document::ReplayReport;
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

/// The reports of a replay rendered from its summary, in the order they are written.
pub fn replay_exporters() -> Vec<Box<dyn Exporter<ReplayReport>>> {
    vec![
        Box::new(csv::ReplaySummaryCsv),
        Box::new(markdown::ReplaySummaryMarkdown),
        Box::new(html::ReplayHtml),
    ]
}

/// The reports of a replay assembled from its spooled cases: results.json, cases.csv,
/// junit.xml.
pub fn replay_case_exporters() -> [&'static (dyn Exporter<ReplayReport> + Sync); 3] {
    [
        &json::ReplayResultsJson,
        &csv::ReplayCasesCsv,
        &junit::ReplayJunitXml,
    ]
}

/// The file names a replay writes (its report set).
pub fn replay_file_names() -> Vec<&'static str> {
    replay_case_exporters()
        .iter()
        .map(|e| e.file_name())
        .chain(replay_exporters().iter().map(|e| e.file_name()))
        .collect()
}

/// `compare`'s release report: the markdown at `--out FILE`, the CSV and the page beside it.
pub fn compare_exporters() -> Vec<Box<dyn Exporter<Comparison>>> {
    vec![
        Box::new(markdown::CompareMarkdown),
        Box::new(csv::CompareCsv),
        Box::new(html::CompareHtml),
    ]
}

/// Renders every report of `exporters` for `doc`, then writes them into `dir` as one unit
/// (staged in a sibling directory, each file via a temporary name, then swapped in:
/// report_set.rs), so a reader sees every file of one run or of the other. Returns the
/// paths written.
pub fn write_all<D: ?Sized>(
    dir: &Path,
    exporters: &[Box<dyn Exporter<D>>],
    doc: &D,
    context: &ReportContext<'_>,
) -> Result<Vec<PathBuf>> {
    let rendered: Vec<(&'static str, Vec<u8>)> = exporters
        .iter()
        .map(|e| e.render(doc, context).map(|bytes| (e.file_name(), bytes)))
        .collect::<Result<_>>()?;
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

/// Every report of a run, written into `dir` ([`write_all`] of [`exporters`]).
pub fn write_reports(
    dir: &Path,
    run: &RunResults,
    context: &ReportContext<'_>,
) -> Result<Vec<PathBuf>> {
    write_all(dir, &exporters(), run, context)
}

/// Where a file of `compare`'s release report goes: the markdown is `--out FILE` itself,
/// the others are beside it, FILE with their extension (`report.md` → `report.csv`).
pub fn compare_path(md: &Path, exporter: &dyn Exporter<Comparison>) -> PathBuf {
    match Path::new(exporter.file_name()).extension() {
        Some(ext) if ext != "md" => md.with_extension(ext),
        _ => md.to_path_buf(),
    }
}

/// Writes `compare`'s release report (every file rendered first, then each written whole).
/// Returns the paths written, the markdown first.
pub fn write_compare(md: &Path, c: &Comparison) -> Result<Vec<PathBuf>> {
    let context = ReportContext::default();
    let rendered: Vec<(PathBuf, Vec<u8>)> = compare_exporters()
        .iter()
        .map(|e| {
            e.render(c, &context)
                .map(|bytes| (compare_path(md, e.as_ref()), bytes))
        })
        .collect::<Result<_>>()?;
    for (path, bytes) in &rendered {
        crate::atomic_file::write_atomic(path, bytes)?;
    }
    Ok(rendered.into_iter().map(|(p, _)| p).collect())
}
