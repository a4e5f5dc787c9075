//! The files that may be among the best for a question's terms, scored: BM25F summed over
//! the terms a file holds, times the prior of its kind and the share of the terms it holds.
//!
//! A term adds at most its idf to a file's sum (`tf' / (k1 + tf')` is below 1), so a file's
//! score is bounded by what the lists of files holding each term tell, before its
//! frequencies and field lengths are known. Files are scored in the order of their bounds,
//! and scoring stops once `depth` files score above every bound left: the files not scored
//! could not have entered the best `depth`, so the best `depth` are those every file's score
//! gives, in the same order, ties included. The first `ask` on a root counts a file's
//! frequencies only when it is scored (`modes/cold/mod.rs`); the kept statistics list them.

use super::bm25f::FieldIndex;
use super::file_counts::TermLines;
use super::kind::FileKind;
use super::posting::{Holding, NF};
use crate::profile::{Profile, TaskRankingWeights};
use crate::tree::Tree;
use rayon::prelude::*;
use std::collections::HashMap;

/// One scored file.
#[derive(Debug)]
pub(super) struct Scored {
    pub file: u32,
    pub score: f64,
    /// Each term the file holds (by its place in the question's terms) and in which fields.
    pub found: Vec<(usize, [bool; NF])>,
    /// The lines of its text that hold the terms, when the file was read to be scored.
    pub lines: Option<TermLines>,
    /// What the file is (its prior weighs the score).
    pub kind: FileKind,
}

/// A bound is raised by this share, so that the rounding of a score's arithmetic (which
/// could in principle land a last bit above its bound's) never lets a bound fall below it.
const SLACK: f64 = 1e-9;

/// Files scored at once per thread of the pool: the counting of a batch runs in parallel,
/// and scoring stops within a batch of where the bounds allow (the first `ask` on a root
/// counts each file it scores: 192 files for a question of a cargo registry in batches of
/// 64, 144 in batches of 16 on two threads). Whatever the batch, the best files are the
/// same. Scoring cannot stop before `depth` files are scored: the batches up to there are
/// counted as one.
const BATCH_PER_THREAD: usize = 8;

