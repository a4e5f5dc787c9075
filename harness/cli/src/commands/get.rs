//! `findbench get ID`: the zoom. One item in full, optionally with its subtree.

use super::find::{Call, ProfileArg, StoreArg};
use super::OutputArgs;
use clap::Args;
use findbench_eval::tools::{self, ToolCall};

#[derive(Debug, Args)]
pub struct GetArgs {
    /// The item's id (exact; case is ignored when only one id matches).
    pub id: String,
    #[command(flatten)]
    pub store: StoreArg,
    /// Add the item's subtree, each child with its indicators.
    #[arg(long)]
    pub children: bool,
    /// Levels of children with --children [default: 2].
    #[arg(long, short = 'd')]
    pub depth: Option<usize>,
    /// The item (and the children shown) must be in this list (case-insensitive).
    #[arg(long, value_name = "NAME")]
    pub list: Option<String>,
    #[command(flatten)]
    pub profile: ProfileArg,
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: GetArgs, cache: &super::CacheArgs) -> i32 {
    Call::start(cache).answer(
        ToolCall::GetItem(tools::GetItemArgs {
            id: args.id,
            children: args.children,
            depth: args.depth,
            list: args.list,
            store: args.store.store,
            profile: Some(args.profile.profile),
        }),
        &args.output,
    )
}
