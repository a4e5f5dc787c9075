//! One turn of an agent session: the person's question and what the agent did for it, in
//! the order the log gives. Tool output is never kept here, only its size and line count.

/// The person's question and the agent's searches and file reads and edits after it.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    pub question: String,
    pub timestamp: Option<String>,
    /// The log line the question is on (1-based).
    pub line: usize,
    pub steps: Vec<Step>,
}

/// One agent tool call that matters to retrieval.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    Search(Search),
    Touch(Touch),
}

impl Step {
    pub fn call_id(&self) -> &str {
        match self {
            Step::Search(s) => &s.call_id,
            Step::Touch(t) => &t.call_id,
        }
    }

    pub fn source(&self) -> usize {
        match self {
            Step::Search(s) => s.source,
            Step::Touch(t) => t.source,
        }
    }

    pub fn line(&self) -> usize {
        match self {
            Step::Search(s) => s.line,
            Step::Touch(t) => t.line,
        }
    }

    pub fn result(&self) -> Option<&CallResult> {
        match self {
            Step::Search(s) => s.result.as_ref(),
            Step::Touch(t) => t.result.as_ref(),
        }
    }

    pub fn set_result(&mut self, result: CallResult) {
        match self {
            Step::Search(s) => s.result = Some(result),
            Step::Touch(t) => t.result = Some(result),
        }
    }
}

/// A search the agent ran: its own tool's name and input, and what came back.
#[derive(Debug, Clone, PartialEq)]
pub struct Search {
    pub call_id: String,
    /// The agent's tool (`Grep`, `Glob`, `Bash`, `shell`, ...).
    pub tool: String,
    /// The pattern, or the search command as written.
    pub input: String,
    pub line: usize,
    /// The file the call is in: 0 the session's own, else one of its subagents'
    /// ([`super::session::Session::sources`]).
    pub source: usize,
    pub timestamp: Option<String>,
    pub result: Option<CallResult>,
}

/// A file the agent read or edited.
#[derive(Debug, Clone, PartialEq)]
pub struct Touch {
    pub call_id: String,
    /// As the log names it: absolute, or relative to `base`.
    pub path: String,
    /// The directory a relative `path` is relative to (the call's working directory);
    /// the session's when not given.
    pub base: Option<String>,
    pub line: usize,
    /// As [`Search::source`].
    pub source: usize,
    pub result: Option<CallResult>,
}

/// What a tool call gave back, as sizes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CallResult {
    /// Lines or paths in the output (0 for an error).
    pub candidates: u64,
    /// Bytes of output the agent got back.
    pub bytes: u64,
    pub is_error: bool,
    pub timestamp: Option<String>,
    /// When the log gives the call's duration itself.
    pub duration_ms: Option<f64>,
}
