//! What reading a trace file yields per non-blank line: a trace, or a bad line reported
//! as `file:line: reason`.

use super::record::Trace;
use crate::error::TracesError;
use std::fmt;
use std::path::PathBuf;

/// A line that did not parse: reported as `file:line: reason`, counted, and skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLine {
    pub file: PathBuf,
    /// 1-based.
    pub line: usize,
    pub reason: String,
}

impl fmt::Display for BadLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file.display(), self.line, self.reason)
    }
}

impl BadLine {
    /// The error `--strict` turns a bad line into (exit code 2).
    pub fn into_error(self) -> TracesError {
        TracesError::parse(self.file, self.line, 1, self.reason)
    }
}

/// What the stream yields per non-blank line.
#[derive(Debug, Clone, PartialEq)]
pub enum TraceItem {
    Trace(Box<Trace>),
    Bad(BadLine),
}
