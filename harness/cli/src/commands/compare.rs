//! `findbench compare BEFORE AFTER [--out FILE]`: the before/after release report of two
//! results.json files (markdown, with CSV beside it); `compare RESULTS --engines A,B`
//! compares two engines of one `run --engine` (on the cases both ran), and
//! `--engine-before X` / `--engine-after Y` pick an engine of each of two runs.

use super::OutputArgs;
use crate::output::Format;
use clap::Args;
use findbench_engine::EngineError;
use findbench_eval::atomic_file::write_atomic;
use findbench_eval::compare::{compare, csv_path, load};
use findbench_eval::engines::select;
use findbench_eval::envelope::{self, Meta};
use std::path::PathBuf;
use std::time::{Instant, SystemTime};

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// results.json of the earlier run (`run` or `replay`).
    pub before: PathBuf,
    /// results.json of the later run (omit with --engines to compare two engines of BEFORE).
    pub after: Option<PathBuf>,
    /// Two engines of one `run --engine` results (`--engines findbench,rg`): the first is
    /// "before", the second "after", on the cases both ran.
    #[arg(long, value_delimiter = ',', value_name = "A,B", conflicts_with_all = ["engine_before", "engine_after"])]
    pub engines: Vec<String>,
    /// The engine of BEFORE to compare (default: its primary engine).
    #[arg(long, value_name = "NAME")]
    pub engine_before: Option<String>,
    /// The engine of AFTER to compare (default: its primary engine).
    #[arg(long, value_name = "NAME")]
    pub engine_after: Option<String>,
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
        let (before, after, after_path) = match (&args.after, args.engines.as_slice()) {
            (None, [a, b]) => {
                let (x, y) = select::pair(&before, a, b).map_err(EngineError::invalid)?;
                (x, y, args.before.clone())
            }
            (None, _) => {
                return Err(EngineError::invalid_with_hint(
                    "compare needs AFTER, or --engines A,B to compare two engines of one run",
                    format!(
                        "engines in {}: {}",
                        args.before.display(),
                        select::engine_names(&before).join(", ")
                    ),
                ))
            }
            (Some(_), e) if !e.is_empty() => {
                return Err(EngineError::invalid(
                    "--engines compares two engines of one results file; with two files use --engine-before and --engine-after",
                ))
            }
            (Some(path), _) => {
                let after = load(path)?;
                let pick = |doc, name: &Option<String>| match name {
                    Some(n) => select::select(doc, n).map_err(EngineError::invalid),
                    None => Ok(doc.clone()),
                };
                (
                    pick(&before, &args.engine_before)?,
                    pick(&after, &args.engine_after)?,
                    path.clone(),
                )
            }
        };
        let cmp = compare(&before, &after, &args.before, &after_path);
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
