//! `results.json`: a whole run, pretty-printed (see [`crate::results`]); the head of a
//! replay's, whose cases stream after it.

use super::{Exporter, ReportContext};
use crate::error::{HarnessError, Result};
use crate::replay_summary::ReplaySummary;
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

/// The head of a replay's results.json: the header fields, `summary`, `clusters` and
/// `bad_lines`, pretty-printed and left open after the last of them, so the streamed
/// `"cases"` array can follow.
pub fn replay_head(r: &ReplaySummary) -> Result<String> {
    let internal =
        |e: serde_json::Error| HarnessError::Internal(format!("serialising results: {e}"));
    let mut head = serde_json::to_value(&r.header).map_err(internal)?;
    head["summary"] = r.summary.clone();
    head["clusters"] = serde_json::to_value(&r.groups).map_err(internal)?;
    head["bad_lines"] = serde_json::to_value(&r.bad_examples).map_err(internal)?;
    let head = serde_json::to_string_pretty(&head).map_err(internal)?;
    Ok(head.trim_end().trim_end_matches('}').trim_end().to_string())
}
