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
pub mod html;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod svg;
pub mod table;

use crate::baseline::BaselineDiff;
use crate::error::Result;
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

/// The counting columns of a group's row, in the order every table shows them: cases,
/// passed (xpass included), failed, xfail, xpass, pass rate, insufficient-evidence rate.
pub(crate) fn count_cells(g: &crate::metrics::GroupMetrics) -> [String; 7] {
    [
        g.total.to_string(),
        (g.passed + g.xpass).to_string(),
        g.failed.to_string(),
        g.xfail.to_string(),
        g.xpass.to_string(),
        pct(g.pass_rate),
        pct(g.insufficient_evidence_rate),
    ]
}

/// The cases that did not simply pass (fail, xfail, xpass), in report order: every report
/// lists them.
pub(crate) fn notable(run: &RunResults) -> Vec<&crate::results::CaseResult> {
    run.cases
        .iter()
        .filter(|c| c.status != crate::results::Status::Pass)
        .collect()
}

/// `0.968` as `96.8%`.
pub(crate) fn pct(rate: f64) -> String {
    format!("{:.1}%", rate * 100.0)
}

/// A summary metric for people: rates as percentages, whole numbers as integers, others to
/// three decimals; `–` when absent.
pub fn fmt_value(name: &str, v: Option<f64>) -> String {
    match v {
        None => "–".into(),
        Some(v) if is_rate(name) => format!("{:.1}%", v * 100.0),
        Some(v) if v.fract() == 0.0 && v.abs() < 1e15 => format!("{}", v as i64),
        Some(v) => format!("{v:.3}"),
    }
}

/// A change of a summary metric: rates in percentage points, signed.
pub fn fmt_delta(name: &str, d: Option<f64>) -> String {
    match d {
        None => "–".into(),
        Some(d) if is_rate(name) => format!("{:+.1} pts", d * 100.0),
        Some(d) if d.fract() == 0.0 && d.abs() < 1e15 => format!("{:+}", d as i64),
        Some(d) => format!("{d:+.3}"),
    }
}

fn is_rate(name: &str) -> bool {
    name.ends_with("rate") || name.ends_with("_pct_fraction")
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
