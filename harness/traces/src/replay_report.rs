//! The reports of a replay (`--out DIR`): `summary.md`, `summary.csv`, `cases.csv`,
//! `results.json` and `junit.xml`, written as the cases stream by, every one rendered by
//! findbench-eval's `report` modules (the exporters of a corpus run).
//!
//! Cases go to spool files beside the reports as they are replayed; the documents that need
//! totals first (results.json, junit.xml) are assembled from the spools at the end. Every
//! file is written under a temporary name and renamed, so a reader never sees half a report.

use crate::error::{Result, TracesError};
use crate::replay::ReplayTotals;
use crate::trace::TraceOutcome;
use findbench_eval::atomic_file::{temp_name, write_atomic_with};
pub use findbench_eval::replay_summary::ReplayHeader;
use findbench_eval::replay_summary::{OutcomeCounts, ReplaySummary};
use findbench_eval::report::{self, csv::csv_writer, junit, markdown};
use findbench_eval::results::CaseResult;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

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

/// Spools cases as they come; [`ReportWriter::finish`] writes the reports.
pub struct ReportWriter {
    dir: PathBuf,
    cases_json: (PathBuf, BufWriter<File>),
    cases_csv: (PathBuf, csv::Writer<BufWriter<File>>),
    junit: (PathBuf, BufWriter<File>),
}

impl ReportWriter {
    pub fn create(dir: &Path) -> Result<ReportWriter> {
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
        Ok(ReportWriter {
            dir: dir.to_path_buf(),
            cases_json: open("cases.jsonl")?,
            cases_csv: (csv_path, cases_csv),
            junit: open("junit")?,
        })
    }

    /// Spools one replayed case: its results.json line (the shared case model), its
    /// cases.csv row and its junit.xml test case.
    pub fn push(&mut self, case: &CaseResult) -> Result<()> {
        let (p, w) = &mut self.cases_json;
        serde_json::to_writer(&mut *w, case).map_err(|e| io_err(p)(e.into()))?;
        writeln!(w).map_err(io_err(p))?;
        let (p, w) = &mut self.cases_csv;
        w.write_record(report::csv::replay_case_row(case))
            .map_err(csv_err(p))?;
        let (p, w) = &mut self.junit;
        w.write_all(junit::streamed_case(case)?.as_bytes())
            .map_err(io_err(p))
    }

    /// Writes every report and removes the spools; returns the files written.
    pub fn finish(self, header: &ReplayHeader, totals: &ReplayTotals) -> Result<Vec<PathBuf>> {
        let ReportWriter {
            dir,
            cases_json,
            cases_csv,
            junit,
        } = self;
        let close = |(p, w): (PathBuf, BufWriter<File>)| -> Result<PathBuf> {
            w.into_inner()
                .map_err(|e| io_err(&p)(e.into_error()))?
                .sync_all()
                .map_err(io_err(&p))?;
            Ok(p)
        };
        let cases_json = close(cases_json)?;
        let (csv_spool, csv_writer) = cases_csv;
        let csv_file = csv_writer
            .into_inner()
            .map_err(|e| io_err(&csv_spool)(e.into_error()))?;
        let cases_csv = close((csv_spool, csv_file))?;
        let junit_spool = close(junit)?;
        let summary = replay_summary(header, totals);
        let mut written = Vec::new();

        // results.json: header fields, summary, groups, bad lines, then the spooled cases
        let results = dir.join("results.json");
        let head = report::json::replay_head(&summary)?;
        write_atomic_with(&results, |w| {
            w.write_all(head.as_bytes())?;
            w.write_all(b",\n  \"cases\": [")?;
            let mut first = true;
            for line in BufReader::new(File::open(&cases_json)?).lines() {
                let line = line?;
                w.write_all(if first { b"\n    " } else { b",\n    " })?;
                w.write_all(line.as_bytes())?;
                first = false;
            }
            w.write_all(b"\n  ]\n}\n")
        })?;
        written.push(results);

        let csv = dir.join("cases.csv");
        std::fs::rename(&cases_csv, &csv).map_err(io_err(&csv))?;
        written.push(csv);

        let junit_path = dir.join("junit.xml");
        let failures = totals.replayed - totals.outcome_count(TraceOutcome::Success);
        let (head, tail) = junit::streamed_frame(
            "findbench replay",
            &format!("replay ({})", header.profile),
            totals.replayed,
            failures,
        )?;
        write_atomic_with(&junit_path, |w| {
            w.write_all(head.as_bytes())?;
            std::io::copy(&mut File::open(&junit_spool)?, w)?;
            w.write_all(tail.as_bytes())
        })?;
        written.push(junit_path);

        written.extend(report::write_files(
            &dir,
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

        for spool in [cases_json, junit_spool] {
            let _ = std::fs::remove_file(spool);
        }
        Ok(written)
    }
}
