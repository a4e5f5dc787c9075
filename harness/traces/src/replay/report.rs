//! The reports of a replay (`--out DIR`): `summary.md`, `summary.csv`, `cases.jsonl`,
//! `cases.csv`, `results.json`, `junit.xml` and `report.html`, written as the cases stream
//! by, every one through its exporter of findbench-eval's `report` (the trait a corpus
//! run's go through).
//!
//! The replayed cases come a batch at a time, in input order; the worker threads encode
//! them, in parallel and in order, as their exporters write cases: cases.jsonl lines (every
//! field of a case), cases.csv rows and junit.xml test cases. Each of the three spools beside
//! the reports has its own writer thread taking those bytes through a bounded channel (the
//! replay goes on meanwhile, and waits when a writer is [`QUEUED_BATCHES`] behind); the
//! first two are gzipped as they go with `--out-compress`. The documents that need
//! totals first (results.json, junit.xml) are assembled from the spools at the end. Every
//! file is written under a temporary name and renamed, so a reader never sees half a
//! report; the byte content does not depend on `--jobs`.

use crate::error::{Result, TracesError};
use crate::replay::spool::SpoolWriter;
use crate::replay::totals::ReplayTotals;
use crate::trace::TraceOutcome;
use findbench_eval::atomic_file::temp_name;
use findbench_eval::case::CaseResult;
use findbench_eval::error::HarnessError;
pub use findbench_eval::replay_summary::ReplayHeader;
use findbench_eval::replay_summary::{OutcomeCounts, ReplaySummary};
use findbench_eval::report::json::ReplayResultsJson;
use findbench_eval::report::replay_document::{CaseSpools, ReplayReport};
use findbench_eval::report::{self, CaseStreamExporter, Exporter, ReportContext};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

fn io_err(path: &Path) -> impl Fn(std::io::Error) -> TracesError + '_ {
    move |e| TracesError::file(path, format!("cannot write: {e}"))
}

/// What the reports show of a replay besides its cases.
pub fn replay_summary(header: &ReplayHeader, totals: &ReplayTotals) -> ReplaySummary {
    ReplaySummary {
        header: header.clone(),
        summary: totals.summary(&header.profile),
        groups: totals.groups(),
        outcomes: TraceOutcome::ALL
            .into_iter()
            .map(|o| OutcomeCounts {
                outcome: o,
                recorded: totals.recorded_count(o),
                replayed: totals.outcome_count(o),
            })
            .collect(),
        replayed: totals.replayed,
        files: totals.files,
        bad_lines: totals.bad_lines,
        bad_examples: totals.bad_examples.clone(),
    }
}

/// Batches of cases each spool's writer thread may be behind the replay.
pub const QUEUED_BATCHES: usize = 4;

/// Cases encoded per task when a batch is turned into its spools' bytes: a batch of 2,048
/// is sixteen tasks, enough to keep every core busy.
const ENCODE_CHUNK: usize = 128;

/// A case file's exporter and the spool its cases stream to.
struct CaseStream {
    exporter: &'static dyn CaseStreamExporter,
    spool: SpoolWriter,
}

/// The spools one replay's cases go to, one per case file of
/// [`report::replay_case_streams`] (in its order), each written by its own thread.
struct Spools {
    streams: Vec<CaseStream>,
    cases: usize,
    compress: bool,
}

impl Spools {
    fn create(dir: &Path, compress: bool) -> Result<Spools> {
        std::fs::create_dir_all(dir).map_err(io_err(dir))?;
        let streams = report::replay_case_streams(compress)
            .into_iter()
            .map(|exporter| {
                let name = exporter.file_name().trim_end_matches(".gz");
                let path = temp_name(&dir.join(format!("{name}.spool")));
                // a spool that is its report is gzipped as the report is, and synced by its
                // thread, beside the others
                let is_report = exporter.spool_is_the_report();
                let head = exporter.spool_head()?;
                let spool = SpoolWriter::create(
                    path,
                    is_report && compress,
                    is_report,
                    &head,
                    QUEUED_BATCHES,
                )?;
                Ok(CaseStream { exporter, spool })
            })
            .collect::<Result<Vec<CaseStream>>>()?;
        Ok(Spools {
            streams,
            cases: 0,
            compress,
        })
    }

    /// Encodes a batch of cases in parallel (chunks in order, each through every file's
    /// exporter; each chunk's cases dropped by the thread that encoded them) and hands the
    /// bytes to the spools' threads. `false` when one of them has stopped.
    fn push(&mut self, cases: Vec<CaseResult>) -> Result<bool> {
        self.cases += cases.len();
        let exporters: Vec<&dyn CaseStreamExporter> =
            self.streams.iter().map(|s| s.exporter).collect();
        let encoded = cases
            .into_par_iter()
            .chunks(ENCODE_CHUNK)
            .map(|chunk| {
                exporters
                    .iter()
                    .map(|e| {
                        let mut bytes = Vec::new();
                        e.spool_cases(&chunk, &mut bytes)?;
                        Ok(bytes)
                    })
                    .collect::<Result<Vec<Vec<u8>>>>()
            })
            .collect::<Result<Vec<Vec<Vec<u8>>>>>()?;
        // chunk-major to file-major: each spool takes its chunks in order
        let mut per_file: Vec<Vec<Vec<u8>>> = (0..self.streams.len())
            .map(|_| Vec::with_capacity(encoded.len()))
            .collect();
        for chunk in encoded {
            for (file, bytes) in per_file.iter_mut().zip(chunk) {
                file.push(bytes);
            }
        }
        Ok(self
            .streams
            .iter()
            .zip(per_file)
            .all(|(s, chunks)| s.spool.send(chunks)))
    }

