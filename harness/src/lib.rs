//! findbench-harness: the `findbench` command line, and the harness that replays corpora
//! and traces against findbench-engine through its public request/response API.

pub mod cli;
pub mod corpus;
pub mod error;
pub mod metrics;
pub mod output;
pub mod results;
