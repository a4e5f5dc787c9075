//! How a harness command reports its error: stderr in text, the error envelope in JSON;
//! the exit code comes from the error.

use super::shared_args::OutputArgs;
use crate::output::Format;
use findbench_eval::error::CodedError;

/// Reports a harness command's error (stderr in text, the error envelope in JSON) and
/// returns its exit code.
pub fn report_error(
    output: &OutputArgs,
    command: &str,
    started: std::time::SystemTime,
    clock: std::time::Instant,
    err: &dyn findbench_eval::error::CodedError,
) -> i32 {
    let meta = findbench_eval::envelope::Meta::new(command, started, clock.elapsed());
    match output.format.resolve() {
        Format::Json | Format::Jsonl => {
            crate::output::outln!("{}", findbench_eval::envelope::error_failure(&meta, err))
        }
        _ => {
            eprintln!("error: {err}");
            if let Some(hint) = err.hint() {
                eprintln!("hint: {hint}");
            }
        }
    }
    err.exit_code()
}

/// Reports an error of `run` or `gate` (stderr in text, the error envelope in JSON) and
/// returns its exit code.
pub fn report_harness_error(
    format: Format,
    command: &str,
    started: std::time::SystemTime,
    clock: std::time::Instant,
    err: &findbench_eval::error::HarnessError,
) -> i32 {
    match format.resolve() {
        Format::Json | Format::Jsonl => {
            let meta = findbench_eval::envelope::Meta::new(command, started, clock.elapsed());
            let hint = CodedError::hint(err);
            let envelope = findbench_eval::envelope::failure(
                &meta,
                CodedError::code(err),
                &err.to_string(),
                err.exit_code(),
                hint.as_deref(),
            );
            crate::output::outln!("{envelope}");
        }
        _ => {
            eprintln!("error: {err}");
            if let Some(hint) = CodedError::hint(err) {
                eprintln!("hint: {hint}");
            }
        }
    }
    err.exit_code()
}
