//! The planner of `ask`: turns a question into the term and the impl flag the cascade
//! searches with, by the rules of the profile (stop, intent, impl and noise words).
//!
//! Like the spec's `extract_best_term`, several content words are joined with the grep-style
//! separator `[ _-]?`; a single word (a CamelCase identifier too) is kept as written. The plan
//! also carries what the cascade falls back to when the whole term finds nothing: the
//! term's words reduced to their stems, and which of them are optional.
//!
//! Planning is linear in the question and bounded whatever its size: only its first
//! `max_question_bytes` are read, and a question with more than `max_terms` content words
//! is planned from its first `max_terms` distinct ones; the plan's `truncated` says so.

use crate::profile::PlannerRules;
use crate::text::camel::snake;
use crate::text::fold::fold;
use crate::text::stem::{is_plain_word, stem};
use crate::text::term::SEPARATOR;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// What the cascade will search for.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    pub term: String,
    #[serde(rename = "impl")]
    pub impl_query: bool,
    /// The term's words for the fallback steps, each reduced to its stem (`replayed` ->
    /// `replay`); identifiers are kept as written. Empty when the profile has no fallback.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub words: Vec<String>,
    /// Those of `words` that rank candidates but are not required of them: a last word
    /// that only describes the subject (`replayed`), and the prose words of a question
    /// that names an identifier.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub optional: Vec<String>,
    /// Every word of the question as read (punctuation trimmed), and the positions of
    /// those the term holds: where `ask` may widen the term to a phrase of the question
    /// that names a symbol (`get used global args` with its stop and intent words).
    #[serde(skip)]
    pub tokens: Vec<String>,
    #[serde(skip)]
    pub term_tokens: Vec<usize>,
    /// Set only when the question was cut: longer than the profile's
    /// `max_question_bytes`, or with more than `max_terms` content words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated: Option<Truncation>,
}

/// How a question too long to plan whole was cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Truncation {
    /// Distinct content words the plan kept.
    pub terms_kept: usize,
    /// Distinct content words past `max_terms`, left out (repeats of kept words are not
    /// counted: they add nothing to the plan).
    pub terms_dropped: usize,
    /// Bytes of the question read, when it was longer than `max_question_bytes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes_read: Option<usize>,
}

impl Plan {
    /// The words every candidate of a fallback step must hold.
    pub fn required(&self) -> Vec<&str> {
        self.words
            .iter()
            .filter(|w| !self.optional.contains(w))
            .map(String::as_str)
            .collect()
    }

    /// The stems joined as a term (`trace[ _-]?replay`).
    pub fn stemmed_term(&self) -> String {
        self.words.join(SEPARATOR)
    }
}

/// The words of a question: split at white space and at parentheses, which join words
/// that are apart (a call's arguments, `f(x)`; a commit's scope, `docs(helpers/url)`),
/// each trimmed by [`clean`]; empty words kept (the caller skips them).
fn split_words(question: &str) -> impl Iterator<Item = &str> {
    question
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .filter(|t| !t.is_empty())
        .map(clean)
}

/// A word of a question as the planner reads it: quotes and punctuation around it
/// dropped, `_ - . / :` inside identifiers and paths kept.
fn clean(token: &str) -> &str {
    token
        .trim_matches(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '/'))
        .trim_end_matches(['.', '/'])
}

/// The part of a question the planner reads: its first `max_bytes`, cut back to a
/// character boundary and, when that falls inside a word, to the space before it (unless
/// the part is one word). True when anything was cut.
pub fn bounded(question: &str, max_bytes: usize) -> (&str, bool) {
    if question.len() <= max_bytes {
        return (question, false);
    }
    let mut end = max_bytes;
    while !question.is_char_boundary(end) {
        end -= 1;
    }
    let (head, rest) = question.split_at(end);
    let inside_a_word =
        !rest.starts_with(char::is_whitespace) && !head.ends_with(char::is_whitespace);
    let head = match head.rfind(char::is_whitespace) {
        Some(space) if inside_a_word => &head[..space],
        _ => head,
    };
    (head, true)
}

