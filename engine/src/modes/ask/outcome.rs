//! The outcome of a response; `ask` classifies its own, the other modes derive it.

use serde::{Deserialize, Serialize};

/// Whether a response found what it looked for. `ask` adds `insufficient_evidence`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Success,
    NoMatch,
    InsufficientEvidence,
    Failure,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Success => "success",
            Outcome::NoMatch => "no_match",
            Outcome::InsufficientEvidence => "insufficient_evidence",
            Outcome::Failure => "failure",
        }
    }
}
