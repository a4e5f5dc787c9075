//! Printing engine responses: the JSON envelope, JSON Lines, and aligned text.

pub mod text;

use clap::ValueEnum;
use std::io::IsTerminal;

/// `--format`: `auto` is text on a terminal and JSON otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum Format {
    #[default]
    Auto,
    Text,
    Json,
    Jsonl,
}

impl Format {
    /// Resolves `auto` against whether stdout is a terminal.
    pub fn resolve(self) -> Format {
        match self {
            Format::Auto if std::io::stdout().is_terminal() => Format::Text,
            Format::Auto => Format::Json,
            other => other,
        }
    }
}

use findbench_eval::error::exit::{CLOSED_PIPE as EXIT_CLOSED_PIPE, FILE as EXIT_FILE_ERROR};

/// Writes `text` to stdout. The one place every command's stdout goes through: a closed
/// pipe ends the process quietly with [`EXIT_CLOSED_PIPE`]; any other write error (a full
/// disk) is reported on stderr and ends it with [`EXIT_FILE_ERROR`], so no command leaves
/// truncated output behind an exit 0 (and none panics as `println!` would).
pub fn print(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_all(text.as_bytes()) {
        stdout_failed(&e);
    }
}

/// Flushes stdout before the process exits, with the same handling as [`print`]: the
/// last buffered bytes are the ones a full disk refuses.
pub fn flush() {
    use std::io::Write;
    if let Err(e) = std::io::stdout().lock().flush() {
        stdout_failed(&e);
    }
}

fn stdout_failed(e: &std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(EXIT_CLOSED_PIPE);
    }
    eprintln!("error: cannot write to stdout: {e}");
    std::process::exit(EXIT_FILE_ERROR);
}

/// `println!` through [`print`].
macro_rules! outln {
    () => { $crate::output::print("\n") };
    ($($arg:tt)*) => { $crate::output::print(&format!("{}\n", format_args!($($arg)*))) };
}

/// `print!` through [`print`].
macro_rules! out {
    ($($arg:tt)*) => { $crate::output::print(&format!($($arg)*)) };
}

pub(crate) use {out, outln};
