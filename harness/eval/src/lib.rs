//! findbench-eval: the evaluation core. Loads YAML corpora, runs their cases against
//! findbench-engine in parallel, computes the metrics, writes the reports (one exporter per
//! format), compares two results documents and turns thresholds and a baseline into a gate
//! verdict. It knows nothing of the command line.

pub mod atomic_file;
pub mod baseline;
pub mod case;
pub mod case_codec;
pub mod case_json;
pub mod cases_file;
pub mod compare;
pub mod compare_rank;
pub mod corpus;
pub mod engines;
pub mod error;
pub mod gate;
pub mod gate_settings;
pub mod gzip_file;
pub mod json_kind;
pub mod merge;
pub mod metrics;
pub mod question;
pub mod replay_summary;
pub mod report;
pub mod report_set;
pub mod results;
pub mod results_error;
pub mod runner;
pub mod shard;
pub mod stats;

// The tool-call layer lives in findbench-tools; its former paths here (`tools`, `call`,
// `envelope`) stay for the modules and crates that still name it so (engines/,
// findbench-traces).
pub use findbench_tools as tools;
pub use findbench_tools::{call, envelope};
