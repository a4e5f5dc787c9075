//! The arguments several commands share: output format, the cache switch, `--jobs`,
//! `--from`. Kept apart from `mod.rs` so that a command's file imports these and never
//! the dispatcher that imports it.

use crate::output::Format;
use clap::Args;

/// Whether trees and stores go through the kept index, for every command that loads one.
#[derive(Debug, Clone, Default, Args)]
pub struct CacheArgs {
    /// Neither read nor write the kept tree index or store cache: walk the tree and parse
    /// the store afresh (the cache lives in $FINDBENCH_CACHE, else ~/.cache/findbench).
    #[arg(long, global = true)]
    pub no_cache: bool,
    /// Start no background `findbench index` after a first call on a tree without a kept
    /// index (the next call then walks the tree again). For CI jobs and containers that must
    /// leave no process behind.
    #[arg(
        long,
        global = true,
        env = "FINDBENCH_NO_BACKGROUND_INDEX",
        value_parser = clap::builder::FalseyValueParser::new()
    )]
    pub no_background_index: bool,
}

impl CacheArgs {
    /// The walk options of every tree this command loads.
    pub fn tree_options(&self) -> findbench_engine::TreeOptions {
        findbench_engine::TreeOptions {
            no_cache: self.no_cache,
            ..findbench_engine::TreeOptions::default()
        }
    }
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

/// Most worker threads `--jobs` takes: far above any machine this runs on, far below what
/// makes thread creation fail (each thread reserves its stack).
pub const MAX_JOBS: usize = 1024;

/// `--jobs N`: 0 (one per CPU) to [`MAX_JOBS`]; more is a usage error (exit 2), not an
/// internal error after the corpus has loaded.
pub fn parse_jobs(s: &str) -> Result<usize, String> {
    let n: usize = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of threads (0 uses every CPU)"))?;
    if n > MAX_JOBS {
        return Err(format!("{n} threads is more than the {MAX_JOBS} allowed"));
    }
    Ok(n)
}

/// `--from` of `replay` and `clusters`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TraceFrom {
    Auto,
    Findbench,
    Otlp,
}

impl From<TraceFrom> for findbench_traces::trace::TraceFormat {
    fn from(from: TraceFrom) -> Self {
        match from {
            TraceFrom::Auto => Self::Auto,
            TraceFrom::Findbench => Self::Findbench,
            TraceFrom::Otlp => Self::Otlp,
        }
    }
}
