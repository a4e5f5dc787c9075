//! The `findbench` command line: argument definitions (clap) and dispatch to library code.

mod ask;
mod clusters;
mod compare;
mod corpus;
mod find;
pub mod gate;
mod get;
mod grep;
mod replay;
pub mod run;

use crate::output::Format;
use clap::{Args, Parser, Subcommand};

/// Exit code for a query that ran and found nothing (not an error).
pub const EXIT_NO_MATCH: i32 = 100;

#[derive(Debug, Parser)]
#[command(
    name = "findbench",
    version,
    about = "Find modes for agent retrieval, and a harness that measures them",
    propagate_version = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Find items or files: `task`, and the other find modes.
    #[command(subcommand)]
    Find(find::FindCommand),
    /// The zoom: one item in full (breadcrumb, notes, comments), with --children its subtree.
    Get(get::GetArgs),
    /// Files whose contents hold a term (literal, case-insensitive, `[ _-]?` honoured).
    Grep(grep::GrepArgs),
    /// Run the retrieval cascade for a question: plan, find, grep, read, outcome.
    Ask(ask::AskArgs),
    /// Run YAML query corpora against the engine: metrics, reports, and the CI gate.
    Run(run::RunArgs),
    /// Turn a results.json, thresholds and a baseline into an exit code (0 pass, 1 fail).
    Gate(gate::GateArgs),
    /// Group traces by normalised question: recurring failures, their replay command, and
    /// `--export DIR` to turn them into regression corpora.
    Clusters(clusters::ClustersArgs),
    /// The before/after release report of two results.json: metrics with deltas, changed
    /// cases (regressions first), and which changes are larger than noise.
    Compare(compare::CompareArgs),
    /// Replay production traces through today's `ask`: recorded against replayed outcome,
    /// fixed / regressed / unchanged, and the reports of `run` with `--out DIR`.
    Replay(replay::ReplayArgs),
    /// Write corpora: `symbols` asks for the definitions Universal Ctags finds in a tree.
    #[command(subcommand)]
    Corpus(corpus::CorpusCommand),
}

/// Output options every command takes.
#[derive(Debug, Clone, Args)]
pub struct OutputArgs {
    /// Output format; `auto` is text on a terminal and JSON otherwise.
    #[arg(long, short = 'f', value_enum, default_value_t = Format::Auto, global = true)]
    pub format: Format,
    /// Suppress non-essential output (summary lines in text).
    #[arg(long, short = 'q', global = true)]
    pub quiet: bool,
}

/// Runs a parsed command line; returns the process exit code.
pub fn run(cli: Cli) -> i32 {
    match cli.command {
        Command::Find(cmd) => find::run(cmd),
        Command::Get(args) => get::run(args),
        Command::Grep(args) => grep::run(args),
        Command::Ask(args) => ask::run(args),
        Command::Run(args) => run::run(args),
        Command::Gate(args) => gate::run(args),
        Command::Clusters(args) => clusters::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Corpus(cmd) => corpus::run(cmd),
    }
}

/// Reports a harness command's error (stderr in text, the error envelope in JSON) and
/// returns its exit code.
pub(crate) fn report_error(
    output: &OutputArgs,
    command: &str,
    started: std::time::SystemTime,
    clock: std::time::Instant,
    err: &findbench_engine::EngineError,
) -> i32 {
    let meta = findbench_eval::envelope::Meta::new(command, started, clock.elapsed());
    match output.format.resolve() {
        Format::Json | Format::Jsonl => {
            println!("{}", findbench_eval::envelope::engine_failure(&meta, err))
        }
        _ => {
            eprintln!("error: {err}");
            if let Some(hint) = err.hint() {
                eprintln!("hint: {hint}");
            }
        }
    }
    err.exit_code()
}
