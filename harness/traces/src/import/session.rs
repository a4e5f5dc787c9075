//! One agent session as a format reader fills it: where it ran, its turns in order, and the
//! problems met on the way. Each reader turns its own entries into these calls; what a
//! session becomes as traces is [`super::to_trace`]'s.

use super::summary::{Problem, ProblemKind};
use super::turn::{CallResult, Step, Turn};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

#[derive(Debug)]
pub struct Session {
    pub file: PathBuf,
    /// The files the session is read from: its own (`file`), then its subagents'.
    pub sources: Vec<PathBuf>,
    /// The file being read: an index into `sources`.
    pub source: usize,
    pub id: Option<String>,
    /// The directory the session ran in (its first one, when it moves).
    pub cwd: Option<String>,
    /// The commit the working tree was at, when the log names it.
    pub commit: Option<String>,
    /// A fixture by name (`replay --fixtures`), for a log that names no directory (OTLP's
    /// `service.name`); `--root` and a directory come first.
    pub fixture_name: Option<String>,
    /// When the session started, for calls the log gives no time of their own.
    pub started: Option<String>,
    pub turns: Vec<Turn>,
    pub problems: Vec<Problem>,
    /// Non-blank lines read.
    pub lines: usize,
    pub entry_types: BTreeMap<String, usize>,
    /// Call id → its (turn, step)s (a shell command may search and read), for results
    /// that come lines later.
    calls: HashMap<String, Vec<(usize, usize)>>,
}

impl Session {
    pub fn new(file: &Path) -> Session {
        Session {
            file: file.to_path_buf(),
            sources: vec![file.to_path_buf()],
            source: 0,
            id: None,
            cwd: None,
            commit: None,
            fixture_name: None,
            started: None,
            turns: Vec::new(),
            problems: Vec::new(),
            lines: 0,
            entry_types: BTreeMap::new(),
            calls: HashMap::new(),
        }
    }

    /// A problem at `line` of the file being read.
    pub fn problem(&mut self, line: usize, kind: ProblemKind, detail: impl Into<String>) {
        self.problem_in(self.source, line, kind, detail);
    }

    /// A problem at `line` of the session's file `source`.
    pub fn problem_in(
        &mut self,
        source: usize,
        line: usize,
        kind: ProblemKind,
        detail: impl Into<String>,
    ) {
        self.problems.push(Problem {
            file: self.sources.get(source).unwrap_or(&self.file).clone(),
            line,
            kind,
            detail: detail.into(),
        });
    }

    /// Counts one line of entry type `kind`.
    pub fn count_entry(&mut self, kind: &str) {
        *self.entry_types.entry(kind.to_string()).or_default() += 1;
    }

    /// Keeps the first id, directory and start time the log gives.
    pub fn note(&mut self, id: Option<&str>, cwd: Option<&str>, timestamp: Option<&str>) {
        let keep = |slot: &mut Option<String>, value: Option<&str>| {
            if slot.is_none() {
                *slot = value.filter(|v| !v.trim().is_empty()).map(str::to_string);
            }
        };
        keep(&mut self.id, id);
        keep(&mut self.cwd, cwd);
        keep(&mut self.started, timestamp);
    }

    /// A question of the person's: what follows is done for it.
    pub fn start_turn(&mut self, question: String, timestamp: Option<String>, line: usize) {
        self.turns.push(Turn {
            question,
            timestamp,
            line,
            steps: Vec::new(),
        });
    }

    pub fn in_turn(&self) -> bool {
        !self.turns.is_empty()
    }

    /// A search, read or edit of the current turn; a search before any question is a
    /// problem (there is no question to replay), a read then is of no search.
    pub fn add(&mut self, step: Step) {
        let Some(turn) = self.turns.len().checked_sub(1) else {
            if let Step::Search(s) = &step {
                let detail = format!(
                    "search `{}` ({}) comes before any question of the person's",
                    s.call_id, s.tool
                );
                self.problem_in(s.source, s.line, ProblemKind::NoQuestion, detail);
            }
            return;
        };
        let steps = &mut self.turns[turn].steps;
        self.calls
            .entry(step.call_id().to_string())
            .or_default()
            .push((turn, steps.len()));
        steps.push(step);
    }

    /// [`Self::add`] of a step, when there is one.
    pub fn add_some(&mut self, step: Option<Step>) {
        if let Some(step) = step {
            self.add(step);
        }
    }

    /// The result of call `call_id`; false when no search, read or edit made that call
    /// (the result of another tool, which is not kept).
    pub fn resolve(&mut self, call_id: &str, result: CallResult) -> bool {
        let Some(steps) = self.calls.get(call_id) else {
            return false;
        };
        for &(turn, step) in steps {
            self.turns[turn].steps[step].set_result(result.clone());
        }
        true
    }
}
