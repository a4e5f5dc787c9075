//! How much of the question an answer of `ask` holds: the share of the question's terms
//! the selected file holds, each weighed by how rare it is in the tree (its inverse
//! document frequency, from the statistics the ranking keeps). A file that holds only the
//! question's common words ("created", "http") is not told apart by them: its share is
//! small, and below the profile's `planner.min_held_share` the answer is
//! `insufficient_evidence`. The profile's calibration (`profile/calibration.rs`) turns the
//! share into the answer's `confidence`.

use crate::planner::Plan;
use crate::profile::Profile;
use crate::retrieval::bm25f::FieldIndex;
use crate::retrieval::{index_for, tokens::question_terms};
use crate::text::term::SEPARATOR;
use crate::tree::Tree;

/// The question's terms as the ranking makes them from the words the plan requires (or
/// its whole term when it requires none): its words cut into identifier parts, stemmed,
/// the ranking's stop words dropped. A word that only describes what happens to the
/// subject (`rendered`, an optional word) weighs nothing.
pub(super) fn question_terms_of(plan: &Plan, profile: &Profile) -> Vec<String> {
    let required = plan.required();
    let words = if required.is_empty() {
        plan.term.split(SEPARATOR).collect::<Vec<_>>().join(" ")
    } else {
        required.join(" ")
    };
    question_terms(&words, &profile.task_ranking.stop_words)
}

/// Each term's weight: its inverse document frequency in the tree (a term no file holds
/// weighs the most). One term weighs 1 alone: its share is whether it is held, and no
/// statistics are needed.
pub(super) fn idf_weights(tree: &Tree, profile: &Profile, terms: &[String]) -> Vec<f64> {
    if terms.len() <= 1 {
        return vec![1.0; terms.len()];
    }
    let slot = index_for(tree, profile);
    let index = slot.get_or_init(|| FieldIndex::for_tree(tree, profile));
    terms
        .iter()
        .map(|t| {
            let df = index.holding(t).map_or(0, |h| h.len());
            index.idf(df)
        })
        .collect()
}

/// The share of the weights of the terms `held` (1 when there are none to hold).
pub(super) fn held_share(weights: &[f64], held: &[bool]) -> f64 {
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return 1.0;
    }
    let kept: f64 = weights
        .iter()
        .zip(held)
        .filter(|(_, h)| **h)
        .map(|(w, _)| w)
        .sum();
    kept / total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_share_weighs_rare_terms_more() {
        let weights = [0.2, 3.0, 2.8];
        // the common word alone is a small share; the rare ones most of it
        assert!(held_share(&weights, &[true, false, false]) < 0.1);
        assert!(held_share(&weights, &[false, true, true]) > 0.9);
        assert_eq!(held_share(&weights, &[true, true, true]), 1.0);
        assert_eq!(held_share(&[], &[]), 1.0);
    }
}
