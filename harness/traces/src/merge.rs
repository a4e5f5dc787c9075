//! `findbench merge` of `replay --shard K/N --out DIR` directories: the shards' cases put
//! back in input order (`input_index`), the totals recounted from them, and the reports
//! written by the same [`ReportWriter`] an unsharded replay uses, as one report set. The
//! checks are findbench-eval's (`merge::check_shards`, `merge::check_same`); every shard
//! read every line, so bad lines and file counts are taken from the first and must agree.
//!
//! Each shard's cases are already in input order, so they are merged as streams (the
//! smallest `input_index` first): a shard's cases.jsonl is read a line at a time, and the
//! merge holds one case per shard and one batch for the writer, whatever the trace set.
//! Shards written before cases.jsonl existed have their cases read from results.json
//! (either form, findbench-eval's `case_codec`).

use crate::error::{Result, TracesError};
use crate::replay::report::{ReplayHeader, ReportWriter};
use crate::replay::totals::ReplayTotals;
use findbench_eval::case_codec::{decode_cases, CaseWire};
use findbench_eval::cases_file::{self, incomplete, CasesReader};
use findbench_eval::error::{HarnessError, Origin};
use findbench_eval::merge::{check_same, check_shards};
use findbench_eval::report::REPORT_FILE_NAMES;
use findbench_eval::report_set::ReportSet;
use findbench_eval::results::{not_results, CaseResult};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The head of one shard's results.json: everything but its cases.
#[derive(Debug, Deserialize)]
struct Head {
    #[serde(flatten)]
    header: ReplayHeader,
    summary: serde_json::Value,
    #[serde(default)]
    bad_lines: Vec<String>,
    #[serde(default)]
    cases_file: Option<String>,
}

/// A results.json written before cases.jsonl: its cases in either form.
#[derive(Deserialize)]
struct OldCases {
    #[serde(default)]
    case_defaults: Option<CaseWire>,
    #[serde(default)]
    answers: Vec<CaseWire>,
    cases: Vec<CaseWire>,
}

/// Where one shard's cases come from.
enum Cases {
    File(Box<CasesReader>),
    Held(std::vec::IntoIter<CaseResult>),
}

/// One shard: its head, and its cases as a stream in input order.
struct Shard {
    dir: PathBuf,
    head: Head,
    cases: Cases,
    /// The case the stream is at, taken by the merge.
    next: Option<CaseResult>,
    /// The `input_index` of the last case read, and how many were read.
    last_index: Option<u64>,
    read: usize,
}

fn read_head(file: &Path) -> Result<Head> {
    let f = std::fs::File::open(file)
        .map_err(|e| TracesError::file(file, format!("cannot read shard results: {e}")))?;
    // read through, the cases skipped: a shard's results.json may hold 100,000 of them
    serde_json::from_reader(std::io::BufReader::with_capacity(256 * 1024, f)).map_err(|e| {
        if e.is_io() {
            TracesError::file(file, format!("cannot read shard results: {e}"))
        } else {
            TracesError::Eval(not_results(file, &e))
        }
    })
}

impl Shard {
    fn open(dir: &Path) -> Result<Shard> {
        let file = dir.join("results.json");
        let head = read_head(&file)?;
        let cases = match &head.cases_file {
            Some(name) => Cases::File(Box::new(CasesReader::open(&dir.join(name))?)),
            None => {
                let bytes = std::fs::read(&file).map_err(|e| {
                    TracesError::file(&file, format!("cannot read shard results: {e}"))
                })?;
                let old: OldCases = serde_json::from_slice(&bytes)
                    .map_err(|e| TracesError::Eval(not_results(&file, &e)))?;
                let cases = decode_cases(old.case_defaults, old.answers, old.cases)
                    .map_err(|e| TracesError::Eval(incomplete(Origin::file(&file), e)))?;
                Cases::Held(cases.into_iter())
            }
        };
        let mut shard = Shard {
            dir: dir.to_path_buf(),
            head,
            cases,
            next: None,
            last_index: None,
            read: 0,
        };
        shard.advance()?;
        Ok(shard)
    }

    /// Where the shard's cases are, for an error.
    fn origin(&self) -> Origin {
        match &self.cases {
            Cases::File(r) => Origin::at(r.path(), r.line(), None),
            Cases::Held(_) => Origin::file(&self.dir.join("results.json")),
        }
    }

