//! What an import read and what it could not use: every problem with its kind and
//! `file:line`, counted by kind; shown on stderr and written as JSON by `--summary FILE`.

use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

/// Why a log line (or a call on it) gave no trace, or gave one with less in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProblemKind {
    /// The line is not JSON (or not UTF-8, or not an object).
    NotJson,
    /// An entry type the format reader does not know.
    UnknownType,
    /// A known entry without what it needs (no message, arguments that are not JSON...).
    BadEntry,
    /// A search, read or edit whose result never came.
    NoResult,
    /// A search before any question of the person's.
    NoQuestion,
    /// A session that names no working directory, with no `--root`.
    NoRoot,
    /// A file read or edited outside the root: left out of `expected`.
    OutsideRoot,
    /// A timestamp that is not RFC 3339.
    BadTimestamp,
    /// A span the OpenTelemetry reader could not use.
    BadSpan,
    /// A file that could not be read.
    Unreadable,
}

impl ProblemKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ProblemKind::NotJson => "not_json",
            ProblemKind::UnknownType => "unknown_type",
            ProblemKind::BadEntry => "bad_entry",
            ProblemKind::NoResult => "no_result",
            ProblemKind::NoQuestion => "no_question",
            ProblemKind::NoRoot => "no_root",
            ProblemKind::OutsideRoot => "outside_root",
            ProblemKind::BadTimestamp => "bad_timestamp",
            ProblemKind::BadSpan => "bad_span",
            ProblemKind::Unreadable => "unreadable",
        }
    }
}

/// One problem, where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub file: PathBuf,
    /// 1-based; 0 for the file as a whole.
    pub line: usize,
    pub kind: ProblemKind,
    pub detail: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}: {}",
            self.file.display(),
            self.line,
            self.kind.as_str(),
            self.detail
        )
    }
}

/// What one log file gave.
#[derive(Debug, Default)]
pub struct FileImport {
    pub traces: Vec<crate::trace::Trace>,
    pub problems: Vec<Problem>,
    /// Non-blank lines read.
    pub lines: usize,
    /// Lines per entry type (`user`, `response_item/function_call`, ...).
    pub entry_types: BTreeMap<String, usize>,
    /// Searches found, whether or not they became traces.
    pub searches: usize,
    /// Questions of the person's (turns).
    pub turns: usize,
}

/// The totals of an import.
#[derive(Debug, Default)]
pub struct ImportSummary {
    pub format: String,
    pub files: usize,
    pub lines: usize,
    pub turns: usize,
    pub searches: usize,
    pub traces: usize,
    pub entry_types: BTreeMap<String, usize>,
    pub problems: Vec<Problem>,
}

impl ImportSummary {
    pub fn new(format: &str) -> ImportSummary {
        ImportSummary {
            format: format.to_string(),
            ..ImportSummary::default()
        }
    }

    /// Adds a file's counts and takes its problems (its traces are the caller's).
    pub fn add(&mut self, file: &mut FileImport) {
        self.files += 1;
        self.lines += file.lines;
        self.turns += file.turns;
        self.searches += file.searches;
        self.traces += file.traces.len();
        for (kind, n) in &file.entry_types {
            *self.entry_types.entry(kind.clone()).or_default() += n;
        }
        self.problems.append(&mut file.problems);
    }

    pub fn by_kind(&self) -> BTreeMap<&'static str, usize> {
        let mut out = BTreeMap::new();
        for p in &self.problems {
            *out.entry(p.kind.as_str()).or_default() += 1;
        }
        out
    }

    /// The summary for stderr: totals, problems by kind, then each at `file:line`.
    pub fn render(&self) -> String {
        let mut out = format!(
            "import {}: {} files, {} lines, {} questions, {} searches, {} traces; {} problems\n",
            self.format,
            self.files,
            self.lines,
            self.turns,
            self.searches,
            self.traces,
            self.problems.len()
        );
        if !self.problems.is_empty() {
            let kinds: Vec<String> = self
                .by_kind()
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect();
            out.push_str(&format!("problems by kind: {}\n", kinds.join(", ")));
            for p in &self.problems {
                out.push_str(&format!("{p}\n"));
            }
        }
        out
    }

    /// The summary as the `--summary FILE` JSON document.
    pub fn to_json(&self) -> Value {
        json!({
            "format": self.format,
            "files": self.files,
            "lines": self.lines,
            "questions": self.turns,
            "searches": self.searches,
            "traces": self.traces,
            "entry_types": self.entry_types,
            "problems_by_kind": self.by_kind(),
            "problems": self.problems.iter().map(|p| json!({
                "file": p.file.display().to_string(),
                "line": p.line,
                "kind": p.kind.as_str(),
                "detail": p.detail,
            })).collect::<Vec<_>>(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_are_counted_by_kind_and_listed_at_file_and_line() {
        let problem = |line, kind| Problem {
            file: PathBuf::from("s.jsonl"),
            line,
            kind,
            detail: "why".into(),
        };
        let mut file = FileImport {
            lines: 9,
            searches: 2,
            turns: 1,
            problems: vec![
                problem(3, ProblemKind::NotJson),
                problem(5, ProblemKind::NoResult),
                problem(7, ProblemKind::NotJson),
            ],
            ..FileImport::default()
        };
        let mut summary = ImportSummary::new("codex");
        summary.add(&mut file);
        assert!(file.problems.is_empty());
        let text = summary.render();
        assert!(
            text.starts_with("import codex: 1 files, 9 lines, 1 questions, 2 searches, 0 traces; 3 problems\nproblems by kind: no_result 1, not_json 2\ns.jsonl:3: not_json: why\n"),
            "{text}"
        );
        let doc = summary.to_json();
        assert_eq!(doc["problems_by_kind"]["not_json"], 2);
        assert_eq!(doc["problems"][1]["line"], 5);
    }
}
