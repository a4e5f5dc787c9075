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
