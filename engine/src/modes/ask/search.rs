//! The search steps of `ask`, before anything is read: `find` the whole term; when it finds
//! nothing, fall back on the plan's stems (the stem of a single word, or each word of a
//! multi-word term, ranking the files that hold every required word first); then `grep`
//! the stemmed term (adjacent, or its words scattered), and last the required words alone.
//!
//! Every search is one tool call, recorded in order; the steps stop when the budget is
//! spent, and a fallback that needs more calls than are left is skipped.

use super::calls::{Calls, Tool};
use super::found::{find_input, AskMatch, Found};
use crate::modes::code::{self, CodeMatch, CodeRequest};
use crate::modes::grep;
use crate::planner::Plan;
use crate::profile::Profile;
use crate::text::fold::fold;
use crate::text::term::SEPARATOR;
use crate::tree::Tree;
use std::collections::HashMap;

/// Runs the search steps of the cascade for `plan`. `wanted` bounds the candidates a
/// single `find` returns with their reasons (the count covers them all).
pub fn search(
    tree: &Tree,
    plan: &Plan,
    profile: &Profile,
    calls: &mut Calls,
    wanted: usize,
) -> Found {
    let request = |term: &str| CodeRequest {
        term: term.to_string(),
        impl_query: plan.impl_query,
        limit: usize::MAX,
    };
    let find_top = |term: &str| code::rank_top(tree, &request(term), &profile.code, wanted);
    if !calls.take(Tool::Find, find_input(&plan.term, plan.impl_query)) {
        return Found::default();
    }
    let (total, whole) = find_top(&plan.term);
    calls.found(total);
    // only tests, examples or generated files: the fallbacks may find the implementation;
    // but a file that defines the term by its exact name is what was asked for, test or not
    // (`class LiquidTest` in test/liquid_test.rb for "liquid test")
    let only_secondary = whole
        .iter()
        .all(|m| m.secondary.is_some() && !m.defines_term);
    if !whole.is_empty() && !only_secondary {
        return Found::from_find(total, whole);
    }
    let found = fallbacks(plan, profile, calls, wanted, tree);
    if found.matches.is_empty() && !whole.is_empty() {
        return Found::from_find(total, whole);
    }
    found
}

/// The steps after a `find` of the whole term that found nothing (or only tests).
fn fallbacks(
    plan: &Plan,
    profile: &Profile,
    calls: &mut Calls,
    wanted: usize,
    tree: &Tree,
) -> Found {
    let request = |term: &str| CodeRequest {
        term: term.to_string(),
        impl_query: plan.impl_query,
        limit: usize::MAX,
    };
    let find_top = |term: &str| code::rank_top(tree, &request(term), &profile.code, wanted);
    // the per-word step combines every file each word finds
    let find_all = |term: &str| code::rank(tree, &request(term), &profile.code);
    let grep = |term: &str| grep::rank(tree, term, &profile.code, &profile.grep);
    let find_input = |term: &str| find_input(term, plan.impl_query);
    let mut found = Found::default();
    let fallback = profile.planner.word_fallback && !plan.words.is_empty();
    if fallback && plan.words.len() == 1 {
        // the stem of a single word: `loaded` -> `load`
        if fold(&plan.words[0]) != fold(&plan.term)
            && calls.take(Tool::Find, find_input(&plan.words[0]))
        {
            let (total, stemmed) = find_top(&plan.words[0]);
            calls.found(total);
            if !stemmed.is_empty() {
                return Found::from_find(total, stemmed);
            }
        }
    } else if fallback && calls.remaining() > plan.words.len() {
        // each word, leaving a call for grep
        let per_word: Vec<Vec<CodeMatch>> = plan
            .words
            .iter()
            .map(|w| {
                calls.take(Tool::Find, find_input(w));
                let matches = find_all(w);
                calls.found(matches.len());
                matches
            })
            .collect();
        let combined = combine(plan, &per_word);
        if !combined.matches.is_empty() {
            return combined;
        }
    }
    let grep_term = if fallback {
        plan.stemmed_term()
    } else {
        plan.term.clone()
    };
    if calls.take(Tool::Grep, grep_term.clone()) {
        let hits = grep(&grep_term);
        calls.found(hits.len());
        if !hits.is_empty() {
            return Found::from_grep(hits);
        }
        found.candidates = 0;
    }
    // the words the question is about, without the ones that only describe it
    let required = plan.required();
    let required_term = required.join(SEPARATOR);
    if fallback
        && required.len() < plan.words.len()
        && calls.take(Tool::Grep, required_term.clone())
    {
        let hits = grep(&required_term);
        calls.found(hits.len());
        if !hits.is_empty() {
            return Found::from_grep(hits);
        }
    }
    found
}

