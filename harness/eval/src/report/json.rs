//! `results.json`: a whole run, pretty-printed (see [`crate::results`]); a replay's, whose
//! cases stream after its head (or, past [`INLINE_CASES_MAX`], are in its cases.jsonl
//! alone).

use super::exporter::{Exporter, ReportContext};
use super::replay_document::ReplayReport;
use crate::atomic_file::write_atomic_with;
use crate::cases_file;
use crate::error::{HarnessError, Result};
use crate::replay_summary::ReplaySummary;
use crate::results::RunResults;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;

pub struct ResultsJson;

impl Exporter for ResultsJson {
    fn file_name(&self) -> &'static str {
        "results.json"
    }

    /// The run as it is, its `cases_file` the one this report set writes.
    fn render(&self, run: &RunResults, context: &ReportContext<'_>) -> Result<Vec<u8>> {
        let internal =
            |e: serde_json::Error| HarnessError::Internal(format!("serialising results: {e}"));
        let mut doc = serde_json::to_value(run).map_err(internal)?;
        doc["cases_file"] = cases_file::name(context.compress).into();
        let mut bytes = serde_json::to_vec_pretty(&doc).map_err(internal)?;
        bytes.push(b'\n');
        Ok(bytes)
    }
}

/// Cases a replay's results.json holds itself; past this many it leaves `cases` out and
/// names its `cases_file` alone, so a million-trace replay does not write its cases twice.
pub const INLINE_CASES_MAX: usize = 100_000;

/// A replay's results.json: the head ([`replay_head`]: the header, summary, clusters, bad
/// lines and `cases_file`), then the `cases` array copied line by line from the cases.jsonl
/// spool (when there are at most [`INLINE_CASES_MAX`] of them).
pub struct ReplayResultsJson;

impl Exporter<ReplayReport> for ReplayResultsJson {
    fn file_name(&self) -> &'static str {
        "results.json"
    }

    fn render(&self, r: &ReplayReport, context: &ReportContext<'_>) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        write_replay_results(r, context, &mut out)
            .map_err(|e| HarnessError::Internal(format!("serialising results: {e}")))?;
        Ok(out)
    }

    /// Streams: the head, then each spooled case.
    fn publish(&self, r: &ReplayReport, context: &ReportContext<'_>, path: &Path) -> Result<()> {
        write_atomic_with(path, |w| write_replay_results(r, context, w))
    }
}

fn write_replay_results(
    r: &ReplayReport,
    _: &ReportContext<'_>,
    w: &mut impl Write,
) -> std::io::Result<()> {
    let inline = r.spools.cases <= INLINE_CASES_MAX;
    let head = replay_head(&r.summary, cases_file::name(r.spools.compress))
        .map_err(std::io::Error::other)?;
    w.write_all(head.as_bytes())?;
    if !inline {
        return w.write_all(b"\n}\n");
    }
    w.write_all(b",\n  \"cases\": [")?;
    let file = File::open(&r.spools.cases_jsonl)?;
    let mut lines: Box<dyn BufRead> = if r.spools.compress {
        Box::new(BufReader::new(flate2::read::MultiGzDecoder::new(file)))
    } else {
        Box::new(BufReader::with_capacity(256 * 1024, file))
    };
    let mut line = Vec::with_capacity(4096);
    let mut first = true;
    loop {
        line.clear();
        if lines.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        let case = line.strip_suffix(b"\n").unwrap_or(&line);
        w.write_all(if first { b"\n    " } else { b",\n    " })?;
        w.write_all(case)?;
        first = false;
    }
    w.write_all(b"\n  ]\n}\n")
}

