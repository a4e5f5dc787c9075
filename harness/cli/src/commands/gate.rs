//! `findbench gate RESULTS`: thresholds and a baseline turned into an exit code, one line
//! per reason. Also the threshold options `run` shares.

use crate::output::{outln, Format};
use clap::Args;
use findbench_eval::baseline;
use findbench_eval::envelope::{self, Meta};
use findbench_eval::error::{HarnessError, Result};
use findbench_eval::gate;
use findbench_eval::gate_settings::{Thresholds, Verdict};
use findbench_eval::results::{ResultsDocument, RunResults};
use std::path::PathBuf;
use std::time::{Instant, SystemTime};

/// Gate thresholds on the whole run; each corpus's `gate` section adds its suite's own.
#[derive(Debug, Clone, Default, Args)]
pub struct ThresholdArgs {
    /// Fail below this pass rate (0-1), counting known failures against it.
    #[arg(long, value_name = "RATE")]
    pub min_pass_rate: Option<f64>,
    /// Fail above this insufficient_evidence rate (0-1). `--max-ie-rate` is the same.
    #[arg(
        long = "max-insufficient-evidence-rate",
        visible_alias = "max-ie-rate",
        value_name = "RATE"
    )]
    pub max_insufficient_evidence_rate: Option<f64>,
    /// Fail when the 95th percentile latency is above this many milliseconds.
    #[arg(long, value_name = "MS")]
    pub max_p95_ms: Option<f64>,
    /// Fail when more cases than this fail unexpectedly (default 0 unless a corpus sets it).
    #[arg(long, value_name = "N")]
    pub max_failed: Option<usize>,
    /// Fail when fewer than this share (0-1) of the cases naming expected files have one in
    /// the top k.
    #[arg(long, value_name = "RATE")]
    pub min_hit_at_k: Option<f64>,
    /// Fail below this mean reciprocal rank (0-1) of the first expected file.
    #[arg(long, value_name = "RATE")]
    pub min_mrr: Option<f64>,
    /// Fail when fewer than this share (0-1) of the cases naming expected files find the
    /// first within 4 KB of the answer.
    #[arg(long, value_name = "RATE")]
    pub min_recall_at_4kb: Option<f64>,
    /// Fail a suite whose latency exceeds a budget its corpus states (`budget: {p95_ms,
    /// per_1000_items_ms}`); without it budgets are reported, since they are one machine's
    /// figures.
    #[arg(long)]
    pub gate_budgets: bool,
}

impl ThresholdArgs {
    pub fn thresholds(&self) -> Result<Thresholds> {
        for (name, v) in [
            ("--min-pass-rate", self.min_pass_rate),
            (
                "--max-insufficient-evidence-rate",
                self.max_insufficient_evidence_rate,
            ),
            ("--min-hit-at-k", self.min_hit_at_k),
            ("--min-mrr", self.min_mrr),
            ("--min-recall-at-4kb", self.min_recall_at_4kb),
        ] {
            if let Some(v) = v {
                if !(0.0..=1.0).contains(&v) {
                    return Err(HarnessError::invalid(format!(
                        "{name} {v} is outside 0..1 (a rate: 0.95 is 95%)"
                    )));
                }
            }
        }
        if let Some(v) = self.max_p95_ms {
            if !(v >= 0.0 && v.is_finite()) {
                return Err(HarnessError::invalid(format!(
                    "--max-p95-ms {v} must be a positive number of milliseconds"
                )));
            }
        }
        Ok(Thresholds {
            min_pass_rate: self.min_pass_rate,
            max_insufficient_evidence_rate: self.max_insufficient_evidence_rate,
            max_p95_ms: self.max_p95_ms,
            max_failed: self.max_failed,
            min_hit_at_k: self.min_hit_at_k,
            min_mrr: self.min_mrr,
            min_recall_at_4kb: self.min_recall_at_4kb,
            gate_budgets: self.gate_budgets.then_some(true),
        })
    }
}

