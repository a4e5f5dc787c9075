//! The error of findbench-traces: findbench-eval's [`HarnessError`] for its file and input
//! errors (with their hints), and the engine's [`EngineError`] for what the engine refused
//! and for a trace line that does not parse under `--strict` (its `Parse`: file, line and
//! column). The exit codes are `findbench_eval::error::exit`'s, through theirs.

use findbench_engine::EngineError;
use findbench_eval::error::{CodedError, HarnessError};
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum TracesError {
    /// A profile or fixture the engine refused; a trace line that does not parse.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// A trace file, directory or report that is missing or cannot be read or written;
    /// input that is wrong as given (no trace files, a bad glob, nothing to replay); a
    /// report or results document of findbench-eval.
    #[error(transparent)]
    Eval(#[from] HarnessError),
}

impl TracesError {
    pub fn invalid(message: impl Into<String>) -> TracesError {
        TracesError::Eval(HarnessError::invalid(message))
    }

    pub fn invalid_with_hint(message: impl Into<String>, hint: impl Into<String>) -> TracesError {
        TracesError::Eval(HarnessError::invalid(message).with_hint(hint))
    }

    /// A file error with no hint.
    pub fn file(path: impl AsRef<Path>, message: impl Into<String>) -> TracesError {
        TracesError::Eval(HarnessError::file(path.as_ref(), message.into()))
    }

    pub fn file_with_hint(
        path: impl AsRef<Path>,
        message: impl Into<String>,
        hint: impl Into<String>,
    ) -> TracesError {
        TracesError::Eval(HarnessError::file(path.as_ref(), message.into()).with_hint(hint))
    }

    /// A trace line that does not parse; `line` and `column` are 1-based.
    pub fn parse(path: PathBuf, line: usize, column: usize, message: String) -> TracesError {
        TracesError::Engine(EngineError::Parse {
            path,
            line,
            column,
            message,
        })
    }

    /// The process exit code ([`CodedError::exit_code`]).
    pub fn exit_code(&self) -> i32 {
        CodedError::exit_code(self)
    }
}

impl CodedError for TracesError {
    fn code(&self) -> &'static str {
        match self {
            TracesError::Engine(e) => CodedError::code(e),
            TracesError::Eval(e) => CodedError::code(e),
        }
    }

    fn exit_code(&self) -> i32 {
        match self {
            TracesError::Engine(e) => CodedError::exit_code(e),
            TracesError::Eval(e) => CodedError::exit_code(e),
        }
    }

    fn hint(&self) -> Option<String> {
        match self {
            TracesError::Engine(e) => CodedError::hint(e),
            TracesError::Eval(e) => CodedError::hint(e),
        }
    }
}

pub type Result<T, E = TracesError> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;
    use findbench_eval::error::exit;

    /// The errors traces reports through eval's and the engine's variants read, code, exit
    /// and hint as the command line documents them.
    #[test]
    fn file_input_and_parse_errors_keep_their_message_code_exit_and_hint() {
        let file = TracesError::file_with_hint("t.jsonl", "cannot read: gone", "pass trace files");
        assert_eq!(file.to_string(), "t.jsonl: cannot read: gone");
        assert_eq!(
            (file.code(), file.exit_code(), file.hint().as_deref()),
            ("E_FILE", exit::FILE, Some("pass trace files"))
        );
        let plain = TracesError::file("out", "cannot write: full");
        assert_eq!(
            (plain.to_string().as_str(), plain.hint()),
            ("out: cannot write: full", None)
        );
        let invalid = TracesError::invalid_with_hint("no trace files given", "pass some");
        assert_eq!(invalid.to_string(), "no trace files given");
        assert_eq!(
            (
                invalid.code(),
                invalid.exit_code(),
                invalid.hint().as_deref()
            ),
            ("E_INVALID_INPUT", exit::INVALID, Some("pass some"))
        );
        let parse = TracesError::parse("t.jsonl".into(), 4, 1, "not JSON".into());
        assert_eq!(parse.to_string(), "t.jsonl:4:1: not JSON");
        assert_eq!(
            (parse.code(), parse.exit_code(), parse.hint().as_deref()),
            (
                "E_PARSE",
                exit::INVALID,
                Some("fix the file at the line and column shown, then retry")
            )
        );
    }
}
