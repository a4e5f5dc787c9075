//! `findbench ask "QUESTION"`: the retrieval cascade, with its plan, tools and outcome.

use super::find::{emit, engine, load_tree, ProfileArg, RootArg};
use super::OutputArgs;
use clap::Args;
use findbench_engine::modes::ask::AskRequest;
use findbench_engine::Request;
use findbench_eval::envelope::Meta;
use std::time::{Instant, SystemTime};

#[derive(Debug, Args)]
pub struct AskArgs {
    /// A question such as "where is replay implemented".
    pub question: String,
    #[command(flatten)]
    pub root: RootArg,
    /// Candidates to show.
    #[arg(long, short = 'n', default_value_t = 5)]
    pub limit: usize,
    #[command(flatten)]
    pub profile: ProfileArg,
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: AskArgs) -> i32 {
    let started = SystemTime::now();
    let clock = Instant::now();
    let result = engine(&args.profile).and_then(|engine| {
        let request = Request::Ask(AskRequest {
            question: args.question.clone(),
            limit: args.limit,
        });
        let fixture = load_tree(&args.root)?;
        engine.execute(&fixture, &request)
    });
    let meta = Meta::new("ask", started, clock.elapsed());
    emit(&meta, "ask.schema.json", result, &args.output)
}
