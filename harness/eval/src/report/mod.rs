//! Every document findbench writes, one module per format: `markdown`, `csv`, `json`,
//! `junit`, `html` (with its charts, `svg`), `console` (and the tables they draw, `table`).
//! Every report file goes out through one trait, [`Exporter`], generic over its document:
//! a run's [`crate::results::RunResults`] ([`exporters`]: `summary.md`, `cases.csv`,
//! `summary.csv`, `results.json`, `cases.jsonl`, `junit.xml`, `report.html`), a replay's
//! [`replay_document::ReplayReport`] ([`replay_exporters`], [`json::ReplayResultsJson`] and
//! the case files it streams, [`replay_case_streams`]: the same seven files;
//! `--out-compress` gzips the case files, [`gzip`]) and `compare`'s [`crate::compare::Comparison`]
//! ([`compare_exporters`]: the markdown, CSV and HTML release report), and any results
//! document as TREC run and qrels files ([`trec`], `findbench export trec`). Nothing else in
//! the workspace formats a report.
//!
//! Every file is written through [`crate::atomic_file`] (a temporary name beside it, fsync,
//! rename), so a reader never sees a half-written report. A run's and compare's files, and
//! a replay's summaries, are rendered in memory first, so a failed render leaves the
//! previous reports in place; a replay's case files are assembled from the spools its cases
//! streamed to. The same results give the same bytes whatever `--jobs` was, timing columns
//! (`*_ms`, `within_budget`, the Latency section) and run metadata (`started_at`,
//! `threads`) aside.

pub mod case_line;
pub mod compare_markdown;
pub mod compare_ranking;
pub mod console;
pub mod csv;
pub mod engines;
pub mod escape;
pub mod exporter;
pub mod gzip;
pub mod html;
pub mod json;
pub mod jsonl;
pub mod junit;
pub mod markdown;
pub mod numbers;
pub mod ranking;
pub mod replay_document;
pub mod rows;
pub mod shown_question;
pub mod svg;
pub mod table;
pub mod trec;

pub use exporter::{CaseStreamExporter, Exporter, ReportContext};
pub use numbers::{fmt_delta, fmt_value};

use crate::compare::Comparison;
use crate::error::Result;
use crate::results::RunResults;
use replay_document::ReplayReport;
use std::path::{Path, PathBuf};

/// Every report `run` writes, in the order they are written; with `compress`
/// (`--out-compress`) the case files gzipped ([`gzip`]).
pub fn exporters(compress: bool) -> Vec<Box<dyn Exporter>> {
    fn maybe_gzipped<E: Exporter + 'static>(e: E, compress: bool) -> Box<dyn Exporter> {
        if compress {
            Box::new(gzip::Gzipped(e))
        } else {
            Box::new(e)
        }
    }
    vec![
        Box::new(markdown::SummaryMarkdown),
        maybe_gzipped(csv::CasesCsv, compress),
        Box::new(csv::SummaryCsv),
        Box::new(json::ResultsJson),
        maybe_gzipped(jsonl::CasesJsonl, compress),
        maybe_gzipped(junit::JunitXml, compress),
        Box::new(html::ReportHtml),
    ]
}

/// Every file name a report set may hold (a run's or a replay's, plain or gzipped): a
/// directory holding only these is a report directory, replaced whole by the next set.
pub const REPORT_FILE_NAMES: [&str; 10] = [
    "summary.md",
    "summary.csv",
    "results.json",
    "report.html",
    "cases.csv",
    "cases.csv.gz",
    "cases.jsonl",
    "cases.jsonl.gz",
    "junit.xml",
    "junit.xml.gz",
];

/// The reports of a replay rendered from its summary, in the order they are written.
pub fn replay_exporters() -> Vec<Box<dyn Exporter<ReplayReport>>> {
    vec![
        Box::new(csv::ReplaySummaryCsv),
        Box::new(markdown::ReplaySummaryMarkdown),
        Box::new(html::ReplayHtml),
    ]
}

/// A replay's case files, each streamed through its spool: cases.jsonl, cases.csv,
/// junit.xml (gzipped with `compress`), in the order of
/// [`replay_document::CaseSpools::from_streams`]. results.json ([`json::ReplayResultsJson`])
/// is assembled from the cases.jsonl spool.
pub fn replay_case_streams(compress: bool) -> [&'static dyn CaseStreamExporter; 3] {
    if compress {
        [
            &jsonl::ReplayCasesJsonl { compress: true },
            &csv::ReplayCasesCsv { compress: true },
            &junit::ReplayJunitXml { compress: true },
        ]
    } else {
        [
            &jsonl::ReplayCasesJsonl { compress: false },
            &csv::ReplayCasesCsv { compress: false },
            &junit::ReplayJunitXml { compress: false },
        ]
    }
}

/// `compare`'s release report: the markdown at `--out FILE`, the CSV and the page beside it.
pub fn compare_exporters() -> Vec<Box<dyn Exporter<Comparison>>> {
    vec![
        Box::new(compare_markdown::CompareMarkdown),
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
    let set = crate::report_set::ReportSet::begin(dir, &REPORT_FILE_NAMES)?;
    let mut written = Vec::new();
    for (name, bytes) in rendered {
        crate::atomic_file::write_atomic(&set.path().join(name), &bytes)?;
        written.push(dir.join(name));
    }
    set.commit()?;
    Ok(written)
}

/// Every report of a run, written into `dir` ([`write_all`] of [`exporters`], gzipped
/// case files when `context.compress`).
pub fn write_reports(
    dir: &Path,
    run: &RunResults,
    context: &ReportContext<'_>,
) -> Result<Vec<PathBuf>> {
    write_all(dir, &exporters(context.compress), run, context)
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
