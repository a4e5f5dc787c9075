//! `cases.jsonl`: one case a line, every field written ([`crate::case_json`],
//! schemas/case.schema.json), for jq, DuckDB and pandas. A run's holds every engine's cases
//! (the primary's first, in (suite, id) order, each with its `engine`); a replay's is the
//! spool its writer thread filled as the cases streamed by, in input order.

use super::exporter::{CaseStreamExporter, Exporter, ReportContext};
use super::replay_document::{read_spool, rename_spool_into_place, ReplayReport};
use crate::case::CaseResult;
use crate::error::{HarnessError, Result};
use crate::results::RunResults;
use std::path::Path;

/// Appends `case` as one line of cases.jsonl to `out`.
pub fn case_line(case: &CaseResult, out: &mut Vec<u8>) -> serde_json::Result<()> {
    super::case_line::write_case_line(case, out)
}

/// A run's cases.jsonl.
pub struct CasesJsonl;

impl Exporter for CasesJsonl {
    fn file_name(&self) -> &'static str {
        "cases.jsonl"
    }

    fn render(&self, run: &RunResults, _: &ReportContext<'_>) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        for case in run.all_cases() {
            case_line(case, &mut out)
                .map_err(|e| HarnessError::Internal(format!("serialising a case: {e}")))?;
        }
        Ok(out)
    }
}

/// A replay's cases.jsonl (cases.jsonl.gz with `compress`): its spool, already the whole
/// file.
pub struct ReplayCasesJsonl {
    pub compress: bool,
}

impl Exporter<ReplayReport> for ReplayCasesJsonl {
    fn file_name(&self) -> &'static str {
        super::gzip::file_name("cases.jsonl", self.compress)
    }

    fn render(&self, r: &ReplayReport, _: &ReportContext<'_>) -> Result<Vec<u8>> {
        read_spool(&r.spools.cases_jsonl)
    }

    /// The spool is the whole file: synced and renamed into place.
    fn publish(&self, r: &ReplayReport, _: &ReportContext<'_>, path: &Path) -> Result<()> {
        rename_spool_into_place(&r.spools.cases_jsonl, path)
    }
}

impl CaseStreamExporter for ReplayCasesJsonl {
    fn spool_cases(&self, cases: &[CaseResult], out: &mut Vec<u8>) -> Result<()> {
        // about a kilobyte and a half a case: one allocation for the chunk
        out.reserve(cases.len() * 1536);
        for case in cases {
            case_line(case, out)
                .map_err(|e| HarnessError::Internal(format!("serialising a case: {e}")))?;
        }
        Ok(())
    }

    fn spool_is_the_report(&self) -> bool {
        true
    }
}
