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
use crate::text::stem::is_plain_word;
use crate::text::term::SEPARATOR;
use crate::tree::Tree;
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::{HashMap, HashSet};

/// The term to search for instead of the plan's own: the longest phrase of the question
/// around the term that names a definition or file stem of the tree exactly; `None` when
/// no phrase does or the plan's own term is that phrase.
pub fn subject(tree: &Tree, plan: &Plan, rules: &PlannerRules) -> Option<String> {
    if !rules.subject_from_tree {
        return None;
    }
    let spans = spans_around_term(plan, rules);
    if spans.is_empty() {
        return None;
    }
    let own = snake(&plan.term.replace(SEPARATOR, " "));
    let candidates = phrases(&plan.tokens, spans);
    if candidates.first().is_none_or(|c| c.0 == own) {
        return None;
    }
    // a term the question writes as one identifier (`ForceRetryError`, `load_file`) that
    // names something of the tree is the name asked for: no phrase around it replaces it
    // (`where is ForceRetryError implemented` is not asking for `isForceRetryError`)
    if let [only] = plan.term_tokens[..] {
        // a CamelCase or snake_case word; a word with digits (`rfc2822`, `level1`) is a
        // word like any other, which `to rfc2822` or `source level1` may complete
        let written = plan
            .tokens
            .get(only)
            .is_some_and(|t| t.contains('_') || t.chars().any(|c| c.is_ascii_uppercase()));
        if written && first_named(tree, &[(own.clone(), plan.term.clone())]).is_some() {
            return None;
        }
    }
    let (key, term) = first_named(tree, &candidates)?;
    (*key != own).then(|| term.clone())
}

/// The phrases [`subject`] tries, as spans of the question's words: the term widened by up
/// to `subject_widen` words each side, and narrowed to two or more of its own words.
fn spans_around_term(plan: &Plan, rules: &PlannerRules) -> Vec<(usize, usize)> {
    let (Some(&first), Some(&last)) = (plan.term_tokens.first(), plan.term_tokens.last()) else {
        return Vec::new();
    };
    let (n, widen) = (plan.tokens.len(), rules.subject_widen.min(MAX_TOKENS));
    // a phrase of more than MAX_TOKENS words names nothing: leaving those out keeps the
    // spans linear in the question (a pasted issue text has thousands of words)
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for a in first.saturating_sub(widen)..=first {
        for b in last..=(last + widen).min(n.saturating_sub(1)) {
            if b - a < MAX_TOKENS {
                spans.push((a, b));
            }
        }
    }
    // narrowed: the term without words at its ends, never below two words
    for a in first..=last {
        for b in a + 1..=last.min(a + MAX_TOKENS - 1) {
            if (a, b) != (first, last) {
                spans.push((a, b));
            }
        }
    }
    spans
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
    let candidates = phrases(tokens, spans_without_term(tokens, rules));
    let (key, term) = first_named(tree, &candidates)?;
    let (a, b) = (0..n)
        .flat_map(|a| (a..n).map(move |b| (a, b)))
        .find(|&(a, b)| snake(&tokens[a..=b].join(" ")) == *key)?;
    Some((term.clone(), (a..=b).collect()))
}

/// The phrases of a question without a term: every span of two or more words, each word
/// written as an identifier, and each plain word that may be the question's object. A
/// question made only of intent words names its object with one of them (`read`, `find
/// handle`, `where is search defined`); its first word, when it has others, is how it
/// asks (`where`, `find`), and stop and impl words (`is`, `defined`) only frame it.
fn spans_without_term(tokens: &[String], rules: &PlannerRules) -> Vec<(usize, usize)> {
    let n = tokens.len();
    let listed = |list: &[String], word: &str| list.iter().any(|w| w == word);
    let may_be_object = |a: usize, word: &str| {
        (a > 0 || n == 1) && !listed(&rules.stop_words, word) && !listed(&rules.impl_words, word)
    };
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for (a, token) in tokens.iter().enumerate() {
        for b in a..n {
            if b > a || !is_plain_word(token) || may_be_object(a, token) {
                spans.push((a, b));
            }
        }
    }
    spans
}

