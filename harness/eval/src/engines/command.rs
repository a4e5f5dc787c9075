//! An external tool as its engine file describes it: the command of each mode it answers
//! and how its standard output is read.

use super::template::Template;
use findbench_engine::{Mode, Outcome};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// An external tool, as its engine file describes it.
#[derive(Debug, Clone)]
pub struct ExternalEngine {
    pub name: String,
    pub about: Option<String>,
    /// The engine file.
    pub file: PathBuf,
    /// Its directory, absolute: `{engine_dir}`, for scripts shipped beside the file.
    pub engine_dir: PathBuf,
    /// Programs that must be installed besides each command's first word.
    pub requires: Vec<String>,
    pub modes: BTreeMap<Mode, ModeCommand>,
}

/// How an external tool answers one mode.
#[derive(Debug, Clone, PartialEq)]
pub struct ModeCommand {
    /// The program and its arguments (`sh -c COMMAND` for `shell: true`).
    pub argv: Vec<Template>,
    pub shell: bool,
    pub cwd: Option<Template>,
    /// A file whose bytes are fed to standard input.
    pub stdin: Option<Template>,
    pub timeout_ms: u64,
    pub answer: Answer,
    /// The outcome of an empty answer.
    pub empty: Outcome,
    /// Exit codes besides 0 that mean the tool found nothing.
    pub no_match_exit: Vec<i32>,
    /// Standard output beyond this is a failed case.
    pub max_output_bytes: u64,
}

/// How to read a tool's standard output.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// One path or id a line, best first; blank lines ignored.
    Lines,
    /// A JSON document: the ranked list at the dotted key `list` (empty: the document),
    /// each item's path or id at `key` (None: the items are strings); optionally the
    /// outcome at the dotted key `outcome`.
    Json {
        list: String,
        key: Option<String>,
        outcome: Option<String>,
    },
}
