//! findbench-eval: the evaluation core. Loads YAML corpora, runs their cases against
//! findbench-engine in parallel, computes the metrics, writes the reports (one exporter per
//! format), compares two results documents and turns thresholds and a baseline into a gate
//! verdict. It knows nothing of the command line.

pub mod atomic_file;
pub mod baseline;
pub mod call;
pub mod case;
pub mod case_codec;
pub mod compare;
pub mod corpus;
pub mod engines;
pub mod envelope;
pub mod error;
pub mod gate;
pub mod merge;
pub mod metrics;
pub mod question;
pub mod replay_summary;
pub mod report;
pub mod report_set;
pub mod results;
pub mod runner;
pub mod shard;
pub mod stats;
pub mod tools;