    /// Waits for every spool to be written out and hands them on; the first error wins.
    fn close(self) -> Result<CaseSpools> {
        let closed: Vec<Result<PathBuf>> = self
            .streams
            .into_iter()
            .map(|mut s| s.spool.close())
            .collect();
        let paths = closed.into_iter().collect::<Result<Vec<PathBuf>>>()?;
        let paths: [PathBuf; 3] = paths.try_into().map_err(|_| {
            TracesError::Eval(HarnessError::Internal(
                "a replay writes three case files".into(),
            ))
        })?;
        Ok(CaseSpools::from_streams(paths, self.cases, self.compress))
    }
}

/// Takes replayed cases a batch at a time, encodes them on the worker threads, spools the
/// bytes on one thread per file, and writes the reports when [`ReportWriter::finish`]ed.
pub struct ReportWriter {
    dir: PathBuf,
    spools: Option<Spools>,
}

impl ReportWriter {
    /// Opens the spools in `dir` and starts their threads; `compress` gzips the case files
    /// (`--out-compress`).
    pub fn create(dir: &Path, compress: bool) -> Result<ReportWriter> {
        Ok(ReportWriter {
            dir: dir.to_path_buf(),
            spools: Some(Spools::create(dir, compress)?),
        })
    }

    /// Hands a batch of replayed cases (in input order) to the spools; waits while their
    /// threads are [`QUEUED_BATCHES`] behind. A write error of an earlier batch is returned
    /// here.
    pub fn push(&mut self, cases: Vec<CaseResult>) -> Result<()> {
        let Some(spools) = self.spools.as_mut() else {
            return Err(stopped());
        };
        if spools.push(cases)? {
            return Ok(());
        }
        // a spool's thread stopped: its error says why
        self.spools
            .take()
            .map_or(Err(stopped()), |s| s.close().map(drop))
    }

    /// Writes every report and removes the spools; returns the files written.
    pub fn finish(mut self, header: &ReplayHeader, totals: &ReplayTotals) -> Result<Vec<PathBuf>> {
        let spools = self.spools.take().ok_or_else(stopped)?.close()?;
        let dir = self.dir.clone();
        let report = ReplayReport {
            summary: replay_summary(header, totals),
            latencies_ms: totals.durations_ms.iter().map(|d| f64::from(*d)).collect(),
            spools,
        };
        let written = write_reports(&dir, &report);
        let spools = &report.spools;
        for spool in [&spools.cases_jsonl, &spools.cases_csv, &spools.junit] {
            let _ = std::fs::remove_file(spool);
        }
        written
    }
}

fn stopped() -> TracesError {
    TracesError::Eval(HarnessError::Internal(
        "the report writer has already stopped".into(),
    ))
}

/// Every report of a replay, each through its exporter: results.json, cases.jsonl,
/// cases.csv and junit.xml from the closed spools, then the summaries.
fn write_reports(dir: &Path, report: &ReplayReport) -> Result<Vec<PathBuf>> {
    let context = ReportContext {
        compress: report.spools.compress,
        ..ReportContext::default()
    };
    let publish = |e: &dyn Exporter<ReplayReport>| -> Result<PathBuf> {
        let path = dir.join(e.file_name());
        e.publish(report, &context, &path)?;
        Ok(path)
    };
    let results_json = &ReplayResultsJson;
    let [cases_jsonl, cases_csv, junit_xml] = report::replay_case_streams(report.spools.compress);
    let rest = || -> Result<(PathBuf, PathBuf)> {
        let junit = publish(junit_xml)?;
        Ok((publish(cases_csv)?, junit))
    };
    // results.json beside the other two: each is mostly copying and waiting on the disk (a
    // thread that cannot start leaves results.json to this one); cases.jsonl, which
    // results.json copies its cases from, is renamed into place after both
    let (results_written, rest_written) = std::thread::scope(|s| match std::thread::Builder::new()
        .spawn_scoped(s, || publish(results_json))
    {
        Ok(handle) => {
            let rest = rest();
            let results = handle.join().unwrap_or_else(|_| {
                Err(TracesError::Eval(HarnessError::Internal(
                    "the results.json writer stopped unexpectedly".into(),
                )))
            });
            (results, rest)
        }
        Err(_) => (publish(results_json), rest()),
    });
    let results = results_written?;
    let (csv, junit) = rest_written?;
    let jsonl = publish(cases_jsonl)?;
    let mut written = vec![results, jsonl, csv, junit];
    // `dir` is already the report set's (staged) directory: each file is written whole
    for e in report::replay_exporters() {
        written.push(publish(e.as_ref())?);
    }
    Ok(written)
}
