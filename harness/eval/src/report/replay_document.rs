//! A replay as its report files see it: the summary, each replayed case's time, and the
//! spools its cases were written to as they streamed by (a replay of a million traces does
//! not hold its cases in memory, so results.json, cases.csv and junit.xml are assembled
//! from these).

use crate::case_codec::CaseEncoder;
use crate::replay_summary::ReplaySummary;
use std::path::PathBuf;

/// The document of a replay's exporters.
pub struct ReplayReport {
    pub summary: ReplaySummary,
    /// Each replayed case's time, in input order (report.html's latency histogram).
    pub latencies_ms: Vec<f64>,
    pub spools: CaseSpools,
}

/// Where a replay's cases were spooled, each file in the form its report holds them: the
/// results.json cases (compact form, each after its separator), the cases.csv rows
/// (header first) and the junit.xml test cases; and the encoder that wrote the first, whose
/// defaults and answers table results.json holds.
pub struct CaseSpools {
    pub results_json: PathBuf,
    pub cases_csv: PathBuf,
    pub junit: PathBuf,
    pub encoder: CaseEncoder,
}
