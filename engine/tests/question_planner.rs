//! The planner of `ask` on any question, however long: it never panics, keeps at most
//! `max_terms` terms, and its work grows linearly with the question (counted in steps,
//! never timed) and stops growing past `max_question_bytes`.

use findbench_engine::planner::{plan, plan_counted};
use findbench_engine::profile::PlannerRules;
use proptest::prelude::*;

fn steps(question: &str, rules: &PlannerRules) -> usize {
    let mut steps = 0;
    plan_counted(question, rules, &mut steps);
    steps
}

fn words() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z_]{1,12}",
        Just("the".to_string()),
        Just("where".to_string()),
        Just("implemented".to_string()),
        Just("`get_used_global_args`".to_string()),
        "\\PC{1,6}",
    ]
}

fn question() -> impl Strategy<Value = String> {
    (proptest::collection::vec(words(), 0..120), 1usize..50)
        .prop_map(|(words, times)| vec![words.join(" "); times].join(" "))
}

proptest! {
    #[test]
    fn any_string_plans_within_max_terms(q in "\\PC{0,400}", max_terms in 1usize..40) {
        let rules = PlannerRules { max_terms, ..PlannerRules::default() };
        if let Some(p) = plan(&q, &rules) {
            prop_assert!(p.term_tokens.len() <= max_terms);
            prop_assert!(p.words.len() <= max_terms);
            prop_assert!(!p.term.is_empty());
        }
    }

    #[test]
    fn a_question_twice_as_long_costs_at_most_twice_the_steps(q in question()) {
        let rules = PlannerRules::default();
        let once = steps(&q, &rules);
        let twice = steps(&format!("{q} {q}"), &rules);
        // the words of both halves, plus deduplicating them once they pass max_terms
        prop_assert!(twice <= 3 * once + 2 * rules.max_terms + 2, "{once} -> {twice}");
        if let Some(p) = plan(&q, &rules) {
            prop_assert!(p.term_tokens.len() <= rules.max_terms);
        }
    }
}

#[test]
fn a_huge_repeat_plans_one_term_in_bounded_steps() {
    let rules = PlannerRules::default();
    let word = "replay ";
    let small = steps(&word.repeat(rules.max_question_bytes / word.len()), &rules);
    let huge = word.repeat(2_000_000); // 14 MB, past max_question_bytes
    let p = plan(&huge, &rules).unwrap();
    assert_eq!(p.term, "replay");
    let cut = p.truncated.unwrap();
    assert_eq!((cut.terms_kept, cut.terms_dropped), (1, 0));
    assert!(cut.bytes_read.unwrap() <= rules.max_question_bytes);
    // reading stops at max_question_bytes: no more steps than a question of that size
    assert!(steps(&huge, &rules) <= small + 2, "{small}");
}

#[test]
fn many_distinct_words_keep_the_first_max_terms() {
    let rules = PlannerRules::default();
    let q: Vec<String> = (0..5_000).map(|i| format!("word{i}")).collect();
    let q = q.join(" ");
    assert!(q.len() < rules.max_question_bytes);
    let p = plan(&q, &rules).unwrap();
    assert_eq!(p.term_tokens.len(), rules.max_terms);
    assert!(p.term.starts_with("word0[ _-]?word1[ _-]?word2"));
    let cut = p.truncated.unwrap();
    assert_eq!(
        (cut.terms_kept, cut.terms_dropped),
        (rules.max_terms, 5_000 - rules.max_terms)
    );
}
