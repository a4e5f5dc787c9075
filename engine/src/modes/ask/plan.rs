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
use crate::text::term::SEPARATOR;
use crate::tree::Tree;
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
    // longest first; among equals, the one that starts later (fewer leading words)
    spans.sort_by_key(|&(a, b)| (Reverse(b - a), Reverse(a)));
    let own = snake(&plan.term.replace(SEPARATOR, " "));
    let mut candidates: Vec<(String, String, u64)> = Vec::new();
    for (a, b) in spans {
        let words = &plan.tokens[a..=b];
        let key = snake(&words.join(" "));
        if key.is_empty() || candidates.iter().any(|c| c.0 == key) {
            continue;
        }
        let bag = char_bag(&key);
        candidates.push((key, words.join(SEPARATOR), bag));
    }
    if candidates.first().is_none_or(|c| c.0 == own) {
        return None;
    }
    let named = |f: &crate::tree::TreeFile, key: &str, bag: u64| {
        bag & !f.name_bag == 0
            && (f.stem_snake == key || f.symbols.iter().any(|s| s.definition && s.snake == key))
    };
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
    let (key, term, _) = candidates
        .iter()
        .zip(&found)
        .find(|(_, f)| **f)
        .map(|(c, _)| c)?;
    (*key != own).then(|| term.clone())
}
