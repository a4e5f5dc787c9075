//! `findbench serve --mcp`: the find modes as Model Context Protocol tools on stdio
//! (findbench-mcp does the work; this is the command line).

use super::shared_args::OutputArgs;
use clap::{Args, ValueEnum};
use findbench_mcp::{RecordFormat, ServeOptions};
use std::path::PathBuf;
use std::time::{Instant, SystemTime};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RecordFormatArg {
    /// findbench trace JSONL (what `replay` and `clusters` read).
    Findbench,
    /// OTLP/JSON: one ExportTraceServiceRequest per line with a GenAI execute_tool span.
    Otlp,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Serve the Model Context Protocol on stdin/stdout (the only transport today).
    #[arg(long, required = true)]
    pub mcp: bool,
    /// A source tree the tools may read (repeatable); the first is the default `root`.
    #[arg(long, value_name = "DIR")]
    pub root: Vec<PathBuf>,
    /// An item store the tools may read (repeatable); the first is the default `store`.
    #[arg(long, value_name = "PATH")]
    pub store: Vec<PathBuf>,
    /// A path list `find_path` may read (repeatable).
    #[arg(long, value_name = "FILE")]
    pub paths_from: Vec<PathBuf>,
    /// Record every call as a trace line under DIR (one file per UTC day).
    #[arg(long, value_name = "DIR")]
    pub record: Option<PathBuf>,
    /// Format of the recorded lines.
    #[arg(long, value_enum, default_value_t = RecordFormatArg::Findbench, requires = "record")]
    pub record_format: RecordFormatArg,
    /// Fixtures under DIR are recorded by their path relative to it, as `replay --fixtures
    /// DIR` resolves them.
    #[arg(long, default_value = "corpora/fixtures", value_name = "DIR")]
    pub fixtures: PathBuf,
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: ServeArgs, cache: &super::shared_args::CacheArgs) -> i32 {
    let started = SystemTime::now();
    let clock = Instant::now();
    let options = ServeOptions {
        roots: args.root.clone(),
        stores: args.store.clone(),
        path_lists: args.paths_from.clone(),
        record: args.record.clone(),
        record_format: Some(match args.record_format {
            RecordFormatArg::Findbench => RecordFormat::Findbench,
            RecordFormatArg::Otlp => RecordFormat::Otlp,
        }),
        fixtures_base: Some(args.fixtures.clone()),
        no_cache: cache.no_cache,
    };
    match findbench_mcp::serve_stdio(&options) {
        Ok(()) => 0,
        Err(err) => super::report_error::report_error(&args.output, "serve", started, clock, &err),
    }
}
