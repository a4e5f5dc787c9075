//! `findbench grep TERM`: the cascade's fallback as a command of its own.

use super::find::{emit, engine, load_tree, ProfileArg, RootArg};
use super::OutputArgs;
use crate::output::envelope::Meta;
use clap::Args;
use findbench_engine::modes::grep::GrepRequest;
use findbench_engine::Request;
use std::time::{Instant, SystemTime};

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
    let started = SystemTime::now();
    let clock = Instant::now();
    let result = engine(&args.profile).and_then(|engine| {
        let request = Request::Grep(GrepRequest {
            term: args.term.clone(),
            limit: args.limit,
        });
        let fixture = load_tree(&args.root)?;
        engine.execute(&fixture, &request)
    });
    let meta = Meta::new("grep", started, clock.elapsed());
    emit(&meta, "grep.schema.json", result, &args.output)
}
