//! `findbench compare BEFORE AFTER [--out FILE]`: the before/after release report of two
//! results.json files (markdown, with CSV beside it).

use super::OutputArgs;
use crate::output::Format;
use clap::Args;
use findbench_engine::EngineError;
use findbench_eval::atomic_file::write_atomic;
use findbench_eval::compare::{compare, csv_path, load};
use findbench_eval::envelope::{self, Meta};
use std::path::PathBuf;
use std::time::{Instant, SystemTime};

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// results.json of the earlier run (`run` or `replay`).
    pub before: PathBuf,
    /// results.json of the later run.
    pub after: PathBuf,
    /// Write the markdown report to FILE and the CSV beside it (FILE with `.csv`); the
    /// headline still goes to stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: CompareArgs) -> i32 {
    let started = SystemTime::now();
    let clock = Instant::now();
    let result = (|| -> Result<_, EngineError> {
        let before = load(&args.before)?;
        let after = load(&args.after)?;
        let cmp = compare(&before, &after, &args.before, &args.after);
        if let Some(md) = &args.out {
            write_atomic(md, cmp.markdown().as_bytes())?;
            write_atomic(&csv_path(md), cmp.csv().as_bytes())?;
        }
        Ok(cmp)
    })();
    match result {
        Ok(cmp) => {
            match args.output.format.resolve() {
                Format::Json | Format::Jsonl => {
                    let meta = Meta::new("compare", started, clock.elapsed());
                    let value = serde_json::to_value(&cmp).unwrap_or_default();
                    println!("{}", envelope::success("compare.schema.json", &meta, value));
                }
                _ => match &args.out {
                    Some(md) => {
                        print!("{}", cmp.headline());
                        if !args.output.quiet {
                            println!("wrote {} and {}", md.display(), csv_path(md).display());
                        }
                    }
                    None => print!("{}", cmp.markdown()),
                },
            }
            0
        }
        Err(err) => super::report_error(&args.output, "compare", started, clock, &err),
    }
}
