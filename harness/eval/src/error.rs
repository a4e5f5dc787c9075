//! The error of findbench-eval, [`HarnessError`], and the one table of the exit codes
//! findbench documents (README, "Exit codes"), [`exit`]: every error type of the harness
//! crates maps its variants onto those constants through [`CodedError`].

use std::fmt;

/// The documented exit codes of every findbench command, in one place.
pub mod exit {
    /// Success; for `run --gate` and `gate`, every threshold met.
    pub const OK: i32 = 0;
    /// A gate that failed, or an internal error (a findbench bug).
    pub const FAILED: i32 = 1;
    /// Input that is wrong as written: a corpus, trace line, option or query.
    pub const INVALID: i32 = 2;
    /// A file that is missing or cannot be read or written.
    pub const FILE: i32 = 3;
    /// A find that ran and matched nothing (not an error).
    pub const NO_MATCH: i32 = 100;
    /// stdout's reader went away (`findbench ... | head -1`): 128 + SIGPIPE, the status a
    /// shell reports for `git log | head -1`; nothing is printed.
    pub const CLOSED_PIPE: i32 = 141;
}

/// An error a command reports: its envelope code, exit code (one of [`exit`]) and hint;
/// defined beside the envelope that prints it.
pub use findbench_tools::CodedError;

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

/// The error of every harness crate (findbench-traces wraps it, it does not declare its
/// own file and input errors). A hint, when there is one, is for the person who ran the
/// command.
#[derive(Debug, thiserror::Error)]
pub enum HarnessError {
    /// Input that is wrong as written: a corpus that breaks the schema, a bad option.
    #[error("{}{message}", prefix(.origin))]
    Invalid {
        origin: Option<Origin>,
        message: String,
        hint: Option<String>,
    },
    /// A file that is missing or cannot be read or written.
    #[error("{}{message}", prefix(.origin))]
    File {
        origin: Option<Origin>,
        message: String,
        hint: Option<String>,
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
            hint: None,
        }
    }

    pub fn invalid_at(origin: Origin, message: impl Into<String>) -> HarnessError {
        HarnessError::Invalid {
            origin: Some(origin),
            message: message.into(),
            hint: None,
        }
    }

    pub fn file(path: &Path, message: impl fmt::Display) -> HarnessError {
        HarnessError::File {
            origin: Some(Origin::file(path)),
            message: message.to_string(),
            hint: None,
        }
    }

    pub fn file_at(origin: Origin, message: impl Into<String>) -> HarnessError {
        HarnessError::File {
            origin: Some(origin),
            message: message.into(),
            hint: None,
        }
    }

    /// The same error with `hint` (an internal error keeps its own).
    pub fn with_hint(mut self, hint: impl Into<String>) -> HarnessError {
        if let HarnessError::Invalid { hint: h, .. } | HarnessError::File { hint: h, .. } =
            &mut self
        {
            *h = Some(hint.into());
        }
        self
    }

    /// The process exit code of the harness commands: 2 invalid input, 3 file error.
    pub fn exit_code(&self) -> i32 {
        match self {
            HarnessError::Invalid { .. } => exit::INVALID,
            HarnessError::File { .. } => exit::FILE,
            HarnessError::Internal(_) => exit::FAILED,
        }
    }
}

impl CodedError for HarnessError {
    fn code(&self) -> &'static str {
        match self {
            HarnessError::Invalid { .. } => "E_INVALID_INPUT",
            HarnessError::File { .. } => "E_FILE",
            HarnessError::Internal(_) => "E_INTERNAL",
        }
    }
    fn exit_code(&self) -> i32 {
        HarnessError::exit_code(self)
    }
    fn hint(&self) -> Option<String> {
        match self {
            HarnessError::Invalid { hint, .. } | HarnessError::File { hint, .. } => hint.clone(),
            HarnessError::Internal(_) => {
                Some("this is a findbench bug; please report it with the command line".into())
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use findbench_engine::EngineError;

    /// The engine cannot see [`exit`] (it knows nothing of the harness), so its own mapping
    /// is held to the same table here.
    #[test]
    fn engine_exit_codes_are_the_documented_ones() {
        let p = std::path::PathBuf::from("x");
        let cases = [
            (EngineError::invalid("q"), exit::INVALID),
            (
                EngineError::File {
                    path: p.clone(),
                    message: "m".into(),
                    hint: None,
                },
                exit::FILE,
            ),
            (
                EngineError::Parse {
                    path: p.clone(),
                    line: 1,
                    column: 1,
                    message: "m".into(),
                },
                exit::INVALID,
            ),
            (
                EngineError::Content {
                    path: p,
                    message: "m".into(),
                },
                exit::INVALID,
            ),
            (EngineError::Internal("m".into()), exit::FAILED),
        ];
        for (e, code) in cases {
            assert_eq!(CodedError::exit_code(&e), code, "{e:?}");
        }
        assert_eq!(HarnessError::invalid("x").exit_code(), exit::INVALID);
        assert_eq!(
            HarnessError::file(Path::new("x"), "m").exit_code(),
            exit::FILE
        );
    }
}
