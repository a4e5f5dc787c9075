//! Ranking profiles: every weight and rule the modes rank with, as data.
//!
//! A profile is serialisable, so a user can write one to JSON, change a weight, and run the
//! corpora with it to compare. [`Profile::default`] is today's ranking.
//!
//! One file per section (`task.rs`, `name.rs`, `outline.rs`, `code.rs`, `path.rs`, `grep.rs`,
//! `planner.rs` with `calibration.rs`, `task_ranking.rs`), the whole (`sections.rs`), the built-ins (`builtin.rs`),
//! reading one from a file (`load.rs`), and the ranges `findbench tune` searches (`range.rs`,
//! `tunable.rs`).

mod builtin;
mod calibration;
mod code;
mod grep;
mod load;
mod name;
mod outline;
mod path;
mod planner;
mod range;
mod sections;
mod task;
mod task_ranking;
pub mod tunable;

pub use calibration::{Calibration, ChanceMap};
pub use code::CodeWeights;
pub use grep::GrepWeights;
pub use name::NameWeights;
pub use outline::OutlineWeights;
pub use path::PathWeights;
pub use planner::PlannerRules;
pub use range::{NotTunable, Tunable};
pub use sections::Profile;
pub use task::TaskWeights;
pub use task_ranking::{FieldWeight, TaskRankingWeights};

#[cfg(test)]
mod tests;
