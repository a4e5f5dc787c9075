//! The reports of a replay (`--out DIR`): `summary.md`, `summary.csv`, `cases.jsonl`,
//! `cases.csv`, `results.json`, `junit.xml` and `report.html`, written as the cases stream
//! by, every one through its exporter of findbench-eval's `report` (the trait a corpus
//! run's go through).
//!
//! A writer thread takes the replayed cases a batch at a time, in input order, through a
//! bounded channel (the replay goes on meanwhile, and waits when the writer is
//! [`QUEUED_BATCHES`] behind), and spools them beside the reports as their exporters write
//! cases: cases.jsonl lines (every field of a case), cases.csv rows and junit.xml test
//! cases, the first two gzipped as they go with `--out-compress`. The documents that need
//! totals first (results.json, junit.xml) are assembled from the spools at the end. Every
//! file is written under a temporary name and renamed, so a reader never sees half a
//! report; the byte content does not depend on `--jobs`.

use crate::error::{Result, TracesError};
use crate::replay_totals::ReplayTotals;
use crate::trace::TraceOutcome;
use findbench_eval::atomic_file::temp_name;
use findbench_eval::case::CaseResult;
use findbench_eval::error::HarnessError;
pub use findbench_eval::replay_summary::ReplayHeader;
use findbench_eval::replay_summary::{OutcomeCounts, ReplaySummary};
use findbench_eval::report::csv::ReplayCasesCsv;
use findbench_eval::report::jsonl::case_line;
use findbench_eval::report::junit::ReplayJunitXml;
use findbench_eval::report::replay_document::{CaseSpools, ReplayReport};
use findbench_eval::report::{self, Exporter, ReportContext};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, SyncSender};
use std::thread::JoinHandle;

fn io_err(path: &Path) -> impl Fn(std::io::Error) -> TracesError + '_ {
    move |e| TracesError::file(path, format!("cannot write: {e}"))
}

fn csv_err(path: &Path) -> impl Fn(csv::Error) -> TracesError + '_ {
    move |e| io_err(path)(e.into())
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

/// Batches of cases the writer thread may be behind the replay.
pub const QUEUED_BATCHES: usize = 4;

/// A spool file, gzipped as it is written when the report is (`--out-compress`).
enum SpoolFile {
    Plain(BufWriter<File>),
    Gzipped(flate2::write::GzEncoder<BufWriter<File>>),
}

impl SpoolFile {
    fn create(path: &Path, gzipped: bool) -> Result<SpoolFile> {
        let f = File::create(path).map_err(io_err(path))?;
        let w = BufWriter::with_capacity(256 * 1024, f);
        Ok(if gzipped {
            SpoolFile::Gzipped(report::gzip::encoder(w))
        } else {
            SpoolFile::Plain(w)
        })
    }

    /// Ends the gzip stream and flushes (a spool is a temporary: not synced).
    fn finish(self) -> std::io::Result<()> {
        let w = match self {
            SpoolFile::Plain(w) => w,
            SpoolFile::Gzipped(gz) => gz.finish()?,
        };
        w.into_inner().map(drop).map_err(|e| e.into_error())
    }
}

impl Write for SpoolFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            SpoolFile::Plain(w) => w.write(buf),
            SpoolFile::Gzipped(w) => w.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match self {
            SpoolFile::Plain(w) => w.write_all(buf),
            SpoolFile::Gzipped(w) => w.write_all(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            SpoolFile::Plain(w) => w.flush(),
            SpoolFile::Gzipped(w) => w.flush(),
        }
    }
}

/// The spool files one replay's cases go to, owned by the writer thread.
struct Spools {
    cases_jsonl: (PathBuf, SpoolFile),
    cases_csv: (PathBuf, csv::Writer<SpoolFile>),
    junit: (PathBuf, SpoolFile),
    cases: usize,
    compress: bool,
    line: Vec<u8>,
}

impl Spools {
    fn create(dir: &Path, compress: bool) -> Result<Spools> {
        std::fs::create_dir_all(dir).map_err(io_err(dir))?;
        let open = |name: &str, gzipped: bool| -> Result<(PathBuf, SpoolFile)> {
            let path = temp_name(&dir.join(format!("{name}.spool")));
            let f = SpoolFile::create(&path, gzipped)?;
            Ok((path, f))
        };
        let (csv_path, csv_file) = open("cases.csv", compress)?;
        let cases_csv = ReplayCasesCsv::spool(csv_file).map_err(csv_err(&csv_path))?;
        Ok(Spools {
            cases_jsonl: open("cases.jsonl", compress)?,
            cases_csv: (csv_path, cases_csv),
            junit: open("junit", false)?,
            cases: 0,
            compress,
            line: Vec::with_capacity(4096),
        })
    }

