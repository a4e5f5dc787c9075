//! A replay as its report files see it: the summary, each replayed case's time, and the
//! spools its cases were written to as they streamed by (a replay of a million traces does
//! not hold its cases in memory, so cases.jsonl, results.json, cases.csv and junit.xml are
//! assembled from these).

use crate::replay_summary::ReplaySummary;
use std::path::PathBuf;

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
