//! `results.json`: the whole run, pretty-printed (see [`crate::results`]).

use super::{Exporter, ReportContext};
use crate::error::{HarnessError, Result};
use crate::results::RunResults;

pub struct ResultsJson;

impl Exporter for ResultsJson {
    fn file_name(&self) -> &'static str {
        "results.json"
    }

    fn render(&self, run: &RunResults, _: &ReportContext<'_>) -> Result<Vec<u8>> {
        let mut bytes = serde_json::to_vec_pretty(run)
            .map_err(|e| HarnessError::Internal(format!("serialising results: {e}")))?;
        bytes.push(b'\n');
        Ok(bytes)
    }
}
