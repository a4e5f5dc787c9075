//! The engine's version: reported in every envelope and report, and part of the
//! fingerprint of everything kept on disk (an index written by another build is rebuilt).

/// The engine's version, reported in every envelope and report.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
