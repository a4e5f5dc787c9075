//! `report.html`: the page a person looks at, for a run, a replay and a compare. One
//! self-contained, XHTML-compatible file: inline CSS and the hand-built inline SVG charts of
//! [`super::svg`] (no chart library, no script, no font or image fetched from anywhere),
//! readable with JavaScript off and printed.
//!
//! Every number drawn from the results carries `data-metric` (its path in results.json,
//! e.g. `suites.names.pass_rate`) and `data-value` (the number itself), so a test can hold
//! the page to results.json.
//!
//! One file per job: [`page`] the page layout and stylesheet, [`elements`] the numbers,
//! figures and tables sections are built from, and a file per page: [`run_page`],
//! [`replay_page`], [`compare_page`].

pub mod compare_page;
pub mod elements;
pub mod page;
pub mod replay_page;
pub mod run_page;

pub use compare_page::compare;
pub use replay_page::replay;
pub use run_page::run;

use crate::error::Result;
use crate::report::exporter::{Exporter, ReportContext};
use crate::results::RunResults;

pub struct ReportHtml;

impl Exporter for ReportHtml {
    fn file_name(&self) -> &'static str {
        "report.html"
    }

    fn render(&self, run: &RunResults, context: &ReportContext<'_>) -> Result<Vec<u8>> {
        Ok(self::run(run, context).into_bytes())
    }
}