/// The words of a question as the planner reads them (within `max_question_bytes`),
/// every one kept.
pub fn tokens(question: &str, rules: &PlannerRules) -> Vec<String> {
    split_words(bounded(question, rules.max_question_bytes).0)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// Plans a question; `None` when no word of it is left to search for.
pub fn plan(question: &str, rules: &PlannerRules) -> Option<Plan> {
    plan_counted(question, rules, &mut 0)
}

/// [`plan`], adding to `steps` one for each word of the question read and one for each
/// content word deduplicated or stemmed: the work that grows with the question, which
/// tests hold linear (and bounded by `max_question_bytes`).
pub fn plan_counted(question: &str, rules: &PlannerRules, steps: &mut usize) -> Option<Plan> {
    let (question, bytes_cut) = bounded(question, rules.max_question_bytes);
    let is = |list: &[String], word: &str| list.iter().any(|w| *w == word);
    // impl and intent words in any inflection (`defines`, `finding`) when stemming: a
    // plain word made of a listed word's stem and an English inflectional ending
    let stems = |list: &[String]| -> Vec<String> {
        if rules.stemming {
            list.iter()
                .map(|w| stem(w))
                .filter(|s| s.len() >= 4)
                .collect()
        } else {
            Vec::new()
        }
    };
    let (impl_stems, intent_stems) = (stems(&rules.impl_words), stems(&rules.intent_words));
    const ENDINGS: &[&str] = &["", "s", "es", "e", "ed", "d", "ing"];
    let inflected = |stems: &[String], token: &str, folded: &str| {
        is_plain_word(token)
            && stems.iter().any(|s| {
                folded
                    .strip_prefix(s.as_str())
                    .is_some_and(|rest| ENDINGS.contains(&rest))
            })
    };
    let mut impl_query = false;
    let mut words: Vec<&str> = Vec::new();
    let mut noise: Vec<&str> = Vec::new();
    let mut tokens: Vec<String> = Vec::new();
    let (mut word_at, mut noise_at): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
    // before the object of the question: intent words are the verb, said once
    let mut leading = true;
    let mut intents_seen: Vec<String> = Vec::new();
    for token in split_words(question) {
        *steps += 1;
        if token.is_empty() {
            continue;
        }
        tokens.push(token.to_string());
        let folded = fold(token);
        if is(&rules.impl_words, &folded) || inflected(&impl_stems, token, &folded) {
            impl_query = true;
            continue;
        }
        if is(&rules.stop_words, &folded) {
            if is(&rules.determiners, &folded) {
                leading = false;
            }
            continue;
        }
        if is(&rules.intent_words, &folded) || inflected(&intent_stems, token, &folded) {
            if !rules.leading_intent_only {
                continue;
            }
            if leading && !intents_seen.contains(&folded) {
                intents_seen.push(folded);
                continue;
            }
        }
        leading = false;
        if is(&rules.noise_words, &folded) {
            noise.push(token);
            noise_at.push(tokens.len() - 1);
        } else {
            words.push(token);
            word_at.push(tokens.len() - 1);
        }
    }
    if words.is_empty() {
        // a question about the kind alone (`where is the enum`) searches for the kind
        words = noise;
        word_at = noise_at;
    }
    if words.is_empty() {
        return None;
    }
    if words.len() > rules.max_terms.max(1) {
        *steps += words.len();
    }
    let cut = keep_distinct(&mut words, &mut word_at, rules.max_terms.max(1));
    let truncated = (cut.is_some() || bytes_cut).then(|| {
        let (terms_kept, terms_dropped) = cut.unwrap_or((words.len(), 0));
        Truncation {
            terms_kept,
            terms_dropped,
            bytes_read: bytes_cut.then_some(question.len()),
        }
    });
    let mut stems = Vec::new();
    let mut stems_seen: HashSet<String> = HashSet::new();
    let mut optional = Vec::new();
    if rules.word_fallback {
        for (i, word) in words.iter().enumerate() {
            *steps += 1;
            let folded = fold(word);
            // an identifier keeps its case: `cJSON_New_Item` is cut into `c_json_new_item`
            // by its humps, `cjson_new_item` is another name
            let s = if rules.stemming && is_plain_word(word) {
                stem(&folded)
            } else if snake(word) != snake(&folded) {
                word.to_string()
            } else {
                folded.clone()
            };
            let last = i + 1 == words.len();
            if last
                && words.len() >= 2
                && s != folded
                && is_plain_word(word)
                && rules
                    .optional_suffixes
                    .iter()
                    .any(|x| !x.is_empty() && folded.ends_with(x.as_str()))
            {
                optional.push(s.clone());
            }
            if stems_seen.insert(s.clone()) {
                stems.push(s);
            }
        }
        // a word written as an identifier (`cJSON_New_Item`, `parse_value`: its case or its
        // `_`s cut it into parts) names a declaration: when the question names one, the
        // candidates must hold those, and its prose words (`reformatting`) only rank them
        if stems.iter().any(|w| names_identifier(w)) {
            for w in &stems {
                if !names_identifier(w) && !optional.contains(w) {
                    optional.push(w.clone());
                }
            }
        }
    }
    Some(Plan {
        term: words.join(SEPARATOR),
        impl_query,
        words: stems,
        optional,
        tokens,
        term_tokens: word_at,
        truncated,
    })
}

/// True for a word the planner kept as an identifier: one its case or its `_`s cut into
/// several parts.
fn names_identifier(word: &str) -> bool {
    snake(word).contains('_')
}

/// When a question has more than `max` content words, keeps the first `max` distinct ones
/// (folded), each at its first appearance, and returns (kept, distinct words left out); a
/// question within `max` is planned as written (a repeated word included).
fn keep_distinct(words: &mut Vec<&str>, at: &mut Vec<usize>, max: usize) -> Option<(usize, usize)> {
    if words.len() <= max {
        return None;
    }
    let mut seen: HashSet<String> = HashSet::new();
    let mut keep = Vec::with_capacity(words.len());
    for word in words.iter() {
        let new = seen.insert(fold(word));
        keep.push(new && seen.len() <= max);
    }
    let mut flags = keep.iter();
    words.retain(|_| *flags.next().unwrap_or(&false));
    let mut flags = keep.iter();
    at.retain(|_| *flags.next().unwrap_or(&false));
    Some((words.len(), seen.len() - words.len()))
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

    fn full(q: &str) -> Plan {
        plan(q, &PlannerRules::default()).unwrap()
    }

    #[test]
    fn a_content_word_equal_to_an_intent_word_is_kept() {
        assert_eq!(p("find find service").unwrap().0, "find[ _-]?service");
        assert_eq!(
            p("where is the search index").unwrap().0,
            "search[ _-]?index"
        );
        assert_eq!(p("where can I find the cursor").unwrap().0, "cursor");
        assert_eq!(p("show me where replay is").unwrap().0, "replay");
        assert_eq!(p("find the"), None);
        let legacy = PlannerRules::legacy();
        assert_eq!(plan("find find service", &legacy).unwrap().term, "service");
    }

    #[test]
    fn noise_words_name_the_kind_and_are_dropped() {
        assert_eq!(
            p("find launch cursor script").unwrap().0,
            "launch[ _-]?cursor"
        );
        assert_eq!(p("find architecture doc").unwrap().0, "architecture");
        assert_eq!(p("where is the Outcome enum").unwrap().0, "Outcome");
        // unless the kind is all there is
        assert_eq!(p("where is the enum").unwrap().0, "enum");
    }

    #[test]
    fn words_are_stemmed_for_the_fallback() {
        let pl = full("where are traces replayed");
        assert_eq!(pl.term, "traces[ _-]?replayed");
        assert_eq!(pl.words, ["trace", "replay"]);
        assert_eq!(pl.optional, ["replay"]);
        assert_eq!(pl.required(), ["trace"]);
        assert_eq!(pl.stemmed_term(), "trace[ _-]?replay");
        let pl = full("where is goal classification");
        assert_eq!(pl.words, ["goal", "classif"]);
        assert!(pl.optional.is_empty());
        // identifiers are kept as written: their humps cut their words
        assert_eq!(
            full("where is CommandRouter implemented").words,
            ["CommandRouter"]
        );
        assert_eq!(
            full("reformatting: cJSON_New_Item").words,
            ["reformat", "cJSON_New_Item"]
        );
        // ... and the identifier is what its candidates must hold
        assert_eq!(
            full("reformatting: cJSON_New_Item").required(),
            ["cJSON_New_Item"]
        );
        // a capital that cuts no word is folded
        assert_eq!(full("Define a boolean type").words[0], "define");
        // a single word is never optional
        assert!(full("where is it loaded").optional.is_empty());
        // legacy plans carry no fallback
        let legacy = plan("where are traces replayed", &PlannerRules::legacy()).unwrap();
        assert!(legacy.words.is_empty());
    }

    #[test]
    fn impl_and_intent_words_count_in_any_inflection() {
        assert_eq!(
            p("which file defines the arg matcher"),
            Some(("arg[ _-]?matcher".into(), true))
        );
        assert_eq!(
            p("searching for feed_eof"),
            Some(("feed_eof".into(), false))
        );
        assert_eq!(
            p("implementing ArgMatcher"),
            Some(("ArgMatcher".into(), true))
        );
        // a word or identifier that only starts like one is kept
        assert_eq!(
            p("find the definitely_not_impl flag").unwrap().0,
            "definitely_not_impl[ _-]?flag"
        );
        assert_eq!(
            p("which file defines FindIter"),
            Some(("FindIter".into(), true))
        );
        assert_eq!(p("finder"), Some(("finder".into(), false)));
    }

    #[test]
    fn a_question_within_max_terms_is_planned_as_written() {
        let pl = full("find replay replay service");
        assert_eq!(pl.term, "replay[ _-]?replay[ _-]?service");
        assert_eq!(pl.truncated, None);
        // and its JSON has no `truncated`
        let json = serde_json::to_value(&pl).unwrap();
        assert!(json.get("truncated").is_none(), "{json}");
    }

    #[test]
    fn a_question_past_max_terms_keeps_its_first_distinct_words() {
        let rules = PlannerRules {
            max_terms: 3,
            ..PlannerRules::default()
        };
        let pl = plan("find alpha beta Alpha gamma the beta delta epsilon", &rules).unwrap();
        assert_eq!(pl.term, "alpha[ _-]?beta[ _-]?gamma");
        assert_eq!(pl.term_tokens, [1, 2, 4]);
        assert_eq!(
            pl.truncated,
            Some(Truncation {
                terms_kept: 3,
                terms_dropped: 2,
                bytes_read: None
            })
        );
        let json = serde_json::to_value(&pl).unwrap();
        assert_eq!(
            json["truncated"],
            serde_json::json!({"terms_kept": 3, "terms_dropped": 2})
        );
        // repeats alone: one term, nothing dropped, but the plan says it was cut
        let pl = plan(&"replay ".repeat(2000), &PlannerRules::default()).unwrap();
        assert_eq!(pl.term, "replay");
        assert_eq!(pl.truncated.unwrap().terms_dropped, 0);
    }

    #[test]
    fn only_max_question_bytes_are_read_cut_at_a_word() {
        assert_eq!(bounded("alpha beta", 100), ("alpha beta", false));
        assert_eq!(bounded("alpha beta", 8), ("alpha", true));
        assert_eq!(bounded("alpha beta", 6), ("alpha ", true));
        assert_eq!(bounded("alphabeta", 5), ("alpha", true));
        // never inside a character: `é` is two bytes
        assert_eq!(bounded("éé", 3), ("é", true));
        let rules = PlannerRules {
            max_question_bytes: 12,
            ..PlannerRules::default()
        };
        let pl = plan("find replay service now", &rules).unwrap();
        assert_eq!(pl.term, "replay");
        assert_eq!(pl.truncated.unwrap().bytes_read, Some(12));
        assert_eq!(
            tokens("find replay service now", &rules),
            ["find", "replay"]
        );
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

    #[test]
    fn parentheses_part_words_as_white_space_does() {
        let rules = PlannerRules::default();
        assert_eq!(
            tokens(
                "docs(helpers/isAbsoluteURL): free() to cJSON_free(item)",
                &rules
            ),
            [
                "docs",
                "helpers/isAbsoluteURL",
                "free",
                "to",
                "cJSON_free",
                "item"
            ]
        );
        assert_eq!(
            plan("fix(walk) cJSON_free(item)", &rules).unwrap().term,
            "fix[ _-]?walk[ _-]?cJSON_free[ _-]?item"
        );
    }
}
