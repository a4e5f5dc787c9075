//! `findbench merge` of `replay --shard K/N --out DIR` directories: the shards' cases put
//! back in input order (`input_index`), the totals recounted from them, and the reports
//! written by the same [`ReportWriter`] an unsharded replay uses. The checks are
//! findbench-eval's (`merge::check_shards`, `merge::check_same`); every shard read every
//! line, so bad lines and file counts are taken from the first and must agree.

use crate::error::{Result, TracesError};
use crate::replay_report::{ReplayHeader, ReportWriter};
use crate::replay_totals::ReplayTotals;
use findbench_eval::case_codec::{decode_cases, CaseWire};
use findbench_eval::error::HarnessError;
use findbench_eval::merge::{check_same, check_shards};
use findbench_eval::results::CaseResult;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// One shard's results.json of a replay, its cases in either form (findbench-eval's
/// `case_codec`).
#[derive(Debug, Deserialize)]
struct DocumentWire {
    #[serde(flatten)]
    header: ReplayHeader,
    summary: serde_json::Value,
    #[serde(default)]
    bad_lines: Vec<String>,
    #[serde(default)]
    case_defaults: Option<CaseWire>,
    #[serde(default)]
    answers: Vec<CaseWire>,
    cases: Vec<CaseWire>,
}

/// One shard's results.json of a replay.
#[derive(Debug)]
struct ReplayDocument {
    header: ReplayHeader,
    summary: serde_json::Value,
    bad_lines: Vec<String>,
    cases: Vec<CaseResult>,
}

fn read(dir: &Path) -> Result<ReplayDocument> {
    let file = dir.join("results.json");
    let invalid = |e: String| {
        TracesError::Eval(HarnessError::invalid(format!(
            "{}: not a replay results.json: {e}",
            file.display()
        )))
    };
    let bytes = std::fs::read(&file)
        .map_err(|e| TracesError::file(&file, format!("cannot read shard results: {e}")))?;
    let wire: DocumentWire = serde_json::from_slice(&bytes).map_err(|e| invalid(e.to_string()))?;
    drop(bytes);
    Ok(ReplayDocument {
        cases: decode_cases(wire.case_defaults, wire.answers, wire.cases).map_err(invalid)?,
        header: wire.header,
        summary: wire.summary,
        bad_lines: wire.bad_lines,
    })
}

/// Joins replay shards into `out`; returns the merged header, totals and the files written.
pub fn merge_replays(
    dirs: &[PathBuf],
    out: &Path,
) -> Result<(ReplayHeader, ReplayTotals, Vec<PathBuf>)> {
    let docs: Vec<(PathBuf, ReplayDocument)> = dirs
        .iter()
        .map(|d| read(d).map(|r| (d.clone(), r)))
        .collect::<Result<_>>()?;
    check_shards(
        &docs
            .iter()
            .map(|(d, r)| (d.clone(), r.header.shard))
            .collect::<Vec<_>>(),
    )?;
    let field = |f: &dyn Fn(&ReplayDocument) -> String| -> Vec<(PathBuf, String)> {
        docs.iter().map(|(d, r)| (d.clone(), f(r))).collect()
    };
    check_same("kind", &field(&|r| r.header.kind.clone()))?;
    check_same(
        "engine version",
        &field(&|r| r.header.engine_version.clone()),
    )?;
    check_same(
        "findbench version",
        &field(&|r| r.header.findbench_version.clone()),
    )?;
    check_same(
        "git revision",
        &field(&|r| {
            r.header
                .git_revision
                .clone()
                .unwrap_or_else(|| "unknown".into())
        }),
    )?;
    check_same("profile", &field(&|r| r.header.profile.clone()))?;
    check_same("trace inputs", &field(&|r| r.header.inputs.join(", ")))?;
    check_same("fixtures", &field(&|r| r.header.fixtures.clone()))?;
    check_same(
        "--query",
        &field(&|r| r.header.query.clone().unwrap_or_default()),
    )?;
    check_same(
        "bad trace lines",
        &field(&|r| r.summary["bad_lines"].to_string()),
    )?;

    let mut iter = docs.into_iter().map(|(_, r)| r);
    let first = iter.next().expect("check_shards saw one");
    let mut header = first.header;
    let mut totals = ReplayTotals::default();
    totals.files = header.input_files;
    totals.bad_lines = first.summary["bad_lines"].as_u64().unwrap_or(0) as usize;
    totals.bad_examples = first.bad_lines;
    let mut cases = first.cases;
    for r in iter {
        header.threads = header.threads.max(r.header.threads);
        header.duration_ms = header.duration_ms.max(r.header.duration_ms);
        header.started_at = header.started_at.min(r.header.started_at);
        cases.extend(r.cases);
    }
    header.shard = None;
    // input order, as one replay would have written them
    cases.sort_by_key(|c| c.input_index);
    let mut writer = ReportWriter::create(out)?;
    let mut cases = cases.into_iter().peekable();
    while cases.peek().is_some() {
        let batch: Vec<CaseResult> = cases.by_ref().take(crate::replay::BATCH).collect();
        for case in &batch {
            totals.add(case);
        }
        writer.push(batch)?;
    }
    totals.traces = totals.replayed;
    let written = writer.finish(&header, &totals)?;
    Ok((header, totals, written))
}
