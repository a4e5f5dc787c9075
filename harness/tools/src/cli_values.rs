//! The command line's readers of the values [`crate::values`] reads from JSON, saying what
//! an option takes in the same words (`--limit takes a whole number of 1 or more; got
//! `ten``), as a usage error (exit 2). Built with the cargo feature `clap` only.

use crate::values::{A_NUMBER, ONE_OR_MORE, ZERO_OR_MORE};
use clap::builder::TypedValueParser;
use clap::error::ErrorKind;
use std::ffi::OsStr;

/// A whole number for an option, or a usage error saying what it takes.
#[derive(Debug, Clone, Copy)]
pub struct WholeNumber {
    takes: &'static str,
}

impl WholeNumber {
    /// `--limit`: 1 or more (0 parses, and the engine rejects it naming the default).
    pub fn one_or_more() -> WholeNumber {
        WholeNumber { takes: ONE_OR_MORE }
    }

    /// `--depth`, `clusters --min`: 0 or more.
    pub fn zero_or_more() -> WholeNumber {
        WholeNumber {
            takes: ZERO_OR_MORE,
        }
    }
}

impl TypedValueParser for WholeNumber {
    type Value = usize;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<usize, clap::Error> {
        let text = value.to_string_lossy();
        text.trim()
            .parse()
            .map_err(|_| bad_value(cmd, arg, self.takes, &text))
    }
}

/// A number for an option (`--threshold`), or a usage error saying so.
#[derive(Debug, Clone, Copy)]
pub struct Number;

impl TypedValueParser for Number {
    type Value = f64;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<f64, clap::Error> {
        let text = value.to_string_lossy();
        text.trim()
            .parse::<f64>()
            .ok()
            .filter(|n| n.is_finite())
            .ok_or_else(|| bad_value(cmd, arg, A_NUMBER, &text))
    }
}

/// `--domain`: tasks, goals or reading, checked as the line is parsed.
pub fn domain_name(name: &str) -> Result<String, String> {
    findbench_engine::Domain::parse(name)
        .map(|_| name.to_string())
        .ok_or_else(|| format!("unknown domain `{name}`; domains are: tasks, goals, reading"))
}

/// `--NAME takes WHAT; got `TEXT``, as clap's usage error.
fn bad_value(cmd: &clap::Command, arg: Option<&clap::Arg>, takes: &str, text: &str) -> clap::Error {
    let name = arg.map_or_else(
        || "the value".to_string(),
        |a| match a.get_long() {
            Some(long) => format!("--{long}"),
            None => a.get_id().to_string(),
        },
    );
    clap::Error::raw(
        ErrorKind::ValueValidation,
        format!("{name} takes {takes}; got `{text}`"),
    )
    .format(&mut cmd.clone())
}
