//! `report.html`: the page a person looks at, for a run, a replay and a compare. One
//! self-contained, XHTML-compatible file: inline CSS and the hand-built inline SVG charts of
//! [`super::svg`] (no chart library, no script, no font or image fetched from anywhere),
//! readable with JavaScript off and printed.
//!
//! Every number drawn from the results carries `data-metric` (its path in results.json,
//! e.g. `suites.names.pass_rate`) and `data-value` (the number itself), so a test can hold
//! the page to results.json.
//!
//! One file per job: `page` the page layout and stylesheet, `elements` the numbers,
//! figures and tables sections are built from, and a file per page: `run_page`,
//! `replay_page`, `compare_page`; this module their exporters.

mod compare_page;
mod elements;
mod page;
mod replay_page;
mod run_page;

use crate::compare::Comparison;
use crate::error::Result;
use crate::report::exporter::{Exporter, ReportContext};
use crate::report::replay_document::ReplayReport;
use crate::results::RunResults;

/// report.html of a run.
pub struct ReportHtml;

impl Exporter for ReportHtml {
    fn file_name(&self) -> &'static str {
        "report.html"
    }

    fn render(&self, run: &RunResults, context: &ReportContext<'_>) -> Result<Vec<u8>> {
        Ok(run_page::run(run, context).into_bytes())
    }
}

/// report.html of a replay.
pub struct ReplayHtml;

impl Exporter<ReplayReport> for ReplayHtml {
    fn file_name(&self) -> &'static str {
        "report.html"
    }

    fn render(&self, r: &ReplayReport, _: &ReportContext<'_>) -> Result<Vec<u8>> {
        Ok(replay_page::replay(&r.summary, &r.latencies_ms).into_bytes())
    }
}

/// report.html of a compare, beside its markdown.
pub struct CompareHtml;

impl Exporter<Comparison> for CompareHtml {
    fn file_name(&self) -> &'static str {
        "report.html"
    }

    fn render(&self, c: &Comparison, _: &ReportContext<'_>) -> Result<Vec<u8>> {
        Ok(compare_page::compare(c).into_bytes())
    }
}
