//! A replay as its report files see it: the summary, each replayed case's time, and the
//! spools its cases were written to as they streamed by (a replay of a million traces does
//! not hold its cases in memory, so cases.jsonl, results.json, cases.csv and junit.xml are
//! assembled from these).

use crate::error::{HarnessError, Result};
use crate::replay_summary::ReplaySummary;
use std::fs::File;
use std::path::{Path, PathBuf};

/// The document of a replay's exporters.
pub struct ReplayReport {
    pub summary: ReplaySummary,
    /// Each replayed case's time, in input order (report.html's latency histogram).
    pub latencies_ms: Vec<f64>,
    pub spools: CaseSpools,
}

/// Where a replay's cases were spooled, each file in the form its report holds them:
/// cases.jsonl (one case a line; gzipped with `--out-compress`), the cases.csv rows (header
/// first; gzipped with `--out-compress`) and the junit.xml test cases (plain: the frame
/// goes around them).
pub struct CaseSpools {
    pub cases_jsonl: PathBuf,
    pub cases_csv: PathBuf,
    pub junit: PathBuf,
    /// Cases spooled.
    pub cases: usize,
    /// `--out-compress`: the case files are written gzipped.
    pub compress: bool,
}

impl CaseSpools {
    /// The spools of [`super::replay_case_streams`]'s files, in its order (cases.jsonl,
    /// cases.csv, junit.xml), holding `cases` cases.
    pub fn from_streams(
        [cases_jsonl, cases_csv, junit]: [PathBuf; 3],
        cases: usize,
        compress: bool,
    ) -> CaseSpools {
        CaseSpools {
            cases_jsonl,
            cases_csv,
            junit,
            cases,
            compress,
        }
    }
}

/// A spool's bytes (an exporter's `render` of a file it streams).
pub(super) fn read_spool(spool: &Path) -> Result<Vec<u8>> {
    std::fs::read(spool).map_err(|e| HarnessError::file(spool, format!("cannot read: {e}")))
}

/// Publishes a spool that already is its report whole: synced, then renamed to `path`.
pub(super) fn rename_spool_into_place(spool: &Path, path: &Path) -> Result<()> {
    File::open(spool)
        .and_then(|f| f.sync_all())
        .and_then(|()| std::fs::rename(spool, path))
        .map_err(|e| HarnessError::file(path, format!("cannot write: {e}")))
}
