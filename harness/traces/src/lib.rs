//! findbench-traces: agent retrieval traces. Reads trace files (streaming, bad lines counted
//! and reported, never dropped), replays them through `ask` on today's engine, and groups
//! recurring questions into failure clusters. Results and reports go through findbench-eval.

mod answer_bytes;
pub mod clusters;
pub mod error;
pub mod import;
pub mod merge;
pub mod replay;
pub mod replay_ask;
pub mod replay_call;
mod replay_fixtures;
mod replay_judge;
pub mod replay_memo;
pub mod replay_options;
pub mod replay_rank;
pub mod replay_report;
mod replay_spool;
pub mod replay_totals;
pub mod trace;