/// The head of a replay's results.json: the header fields, `summary`, `clusters`,
/// `bad_lines` and `cases_file` (the cases.jsonl beside it, which holds every case whether
/// or not `cases` follows), pretty-printed and left open after the last of them.
fn replay_head(r: &ReplaySummary, cases_file: &str) -> Result<String> {
    let internal =
        |e: serde_json::Error| HarnessError::Internal(format!("serialising results: {e}"));
    let mut head = serde_json::to_value(&r.header).map_err(internal)?;
    head["summary"] = r.summary.clone();
    head["clusters"] = serde_json::to_value(&r.groups).map_err(internal)?;
    head["bad_lines"] = serde_json::to_value(&r.bad_examples).map_err(internal)?;
    head["cases_file"] = cases_file.into();
    let head = serde_json::to_string_pretty(&head).map_err(internal)?;
    Ok(head.trim_end().trim_end_matches('}').trim_end().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::{CaseResult, Status, TraceOutcome, Transition};
    use crate::replay_summary::ReplayHeader;
    use crate::report::replay_document::CaseSpools;
    use crate::results::{Machine, ResultsDocument};

    fn report(dir: &Path, cases: &[CaseResult], counted: usize) -> ReplayReport {
        let spool = dir.join("spool.jsonl");
        let mut lines = Vec::new();
        for c in cases {
            crate::report::jsonl::case_line(c, &mut lines).unwrap();
        }
        std::fs::write(&spool, lines).unwrap();
        let header = ReplayHeader {
            schema: "results.schema.json".into(),
            kind: "replay".into(),
            command: "replay".into(),
            findbench_version: "0".into(),
            engine_version: "0".into(),
            git_revision: None,
            profile: "default".into(),
            machine: Machine::current(),
            build: "debug".into(),
            threads: 1,
            started_at: "2026-01-01T00:00:00Z".into(),
            duration_ms: 1.0,
            inputs: vec!["t.jsonl".into()],
            input_files: 1,
            fixtures: "f".into(),
            query: None,
            shard: None,
            gate: None,
        };
        ReplayReport {
            summary: ReplaySummary {
                header,
                summary: serde_json::json!({"total": counted, "passed": counted, "failed": 0,
                    "xfail": 0, "xpass": 0, "pass_rate": 1.0, "insufficient_evidence_rate": 0.0}),
                groups: Vec::new(),
                outcomes: Vec::new(),
                replayed: counted,
                files: 1,
                bad_lines: 0,
                bad_examples: Vec::new(),
            },
            latencies_ms: Vec::new(),
            spools: CaseSpools {
                cases_jsonl: spool.clone(),
                cases_csv: spool.clone(),
                junit: spool,
                cases: counted,
                compress: false,
            },
        }
    }

    fn case(id: &str, index: u64) -> CaseResult {
        CaseResult {
            id: id.into(),
            status: Status::Pass,
            outcome: "success".into(),
            recorded_outcome: Some(TraceOutcome::Success),
            transition: Some(Transition::Unchanged),
            input_index: Some(index),
            ..CaseResult::default()
        }
    }

    #[test]
    fn past_the_inline_limit_results_json_names_its_cases_file_alone() {
        let dir = tempfile::tempdir().unwrap();
        let cases = [case("a", 1), case("b", 2)];
        let context = ReportContext::default();
        // within the limit: the cases follow the head, as cases.jsonl holds them
        let small = report(dir.path(), &cases, cases.len());
        let doc: serde_json::Value =
            serde_json::from_slice(&ReplayResultsJson.render(&small, &context).unwrap()).unwrap();
        assert_eq!(doc["cases_file"], "cases.jsonl");
        assert_eq!(doc["cases"][1]["id"], "b");
        // past it: no `cases`, and a reader takes them from cases.jsonl beside it
        let mut big = report(dir.path(), &cases, cases.len());
        big.spools.cases = INLINE_CASES_MAX + 1;
        let bytes = ReplayResultsJson.render(&big, &context).unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert!(doc.get("cases").is_none(), "{doc}");
        let out = dir.path().join("out");
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join("results.json"), &bytes).unwrap();
        std::fs::copy(dir.path().join("spool.jsonl"), out.join("cases.jsonl")).unwrap();
        let read = ResultsDocument::read(&out).unwrap();
        assert_eq!(read.cases, cases);
        // a cases.jsonl short of the summary's count is refused by name
        std::fs::write(out.join("cases.jsonl"), "").unwrap();
        let e = ResultsDocument::read(&out).unwrap_err().to_string();
        assert!(e.contains("0 cases where its results.json counts 2"), "{e}");
    }
}
