//! Errors the engine reports, each mapped to one of the documented exit codes.

use std::path::PathBuf;

/// Every failure the engine can report. The variants map one-to-one onto the error codes
/// and exit codes of the JSON envelope (the README's "Exit codes", `docs/ci-contract.md`).
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// A request the engine cannot answer as asked: an empty query, a bad option value.
    #[error("{message}")]
    InvalidInput {
        message: String,
        hint: Option<String>,
    },
    /// A store or root that is missing or unreadable.
    #[error("{}: {message}", path.display())]
    File {
        path: PathBuf,
        message: String,
        hint: Option<String>,
    },
    /// A file that was read but whose content is malformed; `line` and `column` are 1-based.
    #[error("{}:{line}:{column}: {message}", path.display())]
    Parse {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    /// A file that parsed but breaks a rule of its format (a duplicate id, say).
    #[error("{}: {message}", path.display())]
    Content { path: PathBuf, message: String },
    /// A bug: something the engine's own invariants should have prevented.
    #[error("internal error: {0}")]
    Internal(String),
}

impl EngineError {
    pub fn invalid(message: impl Into<String>) -> Self {
        EngineError::InvalidInput {
            message: message.into(),
            hint: None,
        }
    }

    pub fn invalid_with_hint(message: impl Into<String>, hint: impl Into<String>) -> Self {
        EngineError::InvalidInput {
            message: message.into(),
            hint: Some(hint.into()),
        }
    }

    /// The stable error code of the envelope.
    pub fn code(&self) -> &'static str {
        match self {
            EngineError::InvalidInput { .. } => "E_INVALID_INPUT",
            EngineError::File { .. } => "E_FILE",
            EngineError::Parse { .. } | EngineError::Content { .. } => "E_PARSE",
            EngineError::Internal(_) => "E_INTERNAL",
        }
    }

    /// The process exit code documented for this kind of failure.
    pub fn exit_code(&self) -> i32 {
        match self {
            EngineError::InvalidInput { .. }
            | EngineError::Parse { .. }
            | EngineError::Content { .. } => 2,
            EngineError::File { .. } => 3,
            EngineError::Internal(_) => 1,
        }
    }

    /// A short suggestion for the person (or agent) who made the request.
    pub fn hint(&self) -> Option<String> {
        match self {
            EngineError::InvalidInput { hint, .. } | EngineError::File { hint, .. } => hint.clone(),
            EngineError::Parse { .. } => {
                Some("fix the file at the line and column shown, then retry".into())
            }
            EngineError::Content { .. } => Some("fix the file, then retry".into()),
            EngineError::Internal(_) => {
                Some("this is a findbench bug; please report it with the command line".into())
            }
        }
    }
}

pub type Result<T, E = EngineError> = std::result::Result<T, E>;
