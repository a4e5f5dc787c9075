//! Errors of harness commands (`run`, `gate`), each mapped to the documented exit code:
//! 2 invalid input (a corpus or option that is wrong), 3 file error (missing or unreadable
//! file), 1 internal error.

use std::fmt;
use std::path::{Path, PathBuf};

/// Where in a corpus something went wrong: file, 1-based line (0 when unknown) and case id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Origin {
    pub file: PathBuf,
    pub line: usize,
    pub case: Option<String>,
}

impl Origin {
    pub fn file(file: &Path) -> Origin {
        Origin {
            file: file.to_path_buf(),
            line: 0,
            case: None,
        }
    }

    pub fn at(file: &Path, line: usize, case: Option<&str>) -> Origin {
        Origin {
            file: file.to_path_buf(),
            line,
            case: case.map(str::to_string),
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
        }
        if let Some(case) = &self.case {
            write!(f, ": case `{case}`")?;
        }
        Ok(())
    }
}

#[derive(Debug, thiserror::Error)]
pub enum HarnessError {
    /// Input that is wrong as written: a corpus that breaks the schema, a bad option.
    #[error("{}{message}", prefix(.origin))]
    Invalid {
        origin: Option<Origin>,
        message: String,
    },
    /// A file that is missing or cannot be read or written.
    #[error("{}{message}", prefix(.origin))]
    File {
        origin: Option<Origin>,
        message: String,
    },
    /// A bug in findbench.
    #[error("internal error: {0}")]
    Internal(String),
}

fn prefix(origin: &Option<Origin>) -> String {
    origin
        .as_ref()
        .map(|o| format!("{o}: "))
        .unwrap_or_default()
}

impl HarnessError {
    pub fn invalid(message: impl Into<String>) -> HarnessError {
        HarnessError::Invalid {
            origin: None,
            message: message.into(),
        }
    }

    pub fn invalid_at(origin: Origin, message: impl Into<String>) -> HarnessError {
        HarnessError::Invalid {
            origin: Some(origin),
            message: message.into(),
        }
    }

    pub fn file(path: &Path, message: impl fmt::Display) -> HarnessError {
        HarnessError::File {
            origin: Some(Origin::file(path)),
            message: message.to_string(),
        }
    }

    pub fn file_at(origin: Origin, message: impl Into<String>) -> HarnessError {
        HarnessError::File {
            origin: Some(origin),
            message: message.into(),
        }
    }

    /// The process exit code of the harness commands: 2 invalid input, 3 file error.
    pub fn exit_code(&self) -> i32 {
        match self {
            HarnessError::Invalid { .. } => 2,
            HarnessError::File { .. } => 3,
            HarnessError::Internal(_) => 1,
        }
    }
}

/// An engine error met by a harness command (a write through
/// [`crate::atomic_file`], a fixture that does not load) keeps its exit code.
impl From<findbench_engine::EngineError> for HarnessError {
    fn from(e: findbench_engine::EngineError) -> HarnessError {
        use findbench_engine::EngineError as E;
        match e {
            E::File { path, message, .. } => HarnessError::file(&path, message),
            E::Internal(m) => HarnessError::Internal(m),
            other => HarnessError::invalid(other.to_string()),
        }
    }
}

pub type Result<T, E = HarnessError> = std::result::Result<T, E>;