/// Files found for the words of the plan, one `find` per word: empty unless some file
/// holds every required word. Files holding more words rank first, then the file whose
/// best word matched best (an exact stem above a symbol that merely contains the word),
/// then the file whose path holds more of the words, then by the sum of their per-word
/// scores.
fn combine(plan: &Plan, per_word: &[Vec<CodeMatch>]) -> Found {
    struct Hit<'a> {
        required: usize,
        words: usize,
        /// The strongest single word's score: the file a word names beats the one
        /// several words merely touch.
        best: f64,
        /// Words of the plan the path holds: among equals, the file the words name.
        path_words: usize,
        score: f64,
        reasons: Vec<String>,
        path: &'a str,
    }
    let required: Vec<bool> = plan
        .words
        .iter()
        .map(|w| !plan.optional.contains(w))
        .collect();
    let needed = required.iter().filter(|r| **r).count();
    // the words as a folded path holds them (an identifier is kept as written)
    let folded: Vec<String> = plan.words.iter().map(|w| fold(w)).collect();
    let mut by_path: HashMap<&str, Hit> = HashMap::new();
    for (i, matches) in per_word.iter().enumerate() {
        for m in matches {
            let hit = by_path.entry(m.path.as_str()).or_insert_with(|| Hit {
                required: 0,
                words: 0,
                best: 0.0,
                path_words: {
                    let path = m.path.to_ascii_lowercase();
                    folded.iter().filter(|w| path.contains(w.as_str())).count()
                },
                score: 0.0,
                reasons: Vec::new(),
                path: m.path.as_str(),
            });
            hit.required += usize::from(required[i]);
            hit.words += 1;
            hit.score += m.score;
            hit.best = hit.best.max(m.score);
            hit.reasons
                .push(format!("`{}`: {}", plan.words[i], m.reason));
        }
    }
    if !by_path.values().any(|h| h.required == needed) {
        return Found::default();
    }
    let mut hits: Vec<Hit> = by_path.into_values().collect();
    hits.sort_by(|a, b| {
        b.required
            .cmp(&a.required)
            .then(b.words.cmp(&a.words))
            .then(b.best.total_cmp(&a.best))
            .then(b.path_words.cmp(&a.path_words))
            .then(b.score.total_cmp(&a.score))
            .then(a.path.len().cmp(&b.path.len()))
            .then_with(|| a.path.cmp(b.path))
    });
    let total = plan.words.len();
    Found {
        candidates: hits.len(),
        matches: hits
            .into_iter()
            .map(|h| AskMatch {
                path: h.path.to_string(),
                score: h.score,
                reason: format!(
                    "find words ({} of {total}): {}",
                    h.words,
                    h.reasons.join("; ")
                ),
                line: None,
                step: None,
                ranked: false,
                names_term: false,
            })
            .collect(),
        absent: None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::calls::ToolCall;
    use super::*;
    use crate::planner::plan;

    fn tree() -> Tree {
        Tree::from_memory(
            "t",
            [
                ("harness/src/corpus/load.rs", "pub fn load() {}\n"),
                (
                    "harness/src/corpus/mod.rs",
                    // `load` and `corpus` in symbols: more summed score, no file named by a word
                    "pub mod load;\npub struct CorpusSet;\n",
                ),
                ("harness/src/corpus/schema.rs", "pub struct Corpus;\n"),
                ("engine/src/store/load.rs", "pub fn load() {}\n"),
                ("tools/launch_cursor.sh", "#!/bin/sh\nexec cursor\n"),
                ("src/cursor/cursor_binary.cpp", "int main() {}\n"),
                ("docs/notes.md", "The timeline is rendered nightly.\n"),
                ("src/diagnostics.cpp", "std::string timeline_json() {}\n"),
            ],
        )
    }

    fn run(q: &str, profile: &Profile) -> (Vec<Tool>, Found) {
        let (calls, found) = run_calls(q, profile);
        (calls.iter().map(|c| c.tool).collect(), found)
    }

    fn run_calls(q: &str, profile: &Profile) -> (Vec<ToolCall>, Found) {
        let p = plan(q, &profile.planner).unwrap();
        let mut made = Vec::new();
        let mut calls = Calls {
            calls: &mut made,
            limit: profile.planner.max_iterations - 1,
        };
        let found = search(&tree(), &p, profile, &mut calls, 10);
        (made, found)
    }

    /// (tool, input, candidates) of each call.
    fn shown(calls: &[ToolCall]) -> Vec<(&str, &str, usize)> {
        calls
            .iter()
            .map(|c| (c.tool.as_str(), c.input.as_str(), c.candidates))
            .collect()
    }

    #[test]
    fn each_call_records_its_input_and_what_it_found() {
        // the per-word finds are one call per word, each on its own word
        let (calls, found) = run_calls("where is the corpus loaded", &Profile::default());
        assert_eq!(found.matches[0].path, "harness/src/corpus/load.rs");
        let p = plan("where is the corpus loaded", &Profile::default().planner).unwrap();
        assert_eq!(p.words.len(), 2);
        let got = shown(&calls);
        assert_eq!(got[0].0, "find");
        assert_eq!(got[0].1, p.term);
        assert_eq!(got[0].2, 0);
        // `corpus` is in 3 paths, `load` in 3 (one outside the corpus directory)
        assert_eq!(
            &got[1..],
            [
                ("find", p.words[0].as_str(), 3),
                ("find", p.words[1].as_str(), 3)
            ]
        );
        // grep's input is the term it searched; an implementation question marks find's
        let (calls, _) = run_calls("where is the cursor corpus", &Profile::default());
        assert_eq!(calls.last().map(|c| c.tool), Some(Tool::Grep));
        assert_eq!(calls.last().unwrap().candidates, 0);
        let (calls, _) = run_calls("where is load implemented", &Profile::default());
        assert_eq!(shown(&calls), [("find", "load --impl", 3)]);
    }

    #[test]
    fn words_split_across_directory_and_stem_are_found_one_by_one() {
        let (tools, found) = run("where is the corpus loaded", &Profile::default());
        assert_eq!(tools, [Tool::Find, Tool::Find, Tool::Find]);
        assert_eq!(found.matches[0].path, "harness/src/corpus/load.rs");
        assert!(
            found.matches[0].reason.starts_with("find words (2 of 2)"),
            "{}",
            found.matches[0].reason
        );
    }

    #[test]
    fn stems_and_word_order_do_not_matter() {
        let (_, found) = run("where is the cursor launched", &Profile::default());
        assert_eq!(found.matches[0].path, "tools/launch_cursor.sh");
    }

    #[test]
    fn an_optional_word_ranks_but_is_not_required() {
        // `render` is in no path: the timeline files are still the answer
        let (tools, found) = run("how is the timeline rendered", &Profile::default());
        assert_eq!(tools, [Tool::Find, Tool::Find, Tool::Find]);
        assert_eq!(found.matches[0].path, "src/diagnostics.cpp");
    }

    #[test]
    fn words_that_no_file_holds_together_find_nothing() {
        let (tools, found) = run("where is the cursor corpus", &Profile::default());
        // find whole, find each word, grep the words: no file holds both
        assert_eq!(tools, [Tool::Find, Tool::Find, Tool::Find, Tool::Grep]);
        assert!(found.matches.is_empty());
    }

    #[test]
    fn the_budget_bounds_the_fallbacks() {
        let mut p = Profile::default();
        p.planner.max_iterations = 3; // the search may make 2 calls
        let (tools, found) = run("where is the corpus loaded", &p);
        // not enough calls for both words and grep: grep the stems instead
        assert_eq!(tools, [Tool::Find, Tool::Grep]);
        assert!(found.matches.iter().all(|m| m.reason.starts_with("grep: ")));
    }

    #[test]
    fn legacy_has_no_fallback() {
        let legacy = Profile::builtin("legacy").unwrap();
        let (tools, found) = run("where is the corpus loaded", &legacy);
        assert_eq!(tools, [Tool::Find, Tool::Grep]);
        assert!(found.matches.is_empty());
    }
}
