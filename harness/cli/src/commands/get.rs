//! `findbench get ID`: the zoom. One item in full, optionally with its subtree.

use super::find::{load_store, Call, ProfileArg, StoreArg};
use super::OutputArgs;
use clap::Args;
use findbench_engine::modes::get::GetRequest;
use findbench_engine::Request;

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

pub fn run(args: GetArgs) -> i32 {
    Call::start().answer(
        "get",
        "get.schema.json",
        &args.output,
        &args.profile,
        Ok(Request::Get(GetRequest {
            id: args.id.clone(),
            children: args.children,
            depth: args.depth,
            list: args.list.clone(),
        })),
        || load_store(&args.store),
    )
}
