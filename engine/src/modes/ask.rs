//! `ask`: the retrieval cascade an agent runs for a question. Plan a term, run `find code`,
//! fall back to `grep` when it finds nothing, read the best candidate, and classify the
//! outcome: success (evidence read), insufficient_evidence (tools or budget ran out with
//! nothing to read) or failure (the cascade could not run).

use crate::error::{EngineError, Result};
use crate::modes::retrieve;
use crate::planner::{self, Plan};
use crate::profile::Profile;
use crate::request::Outcome;
use crate::tree::Tree;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// An `ask` request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AskRequest {
    pub question: String,
    /// Candidates returned in `matches`.
    pub limit: usize,
}

impl AskRequest {
    pub fn new(question: impl Into<String>) -> AskRequest {
        AskRequest {
            question: question.into(),
            limit: 5,
        }
    }
}

/// A tool of the cascade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tool {
    Find,
    Grep,
    Read,
}

/// One ranked candidate, from whichever tool produced the candidates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AskMatch {
    pub path: String,
    pub score: f64,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AskResponse {
    pub question: String,
    /// The planned term and impl flag; `null` when the question held nothing to search for.
    pub plan: Option<Plan>,
    /// The tools run, in order.
    pub tools: Vec<Tool>,
    pub iterations: usize,
    pub matches: Vec<AskMatch>,
    /// Candidates the last search tool found (before the limit).
    pub candidates: usize,
    /// The file read as evidence.
    pub selected: Option<String>,
    pub outcome: Outcome,
    pub duration_ms: f64,
    /// The ranking profile the cascade ran with.
    pub profile: String,
    /// Why the cascade failed, for a failure outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

pub fn ask(tree: &Tree, request: &AskRequest, profile: &Profile) -> Result<AskResponse> {
    let clock = Instant::now();
    if request.question.trim().is_empty() {
        return Err(EngineError::invalid_with_hint(
            "empty question",
            "ask a question such as \"where is replay implemented\"",
        ));
    }
    if request.limit == 0 {
        return Err(EngineError::invalid("--limit must be at least 1"));
    }
    let rules = &profile.planner;
    let mut cascade = Cascade {
        tools: Vec::new(),
        budget: rules.max_iterations,
    };
    let finish = |cascade: Cascade,
                  plan: Option<Plan>,
                  matches: Vec<AskMatch>,
                  candidates: usize,
                  selected: Option<String>,
                  outcome: Outcome,
                  error: Option<String>| AskResponse {
        question: request.question.clone(),
        plan,
        iterations: cascade.tools.len(),
        tools: cascade.tools,
        matches,
        candidates,
        selected,
        outcome,
        duration_ms: (clock.elapsed().as_secs_f64() * 1e6).round() / 1e3,
        profile: profile.name.clone(),
        error,
    };
    let Some(plan) = planner::plan(&request.question, rules) else {
        let error = "the planner found no term to search for in the question".to_string();
        return Ok(finish(
            cascade,
            None,
            Vec::new(),
            0,
            None,
            Outcome::Failure,
            Some(error),
        ));
    };

    // search (find, then the fallbacks), keeping a call for `read`
    let found = retrieve::search(
        tree,
        &plan,
        profile,
        &mut retrieve::Calls {
            limit: rules.max_iterations.saturating_sub(1).max(1),
            tools: &mut cascade.tools,
        },
    );
    let (mut matches, candidates) = (found.matches, found.candidates);
    // read the best candidates until one holds text: that is the evidence
    let mut selected = None;
    for m in matches.iter().take(rules.read_attempts.max(1)) {
        if !cascade.take(Tool::Read) {
            break;
        }
        if tree.file(&m.path).and_then(|f| f.content.text()).is_some() {
            selected = Some(m.path.clone());
            break;
        }
    }
    let outcome = if selected.is_some() {
        Outcome::Success
    } else {
        Outcome::InsufficientEvidence
    };
    matches.truncate(request.limit);
    Ok(finish(
        cascade,
        Some(plan),
        matches,
        candidates,
        selected,
        outcome,
        None,
    ))
}

/// The tools run so far, within the iteration budget.
struct Cascade {
    tools: Vec<Tool>,
    budget: usize,
}

impl Cascade {
    /// Records a tool call; false when the budget is spent.
    fn take(&mut self, tool: Tool) -> bool {
        if self.tools.len() >= self.budget {
            return false;
        }
        self.tools.push(tool);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{Content, TreeFile};

    fn tree() -> Tree {
        Tree::from_memory(
            "t",
            [
                (
                    "src/services/replay_service.cpp",
                    "void ReplayService::replay(const Trace& t) {\n}\n",
                ),
                (
                    "src/services/replay_service.h",
                    "class ReplayService {\n};\n",
                ),
                ("DESIGN.md", "The cursor binary is built from tools.\n"),
            ],
        )
    }

    fn run(q: &str, profile: &Profile) -> AskResponse {
        ask(&tree(), &AskRequest::new(q), profile).unwrap()
    }

    #[test]
    fn find_then_read_succeeds() {
        let r = run("where is replay implemented", &Profile::default());
        let plan = r.plan.as_ref().unwrap();
        assert_eq!((plan.term.as_str(), plan.impl_query), ("replay", true));
        assert_eq!(r.tools, [Tool::Find, Tool::Read]);
        assert_eq!(r.iterations, 2);
        assert_eq!(r.candidates, 2);
        assert_eq!(
            r.selected.as_deref(),
            Some("src/services/replay_service.cpp")
        );
        assert_eq!(r.outcome, Outcome::Success);
        assert!(
            r.matches[0].reason.starts_with("find: symbol"),
            "{}",
            r.matches[0].reason
        );
    }

    #[test]
    fn grep_is_the_fallback() {
        let r = run("find cursor binary", &Profile::default());
        // the whole term, then each word, then grep
        assert_eq!(
            r.tools,
            [Tool::Find, Tool::Find, Tool::Find, Tool::Grep, Tool::Read]
        );
        assert_eq!(r.selected.as_deref(), Some("DESIGN.md"));
        assert_eq!(r.outcome, Outcome::Success);
    }

    #[test]
    fn nothing_found_is_insufficient_evidence() {
        let r = run(
            "where is kubernetes autoscaler implemented",
            &Profile::default(),
        );
        assert_eq!(r.tools, [Tool::Find, Tool::Find, Tool::Find, Tool::Grep]);
        assert_eq!(r.candidates, 0);
        assert_eq!(r.selected, None);
        assert_eq!(r.outcome, Outcome::InsufficientEvidence);
    }

    #[test]
    fn legacy_profile_reproduces_the_before_state() {
        let legacy = Profile::builtin("legacy").unwrap();
        let r = run("find cursor binary", &legacy);
        assert_eq!(r.outcome, Outcome::InsufficientEvidence);
        assert_eq!(r.profile, "legacy");
    }

    #[test]
    fn a_question_without_a_term_is_a_failure() {
        let r = run("where is it?", &Profile::default());
        assert_eq!(r.outcome, Outcome::Failure);
        assert!(r.tools.is_empty() && r.plan.is_none() && r.error.is_some());
    }

    #[test]
    fn the_iteration_budget_stops_the_cascade() {
        let mut p = Profile::default();
        p.planner.max_iterations = 1;
        let r = run("find cursor binary", &p);
        assert_eq!(r.tools, [Tool::Find]);
        assert_eq!(r.outcome, Outcome::InsufficientEvidence);
    }

    #[test]
    fn an_unreadable_candidate_is_not_evidence() {
        let file = TreeFile::new(
            "src/replay.cpp".into(),
            0,
            Content::Unreadable("permission denied".into()),
            80,
        );
        let tree = Tree::from_parts("t", vec![file]);
        let r = ask(
            &tree,
            &AskRequest::new("where is replay implemented"),
            &Profile::default(),
        )
        .unwrap();
        assert_eq!(r.tools, [Tool::Find, Tool::Read]);
        assert_eq!(r.outcome, Outcome::InsufficientEvidence);
    }
}
