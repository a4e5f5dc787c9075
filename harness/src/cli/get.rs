//! `findbench get ID`: the zoom. One item in full, optionally with its subtree.

use super::find::{emit, engine, load_store, ProfileArg, StoreArg};
use super::OutputArgs;
use crate::output::envelope::Meta;
use clap::Args;
use findbench_engine::modes::get::GetRequest;
use findbench_engine::Request;
use std::time::{Instant, SystemTime};

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
    let started = SystemTime::now();
    let clock = Instant::now();
    let request = Request::Get(GetRequest {
        id: args.id.clone(),
        children: args.children,
        depth: args.depth,
        list: args.list.clone(),
    });
    let result = engine(&args.profile).and_then(|engine| {
        let fixture = load_store(&args.store)?;
        engine.execute(&fixture, &request)
    });
    let meta = Meta::new("get", started, clock.elapsed());
    emit(&meta, "get.schema.json", result, &args.output)
}
