//! The error of findbench-traces: its own file and trace errors, and the engine's and the
//! evaluation crate's errors it passes on. The exit codes are `findbench_eval::error::exit`'s,
//! mapped here and nowhere else.

use findbench_engine::EngineError;
use findbench_eval::error::{exit, CodedError, HarnessError};
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum TracesError {
    /// A trace file, directory or report that is missing or cannot be read or written.
    #[error("{}: {message}", path.display())]
    File {
        path: PathBuf,
        message: String,
        hint: Option<String>,
    },
    /// A trace line that does not parse, under `--strict`; `line` and `column` are 1-based.
    #[error("{}:{line}:{column}: {message}", path.display())]
    Parse {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    /// Input that is wrong as given: no trace files, a bad glob, nothing to replay.
    #[error("{message}")]
    Invalid {
        message: String,
        hint: Option<String>,
    },
    /// A profile or fixture the engine refused.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// A report or results document of findbench-eval.
    #[error(transparent)]
    Eval(#[from] HarnessError),
}

impl TracesError {
    pub fn invalid(message: impl Into<String>) -> TracesError {
        TracesError::Invalid {
            message: message.into(),
            hint: None,
        }
    }

    pub fn invalid_with_hint(message: impl Into<String>, hint: impl Into<String>) -> TracesError {
        TracesError::Invalid {
            message: message.into(),
            hint: Some(hint.into()),
        }
    }

    /// The process exit code ([`CodedError::exit_code`]).
    pub fn exit_code(&self) -> i32 {
        CodedError::exit_code(self)
    }

    /// A file error with no hint.
    pub fn file(path: impl Into<PathBuf>, message: impl Into<String>) -> TracesError {
        TracesError::File {
            path: path.into(),
            message: message.into(),
            hint: None,
        }
    }
}

impl CodedError for TracesError {
    fn code(&self) -> &'static str {
        match self {
            TracesError::File { .. } => "E_FILE",
            TracesError::Parse { .. } => "E_PARSE",
            TracesError::Invalid { .. } => "E_INVALID_INPUT",
            TracesError::Engine(e) => CodedError::code(e),
            TracesError::Eval(e) => CodedError::code(e),
        }
    }

    fn exit_code(&self) -> i32 {
        match self {
            TracesError::File { .. } => exit::FILE,
            TracesError::Parse { .. } | TracesError::Invalid { .. } => exit::INVALID,
            TracesError::Engine(e) => CodedError::exit_code(e),
            TracesError::Eval(e) => CodedError::exit_code(e),
        }
    }

    fn hint(&self) -> Option<String> {
        match self {
            TracesError::File { hint, .. } | TracesError::Invalid { hint, .. } => hint.clone(),
            TracesError::Parse { .. } => {
                Some("fix the file at the line and column shown, then retry".into())
            }
            TracesError::Engine(e) => CodedError::hint(e),
            TracesError::Eval(e) => CodedError::hint(e),
        }
    }
}

pub type Result<T, E = TracesError> = std::result::Result<T, E>;
