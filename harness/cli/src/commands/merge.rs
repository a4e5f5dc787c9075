//! `findbench merge SHARD_DIR... --out DIR`: joins the results of `run --shard K/N` or
//! `replay --shard K/N --out` directories into the reports one machine would have written
//! (timing aside). Gate the merged results with `findbench gate DIR/results.json`.

use clap::Args;
use findbench_eval::error::{exit, CodedError, HarnessError};
use findbench_eval::merge::{merge_runs, results_kind};
use findbench_eval::report::{self, console, ReportContext};
use findbench_traces::error::TracesError;
use findbench_traces::merge::merge_replays;
use std::io::Write;
use std::path::PathBuf;

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
    /// Print only errors.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

pub fn run(args: MergeArgs) -> i32 {
    match merge(&args) {
        Ok(text) => {
            if !args.quiet {
                let mut stdout = std::io::stdout().lock();
                let _ = stdout.write_all(text.as_bytes());
                let _ = stdout.flush();
            }
            exit::OK
        }
        Err(e) => {
            eprintln!("error: {e}");
            if let Some(hint) = e.hint() {
                eprintln!("hint: {hint}");
            }
            e.exit_code()
        }
    }
}

fn merge(args: &MergeArgs) -> Result<String, TracesError> {
    let kinds: Vec<(PathBuf, String)> = args
        .shards
        .iter()
        .map(|d| results_kind(d).map(|k| (d.clone(), k)))
        .collect::<Result<_, HarnessError>>()?;
    findbench_eval::merge::check_same("kind", &kinds)?;
    let written = if kinds[0].1 == "replay" {
        let (_, totals, written) = merge_replays(&args.shards, &args.out)?;
        format!(
            "merged {} shards: {} traces replayed\n",
            args.shards.len(),
            totals.replayed
        ) + &names(&written)
    } else {
        let run = merge_runs(&args.shards)?;
        let written = report::write_reports(&args.out, &run, &ReportContext::default())?;
        format!("merged {} shards\n\n", args.shards.len())
            + &console::render(&run, None)
            + &names(&written)
    };
    Ok(written)
}

fn names(written: &[PathBuf]) -> String {
    written
        .iter()
        .map(|p| format!("wrote {}\n", p.display()))
        .collect()
}
