//! The subject of a question, read against the tree: the planner's term is the question's
//! content words, but a name may hold words a question also uses as filler (`get` and `used`
//! of `get_used_global_args`, `to` of `to_os_string`, `is` of `is_empty`), and a question
//! may hold a content word that is not part of the name (`explain the arg matcher`). The
//! plan step therefore looks at the phrases of the question around the term, widened by a
//! few words on each side (and narrowed to two or more of its own words), and takes the
//! longest phrase that names a definition or a file of the tree exactly, as an agent
//! recognises a name it has seen in the listing.

use crate::planner::Plan;
use crate::profile::PlannerRules;
use crate::text::camel::snake;
use crate::text::char_bag::char_bag;
use crate::text::stem::is_plain_word;
use crate::text::term::SEPARATOR;
use crate::tree::{Tree, TreeFile};
use rayon::prelude::*;
use std::cmp::Reverse;

/// The term to search for instead of the plan's own: the longest phrase of the question
/// around the term that names a definition or file stem of the tree exactly; `None` when
/// no phrase does or the plan's own term is that phrase.
pub fn subject(tree: &Tree, plan: &Plan, rules: &PlannerRules) -> Option<String> {
    if !rules.subject_from_tree {
        return None;
    }
    let (first, last) = (*plan.term_tokens.first()?, *plan.term_tokens.last()?);
    let n = plan.tokens.len();
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for a in first.saturating_sub(rules.subject_widen)..=first {
        for b in last..=(last + rules.subject_widen).min(n.saturating_sub(1)) {
            spans.push((a, b));
        }
    }
    // narrowed: the term without words at its ends, never below two words
    for a in first..=last {
        for b in a + 1..=last {
            if (a, b) != (first, last) {
                spans.push((a, b));
            }
        }
    }
    let own = snake(&plan.term.replace(SEPARATOR, " "));
    let candidates = phrases(&plan.tokens, spans);
    if candidates.first().is_none_or(|c| c.0 == own) {
        return None;
    }
    let (key, term, _) = first_named(tree, &candidates)?;
    (*key != own).then(|| term.clone())
}

/// For a question the planner found no term in (`get work`, `where is Read implemented`,
/// whose words are all intent, stop or impl words): the longest phrase of two or more of
/// its words, or a single word written as an identifier (`Read`, `feed_eof`), that names a
/// definition or file of the tree exactly; with the positions of its words.
pub fn subject_without_term(
    tree: &Tree,
    tokens: &[String],
    rules: &PlannerRules,
) -> Option<(String, Vec<usize>)> {
    if !rules.subject_from_tree || tokens.is_empty() || tokens.len() > MAX_TOKENS {
        return None;
    }
    let n = tokens.len();
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for (a, token) in tokens.iter().enumerate() {
        for b in a..n {
            if b > a || !is_plain_word(token) {
                spans.push((a, b));
            }
        }
    }
    let candidates = phrases(tokens, spans);
    let (key, term, _) = first_named(tree, &candidates)?;
    let (a, b) = (0..n)
        .flat_map(|a| (a..n).map(move |b| (a, b)))
        .find(|&(a, b)| snake(&tokens[a..=b].join(" ")) == *key)?;
    Some((term.clone(), (a..=b).collect()))
}

/// Longest question this widens over, in words: a longer one is no name.
const MAX_TOKENS: usize = 16;

/// The phrases of `spans`, longest first (among equals, the one that starts later), each
/// as (snake key, term, character bag), one per key.
fn phrases(tokens: &[String], mut spans: Vec<(usize, usize)>) -> Vec<(String, String, u64)> {
    spans.sort_by_key(|&(a, b)| (Reverse(b - a), Reverse(a)));
    let mut candidates: Vec<(String, String, u64)> = Vec::new();
    for (a, b) in spans {
        let words = &tokens[a..=b];
        let key = snake(&words.join(" "));
        if key.is_empty() || candidates.iter().any(|c| c.0 == key) {
            continue;
        }
        let bag = char_bag(&key);
        candidates.push((key, words.join(SEPARATOR), bag));
    }
    candidates
}

/// The first candidate that names a symbol (defined or declared) or a file stem of the
/// tree exactly, in one pass over the tree. The plan's own term comes before the phrases
/// narrowed from it, so a name the question gives whole is never cut to a shorter one.
fn first_named<'c>(
    tree: &Tree,
    candidates: &'c [(String, String, u64)],
) -> Option<&'c (String, String, u64)> {
    if candidates.is_empty() {
        return None;
    }
    // a symbol named exactly by a candidate is found in the tree's symbol table; a stem, by
    // a pass over the files
    let symbols = tree.symbol_table();
    let by_symbol: Vec<bool> = candidates
        .iter()
        .map(|(key, _, _)| symbols.names(key))
        .collect();
    let named = |f: &TreeFile, key: &str, bag: u64| bag & !f.name_bag == 0 && f.stem_snake == key;
    let found: Vec<bool> = tree
        .files()
        .par_iter()
        .fold(
            || vec![false; candidates.len()],
            |mut acc, f| {
                for (i, (key, _, bag)) in candidates.iter().enumerate() {
                    if !acc[i] && named(f, key, *bag) {
                        acc[i] = true;
                    }
                }
                acc
            },
        )
        .reduce(
            || vec![false; candidates.len()],
            |a, b| a.iter().zip(&b).map(|(x, y)| *x || *y).collect(),
        );
    candidates
        .iter()
        .zip(found.iter().zip(&by_symbol))
        .find(|(_, (stem, symbol))| **stem || **symbol)
        .map(|(c, _)| c)
}
