//! What the search steps of `ask` hand on: ranked candidates ([`AskMatch`]) from whichever
//! tool found them, and how many the last search tool found ([`Found`]).

use crate::modes::code::{CodeMatch, CodeStep};
use crate::modes::grep::GrepMatch;
use crate::retrieval::Absent;
use serde::{Deserialize, Serialize};

/// One ranked candidate, from whichever tool produced the candidates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AskMatch {
    pub path: String,
    pub score: f64,
    pub reason: String,
    /// The line the tool pointed at: the declaration `find` matched, or `grep`'s first
    /// matching line (1-based).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// The `find` step the candidate reached (none for a `grep` candidate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<CodeStep>,
    /// Ranked by every word of a task (the `rank` tool): its read needs one line that holds
    /// a word, and the answer's confidence (how much of the question's rarer words the
    /// file holds) decides, since a task's sentence is not one term a file must hold whole.
    #[serde(skip)]
    pub ranked: bool,
    /// `find` matched it as what its term names: a definition of the term's exact name, or
    /// a file named for the term. When the term is the question's own (not a phrase the
    /// tree narrowed a task to), such an answer is whole: its free places are not filled
    /// (`most_changed.rs`).
    #[serde(skip)]
    pub names_term: bool,
}

/// What the search found: ranked candidates, and how many the last search tool found.
#[derive(Debug, Default)]
pub struct Found {
    pub matches: Vec<AskMatch>,
    pub candidates: usize,
    /// Set when the candidates were ranked by words of a subject the tree does not hold:
    /// they are listed, never read as evidence.
    pub absent: Option<Absent>,
}

impl Found {
    pub(super) fn from_find(candidates: usize, found: Vec<CodeMatch>) -> Found {
        Found {
            candidates,
            matches: found
                .into_iter()
                .map(|m| AskMatch {
                    path: m.path,
                    score: m.score,
                    reason: format!("find: {}", m.reason),
                    line: m.line,
                    names_term: m.defines_term || m.step == CodeStep::ExactStem,
                    step: Some(m.step),
                    ranked: false,
                })
                .collect(),
            absent: None,
        }
    }

    pub(super) fn from_grep(found: Vec<GrepMatch>) -> Found {
        Found {
            candidates: found.len(),
            matches: found
                .into_iter()
                .map(|m| AskMatch {
                    path: m.path,
                    score: m.score,
                    reason: format!("grep: {}", m.reason),
                    line: Some(m.first.number),
                    step: None,
                    ranked: false,
                    names_term: false,
                })
                .collect(),
            absent: None,
        }
    }
}

/// A `find` call's input as an agent would type it: the term, with ` --impl` for an
/// implementation question.
pub(super) fn find_input(term: &str, impl_query: bool) -> String {
    if impl_query {
        format!("{term} --impl")
    } else {
        term.to_string()
    }
}
