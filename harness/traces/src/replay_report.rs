//! The reports of a replay (`--out DIR`): `summary.md`, `summary.csv`, `cases.csv`,
//! `results.json`, `junit.xml` and `report.html`, written as the cases stream by, every one
//! rendered by findbench-eval's `report` modules (the exporters of a corpus run).
//!
//! A writer thread takes the replayed cases a batch at a time, in input order, through a
//! bounded channel (the replay goes on meanwhile, and waits when the writer is
//! [`QUEUED_BATCHES`] behind), and spools them beside the reports: cases.csv rows, junit.xml
//! test cases, and results.json cases in their compact form (findbench-eval's `case_codec`).
//! The documents that need totals first (results.json, junit.xml) are assembled from the
//! spools at the end. Every file is written under a temporary name and renamed, so a reader
//! never sees half a report; the byte content does not depend on `--jobs`.

use crate::error::{Result, TracesError};
use crate::replay_totals::ReplayTotals;
use crate::trace::TraceOutcome;
use findbench_eval::atomic_file::{temp_name, write_atomic_with};
use findbench_eval::case_codec::CaseEncoder;
pub use findbench_eval::replay_summary::ReplayHeader;
use findbench_eval::replay_summary::{OutcomeCounts, ReplaySummary};
use findbench_eval::report::{self, csv::csv_writer, junit, markdown};
use findbench_eval::results::CaseResult;
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

/// The spool files one replay's cases go to, owned by the writer thread.
struct Spools {
    cases_json: (PathBuf, BufWriter<File>),
    cases_csv: (PathBuf, csv::Writer<BufWriter<File>>),
    junit: (PathBuf, BufWriter<File>),
    encoder: CaseEncoder,
    cases: usize,
    line: Vec<u8>,
}

impl Spools {
    fn create(dir: &Path) -> Result<Spools> {
        std::fs::create_dir_all(dir).map_err(io_err(dir))?;
        let open = |name: &str| -> Result<(PathBuf, BufWriter<File>)> {
            let path = temp_name(&dir.join(format!("{name}.spool")));
            let f = File::create(&path).map_err(io_err(&path))?;
            Ok((path, BufWriter::with_capacity(256 * 1024, f)))
        };
        let (csv_path, csv_file) = open("cases.csv")?;
        let mut cases_csv = csv_writer(csv_file);
        cases_csv
            .write_record(report::csv::REPLAY_CASE_COLUMNS)
            .map_err(csv_err(&csv_path))?;
        Ok(Spools {
            cases_json: open("cases.jsonl")?,
            cases_csv: (csv_path, cases_csv),
            junit: open("junit")?,
            encoder: CaseEncoder::new(),
            cases: 0,
            line: Vec::with_capacity(1024),
        })
    }

    /// Spools a batch of cases: each one's results.json item, cases.csv row and junit.xml
    /// test case.
    fn push(&mut self, cases: &[CaseResult]) -> Result<()> {
        let (p, w) = &mut self.cases_json;
        for case in cases {
            self.line.clear();
            self.line
                .extend_from_slice(report::json::replay_item_separator(self.cases == 0));
            self.encoder
                .encode(case, &mut self.line)
                .map_err(|e| io_err(p)(e.into()))?;
            w.write_all(&self.line).map_err(io_err(p))?;
            self.cases += 1;
        }
        let (p, w) = &mut self.cases_csv;
        for case in cases {
            w.write_record(
                report::csv::replay_case_row(case)
                    .iter()
                    .map(|f| f.as_bytes()),
            )
            .map_err(csv_err(p))?;
        }
        let (p, w) = &mut self.junit;
        w.write_all(junit::streamed_cases(cases)?.as_bytes())
            .map_err(io_err(p))
    }

    /// Flushes the spools (they are temporaries: not synced) and hands back their paths.
    fn close(self) -> Result<(PathBuf, PathBuf, PathBuf, CaseEncoder)> {
        let close = |(p, w): (PathBuf, BufWriter<File>)| -> Result<PathBuf> {
            w.into_inner().map_err(|e| io_err(&p)(e.into_error()))?;
            Ok(p)
        };
        let cases_json = close(self.cases_json)?;
        let (csv_spool, csv_writer) = self.cases_csv;
        let csv_file = csv_writer
            .into_inner()
            .map_err(|e| io_err(&csv_spool)(e.into_error()))?;
        let cases_csv = close((csv_spool, csv_file))?;
        let junit = close(self.junit)?;
        Ok((cases_json, cases_csv, junit, self.encoder))
    }

