//! `findbench compare BEFORE AFTER [--out FILE]`: the before/after release report of two
//! results.json files (markdown, with CSV beside it); `compare RESULTS --engines A,B`
//! compares two engines of one `run --engine` (on the cases both ran), and
//! `--engine-before X` / `--engine-after Y` pick an engine of each of two runs.

use super::shared_args::OutputArgs;
use crate::output::Format;
use clap::Args;
use findbench_eval::compare::{compare, load};
use findbench_eval::engines::select;
use findbench_eval::envelope::{self, Meta};
use findbench_eval::error::{exit, HarnessError};
use findbench_eval::report::compare_markdown::CompareMarkdown;
use findbench_eval::report::{self, console, Exporter, ReportContext};
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
    let result = (|| -> Result<_, HarnessError> {
        let before = load(&args.before)?;
        let (before, after, after_path) = match (&args.after, args.engines.as_slice()) {
            (None, [a, b]) => {
                let (x, y) = select::pair(&before, a, b).map_err(HarnessError::invalid)?;
                (x, y, args.before.clone())
            }
            (None, _) => {
                return Err(HarnessError::invalid(format!(
                    "compare needs AFTER, or --engines A,B to compare two engines of one run \
                     (engines in {}: {})",
                    args.before.display(),
                    select::engine_names(&before).join(", ")
                )))
            }
            (Some(_), e) if !e.is_empty() => {
                return Err(HarnessError::invalid(
                    "--engines compares two engines of one results file; with two files use --engine-before and --engine-after",
                ))
            }
            (Some(path), _) => {
                let after = load(path)?;
                let pick = |doc, name: &Option<String>| match name {
                    Some(n) => select::select(doc, n).map_err(HarnessError::invalid),
                    None => Ok(doc.clone()),
                };
                (
                    pick(&before, &args.engine_before)?,
                    pick(&after, &args.engine_after)?,
                    path.clone(),
                )
            }
        };
        // a corpus run and a trace replay hold different cases: compared, every case would
        // read as added or removed
        if let (Some(b), Some(a)) = (&before.kind, &after.kind) {
            if a != b {
                return Err(HarnessError::invalid(format!(
                    "{} is the results of a `{b}` and {} of a `{a}`: compare two runs of \
                     the same kind (run with run, replay with replay)",
                    args.before.display(),
                    after_path.display()
                )));
            }
        }
        let cmp = compare(&before, &after, &args.before, &after_path);
        let written = match &args.out {
            Some(md) => report::write_compare(md, &cmp)?,
            None => Vec::new(),
        };
        Ok((cmp, written))
    })();
    match result {
        Ok((cmp, written)) => {
            match args.output.format.resolve() {
                Format::Json | Format::Jsonl => {
                    let meta = Meta::new("compare", started, clock.elapsed());
                    let value = serde_json::to_value(&cmp).unwrap_or_default();
                    crate::output::outln!(
                        "{}",
                        envelope::success("compare.schema.json", &meta, value)
                    );
                }
                _ => match &args.out {
                    Some(_) => {
                        crate::output::out!("{}", console::compare_headline(&cmp));
                        if !args.output.quiet {
                            crate::output::outln!("wrote {}", listed(&written));
                        }
                    }
                    None => match CompareMarkdown.render(&cmp, &ReportContext::default()) {
                        Ok(md) => crate::output::out!("{}", String::from_utf8_lossy(&md)),
                        Err(err) => {
                            return super::report_error::report_error(
                                &args.output,
                                "compare",
                                started,
                                clock,
                                &err,
                            )
                        }
                    },
                },
            }
            exit::OK
        }
        Err(err) => {
            super::report_error::report_error(&args.output, "compare", started, clock, &err)
        }
    }
}

/// `a, b and c`: the files written, as the headline names them.
fn listed(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}
