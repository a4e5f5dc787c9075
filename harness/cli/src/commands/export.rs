//! `findbench export trec RESULTS --out DIR`: a results.json (of `run`, `replay` or
//! `merge`) as TREC run and qrels files (`findbench_eval::report::trec`), for trec_eval,
//! ir_measures and ranx.

use crate::output::outln;
use clap::{Args, Subcommand};
use findbench_eval::engines::select;
use findbench_eval::error::{HarnessError, Result};
use findbench_eval::report::trec::{read_results, write_trec};
use findbench_eval::results::results_path;
use std::path::PathBuf;

#[derive(Debug, Subcommand)]
pub enum ExportCommand {
    /// `run.trec` (`qid Q0 docid rank score tag`) and `qrels.trec` (`qid 0 docid rel`) of a
    /// results.json: every case a query `suite/id`, its ranked keys, its expected keys.
    Trec(TrecArgs),
}

#[derive(Debug, Args)]
pub struct TrecArgs {
    /// The results.json of a `run`, `replay` or `merge` (or the directory holding it).
    #[arg(value_name = "RESULTS")]
    pub results: PathBuf,
    /// Directory run.trec and qrels.trec are written to (created when missing).
    #[arg(long, short = 'o', value_name = "DIR")]
    pub out: PathBuf,
    /// The engine of a `run --engine` results to export (default: its primary engine).
    #[arg(long, value_name = "NAME")]
    pub engine: Option<String>,
}

pub fn run(cmd: ExportCommand) -> i32 {
    let ExportCommand::Trec(args) = cmd;
    match trec(&args) {
        Ok(()) => findbench_eval::error::exit::OK,
        Err(e) => {
            eprintln!("error: {e}");
            if let Some(hint) = findbench_eval::error::CodedError::hint(&e) {
                eprintln!("hint: {hint}");
            }
            e.exit_code()
        }
    }
}

fn trec(args: &TrecArgs) -> Result<()> {
    let doc = read_results(&args.results)?;
    let doc = match &args.engine {
        Some(name) => select::select(&doc, name).map_err(HarnessError::invalid)?,
        None => doc,
    };
    let export = write_trec(&args.out, &doc, &results_path(&args.results))?;
    for path in &export.written {
        outln!("wrote {}", path.display());
    }
    outln!(
        "{} queries, {} judged (naming expected keys)",
        export.queries,
        export.judged
    );
    Ok(())
}