#[derive(Debug, Args)]
pub struct GateArgs {
    /// `text` (the default): one line per reason and the verdict; `json`: the verdict with
    /// each check; `auto` is text on a terminal and JSON otherwise.
    #[arg(long, short = 'f', value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// A results.json written by `findbench run` or `findbench replay` (or its directory).
    pub results: PathBuf,
    /// Also fail on every case that held in this baseline results.json (of `run` or
    /// `replay`) and does not now, and on any regression larger than the noise (pass/fail
    /// and outcome flips by exact McNemar; latency p50/p95 by paired bootstrap, beyond the
    /// noise and more than 25% slower, when both ran on one machine instance and build).
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Gate latency against --baseline even when it was recorded on another machine
    /// instance or build.
    #[arg(long)]
    pub gate_latency: bool,
    #[command(flatten)]
    pub thresholds: ThresholdArgs,
}

pub fn run(args: GateArgs) -> i32 {
    let started = SystemTime::now();
    let clock = Instant::now();
    match gate_command(&args, started, clock) {
        Ok(code) => code,
        Err(e) => {
            super::report_error::report_harness_error(args.format, "gate", started, clock, &e)
        }
    }
}

/// The verdict as JSON: passed, the checks run and failed, one line per failure and note.
pub fn verdict_json(verdict: &Verdict) -> serde_json::Value {
    serde_json::json!({
        "passed": verdict.passed(),
        "checks": verdict.checks,
        "failed_checks": verdict.failed_checks,
        "failures": verdict.failures,
        "notes": verdict.notes,
        "exit_code": verdict.exit_code(),
    })
}

/// Whether a results document names findbench's results schema (`$schema`).
fn written_by_findbench(doc: &ResultsDocument) -> bool {
    doc.schema
        .as_deref()
        .is_some_and(|s| s.ends_with(findbench_eval::results::RESULTS_SCHEMA))
}

fn gate_command(args: &GateArgs, started: SystemTime, clock: Instant) -> Result<i32> {
    let thresholds = args.thresholds.thresholds()?;
    // a corpus run is judged on everything it records (per-suite gates, unexpected
    // failures); any other results.json (a replay, a hand-made or older document) on what
    // every results.json has
    // a replay without a baseline is judged on its summary: its cases (a million, maybe)
    // are not read
    let head = ResultsDocument::read_head(&args.results)?;
    let doc = if head.kind.as_deref() == Some("replay") && args.baseline.is_none() {
        head
    } else {
        ResultsDocument::read(&args.results)?
    };
    let run = match doc.kind.as_deref() {
        Some("replay") => None,
        _ => match RunResults::read(&args.results) {
            Ok(run) => Some(run),
            // a run findbench wrote (its `$schema` says so) with a field of the wrong kind is
            // named, never passed over; an older one lacking fields, or a hand-made
            // document, is judged on what every results.json has
            Err(e) if written_by_findbench(&doc) && !e.to_string().contains("` is missing") => {
                return Err(e)
            }
            Err(_) => None,
        },
    };
    let diff = match &args.baseline {
        Some(path) => Some(baseline::diff(
            &ResultsDocument::read(path)?,
            &path.display().to_string(),
            &doc,
            args.gate_latency,
        )),
        None => None,
    };
    let verdict = match &run {
        Some(run) => gate::evaluate(run, &thresholds, diff.as_ref()),
        None => gate::evaluate_document(&doc, &thresholds, diff.as_ref()),
    };
    match args.format.resolve() {
        Format::Json | Format::Jsonl => {
            let meta = Meta::new("gate", started, clock.elapsed());
            let value = verdict_json(&verdict);
            outln!("{}", envelope::success("gate.schema.json", &meta, value));
        }
        _ => {
            for line in verdict.lines() {
                outln!("{line}");
            }
        }
    }
    Ok(verdict.exit_code())
}
