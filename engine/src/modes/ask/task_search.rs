//! The part of `ask` that answers a task rather than a name: "Exit immediately when Ctrl-C
//! has been pressed twice" names no file or declaration, so the symbol cascade (one term
//! joined from every word) finds nothing, while the file to change holds most of the words.
//!
//! A question whose term has at least `task_ranking.min_task_terms` significant words is a
//! task: `find` runs once on its whole term (a phrase that names a file or a declaration
//! still wins), and when that finds nothing the files are ranked by every word
//! ([`crate::retrieval::rank_written`], recorded as the tool `rank`). A shorter question runs
//! the cascade, and is ranked by every word only when the cascade finds nothing.

use super::calls::{Calls, Tool, ToolCall};
use super::found::{find_input, AskMatch, Found};
use crate::modes::code::{self, CodeRequest};
use crate::planner::Plan;
use crate::profile::Profile;
use crate::retrieval::{rank_written, tokens::question_terms};
use crate::text::term::SEPARATOR;
use crate::tree::Tree;

/// True when the question is a task by the profile: enough words of its term hold a
/// significant term (one identifier such as `extract_best_term` is one word).
pub fn is_task(plan: &Plan, profile: &Profile) -> bool {
    let w = &profile.task_ranking;
    w.enabled
        && plan
            .term
            .split(SEPARATOR)
            .filter(|word| !question_terms(word, &w.stop_words).is_empty())
            .count()
            >= w.min_task_terms.max(1)
}

/// A question as written, and as planned.
pub type Asked<'a> = (&'a str, &'a Plan);

/// A task: `find` the whole term; when it finds nothing, rank by every word.
pub fn search(
    tree: &Tree,
    (question, plan): Asked<'_>,
    profile: &Profile,
    calls: &mut Vec<ToolCall>,
    wanted: usize,
) -> Found {
    let mut calls = rank_calls(calls, profile);
    if !calls.take(Tool::Find, find_input(&plan.term, plan.impl_query)) {
        return Found::default();
    }
    let request = CodeRequest {
        term: plan.term.clone(),
        impl_query: plan.impl_query,
        limit: usize::MAX,
    };
    let (total, found) = code::rank_top(tree, &request, &profile.code, wanted);
    calls.found(total);
    if !found.is_empty() {
        return Found::from_find(total, found);
    }
    rank(tree, (question, plan), profile, &mut calls, wanted)
}

/// What the cascade found for a question that names one subject, or, when it found
/// nothing, the files that hold every word of the subject (the profile's
/// `subject_joint_coverage`), ranked: a file that shares one word with it is not an answer.
pub fn or_rank_subject(
    found: Found,
    tree: &Tree,
    (question, plan): Asked<'_>,
    profile: &Profile,
    calls: &mut Vec<ToolCall>,
    wanted: usize,
) -> Found {
    if !found.matches.is_empty() || !profile.task_ranking.enabled {
        return found;
    }
    let mut strict = profile.clone();
    let w = &mut strict.task_ranking;
    w.min_coverage = w.min_coverage.max(w.subject_joint_coverage);
    w.min_joint_coverage = w.min_joint_coverage.max(w.subject_joint_coverage);
    let calls = &mut rank_calls(calls, profile);
    rank(tree, (question, plan), &strict, calls, wanted)
}

/// A task the tree narrowed to a phrase of it that names something, whose files held too
/// little of it: ranked by every word after all, keeping a call for `read`.
pub fn rank_task(
    tree: &Tree,
    asked: Asked<'_>,
    profile: &Profile,
    calls: &mut Vec<ToolCall>,
    wanted: usize,
) -> Found {
    rank(
        tree,
        asked,
        profile,
        &mut rank_calls(calls, profile),
        wanted,
    )
}

/// Tool calls the search of a one-subject question may make: one is kept for `read`, and
/// one for `rank` when the profile ranks by words.
pub fn subject_search_calls(profile: &Profile) -> usize {
    let rank = usize::from(profile.task_ranking.enabled);
    profile
        .planner
        .max_iterations
        .saturating_sub(1 + rank)
        .max(1)
}

/// One `rank` call: the files holding the words of the plan's term, best first, each
/// pointing at the line where most of them meet; the question as written tells the code
/// shapes, names and scope the words lost ([`rank_written`]).
fn rank(
    tree: &Tree,
    (question, plan): Asked<'_>,
    profile: &Profile,
    calls: &mut Calls,
    wanted: usize,
) -> Found {
    let words = plan.term.split(SEPARATOR).collect::<Vec<_>>().join(" ");
    if !calls.take(Tool::Rank, words.clone()) {
        return Found::default();
    }
    let ranking = rank_written(tree, &words, question, profile, wanted);
    let ranked = ranking.files;
    calls.found(ranked.len());
    Found {
        candidates: ranked.len(),
        absent: ranking.absent,
        matches: ranked
            .into_iter()
            .map(|r| AskMatch {
                line: r.evidence_lines.first().map(|l| l.0),
                path: r.path,
                score: r.score,
                reason: format!("rank: {}", r.reason),
                step: None,
                ranked: true,
                names_term: false,
            })
            .collect(),
    }
}

/// The calls a task's search may make: all of the cascade's budget but one, kept for `read`.
fn rank_calls<'a>(calls: &'a mut Vec<ToolCall>, profile: &Profile) -> Calls<'a> {
    Calls {
        calls,
        limit: profile.planner.max_iterations.max(1) - 1,
    }
}
