//! findbench-harness: the `findbench` command line, and the harness that replays corpora
//! and traces against findbench-engine through its public request/response API.

pub mod baseline;
pub mod cli;
pub mod corpus;
pub mod error;
pub mod gate;
pub mod metrics;
pub mod output;
pub mod report;
pub mod results;
pub mod runner;
