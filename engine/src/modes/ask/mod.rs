//! `ask`: the retrieval cascade an agent runs for a question. Plan a term, run `find code`,
//! fall back to `grep` when it finds nothing, read the best candidates, and classify the
//! outcome: success (a file read holds evidence), insufficient_evidence (tools or budget ran
//! out before any did) or failure (the cascade could not run).
//!
//! Reading is what an agent does with a candidate: open it and look for the term. Evidence
//! is the lines that mention a word of the term, with the declaration `find` matched (or
//! the line `grep` found) first. A candidate found by its name or directory alone, whose
//! text never mentions the term, is read and rejected, not counted as an answer.

mod calls;
mod confidence;
mod found;
mod most_changed;
mod outcome;
pub(crate) mod plan;
mod read;
mod reading;
mod search;
pub(crate) mod task_search;

pub use calls::{Tool, ToolCall};
pub use found::AskMatch;
pub use outcome::Outcome;
pub use read::{Evidence, EvidenceLine, ReadResult};

use crate::error::{EngineError, Result};
use crate::planner::{self, Plan};
use crate::profile::Profile;
use crate::retrieval::Absent;
use crate::text::term::Term;
use crate::tree::Tree;
use calls::{Calls, Cascade};
use read::Reading;
use reading::{read_best, Best, Reads, Sought};
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AskResponse {
    pub question: String,
    /// The planned term and impl flag; `null` when the question held nothing to search for.
    pub plan: Option<Box<Plan>>,
    /// The tools run, in order (the names of `calls`).
    pub tools: Vec<Tool>,
    /// Every tool call, in order, with its input and what it found.
    #[serde(default)]
    pub calls: Vec<ToolCall>,
    pub iterations: usize,
    pub matches: Vec<AskMatch>,
    /// Candidates the last search tool found (before the limit).
    pub candidates: usize,
    /// The file read as evidence.
    pub selected: Option<String>,
    /// The selected file's evidence: its line numbers and lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<Evidence>,
    /// Every read, in order, and what it found.
    #[serde(default)]
    pub reads: Vec<ReadResult>,
    pub outcome: Outcome,
    /// The chance, in [0, 1], that the selected file is one the question is about: the
    /// held share below read through the profile's `planner.calibration` for the way the
    /// file was found (by the question's name, or ranked by a task's words), a map fitted
    /// so that of answers at confidence c about c are right. With no file selected, the
    /// same for the best read (0 when no read held evidence).
    #[serde(default)]
    pub confidence: f64,
    /// The share of the question's terms, each weighed by its inverse document frequency in
    /// the tree, that the selected file (else the best read) holds as words or identifier
    /// parts of its lines or its path. Below the profile's `planner.min_held_share` the
    /// outcome is `insufficient_evidence`.
    #[serde(default)]
    pub held_share: f64,
    pub duration_ms: f64,
    /// The ranking profile the cascade ran with.
    pub profile: String,
    /// Why the cascade failed, for a failure outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Why the outcome is not success, for a person: no term in the question, nothing
    /// found, or nothing read held evidence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
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
        calls: Vec::new(),
        budget: rules.max_iterations,
    };
    let finish = |cascade: Cascade,
                  best: Option<Best>,
                  plan: Option<Plan>,
                  matches: Vec<AskMatch>,
                  candidates: usize,
                  read: Reading,
                  outcome: Outcome,
                  reason: Option<String>| AskResponse {
        question: request.question.clone(),
        plan: plan.map(Box::new),
        iterations: cascade.calls.len(),
        tools: cascade.calls.iter().map(|c| c.tool).collect(),
        calls: cascade.calls,
        matches,
        candidates,
        selected: read.evidence.as_ref().map(|e| e.path.clone()),
        evidence: read.evidence,
        reads: read.reads,
        outcome,
        confidence: best.map_or(0.0, |b| {
            rounded(rules.calibration.chance(b.ranked, b.held_share))
        }),
        held_share: best.map_or(0.0, |b| rounded(b.held_share)),
        duration_ms: (clock.elapsed().as_secs_f64() * 1e6).round() / 1e3,
        profile: profile.name.clone(),
        error: None,
        reason,
    };
    let planned = planner::plan(&request.question, rules).or_else(|| {
        // no content word: a phrase of the question may still name a definition
        let tokens = planner::tokens(&request.question, rules);
        let (term, term_tokens) = plan::subject_without_term(tree, &tokens, rules)?;
        Some(Plan {
            term,
            tokens,
            term_tokens,
            ..Plan::default()
        })
    });
    let Some(mut plan) = planned else {
        let reason = "no term to search for: every word of the question is a question, \
                      intent or function word, and no phrase of it names a definition or \
                      file of the tree"
            .to_string();
        return Ok(finish(
            cascade,
            None,
            None,
            Vec::new(),
            0,
            Reading::default(),
            Outcome::NoMatch,
            Some(reason),
        ));
    };
    // a task the tree narrows to a phrase of it that names something (`for file` ->
    // `forFile`) is still a task: when no file of the phrase holds enough of it, it is
    // ranked by every word after all
    let whole_term = task_search::is_task(&plan, profile).then(|| plan.term.clone());
    // a phrase of the question that names something of the tree becomes its term: an answer
    // that is that thing's definition answers a part of the question, not all of it
    let narrowed = plan::subject(tree, &plan, rules)
        .map(|term| plan.term = term)
        .is_some();
    let whole_term =
        whole_term.filter(|_| rules.task_after_subject && !task_search::is_task(&plan, profile));
    // the candidates shown and the ones `read` may open: reasons for these only
    let wanted = request.limit.max(rules.read_attempts.max(1));
    // search: a task (a sentence of several significant words) is ranked by every word
    // unless its whole term names something; a question that names one subject runs find
    // and its fallbacks, keeping a call for `read`; when they find nothing, only files that
    // hold every word of the subject are ranked, never one that merely shares a word.
    let asked = (request.question.as_str(), &plan);
    let found = if task_search::is_task(&plan, profile) {
        task_search::search(tree, asked, profile, &mut cascade.calls, wanted)
    } else {
        let found = search::search(
            tree,
            &plan,
            profile,
            &mut Calls {
                limit: task_search::subject_search_calls(profile),
                calls: &mut cascade.calls,
            },
            wanted,
        );
        task_search::or_rank_subject(found, tree, asked, profile, &mut cascade.calls, wanted)
    };
    if let Some(absent) = found.absent.as_ref().filter(|_| !found.matches.is_empty()) {
        let (matches, reason) = listed_unread(tree, profile, found.matches, absent, request.limit);
        return Ok(finish(
            cascade,
            None,
            Some(plan),
            matches,
            found.candidates,
            Reading::default(),
            Outcome::InsufficientEvidence,
            Some(reason),
        ));
    }
    let (mut matches, mut candidates) = (found.matches, found.candidates);
    // read the best candidates until one holds evidence
    // what a read looks for: the words the question requires, as stems when the plan has
    // them (`launched` -> `launch`; an optional `-ed` word is not required)
    let required = plan.required();
    let term = if required.is_empty() || plan.term_tokens.is_empty() {
        Term::new(&plan.term)
    } else {
        Term::new(&required.join(crate::text::term::SEPARATOR))
    };
    // the question's terms as the ranking makes them, each weighed by how rare it is in the
    // tree: what an answer's confidence is the held share of
    let terms = confidence::question_terms_of(&plan, profile);
    let weights = confidence::idf_weights(tree, profile, &terms);
    let sought = Sought {
        term: &term,
        terms: &terms,
        weights: &weights,
    };
    let mut reads = Reads::default();
    read_best(tree, &matches, &sought, profile, &mut cascade, &mut reads);
    if let Some(term) = whole_term.filter(|_| !reads.answered()) {
        let whole = Plan {
            term,
            ..plan.clone()
        };
        let asked = (request.question.as_str(), &whole);
        let ranked = task_search::rank_task(tree, asked, profile, &mut cascade.calls, wanted);
        if !ranked.matches.is_empty() {
            plan = whole;
            if let Some(absent) = ranked.absent.as_ref() {
                let (matches, reason) =
                    listed_unread(tree, profile, ranked.matches, absent, request.limit);
                return Ok(finish(
                    cascade,
                    reads.best,
                    Some(plan),
                    matches,
                    ranked.candidates,
                    reads.reading,
                    Outcome::InsufficientEvidence,
                    Some(reason),
                ));
            }
            (matches, candidates) = (ranked.matches, ranked.candidates);
            read_best(tree, &matches, &sought, profile, &mut cascade, &mut reads);
        }
    }
    let Reads {
        reading: read,
        best,
        weak,
    } = reads;
    let (outcome, mut reason) = if read.evidence.is_some() {
        (Outcome::Success, None)
    } else if weak > 0 {
        (
            Outcome::InsufficientEvidence,
            Some(format!(
                "{} candidate{} read; the best holds a share {:.2} of the question's words, \
                 below the profile's {:.2}: the words that tell the answer apart are in none \
                 of them",
                read.reads.len(),
                if read.reads.len() == 1 { "" } else { "s" },
                best.map_or(0.0, |b| b.held_share),
                rules.min_held_share
            )),
        )
    } else if matches.is_empty() {
        (
            Outcome::InsufficientEvidence,
            Some(format!(
                "no file defines, declares, mentions or is named `{}`",
                plan.term
            )),
        )
    } else {
        (
            Outcome::InsufficientEvidence,
            Some(format!(
                "{} candidate{} read, none holds the term",
                read.reads.len(),
                if read.reads.len() == 1 { "" } else { "s" }
            )),
        )
    };
    matches.truncate(request.limit);
    // the words are not evidence of a file: the last places go to the files that changed
    // most lately, whether the files read hold part of the question or none of it
    if outcome == Outcome::InsufficientEvidence {
        let listed = most_changed::list_most_changed(tree, profile, &mut matches, request.limit);
        if let (Some(reason), 1..) = (reason.as_mut(), listed) {
            reason.push_str(&most_changed::listed_after(listed));
        }
    }
    // evidence in fewer files than asked for: the free places go to the files that
    // changed most lately, after the files found; unless the file read as evidence is
    // what the question names as a whole (its definition, or the file named for it, not a
    // phrase's within a task), an answer complete in itself
    let names_term = !narrowed
        && read
            .evidence
            .as_ref()
            .is_some_and(|e| matches.iter().any(|m| m.path == e.path && m.names_term));
    if outcome == Outcome::Success && !names_term {
        most_changed::fill_free_places(tree, profile, &mut matches, request.limit);
    }
    Ok(finish(
        cascade,
        best,
        Some(plan),
        matches,
        candidates,
        read,
        outcome,
        reason,
    ))
}

/// The files of a subject the tree does not hold (`absent`), listed unread: those its
/// words found first, then the files that changed most, lately most of all; with the
/// answer's reason.
fn listed_unread(
    tree: &Tree,
    profile: &Profile,
    mut matches: Vec<AskMatch>,
    absent: &Absent,
    limit: usize,
) -> (Vec<AskMatch>, String) {
    matches.truncate(limit);
    let by_history = most_changed::list_most_changed(tree, profile, &mut matches, limit);
    let by_words = matches.len() - by_history;
    let reason = format!(
        "{absent}: its subject is absent; the {by_words} file{} listed{} hold{} the \
         words it has, unread{}",
        if by_words == 1 { "" } else { "s" },
        if by_history > 0 { " first" } else { "" },
        if by_words == 1 { "s" } else { "" },
        most_changed::listed_after(by_history),
    );
    (matches, reason)
}

fn rounded(x: f64) -> f64 {
    (x.clamp(0.0, 1.0) * 1e3).round() / 1e3
}

#[cfg(test)]
mod tests;
