//! findbench-harness: the `findbench` command line, and the harness that replays corpora
//! and traces against findbench-engine through its public request/response API.

pub mod atomic_file;
pub mod baseline;
pub mod cli;
pub mod clusters;
pub mod compare;
pub mod corpus;
pub mod error;
pub mod gate;
pub mod metrics;
pub mod output;
pub mod replay;
pub mod replay_report;
pub mod report;
pub mod results;
pub mod runner;
pub mod stats;
pub mod trace;
