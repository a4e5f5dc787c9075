//! findbench-traces: agent retrieval traces. Reads trace files (streaming, bad lines counted
//! and reported, never dropped), replays them through `ask` on today's engine, and groups
//! recurring questions into failure clusters. Results and reports go through findbench-eval.

pub mod clusters;
pub mod error;
pub mod import;
pub mod merge;
pub mod replay;
pub mod trace;