/// The snake keys [`subject`] (for a plan) or [`subject_without_term`] (for a question
/// without one) may look up in the tree's symbol table: what a table of only some files'
/// symbols must hold in full to answer them as the whole table would.
pub fn phrase_keys(plan: Option<&Plan>, tokens: &[String], rules: &PlannerRules) -> Vec<String> {
    if !rules.subject_from_tree {
        return Vec::new();
    }
    let spans = match plan {
        Some(plan) => spans_around_term(plan, rules),
        None if tokens.is_empty() || tokens.len() > MAX_TOKENS => Vec::new(),
        None => spans_without_term(tokens, rules),
    };
    phrases(tokens, spans)
        .into_iter()
        .map(|(key, _)| key)
        .collect()
}

/// Longest phrase that may name something, in words (and longest question without a term
/// whose phrases are tried): a longer one is no name.
const MAX_TOKENS: usize = 16;

/// The phrases of `spans`, longest first (among equals, the one that starts later), each
/// as (snake key, term), one per key.
fn phrases(tokens: &[String], mut spans: Vec<(usize, usize)>) -> Vec<(String, String)> {
    spans.sort_by_key(|&(a, b)| (Reverse(b - a), Reverse(a)));
    let mut candidates: Vec<(String, String)> = Vec::new();
    let mut keys: HashSet<String> = HashSet::new();
    for (a, b) in spans {
        let words = &tokens[a..=b];
        let key = snake(&words.join(" "));
        if key.is_empty() || !keys.insert(key.clone()) {
            continue;
        }
        candidates.push((key, words.join(SEPARATOR)));
    }
    candidates
}

/// The first candidate that names a symbol (defined or declared) or a file stem of the
/// tree exactly, in one pass over the tree. The plan's own term comes before the phrases
/// narrowed from it, so a name the question gives whole is never cut to a shorter one.
fn first_named<'c>(
    tree: &Tree,
    candidates: &'c [(String, String)],
) -> Option<&'c (String, String)> {
    if candidates.is_empty() {
        return None;
    }
    // a symbol named exactly by a candidate is found in the tree's symbol table; a stem, by
    // looking each file's stem up among the candidates (one pass, whatever their number)
    let at: HashMap<&str, usize> = candidates
        .iter()
        .enumerate()
        .map(|(i, (key, _))| (key.as_str(), i))
        .collect();
    let stems: Vec<usize> = tree
        .files()
        .par_iter()
        .filter_map(|f| at.get(f.stem_snake()).copied())
        .collect();
    let mut named = vec![false; candidates.len()];
    for i in stems {
        named[i] = true;
    }
    candidates
        .iter()
        .zip(named)
        .find(|((key, _), stem)| *stem || tree.names(key))
        .map(|(c, _)| c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planner::plan;
    use proptest::prelude::*;

    fn spans_of(question: &str) -> Vec<(usize, usize)> {
        let rules = PlannerRules::default();
        plan(question, &rules).map_or_else(Vec::new, |p| spans_around_term(&p, &rules))
    }

    #[test]
    fn a_short_question_tries_every_phrase_around_its_term() {
        // `get used global args`: the term `global args` widened by `get used`
        let spans = spans_of("get used global args");
        assert!(spans.contains(&(0, 3)), "{spans:?}");
        assert!(spans.contains(&(2, 3)), "{spans:?}");
    }

    #[test]
    fn a_long_question_tries_only_phrases_that_may_be_names() {
        let question = "alpha beta gamma delta ".repeat(500);
        let spans = spans_of(&question);
        assert!(spans.iter().all(|&(a, b)| b - a < MAX_TOKENS));
        // linear: about MAX_TOKENS phrases per word of the term's span, not its square
        assert!(spans.len() <= MAX_TOKENS * 2000, "{}", spans.len());
    }

    proptest! {
        #[test]
        fn phrases_tried_are_linear_in_the_question(
            words in proptest::collection::vec("[a-z]{1,6}|the|where|is", 1..80),
            times in 1usize..40,
        ) {
            let question = vec![words.join(" "); times].join(" ");
            let spans = spans_of(&question);
            let widen = PlannerRules::default().subject_widen;
            let bound = (widen + 1) * (widen + 1) + MAX_TOKENS * words.len() * times;
            prop_assert!(spans.len() <= bound, "{} > {bound}", spans.len());
            prop_assert!(spans.iter().all(|&(a, b)| a <= b && b - a < MAX_TOKENS));
        }
    }
}
