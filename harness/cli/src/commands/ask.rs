//! `findbench ask "QUESTION"`: the retrieval cascade, with its plan, tools and outcome.

use super::find::{Call, ProfileArg, RootArg};
use super::OutputArgs;
use clap::Args;
use findbench_eval::tools::{self, ToolCall};

#[derive(Debug, Args)]
pub struct AskArgs {
    /// A question such as "where is replay implemented".
    pub question: String,
    #[command(flatten)]
    pub root: RootArg,
    /// Candidates to show.
    #[arg(long, short = 'n', default_value_t = tools::DEFAULT_ASK_LIMIT)]
    pub limit: usize,
    #[command(flatten)]
    pub profile: ProfileArg,
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: AskArgs, cache: &super::CacheArgs) -> i32 {
    Call::start(cache).answer(
        ToolCall::Ask(tools::AskArgs {
            question: args.question,
            limit: args.limit,
            root: Some(args.root.root),
            profile: Some(args.profile.profile),
        }),
        &args.output,
    )
}
