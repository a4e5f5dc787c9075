//! The `findbench` command line: argument definitions (clap) and dispatch to library code.

mod background_index;
mod clusters;
mod compare;
mod corpus;
mod export;
mod find;
pub mod gate;
mod import;
mod index;
mod merge;
mod replay;
mod report_error;
pub mod run;
mod serve;
mod shared_args;
mod tune;

use clap::{Parser, Subcommand};
use findbench_eval::error::exit;

use shared_args::CacheArgs;

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
    #[command(flatten)]
    pub cache: CacheArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Find items or files: `task`, and the other find modes.
    #[command(subcommand)]
    Find(find::FindCommand),
    /// The zoom: one item in full (breadcrumb, notes, comments), with --children its subtree.
    Get(find::ToolCommand<findbench_tools::GetItemArgs>),
    /// Files whose contents hold a term (literal, case-insensitive, `[ _-]?` honoured).
    Grep(find::ToolCommand<findbench_tools::GrepArgs>),
    /// Run the retrieval cascade for a question: plan, find, grep, read, outcome.
    Ask(find::ToolCommand<findbench_tools::AskArgs>),
    /// Build or refresh the kept index of a source tree (what `find code`, `grep` and
    /// `ask` read) and print what it holds.
    Index(index::IndexArgs),
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
    /// Generate corpora from your own code: `commits` (tasks from a repository's history)
    /// and `symbols` (the definitions ctags finds), ready to commit beside it.
    #[command(
        subcommand,
        after_long_help = super::commands::corpus::AFTER_HELP
    )]
    Corpus(corpus::CorpusCommand),
    /// Replay production traces through today's `ask`: recorded against replayed outcome,
    /// fixed / regressed / unchanged, and the reports of `run` with `--out DIR`.
    Replay(replay::ReplayArgs),
    /// Turn the session logs coding agents write (Claude Code, Codex CLI, OpenTelemetry)
    /// into trace lines, one per search, for `replay` and `clusters`.
    Import(import::ImportArgs),
    /// Join the results of `run --shard K/N` (or `replay --shard K/N --out`) directories
    /// into the reports one machine would have written.
    Merge(merge::MergeArgs),
    /// A results.json in other tools' formats: `trec` (run and qrels files for trec_eval,
    /// ir_measures and ranx).
    #[command(subcommand)]
    Export(export::ExportCommand),
    /// Search the profile's weights on corpora: coordinate ascent on the train projects,
    /// the objective before and after on train and held-out projects, `--out` the tuned
    /// profile with its provenance.
    Tune(tune::TuneArgs),
    /// Serve the find modes to agents as Model Context Protocol tools on stdio, reading only
    /// inside the given roots and stores; `--record DIR` writes every call as a trace line.
    Serve(serve::ServeArgs),
}

/// Parses the process's arguments. A usage error (an unknown option, a bad value, invalid
/// UTF-8) is exit 2 and, when the command line asked for JSON (`-f json`, `--format json`),
/// the error envelope on stdout rather than clap's plain text; `--help` and `--version`
/// print and exit 0. Negative numbers are taken as values, so `--limit -1` is reported as
/// an invalid limit rather than an unknown option.
pub fn parse() -> Result<Cli, i32> {
    use clap::{CommandFactory, FromArgMatches};
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let mut command = Cli::command();
    allow_negative_numbers(&mut command);
    let parsed = command
        .try_get_matches_from(&args)
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let err = match parsed {
        Ok(cli) => return Ok(cli),
        Err(err) => err,
    };
    if !err.use_stderr() {
        // --help, --version
        crate::output::print(&err.render().to_string());
        return Err(exit::OK);
    }
    let rendered = err.render().to_string();
    if json_requested(&args) {
        let mut lines = rendered.lines().filter(|l| !l.trim().is_empty());
        let message = lines
            .next()
            .unwrap_or("invalid arguments")
            .trim_start_matches("error: ")
            .to_string();
        let hint: Vec<&str> = lines.map(str::trim).collect();
        let meta = findbench_eval::envelope::Meta::new(
            "findbench",
            std::time::SystemTime::now(),
            std::time::Duration::ZERO,
        );
        let envelope = findbench_eval::envelope::failure(
            &meta,
            "E_INVALID_INPUT",
            &message,
            exit::INVALID,
            (!hint.is_empty()).then(|| hint.join(" ")).as_deref(),
        );
        crate::output::outln!("{envelope}");
    } else {
        eprint!("{rendered}");
    }
    Err(exit::INVALID)
}

fn allow_negative_numbers(command: &mut clap::Command) {
    *command = std::mem::take(command).allow_negative_numbers(true);
    for sub in command.get_subcommands_mut() {
        allow_negative_numbers(sub);
    }
}

/// Whether the raw command line asks for JSON output (`-f json`, `--format=jsonl`, ...),
/// read without clap because it is used when clap rejected the line.
fn json_requested(args: &[std::ffi::OsString]) -> bool {
    let args: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let is_json = |v: &str| v == "json" || v == "jsonl";
    args.iter().enumerate().any(|(i, a)| {
        let next = args.get(i + 1).map(String::as_str).unwrap_or("");
        ((a == "-f" || a == "--format") && is_json(next))
            || a.strip_prefix("--format=").is_some_and(is_json)
            || a.strip_prefix("-f")
                .is_some_and(|v| is_json(v.trim_start_matches('=')))
    })
}

/// Runs a parsed command line; returns the process exit code.
pub fn run(cli: Cli) -> i32 {
    let cache = &cli.cache;
    match cli.command {
        Command::Find(cmd) => find::run(cmd, cache),
        Command::Get(cmd) => cmd.run(cache),
        Command::Grep(cmd) => cmd.run(cache),
        Command::Ask(cmd) => cmd.run(cache),
        Command::Index(args) => index::run(args, cache),
        Command::Run(args) => run::run(args, cache),
        Command::Gate(args) => gate::run(args),
        Command::Clusters(args) => clusters::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Replay(args) => replay::run(args, cache),
        Command::Import(args) => import::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Export(cmd) => export::run(cmd),
        Command::Tune(args) => tune::run(args, cache),
        Command::Serve(args) => serve::run(args, cache),
        Command::Corpus(cmd) => corpus::run(cmd, cache),
    }
}