    /// Reads the shard's next case into `next`, checking that input order holds and that
    /// the shard ends with as many cases as its results.json counts.
    fn advance(&mut self) -> Result<()> {
        let case = match &mut self.cases {
            Cases::File(r) => r.next_case()?,
            Cases::Held(cases) => cases.next(),
        };
        let previous = self.last_index;
        match &case {
            Some(c) => {
                self.read += 1;
                self.last_index = c.input_index;
                if c.input_index < previous {
                    return Err(TracesError::Eval(incomplete(
                        self.origin(),
                        format!(
                            "case `{}` (input_index {:?}) comes after input_index {:?}: cases are not in input order",
                            c.id, c.input_index, previous
                        ),
                    )));
                }
            }
            None => {
                let total = self.head.summary["total"].as_u64().map(|n| n as usize);
                if total.is_some_and(|n| n != self.read) {
                    return Err(TracesError::Eval(incomplete(
                        self.origin(),
                        format!(
                            "{} cases where its results.json counts {}",
                            self.read,
                            total.unwrap_or_default()
                        ),
                    )));
                }
            }
        }
        self.next = case;
        Ok(())
    }
}

/// What a merge of replay shards gives: the merged header (with the shards' gate
/// settings), the totals, and the files written.
pub struct MergedReplay {
    pub header: ReplayHeader,
    pub totals: ReplayTotals,
    pub written: Vec<PathBuf>,
}

/// Joins replay shards into `out`.
pub fn merge_replays(dirs: &[PathBuf], out: &Path) -> Result<MergedReplay> {
    let mut shards: Vec<Shard> = dirs.iter().map(|d| Shard::open(d)).collect::<Result<_>>()?;
    check_shards(
        &shards
            .iter()
            .map(|s| (s.dir.clone(), s.head.header.shard))
            .collect::<Vec<_>>(),
    )?;
    let field = |f: &dyn Fn(&Head) -> String| -> Vec<(PathBuf, String)> {
        shards.iter().map(|s| (s.dir.clone(), f(&s.head))).collect()
    };
    check_same("kind", &field(&|h| h.header.kind.clone()))?;
    check_same(
        "engine version",
        &field(&|h| h.header.engine_version.clone()),
    )?;
    check_same(
        "findbench version",
        &field(&|h| h.header.findbench_version.clone()),
    )?;
    check_same(
        "git revision",
        &field(&|h| {
            h.header
                .git_revision
                .clone()
                .unwrap_or_else(|| "unknown".into())
        }),
    )?;
    check_same("profile", &field(&|h| h.header.profile.clone()))?;
    check_same("trace inputs", &field(&|h| h.header.inputs.join(", ")))?;
    check_same("fixtures", &field(&|h| h.header.fixtures.clone()))?;
    check_same(
        "--query",
        &field(&|h| h.header.query.clone().unwrap_or_default()),
    )?;
    check_same(
        "bad trace lines",
        &field(&|h| h.summary["bad_lines"].to_string()),
    )?;
    check_same(
        "gate (thresholds, --exit-zero)",
        &field(&|h| {
            serde_json::to_string(&h.header.gate.clone().unwrap_or_default()).unwrap_or_default()
        }),
    )?;
    check_same(
        "--out-compress (cases file)",
        &field(&|h| h.cases_file.clone().unwrap_or_default()),
    )?;
    // ties (none in this version's shards) keep shard order
    shards.sort_by_key(|s| s.head.header.shard.map(|s| s.index));

    let first = &shards[0].head;
    let mut header = first.header.clone();
    let mut totals = ReplayTotals::default();
    totals.rank.k = header.gate.as_ref().and_then(|g| g.hit_k);
    totals.files = header.input_files;
    totals.bad_lines = first.summary["bad_lines"].as_u64().unwrap_or(0) as usize;
    totals.bad_examples = first.bad_lines.clone();
    totals.per_search = first.summary["counted_by"] == "search";
    let compress = first
        .cases_file
        .as_deref()
        .is_some_and(|f| f == cases_file::name(true));
    for s in &shards[1..] {
        let h = &s.head.header;
        header.threads = header.threads.max(h.threads);
        header.duration_ms = header.duration_ms.max(h.duration_ms);
        header.started_at = header.started_at.clone().min(h.started_at.clone());
    }
    header.shard = None;

    let set = ReportSet::begin(out, &REPORT_FILE_NAMES)?;
    let mut writer = ReportWriter::create(set.path(), compress)?;
    let mut batch = Vec::with_capacity(crate::replay::BATCH);
    // the shard whose next case comes first in the input, until every shard is read
    while let Some(at) = shards
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.next.as_ref().map(|c| (c.input_index, i)))
        .min()
        .map(|(_, i)| i)
    {
        let case = shards[at].next.take().expect("a shard at a case");
        shards[at].advance()?;
        totals.add(&case);
        batch.push(case);
        if batch.len() == crate::replay::BATCH {
            writer.push(std::mem::replace(
                &mut batch,
                Vec::with_capacity(crate::replay::BATCH),
            ))?;
        }
    }
    if !batch.is_empty() {
        writer.push(batch)?;
    }
    totals.traces = totals.replayed;
    let written = writer
        .finish(&header, &totals)?
        .iter()
        .map(|p| set.final_path(p))
        .collect();
    set.commit()
        .map_err(|e| TracesError::Eval(HarnessError::from(e)))?;
    Ok(MergedReplay {
        header,
        totals,
        written,
    })
}
