//! [`CodedError`]: what the JSON error envelope needs of any command's error.

/// An error a command reports: its envelope code, exit code and hint.
pub trait CodedError: std::error::Error {
    /// The stable code of the JSON error envelope (`E_INVALID_INPUT`, `E_FILE`, ...).
    fn code(&self) -> &'static str;
    /// One of the documented exit codes (`findbench_eval::error::exit`).
    fn exit_code(&self) -> i32;
    /// A short suggestion for the person or agent who ran the command.
    fn hint(&self) -> Option<String>;
}

impl CodedError for findbench_engine::EngineError {
    fn code(&self) -> &'static str {
        findbench_engine::EngineError::code(self)
    }
    fn exit_code(&self) -> i32 {
        findbench_engine::EngineError::exit_code(self)
    }
    fn hint(&self) -> Option<String> {
        findbench_engine::EngineError::hint(self)
    }
}
