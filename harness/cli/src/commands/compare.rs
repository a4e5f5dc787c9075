//! `findbench compare BEFORE AFTER [--out FILE]`: the before/after release report of two
//! results.json files (markdown, with CSV beside it).

use super::OutputArgs;
use crate::output::Format;
use clap::Args;
use findbench_eval::compare::{compare, load};
use findbench_eval::envelope::{self, Meta};
use findbench_eval::error::HarnessError;
use findbench_eval::report::{self, console, markdown};
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
    let result = (|| -> Result<_, HarnessError> {
        let before = load(&args.before)?;
        let after = load(&args.after)?;
        // a corpus run and a trace replay hold different cases: compared, every case would
        // read as added or removed
        if let (Some(b), Some(a)) = (&before.kind, &after.kind) {
            if a != b {
                return Err(HarnessError::invalid(format!(
                    "{} is the results of a `{b}` and {} of a `{a}`: compare two runs of \
                     the same kind (run with run, replay with replay)",
                    args.before.display(),
                    args.after.display()
                )));
            }
        }
        let cmp = compare(&before, &after, &args.before, &args.after);
        if let Some(md) = &args.out {
            report::write_compare(md, &cmp)?;
        }
        Ok(cmp)
    })();
    match result {
        Ok(cmp) => {
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
                    Some(md) => {
                        crate::output::out!("{}", console::compare_headline(&cmp));
                        if !args.output.quiet {
                            crate::output::outln!(
                                "wrote {}, {} and {}",
                                md.display(),
                                report::compare_csv_path(md).display(),
                                report::compare_html_path(md).display()
                            );
                        }
                    }
                    None => crate::output::out!("{}", markdown::compare(&cmp)),
                },
            }
            0
        }
        Err(err) => super::report_error(&args.output, "compare", started, clock, &err),
    }
}
