//! The one request type and the one response type of the engine, for every mode.

use crate::error::{EngineError, Result};
pub use crate::modes::ask::Outcome;
use crate::modes::ask::{AskRequest, AskResponse};
use crate::modes::code::{CodeRequest, CodeResponse};
use crate::modes::get::{GetRequest, GetResponse};
use crate::modes::grep::{GrepRequest, GrepResponse};
use crate::modes::name::{MatchQuality, NameRequest, NameResponse};
use crate::modes::outline::{OutlineRequest, OutlineResponse};
use crate::modes::path::{PathRequest, PathResponse};
use crate::modes::task::{TaskRequest, TaskResponse};
use serde::Serialize;

/// The find modes, by their CLI names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Task,
    Name,
    Outline,
    Get,
    Code,
    Path,
    Grep,
    Ask,
}

impl Mode {
    pub const ALL: &'static [Mode] = &[
        Mode::Task,
        Mode::Name,
        Mode::Outline,
        Mode::Get,
        Mode::Code,
        Mode::Path,
        Mode::Grep,
        Mode::Ask,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Task => "task",
            Mode::Name => "name",
            Mode::Outline => "outline",
            Mode::Get => "get",
            Mode::Code => "code",
            Mode::Path => "path",
            Mode::Grep => "grep",
            Mode::Ask => "ask",
        }
    }

    pub fn parse(name: &str) -> Result<Mode> {
        Mode::ALL
            .iter()
            .copied()
            .find(|m| m.as_str() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Mode::ALL.iter().map(|m| m.as_str()).collect();
                EngineError::invalid_with_hint(
                    format!("unknown mode `{name}`"),
                    format!("modes are: {}", names.join(", ")),
                )
            })
    }
}

/// A request for any mode.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Request {
    Task(TaskRequest),
    Name(NameRequest),
    Outline(OutlineRequest),
    Get(GetRequest),
    Code(CodeRequest),
    Path(PathRequest),
    Grep(GrepRequest),
    Ask(AskRequest),
}

impl Request {
    pub fn mode(&self) -> Mode {
        match self {
            Request::Task(_) => Mode::Task,
            Request::Name(_) => Mode::Name,
            Request::Outline(_) => Mode::Outline,
            Request::Get(_) => Mode::Get,
            Request::Code(_) => Mode::Code,
            Request::Path(_) => Mode::Path,
            Request::Grep(_) => Mode::Grep,
            Request::Ask(_) => Mode::Ask,
        }
    }
}

/// The answer of any mode. Serialises to the mode's own fields (the envelope is the
/// caller's business).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Response {
    Task(TaskResponse),
    Name(NameResponse),
    Outline(OutlineResponse),
    Get(GetResponse),
    Code(CodeResponse),
    Path(PathResponse),
    Grep(GrepResponse),
    Ask(AskResponse),
}

impl Response {
    pub fn mode(&self) -> Mode {
        match self {
            Response::Task(_) => Mode::Task,
            Response::Name(_) => Mode::Name,
            Response::Outline(_) => Mode::Outline,
            Response::Get(_) => Mode::Get,
            Response::Code(_) => Mode::Code,
            Response::Path(_) => Mode::Path,
            Response::Grep(_) => Mode::Grep,
            Response::Ask(_) => Mode::Ask,
        }
    }

    /// The keys of the ranked results, best first: ids for item modes, paths for file modes.
    pub fn ranked_keys(&self) -> Vec<&str> {
        match self {
            Response::Task(r) => r.matches.iter().map(|m| m.id.as_str()).collect(),
            Response::Name(r) => r.results.iter().map(|m| m.id.as_str()).collect(),
            Response::Outline(r) => r.matches.iter().map(|m| m.id.as_str()).collect(),
            Response::Get(r) => r.item.iter().map(|i| i.id.as_str()).collect(),
            Response::Code(r) => r.matches.iter().map(|m| m.path.as_str()).collect(),
            Response::Path(r) => r.matches.iter().map(|m| m.path.as_str()).collect(),
            Response::Grep(r) => r.matches.iter().map(|m| m.path.as_str()).collect(),
            Response::Ask(r) => r.matches.iter().map(|m| m.path.as_str()).collect(),
        }
    }

    /// How many candidates the mode considered a match (before `--limit`).
    pub fn candidates(&self) -> usize {
        match self {
            Response::Task(r) => r.summary.total_matches,
            Response::Name(r) => r.summary.total_matches,
            Response::Outline(r) => r.summary.total_matches,
            Response::Get(r) => usize::from(r.item.is_some()),
            Response::Code(r) => r.summary.total_matches,
            Response::Path(r) => r.summary.total_matches,
            Response::Grep(r) => r.summary.total_matches,
            Response::Ask(r) => r.candidates,
        }
    }

    /// `ask` classifies its own outcome, and `find name` results of `weak` quality are best
    /// guesses, not matches (`no_match`); the other modes succeed when they match anything.
    pub fn outcome(&self) -> Outcome {
        match self {
            Response::Ask(r) => return r.outcome,
            Response::Name(r) if r.fuzzy_match_quality == Some(MatchQuality::Weak) => {
                return Outcome::NoMatch
            }
            _ => {}
        }
        if self.ranked_keys().is_empty() {
            Outcome::NoMatch
        } else {
            Outcome::Success
        }
    }
}