    /// Spools a batch of cases: each one's cases.jsonl line, cases.csv row and junit.xml
    /// test case.
    fn push(&mut self, cases: &[CaseResult]) -> Result<()> {
        let (p, w) = &mut self.cases_jsonl;
        for case in cases {
            self.line.clear();
            case_line(case, &mut self.line).map_err(|e| io_err(p)(e.into()))?;
            w.write_all(&self.line).map_err(io_err(p))?;
            self.cases += 1;
        }
        let (p, w) = &mut self.cases_csv;
        for case in cases {
            w.write_record(ReplayCasesCsv::row(case).iter().map(|f| f.as_bytes()))
                .map_err(csv_err(p))?;
        }
        let (p, w) = &mut self.junit;
        w.write_all(ReplayJunitXml::spool_cases(cases)?.as_bytes())
            .map_err(io_err(p))
    }

    /// Ends and flushes the spools and hands them on.
    fn close(self) -> Result<CaseSpools> {
        let close = |(p, w): (PathBuf, SpoolFile)| -> Result<PathBuf> {
            w.finish().map_err(io_err(&p))?;
            Ok(p)
        };
        let cases_jsonl = close(self.cases_jsonl)?;
        let (csv_spool, csv_writer) = self.cases_csv;
        let csv_file = csv_writer
            .into_inner()
            .map_err(|e| io_err(&csv_spool)(e.into_error()))?;
        let cases_csv = close((csv_spool, csv_file))?;
        let junit = close(self.junit)?;
        Ok(CaseSpools {
            cases_jsonl,
            cases_csv,
            junit,
            cases: self.cases,
            compress: self.compress,
        })
    }

    fn paths(&self) -> [&Path; 3] {
        [&self.cases_jsonl.0, &self.cases_csv.0, &self.junit.0]
    }
}

/// Takes replayed cases a batch at a time, spools them on its own thread, and writes the
/// reports when [`ReportWriter::finish`]ed.
pub struct ReportWriter {
    dir: PathBuf,
    queue: Option<SyncSender<Vec<CaseResult>>>,
    worker: Option<JoinHandle<Result<Spools>>>,
}

impl ReportWriter {
    /// Opens the spools in `dir` and starts the writer thread; `compress` gzips the case
    /// files (`--out-compress`).
    pub fn create(dir: &Path, compress: bool) -> Result<ReportWriter> {
        let mut spools = Spools::create(dir, compress)?;
        let (queue, batches) = sync_channel::<Vec<CaseResult>>(QUEUED_BATCHES);
        let worker = std::thread::Builder::new()
            .name("findbench-reports".into())
            .spawn(move || {
                for batch in batches {
                    if let Err(e) = spools.push(&batch) {
                        for p in spools.paths() {
                            let _ = std::fs::remove_file(p);
                        }
                        return Err(e);
                    }
                }
                Ok(spools)
            })
            .map_err(io_err(dir))?;
        Ok(ReportWriter {
            dir: dir.to_path_buf(),
            queue: Some(queue),
            worker: Some(worker),
        })
    }

    /// Hands a batch of replayed cases (in input order) to the writer thread; waits while
    /// it is [`QUEUED_BATCHES`] behind. A write error of an earlier batch is returned here.
    pub fn push(&mut self, cases: Vec<CaseResult>) -> Result<()> {
        let sent = match &self.queue {
            Some(q) => q.send(cases).is_ok(),
            None => false,
        };
        if sent {
            return Ok(());
        }
        // the writer stopped: its error says why
        self.join().map(drop)
    }

    /// Stops taking cases and waits for the writer thread's spools.
    fn join(&mut self) -> Result<Spools> {
        self.queue = None;
        match self.worker.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(TracesError::Eval(HarnessError::Internal(
                "the report writer thread stopped unexpectedly".into(),
            ))),
            None => Err(TracesError::Eval(HarnessError::Internal(
                "the report writer has already stopped".into(),
            ))),
        }
    }

    /// Writes every report and removes the spools; returns the files written.
    pub fn finish(mut self, header: &ReplayHeader, totals: &ReplayTotals) -> Result<Vec<PathBuf>> {
        let spools = self.join()?.close()?;
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

impl Drop for ReportWriter {
    /// A writer dropped unfinished (the replay failed) stops its thread and leaves no spool.
    fn drop(&mut self) {
        if self.worker.is_some() {
            if let Ok(spools) = self.join() {
                for p in spools.paths() {
                    let _ = std::fs::remove_file(p);
                }
            }
        }
    }
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
    let [results_json, cases_jsonl, cases_csv, junit_xml] =
        report::replay_case_exporters(report.spools.compress);
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
