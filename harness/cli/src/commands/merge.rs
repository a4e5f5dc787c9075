//! `findbench merge SHARD_DIR... --out DIR`: joins the results of `run --shard K/N` or
//! `replay --shard K/N --out` directories into the reports one machine would have written
//! (timing aside), and gates them as that one machine would have: the gate settings each
//! shard recorded (thresholds, `--exit-zero`, `run`'s `--baseline` and each corpus's `gate`
//! section), the same gate lines, the same exit code.

use crate::output::{out, outln, Format};
use clap::Args;
use findbench_eval::error::{CodedError, HarnessError};
use findbench_eval::merge::{merge_runs, results_kind};
use findbench_eval::results::ResultsDocument;
use findbench_traces::error::TracesError;
use findbench_traces::merge::merge_replays;
use std::path::PathBuf;
use std::time::{Instant, SystemTime};

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard directories (each holding the results.json a sharded run or replay wrote).
    #[arg(required = true, value_name = "SHARD_DIR")]
    pub shards: Vec<PathBuf>,
    /// Directory the merged reports are written to.
    #[arg(
        long,
        short = 'o',
        default_value = "reports/merged",
        value_name = "DIR"
    )]
    pub out: PathBuf,
    /// Print only the gate lines and errors.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

pub fn run(args: MergeArgs) -> i32 {
    let started = SystemTime::now();
    let clock = Instant::now();
    match merge(&args, started, clock) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            if let Some(hint) = e.hint() {
                eprintln!("hint: {hint}");
            }
            e.exit_code()
        }
    }
}

fn merge(args: &MergeArgs, started: SystemTime, clock: Instant) -> Result<i32, TracesError> {
    let kinds: Vec<(PathBuf, String)> = args
        .shards
        .iter()
        .map(|d| results_kind(d).map(|k| (d.clone(), k)))
        .collect::<Result<_, HarnessError>>()?;
    findbench_eval::merge::check_same("kind", &kinds)?;
    if kinds[0].1 == "replay" {
        let merged = merge_replays(&args.shards, &args.out)?;
        let verdict = super::replay::replay_verdict(&merged.header, &merged.totals);
        if !args.quiet {
            out!("merged {} shards\n\n", args.shards.len());
            let groups = merged.totals.groups();
            out!(
                "{}",
                super::replay::text(
                    &merged.header,
                    &merged.totals,
                    &groups,
                    &merged.written,
                    false,
                    false
                )
            );
        }
        if let Some(verdict) = &verdict {
            outln!();
            for line in verdict.lines() {
                outln!("{line}");
            }
        }
        return Ok(super::replay::replay_exit_code(
            &merged.header,
            verdict.as_ref(),
        ));
    }
    let run = merge_runs(&args.shards)?;
    let baseline = match run.gate.as_ref().and_then(|g| g.baseline.as_ref()) {
        Some(path) => Some(ResultsDocument::read(std::path::Path::new(path))?),
        None => None,
    };
    let compress = run
        .cases_file
        .as_deref()
        .is_some_and(|f| f == findbench_eval::cases_file::name(true));
    let heading = format!("merged {} shards\n\n", args.shards.len());
    let output = super::run::RunOutput {
        out: &args.out,
        compress,
        format: Format::Text,
        quiet: args.quiet,
        step_summary: false,
        heading: &heading,
        command: "merge",
        started,
        clock,
    };
    Ok(super::run::finish_run(&run, baseline.as_ref(), &output)?)
}
