//! The planner of `ask`: turns a question into the term and the impl flag the cascade
//! searches with, by the rules of the profile (stop, intent and impl words).
//!
//! Like the spec's `extract_best_term`, several content words are joined with the grep-style
//! separator `[ _-]?`; a single word (a CamelCase identifier too) is kept as written.

use crate::profile::PlannerRules;
use crate::text::fold::fold;
use crate::text::term::SEPARATOR;
use serde::{Deserialize, Serialize};

/// What the cascade will search for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    pub term: String,
    #[serde(rename = "impl")]
    pub impl_query: bool,
}

/// Plans a question; `None` when no word of it is left to search for.
pub fn plan(question: &str, rules: &PlannerRules) -> Option<Plan> {
    let is = |list: &[String], word: &str| list.iter().any(|w| *w == word);
    let mut impl_query = false;
    let mut words = Vec::new();
    for token in question.split_whitespace() {
        // keep `_ - . / :` inside identifiers and paths, drop quotes and punctuation around
        let token = token
            .trim_matches(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '/'));
        let token = token.trim_end_matches(['.', '/']);
        if token.is_empty() {
            continue;
        }
        let folded = fold(token);
        if is(&rules.impl_words, &folded) {
            impl_query = true;
        } else if !is(&rules.stop_words, &folded) && !is(&rules.intent_words, &folded) {
            words.push(token);
        }
    }
    if words.is_empty() {
        return None;
    }
    Some(Plan {
        term: words.join(SEPARATOR),
        impl_query,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(q: &str) -> Option<(String, bool)> {
        plan(q, &PlannerRules::default()).map(|p| (p.term, p.impl_query))
    }

    #[test]
    fn the_spec_questions() {
        assert_eq!(
            p("where is replay implemented"),
            Some(("replay".into(), true))
        );
        assert_eq!(
            p("find cursor binary"),
            Some(("cursor[ _-]?binary".into(), false))
        );
        assert_eq!(
            p("find cursor bin"),
            Some(("cursor[ _-]?bin".into(), false))
        );
        assert_eq!(
            p("how is evidence gating implemented?"),
            Some(("evidence[ _-]?gating".into(), true))
        );
        assert_eq!(
            p("Where is CommandRouter implemented?"),
            Some(("CommandRouter".into(), true))
        );
        assert_eq!(
            p("find checkpoint service"),
            Some(("checkpoint[ _-]?service".into(), false))
        );
    }

    #[test]
    fn identifiers_and_quotes_survive() {
        assert_eq!(
            p("where is `extract_best_term` defined"),
            Some(("extract_best_term".into(), true))
        );
        assert_eq!(
            p("where is \"ReplayService::replay\" implemented"),
            Some(("ReplayService::replay".into(), true))
        );
    }

    #[test]
    fn nothing_to_search_for() {
        assert_eq!(p("where is it implemented?"), None);
        assert_eq!(p("   "), None);
    }

    #[test]
    fn rules_are_data() {
        let mut rules = PlannerRules::default();
        rules.stop_words.push("service".into());
        assert_eq!(
            plan("find checkpoint service", &rules).unwrap().term,
            "checkpoint"
        );
    }
}
