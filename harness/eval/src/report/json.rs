//! `results.json`: a whole run, pretty-printed (see [`crate::results`]); the head of a
//! replay's, whose cases stream after it.

use super::exporter::{Exporter, ReportContext};
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

/// The head of a replay's results.json: the header fields, `summary`, `clusters`,
/// `bad_lines` and `case_defaults` (the compact form's, see [`crate::case_codec`]),
/// pretty-printed and left open after the last of them, so the streamed `"answers"` and
/// `"cases"` arrays can follow ([`replay_answers`], [`REPLAY_CASES_OPEN`]).
pub fn replay_head(r: &ReplaySummary, case_defaults: &serde_json::Value) -> Result<String> {
    let internal =
        |e: serde_json::Error| HarnessError::Internal(format!("serialising results: {e}"));
    let mut head = serde_json::to_value(&r.header).map_err(internal)?;
    head["summary"] = r.summary.clone();
    head["clusters"] = serde_json::to_value(&r.groups).map_err(internal)?;
    head["bad_lines"] = serde_json::to_value(&r.bad_examples).map_err(internal)?;
    head["case_defaults"] = case_defaults.clone();
    let head = serde_json::to_string_pretty(&head).map_err(internal)?;
    Ok(head.trim_end().trim_end_matches('}').trim_end().to_string())
}

/// After [`replay_head`]: the `answers` array, one compact answer a line.
pub fn replay_answers(w: &mut impl std::io::Write, answers: &[&[u8]]) -> std::io::Result<()> {
    w.write_all(b",\n  \"answers\": [")?;
    for (i, a) in answers.iter().enumerate() {
        w.write_all(replay_item_separator(i == 0))?;
        w.write_all(a)?;
    }
    w.write_all(b"\n  ]")
}

/// After the answers: the opening of the `cases` array, whose items (each after
/// [`replay_item_separator`]) stream after it, closed by [`REPLAY_TAIL`].
pub const REPLAY_CASES_OPEN: &[u8] = b",\n  \"cases\": [";

/// What precedes an item of `answers` or `cases`: one item a line.
pub fn replay_item_separator(first: bool) -> &'static [u8] {
    if first {
        b"\n    "
    } else {
        b",\n    "
    }
}

/// Closes the `cases` array and the document.
pub const REPLAY_TAIL: &[u8] = b"\n  ]\n}\n";
