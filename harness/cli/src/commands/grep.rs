//! `findbench grep TERM`: the cascade's fallback as a command of its own.

use super::find::{Call, ProfileArg, RootArg};
use super::OutputArgs;
use clap::Args;
use findbench_eval::tools::{self, ToolCall};

#[derive(Debug, Args)]
pub struct GrepArgs {
    /// The term; `[ _-]?` between words matches a space, `_`, `-` or nothing.
    pub term: String,
    #[command(flatten)]
    pub root: RootArg,
    /// Maximum files to return.
    #[arg(long, short = 'n', default_value_t = tools::DEFAULT_GREP_LIMIT)]
    pub limit: usize,
    #[command(flatten)]
    pub profile: ProfileArg,
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: GrepArgs, cache: &super::CacheArgs) -> i32 {
    Call::start(cache).answer(
        ToolCall::Grep(tools::GrepArgs {
            term: args.term,
            limit: args.limit,
            root: Some(args.root.root),
            profile: Some(args.profile.profile),
        }),
        &args.output,
    )
}
