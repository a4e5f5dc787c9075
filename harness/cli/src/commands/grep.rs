//! `findbench grep TERM`: the cascade's fallback as a command of its own.

use super::find::{load_tree, Call, ProfileArg, RootArg};
use super::OutputArgs;
use clap::Args;
use findbench_engine::modes::grep::GrepRequest;
use findbench_engine::Request;

#[derive(Debug, Args)]
pub struct GrepArgs {
    /// The term; `[ _-]?` between words matches a space, `_`, `-` or nothing.
    pub term: String,
    #[command(flatten)]
    pub root: RootArg,
    /// Maximum files to return.
    #[arg(long, short = 'n', default_value_t = 20)]
    pub limit: usize,
    #[command(flatten)]
    pub profile: ProfileArg,
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: GrepArgs) -> i32 {
    Call::start().answer(
        "grep",
        "grep.schema.json",
        &args.output,
        &args.profile,
        Ok(Request::Grep(GrepRequest {
            term: args.term.clone(),
            limit: args.limit,
        })),
        || load_tree(&args.root),
    )
}
