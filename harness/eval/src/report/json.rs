//! `results.json`: a whole run, pretty-printed (see [`crate::results`]); a replay's, whose
//! cases stream after its head.

use super::exporter::{Exporter, ReportContext};
use super::replay_document::ReplayReport;
use crate::atomic_file::write_atomic_with;
use crate::case::CaseResult;
use crate::case_codec::CaseEncoder;
use crate::error::{HarnessError, Result};
use crate::replay_summary::ReplaySummary;
use crate::results::RunResults;
use std::fs::File;
use std::io::Write;
use std::path::Path;

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

/// A replay's results.json: the head ([`replay_head`]), the `answers` table, then the
/// `cases` array, whose items (in the compact form of [`crate::case_codec`]) were spooled
/// as the cases streamed by ([`ReplayResultsJson::spool_case`]).
pub struct ReplayResultsJson;

impl ReplayResultsJson {
    /// Appends one case to `line` as the spool holds it: its separator, then its compact
    /// form (`first` for the first case of the replay).
    pub fn spool_case(
        encoder: &mut CaseEncoder,
        case: &CaseResult,
        first: bool,
        line: &mut Vec<u8>,
    ) -> serde_json::Result<()> {
        line.extend_from_slice(item_separator(first));
        encoder.encode(case, line)
    }
}

impl Exporter<ReplayReport> for ReplayResultsJson {
    fn file_name(&self) -> &'static str {
        "results.json"
    }

    fn render(&self, r: &ReplayReport, _: &ReportContext<'_>) -> Result<Vec<u8>> {
        let spool = &r.spools.results_json;
        let mut out = replay_head(&r.summary, &r.spools.encoder.defaults())?.into_bytes();
        replay_answers(&mut out, &r.spools.encoder.answers())
            .map_err(|e| HarnessError::Internal(format!("serialising results: {e}")))?;
        out.extend_from_slice(CASES_OPEN);
        let cases = std::fs::read(spool)
            .map_err(|e| HarnessError::file(spool, format!("cannot read: {e}")))?;
        out.extend_from_slice(&cases);
        out.extend_from_slice(TAIL);
        Ok(out)
    }

    /// Streams: the head, the answers, then the spooled cases copied file to file.
    fn publish(&self, r: &ReplayReport, _: &ReportContext<'_>, path: &Path) -> Result<()> {
        let head = replay_head(&r.summary, &r.spools.encoder.defaults())?;
        write_atomic_with(path, |w| {
            w.write_all(head.as_bytes())?;
            replay_answers(w, &r.spools.encoder.answers())?;
            w.write_all(CASES_OPEN)?;
            w.flush()?;
            std::io::copy(&mut File::open(&r.spools.results_json)?, w.get_mut())?;
            w.write_all(TAIL)
        })
    }
}

/// The head of a replay's results.json: the header fields, `summary`, `clusters`,
/// `bad_lines` and `case_defaults` (the compact form's, see [`crate::case_codec`]),
/// pretty-printed and left open after the last of them, so the `"answers"` and `"cases"`
/// arrays can follow ([`replay_answers`], [`CASES_OPEN`]).
fn replay_head(r: &ReplaySummary, case_defaults: &serde_json::Value) -> Result<String> {
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
fn replay_answers(w: &mut impl Write, answers: &[&[u8]]) -> std::io::Result<()> {
    w.write_all(b",\n  \"answers\": [")?;
    for (i, a) in answers.iter().enumerate() {
        w.write_all(item_separator(i == 0))?;
        w.write_all(a)?;
    }
    w.write_all(b"\n  ]")
}

/// After the answers: the opening of the `cases` array, whose items (each after
/// [`item_separator`]) follow, closed by [`TAIL`].
const CASES_OPEN: &[u8] = b",\n  \"cases\": [";

/// What precedes an item of `answers` or `cases`: one item a line.
fn item_separator(first: bool) -> &'static [u8] {
    if first {
        b"\n    "
    } else {
        b",\n    "
    }
}

/// Closes the `cases` array and the document.
const TAIL: &[u8] = b"\n  ]\n}\n";
