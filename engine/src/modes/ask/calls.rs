//! The tools of the `ask` cascade and the calls it makes of them, within its budget.

use serde::{Deserialize, Serialize};

/// A tool of the cascade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tool {
    Find,
    Grep,
    /// Files ranked by every word of a task (`crate::retrieval`).
    Rank,
    Read,
}

impl Tool {
    pub fn as_str(self) -> &'static str {
        match self {
            Tool::Find => "find",
            Tool::Grep => "grep",
            Tool::Rank => "rank",
            Tool::Read => "read",
        }
    }
}

/// One tool call of the cascade: the tool, what it was given, and what it found. The
/// shape of a trace's tool call, so a replayed cascade reads like a recorded one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    pub tool: Tool,
    /// `find`: the term searched, with ` --impl` for an implementation question; `grep`:
    /// the term; `read`: the path opened.
    pub input: String,
    /// Files the search found (all of them, before any limit); for `read`, 1 when the
    /// file held evidence, else 0.
    pub candidates: usize,
}

/// The tool calls made so far, within the iteration budget.
pub struct Cascade {
    pub calls: Vec<ToolCall>,
    pub budget: usize,
}

impl Cascade {
    /// Records a call of `tool` on `input` (nothing found yet); false when the budget is
    /// spent.
    pub fn take(&mut self, tool: Tool, input: &str) -> bool {
        if self.calls.len() >= self.budget {
            return false;
        }
        self.calls.push(ToolCall {
            tool,
            input: input.to_string(),
            candidates: 0,
        });
        true
    }

    /// Records what the last call found.
    pub fn found(&mut self, candidates: usize) {
        if let Some(call) = self.calls.last_mut() {
            call.candidates = candidates;
        }
    }
}

/// The tool calls the search may make.
pub struct Calls<'a> {
    pub calls: &'a mut Vec<ToolCall>,
    /// Total tool calls (of the whole cascade) the search may bring `calls` to.
    pub limit: usize,
}

impl Calls<'_> {
    pub fn remaining(&self) -> usize {
        self.limit.saturating_sub(self.calls.len())
    }

    /// Records a call of `tool` on `input` (nothing found yet); false when the budget is
    /// spent.
    pub fn take(&mut self, tool: Tool, input: String) -> bool {
        if self.remaining() == 0 {
            return false;
        }
        self.calls.push(ToolCall {
            tool,
            input,
            candidates: 0,
        });
        true
    }

    /// Records what the last call found.
    pub fn found(&mut self, candidates: usize) {
        if let Some(call) = self.calls.last_mut() {
            call.candidates = candidates;
        }
    }
}