    fn paths(&self) -> [&Path; 3] {
        [&self.cases_json.0, &self.cases_csv.0, &self.junit.0]
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
    /// Opens the spools in `dir` and starts the writer thread.
    pub fn create(dir: &Path) -> Result<ReportWriter> {
        let mut spools = Spools::create(dir)?;
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
            Some(Err(_)) => Err(TracesError::Eval(
                findbench_eval::error::HarnessError::Internal(
                    "the report writer thread stopped unexpectedly".into(),
                ),
            )),
            None => Err(TracesError::Eval(
                findbench_eval::error::HarnessError::Internal(
                    "the report writer has already stopped".into(),
                ),
            )),
        }
    }

    /// Writes every report and removes the spools; returns the files written.
    pub fn finish(mut self, header: &ReplayHeader, totals: &ReplayTotals) -> Result<Vec<PathBuf>> {
        let spools = self.join()?;
        let dir = self.dir.clone();
        let (cases_json, cases_csv, junit_spool, encoder) = spools.close()?;
        let written = write_reports(
            &dir,
            header,
            totals,
            &cases_json,
            &cases_csv,
            &junit_spool,
            &encoder,
        );
        for spool in [cases_json, cases_csv, junit_spool] {
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

/// The reports from the closed spools.
fn write_reports(
    dir: &Path,
    header: &ReplayHeader,
    totals: &ReplayTotals,
    cases_json: &Path,
    cases_csv: &Path,
    junit_spool: &Path,
    encoder: &CaseEncoder,
) -> Result<Vec<PathBuf>> {
    let summary = replay_summary(header, totals);
    let head = report::json::replay_head(&summary, &encoder.defaults())?;
    let failures = totals.replayed - totals.outcome_count(TraceOutcome::Success);
    let (junit_head, junit_tail) = junit::streamed_frame(
        "findbench replay",
        &format!("replay ({})", header.profile),
        totals.replayed,
        failures,
    )?;
    let results = dir.join("results.json");
    let csv = dir.join("cases.csv");
    let junit_path = dir.join("junit.xml");
    // header fields, summary, groups, bad lines and case defaults, the answers, then the
    // spooled cases (copied file to file)
    let write_results = || {
        write_atomic_with(&results, |w| {
            w.write_all(head.as_bytes())?;
            report::json::replay_answers(w, &encoder.answers())?;
            w.write_all(report::json::REPLAY_CASES_OPEN)?;
            w.flush()?;
            std::io::copy(&mut File::open(cases_json)?, w.get_mut())?;
            w.write_all(report::json::REPLAY_TAIL)
        })
    };
    let write_rest = || -> Result<()> {
        write_atomic_with(&junit_path, |w| {
            w.write_all(junit_head.as_bytes())?;
            w.flush()?;
            std::io::copy(&mut File::open(junit_spool)?, w.get_mut())?;
            w.write_all(junit_tail.as_bytes())
        })?;
        File::open(cases_csv)
            .and_then(|f| f.sync_all())
            .and_then(|()| std::fs::rename(cases_csv, &csv))
            .map_err(io_err(&csv))
    };
    // results.json beside the other two: each is mostly copying and waiting on the disk (a
    // thread that cannot start leaves results.json to this one)
    let (results_written, rest_written) = std::thread::scope(|s| match std::thread::Builder::new()
        .spawn_scoped(s, write_results)
    {
        Ok(handle) => {
            let rest = write_rest();
            let results = handle.join().unwrap_or_else(|_| {
                Err(findbench_eval::error::HarnessError::Internal(
                    "the results.json writer stopped unexpectedly".into(),
                ))
            });
            (results, rest)
        }
        Err(_) => (write_results(), write_rest()),
    });
    results_written?;
    rest_written?;
    let mut written = vec![results, csv, junit_path];

    written.extend(report::write_files(
        dir,
        vec![
            (
                "summary.csv",
                report::csv::replay_summary(&summary.summary)?,
            ),
            ("summary.md", markdown::replay(&summary).into_bytes()),
            (
                "report.html",
                report::html::replay(
                    &summary,
                    &totals
                        .durations_ms
                        .iter()
                        .map(|d| f64::from(*d))
                        .collect::<Vec<_>>(),
                )
                .into_bytes(),
            ),
        ],
    )?);
    Ok(written)
}