/// Scores the files of `by_file` (each with the terms it holds, ascending) that may be among
/// the best `depth`, every one of them when the weights allow no bound (a negative weight).
pub(super) fn best_scored(
    tree: &Tree,
    profile: &Profile,
    index: &FieldIndex,
    terms: &[String],
    lists: &[Holding<'_>],
    by_file: &HashMap<u32, Vec<usize>>,
    depth: usize,
) -> Vec<Scored> {
    let w = &profile.task_ranking;
    // what each candidate is (its kind's prior weighs its score): only they are asked
    let files = tree.files();
    let kinds: HashMap<u32, FileKind> = by_file
        .par_iter()
        .map(|(&f, _)| (f, FileKind::of(&files[f as usize], profile)))
        .collect();
    let idf: Vec<f64> = lists.iter().map(|l| index.idf(l.len())).collect();
    let factor = |file: u32, held: usize| {
        let coverage = held as f64 / terms.len() as f64;
        kinds[&file].prior(w) * coverage.powf(w.coverage)
    };
    // the same sum in the same order as the score's, each term's part at its largest
    let mut candidates: Vec<(u32, f64)> = by_file
        .iter()
        .map(|(&file, held)| {
            let sum: f64 = held.iter().fold(0.0, |s, &t| s + idf[t]);
            (file, sum * factor(file, held.len()) * (1.0 + SLACK))
        })
        .collect();
    candidates.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let bounded = bounds_hold(w);
    let batch = BATCH_PER_THREAD * rayon::current_num_threads().max(2);
    let mut scored: Vec<Scored> = Vec::new();
    let mut next = 0;
    while next < candidates.len() {
        if bounded && scored.len() >= depth && candidates[next].1 < kth_best(&scored, depth) {
            break;
        }
        // the batches scored before `depth` files are (scoring cannot stop before them) run
        // as one: one wait for the slowest file of the batch instead of one per batch
        let size = match scored.len() < depth {
            true => batch.max((depth - scored.len()).div_ceil(batch).saturating_mul(batch)),
            false => batch,
        };
        let batch: Vec<u32> = candidates[next..next.saturating_add(size).min(candidates.len())]
            .iter()
            .map(|c| c.0)
            .collect();
        next += batch.len();
        let counts = index.counts(tree, profile, &batch, terms, lists);
        for (&file, ((len, held), lines)) in batch.iter().zip(counts) {
            let mut sum = 0.0;
            let mut found = Vec::with_capacity(held.len());
            for (t, tf) in held {
                let weighted = index.weighted_tf(&tf, &len, w);
                sum += idf[t] * weighted / (w.k1 + weighted);
                found.push((t, tf.map(|n| n > 0)));
            }
            let score = sum * factor(file, found.len());
            scored.push(Scored {
                file,
                score,
                found,
                lines,
                kind: kinds[&file],
            });
        }
    }
    scored
}

/// The `depth`-th best score of `scored` (which holds at least `depth`).
fn kth_best(scored: &[Scored], depth: usize) -> f64 {
    let mut scores: Vec<f64> = scored.iter().map(|s| s.score).collect();
    let k = depth.max(1) - 1;
    *scores.select_nth_unstable_by(k, |a, b| b.total_cmp(a)).1
}

/// True when a term's part of a score is at most its idf, and the factors are not negative:
/// no weight, saturation or prior below zero.
fn bounds_hold(w: &TaskRankingWeights) -> bool {
    let fields = [&w.path, &w.symbols, &w.prose, &w.code];
    w.k1 >= 0.0
        && fields.iter().all(|f| f.weight >= 0.0)
        && [
            w.source_prior,
            w.test_prior,
            w.docs_prior,
            w.data_prior,
            w.other_prior,
        ]
        .iter()
        .all(|&p| p >= 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::tokens::question_terms;

    /// The best files when scoring stops at the bounds are the best files of every score:
    /// the same files, scores and terms found, in the same order; and fewer files are scored.
    #[test]
    fn the_best_files_within_the_bounds_are_the_best_of_all() {
        // files that hold every word of the question, each to another degree (more files
        // than a batch scores), and files that hold some of them
        let words = [
            "gzip", "header", "parse", "reader", "stream", "crc", "flag", "name",
        ];
        let files: Vec<(String, String)> = (0..600usize)
            .map(|i| {
                let a = words[i % words.len()];
                let b = words[(i * 5 + 3) % words.len()];
                let every = if i % 3 == 0 {
                    "gzip header parse\n".repeat(i % 11 + 1)
                } else {
                    String::new()
                };
                let text = format!(
                    "/// The {a} of the {b}.\npub fn {a}_{b}() {{}}\n{}{every}",
                    format!("let {b} = {a};\n").repeat(i % 7 + 1)
                );
                (format!("src/{a}/{b}_{i}.rs"), text)
            })
            .collect();
        let tree = Tree::from_memory("t", files.iter().map(|(p, t)| (p.as_str(), t.as_str())));
        let profile = Profile::default();
        let terms = question_terms(
            "how is the gzip header parsed",
            &profile.task_ranking.stop_words,
        );
        for index in [
            FieldIndex::build(&tree, &profile),
            FieldIndex::for_terms(&tree, &profile, &terms, Default::default()),
        ] {
            let lists: Vec<Holding<'_>> = terms.iter().map(|t| index.holding(t).unwrap()).collect();
            let mut by_file: HashMap<u32, Vec<usize>> = HashMap::new();
            for (t, list) in lists.iter().enumerate() {
                for f in list.files() {
                    by_file.entry(f).or_default().push(t);
                }
            }
            let best = |depth: usize| {
                let mut s = best_scored(&tree, &profile, &index, &terms, &lists, &by_file, depth);
                let n = s.len();
                s.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.file.cmp(&b.file)));
                (n, s)
            };
            let (n_all, all) = best(usize::MAX);
            assert_eq!(n_all, by_file.len());
            for depth in [1, 3, 10] {
                let (n, some) = best(depth);
                assert!(n < n_all, "depth {depth}: {n} of {n_all} scored");
                let top = |s: &[Scored]| -> Vec<String> {
                    // the score's bits: equal to the last one
                    s[..depth]
                        .iter()
                        .map(|s| format!("{} {:x} {:?}", s.file, s.score.to_bits(), s.found))
                        .collect()
                };
                assert_eq!(top(&some), top(&all), "depth {depth}");
            }
        }
    }
}
