//! findbench-tune: `findbench tune`. The profile's tunable numbers (each declared with its
//! range beside its section's `Default`, `findbench_engine::profile::tunable`) searched by
//! coordinate ascent with random restarts, on the cases of the train projects, each
//! candidate profile evaluated by running those cases over fixtures loaded once; the
//! objective then reported on train and held-out projects, before and after, with the
//! paired bootstrap interval of the held-out gain. It knows nothing of the command line.

pub mod evaluate;
pub mod objective;
pub mod report;
pub mod search;
pub mod space;
pub mod split;
pub mod traces;
pub mod tuning;

pub use objective::Objective;
pub use report::TuneReport;
pub use tuning::{tune, tune_inputs, Inputs, TuneOptions, Tuned};
