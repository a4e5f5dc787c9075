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
mod search;
pub(crate) mod task_search;

pub use calls::{Tool, ToolCall};
pub use found::AskMatch;
pub use outcome::Outcome;
pub use read::{Evidence, EvidenceLine, ReadResult};

use crate::error::{EngineError, Result};
use crate::planner::{self, Plan};
use crate::profile::Profile;
use crate::text::term::Term;
use crate::tree::Tree;
use calls::{Calls, Cascade};
use read::{read_file, Read, Reading};
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
    if let Some(term) = plan::subject(tree, &plan, rules) {
        plan.term = term;
    }
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
    let (mut matches, candidates) = (found.matches, found.candidates);
    // words of a subject the tree does not hold: its files are listed, not read
    if let Some(absent) = found.absent.filter(|_| !matches.is_empty()) {
        matches.truncate(request.limit);
        let by_history =
            most_changed::list_most_changed(tree, profile, &mut matches, request.limit);
        let by_words = matches.len() - by_history;
        let reason = format!(
            "{absent}: its subject is absent; the {by_words} file{} listed{} hold{} the \
             words it has{}, unread",
            if by_words == 1 { "" } else { "s" },
            if by_history > 0 { " first" } else { "" },
            if by_words == 1 { "s" } else { "" },
            match by_history {
                0 => String::new(),
                1 => ", the one after them changed most often".to_string(),
                n => format!(", the {n} after them changed most often"),
            },
        );
        return Ok(finish(
            cascade,
            None,
            Some(plan),
            matches,
            candidates,
            Reading::default(),
            Outcome::InsufficientEvidence,
            Some(reason),
        ));
    }
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
    let mut read = Reading::default();
    // the read with evidence the answer's confidence is of: the selected file, else the
    // read whose evidence held the largest share
    let mut best: Option<Best> = None;
    let mut weak = 0usize;
    for m in matches.iter().take(rules.read_attempts.max(1)) {
        if !cascade.take(Tool::Read, &m.path) {
            break;
        }
        let Read {
            mut result,
            evidence,
            held,
        } = read_file(tree, m, &term, &terms, profile);
        let held_share = confidence::held_share(&weights, &held);
        let enough = held_share >= rules.min_held_share;
        let this = Best {
            held_share,
            ranked: m.ranked,
        };
        if evidence.is_some() {
            if best.is_none_or(|b| held_share > b.held_share) {
                best = Some(this);
            }
            if !enough {
                weak += 1;
                result.evidence = false;
                result.note = format!(
                    "{}; held share {held_share:.2}, below {:.2}: the question's rarer words are not in it",
                    result.note, rules.min_held_share
                );
            }
        }
        let counts = evidence.is_some() && enough;
        cascade.found(usize::from(counts));
        read.reads.push(result);
        if counts {
            read.evidence = evidence;
            best = Some(this);
            break;
        }
    }
    let (outcome, reason) = if read.evidence.is_some() {
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
    // the most changed files where the words found nothing or nothing read holds them; a
    // file read that holds part of the question (`weak`) keeps the places its words give
    if outcome == Outcome::InsufficientEvidence && weak == 0 {
        most_changed::list_most_changed(tree, profile, &mut matches, request.limit);
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

/// The read an answer's confidence is of: the share of the question it held, and whether
/// its file was ranked by a task's words (which the calibration tells apart).
#[derive(Debug, Clone, Copy)]
struct Best {
    held_share: f64,
    ranked: bool,
}

fn rounded(x: f64) -> f64 {
    (x.clamp(0.0, 1.0) * 1e3).round() / 1e3
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
                ("NOTES.md", "The cursor binary is built from tools.\n"),
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
            r.matches[0].reason.starts_with("find: definition"),
            "{}",
            r.matches[0].reason
        );
        // the read quotes the declaration find matched
        let e = r.evidence.unwrap();
        assert_eq!(e.path, "src/services/replay_service.cpp");
        assert_eq!(e.lines[0].number, 1);
        assert_eq!(
            e.lines[0].text,
            "void ReplayService::replay(const Trace& t) {"
        );
        assert_eq!(e.mentions, 1);
        assert_eq!(r.reads.len(), 1);
        assert!(r.reads[0].evidence);
    }

    fn name_only_tree() -> Tree {
        Tree::from_memory(
            "t",
            [
                // found by its directory alone: nothing in it is about replay
                ("src/replay/policy.cpp", "int limit = 3;\n"),
                ("src/replay/notes.txt", "todo\n"),
            ],
        )
    }

    #[test]
    fn a_candidate_whose_text_never_mentions_the_term_is_not_evidence() {
        let r = ask(
            &name_only_tree(),
            &AskRequest::new("where is replay implemented"),
            &Profile::default(),
        )
        .unwrap();
        assert_eq!(r.candidates, 2);
        assert_eq!(r.tools, [Tool::Find, Tool::Read, Tool::Read]);
        assert_eq!(r.selected, None);
        assert_eq!(r.evidence, None);
        assert_eq!(r.outcome, Outcome::InsufficientEvidence);
        assert_eq!(r.reads.len(), 2);
        assert_eq!(r.reads[0].note, "no line mentions `replay`");
        // the spec's read (any readable text) is one rule away
        let mut p = Profile::default();
        p.planner.read_requires_mention = false;
        let r = ask(
            &name_only_tree(),
            &AskRequest::new("where is replay implemented"),
            &p,
        )
        .unwrap();
        assert_eq!(r.outcome, Outcome::Success);
        assert_eq!(r.selected.as_deref(), Some("src/replay/policy.cpp"));
    }

    #[test]
    fn a_file_named_for_the_term_is_evidence_and_plurals_match_singulars() {
        let tree = Tree::from_memory(
            "t",
            [
                (
                    "src/runner.rs",
                    "//! Cases in parallel.\npub fn each() {}\n",
                ),
                ("src/lib.rs", "pub mod runner;\n"),
                (
                    "src/tree/symbols.rs",
                    "/// One symbol.\npub struct Symbol;\n",
                ),
            ],
        );
        let r = ask(
            &tree,
            &AskRequest::new("where is the runner implemented"),
            &Profile::default(),
        )
        .unwrap();
        assert_eq!(r.selected.as_deref(), Some("src/runner.rs"));
        assert_eq!(
            r.reads[0].note,
            "named for the term; no line mentions `run`"
        );
        assert!(r.evidence.unwrap().lines.is_empty());
        let r = ask(&tree, &AskRequest::new("find symbols"), &Profile::default()).unwrap();
        assert_eq!(r.selected.as_deref(), Some("src/tree/symbols.rs"));
        assert_eq!(r.evidence.unwrap().mentions, 2);
        let mut p = Profile::default();
        p.planner.exact_name_is_evidence = false;
        let r = ask(
            &tree,
            &AskRequest::new("where is the runner implemented"),
            &p,
        )
        .unwrap();
        assert_eq!(r.selected.as_deref(), Some("src/lib.rs"));
    }

    #[test]
    fn read_moves_on_to_the_next_candidate_with_evidence() {
        let tree = Tree::from_memory(
            "t",
            [
                ("src/replay/policy.cpp", "int limit = 3;\n"),
                ("src/replay/runner.cpp", "// runs one replay\nint run();\n"),
            ],
        );
        let r = ask(
            &tree,
            &AskRequest::new("where is replay implemented"),
            &Profile::default(),
        )
        .unwrap();
        assert_eq!(r.tools, [Tool::Find, Tool::Read, Tool::Read]);
        assert_eq!(r.selected.as_deref(), Some("src/replay/runner.cpp"));
        let e = r.evidence.unwrap();
        assert_eq!(e.lines.len(), 1);
        assert_eq!(
            (e.lines[0].number, e.lines[0].text.as_str()),
            (1, "// runs one replay")
        );
        assert!(!r.reads[0].evidence && r.reads[1].evidence);
    }

    #[test]
    fn evidence_lines_are_capped_by_the_profile() {
        let text = "replay\n".repeat(9);
        let tree = Tree::from_memory("t", [("replay.cpp", text.as_str())]);
        let mut p = Profile::default();
        p.planner.evidence_lines = 3;
        let r = ask(&tree, &AskRequest::new("find replay"), &p).unwrap();
        let e = r.evidence.unwrap();
        assert_eq!(e.mentions, 9);
        assert_eq!(
            e.lines.iter().map(|l| l.number).collect::<Vec<_>>(),
            [1, 2, 3]
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
        assert_eq!(r.selected.as_deref(), Some("NOTES.md"));
        assert_eq!(r.outcome, Outcome::Success);
        // grep's first matching line is the evidence
        assert_eq!(r.matches[0].line, Some(1));
        assert_eq!(r.evidence.as_ref().unwrap().lines[0].number, 1);
        // each call with its input: the per-word finds search different words
        let calls: Vec<(Tool, &str, usize)> = r
            .calls
            .iter()
            .map(|c| (c.tool, c.input.as_str(), c.candidates))
            .collect();
        assert_eq!(
            calls,
            [
                (Tool::Find, "cursor[ _-]?binary", 0),
                (Tool::Find, "cursor", 0),
                (Tool::Find, "binary", 0),
                (Tool::Grep, "cursor[ _-]?binary", 1),
                (Tool::Read, "NOTES.md", 1),
            ]
        );
        assert_eq!(r.tools, r.calls.iter().map(|c| c.tool).collect::<Vec<_>>());
        // in the JSON answer too, beside the names
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["tools"][1], "find");
        assert_eq!(
            json["calls"][1],
            serde_json::json!({"tool": "find", "input": "cursor", "candidates": 0})
        );
    }

    #[test]
    fn a_read_call_is_the_path_it_opened() {
        let r = ask(
            &name_only_tree(),
            &AskRequest::new("where is replay implemented"),
            &Profile::default(),
        )
        .unwrap();
        let calls: Vec<(Tool, &str, usize)> = r
            .calls
            .iter()
            .map(|c| (c.tool, c.input.as_str(), c.candidates))
            .collect();
        assert_eq!(
            calls,
            [
                (Tool::Find, "replay --impl", 2),
                (Tool::Read, "src/replay/policy.cpp", 0),
                (Tool::Read, "src/replay/notes.txt", 0),
            ]
        );
    }

    #[test]
    fn nothing_found_is_insufficient_evidence() {
        let r = run(
            "where is kubernetes autoscaler implemented",
            &Profile::default(),
        );
        assert_eq!(
            r.tools,
            [Tool::Find, Tool::Find, Tool::Find, Tool::Grep, Tool::Rank]
        );
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
    fn a_question_without_a_term_is_no_match_with_a_reason() {
        for q in ["where is it?", "do open"] {
            let r = run(q, &Profile::default());
            assert_eq!(r.outcome, Outcome::NoMatch, "{q}");
            assert!(r.tools.is_empty() && r.plan.is_none() && r.error.is_none());
            assert!(r.reason.as_deref().unwrap().starts_with("no term"), "{r:?}");
        }
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

    #[test]
    fn a_subject_the_tree_does_not_hold_lists_the_files_of_its_words_unread() {
        let tree = Tree::from_memory(
            "t",
            [
                (
                    "src/sampling.rs",
                    "/// Draws a sample.\npub fn sample(n: usize) -> usize { n }\n",
                ),
                ("src/parse.rs", "pub fn parse_flags() {}\n"),
                ("README.md", "A library of sample helpers.\n"),
            ],
        );
        let q = "Tweaking sample to taste";
        let r = ask(&tree, &AskRequest::new(q), &Profile::default()).unwrap();
        assert_eq!(r.outcome, Outcome::InsufficientEvidence);
        let paths: Vec<&str> = r.matches.iter().map(|m| m.path.as_str()).collect();
        assert_eq!(paths, ["src/sampling.rs", "README.md"]);
        assert_eq!(r.candidates, 2);
        assert!(r.reads.is_empty() && r.selected.is_none(), "{r:?}");
        assert_eq!(r.confidence, 0.0);
        assert_eq!(
            r.reason.as_deref(),
            Some(
                "the tree holds 1 of the question's 3 terms, fewer than the 2 its subject \
                 needs: its subject is absent; the 2 files listed hold the words it has, unread"
            )
        );
        // a question whose words the tree holds together is read as before
        let r = ask(
            &tree,
            &AskRequest::new("draws a sample"),
            &Profile::default(),
        )
        .unwrap();
        assert_eq!(r.outcome, Outcome::Success);
    }
}
