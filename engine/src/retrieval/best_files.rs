//! The files that may be among the best for a question's terms, scored: BM25F summed over
//! the terms a file holds, times the prior of its kind and the share of the terms it holds.
//!
//! A term adds at most its idf to a file's sum (`tf' / (k1 + tf')` is below 1), so a file's
//! score is bounded by what the lists of files holding each term tell, before its
//! frequencies and field lengths are known. Files are scored in the order of their bounds,
//! and scoring stops once `depth` files score above every bound left: the files not scored
//! could not have entered the best `depth`, so the best `depth` are those every file's score
//! gives, in the same order, ties included. The first `ask` on a root counts a file's
//! frequencies only when it is scored (`first_call/mod.rs`); the kept statistics list them.

use super::bm25f::FieldIndex;
use super::file_counts::{FileCounts, TermLines};
use super::kind::FileKind;
use super::posting::{Holding, NF};
use super::subject_scope;
use crate::profile::{Profile, TaskRankingWeights};
use crate::tree::Tree;
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

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

/// The terms each candidate file holds (by their places in the question's terms,
/// ascending), and each term's weight: its idf is multiplied by it.
#[derive(Clone, Copy)]
pub(super) struct Held<'a> {
    pub by_file: &'a HashMap<u32, Vec<usize>>,
    pub term_weights: &'a [f64],
    /// The parts of the subject's scope (`subject_scope.rs`): a file in it is weighed by
    /// `1 + subject_scope`; none when empty.
    pub scope: &'a [String],
}

/// A bound is raised by this share, so that the rounding of a score's arithmetic (which
/// could in principle land a last bit above its bound's) never lets a bound fall below it.
const SLACK: f64 = 1e-9;

/// Scores the files of `by_file` (each with the terms it holds, ascending) that may be among
/// the best `depth`, every one of them when the weights allow no bound (a negative weight).
///
/// The candidates are taken in the order of their bounds by every thread of the pool, each
/// taking the next one when it is done with its own, and a thread stops at the first whose
/// bound is below the `depth`-th best score found so far: that score only rises, so no file
/// not scored could have entered the best `depth`. Which files beyond them are scored
/// depends on the threads' timing; the best `depth` do not (the caller keeps no more). A
/// first call counts each file it scores by reading it: scored in batches with a wait for
/// the slowest file of each, two cores were busy 1.6 of the time on a tree whose questions
/// score 300 files (docs/index.md).
pub(super) fn best_scored(scoring: Scoring<'_>, depth: usize) -> Vec<Scored> {
    let held = scoring.held;
    let scorer = Scorer::new(scoring, held.by_file.keys());
    // the same sum in the same order as the score's, each term's part at its largest
    let mut candidates: Vec<(u32, f64)> = held
        .by_file
        .iter()
        .map(|(&file, terms)| (file, scorer.bound(file, terms)))
        .collect();
    candidates.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let bounded = bounds_hold(&scoring.profile.task_ranking);
    let next = AtomicUsize::new(0);
    let shared = Mutex::new((BestScores::new(depth), Vec::new()));
    let lock = || shared.lock().unwrap_or_else(|e| e.into_inner());
    // counts read from kept lists cost less than a thread's wake-up
    let threads = match scoring.index.counts_by_reading() {
        true => rayon::current_num_threads().max(1),
        false => 1,
    };
    (0..threads).into_par_iter().for_each(|_| {
        let mut bytes = Vec::new();
        loop {
            let at = next.fetch_add(1, Ordering::Relaxed);
            let Some(&(file, bound)) = candidates.get(at) else {
                return;
            };
            if bounded && !lock().0.admits(bound) {
                return;
            }
            let scored = scorer.score(file, &mut bytes);
            let mut shared = lock();
            shared.0.add(scored.score);
            shared.1.push(scored);
        }
    });
    shared.into_inner().unwrap_or_else(|e| e.into_inner()).1
}

/// Scores each of `files` that holds a term (those of `held.by_file`) as [`best_scored`]
/// scores it: for a file the bounds left unscored that another rule brings in.
pub(super) fn scored_files(scoring: Scoring<'_>, files: &[u32]) -> Vec<Scored> {
    let files: Vec<&u32> = files
        .iter()
        .filter(|f| scoring.held.by_file.contains_key(f))
        .collect();
    let scorer = Scorer::new(scoring, files.iter().copied());
    let mut bytes = Vec::new();
    files
        .into_iter()
        .map(|&file| scorer.score(file, &mut bytes))
        .collect()
}

/// What the files of a question are scored by: the tree, the profile, the statistics, the
/// question's terms, the files holding each term, and the terms each candidate holds.
#[derive(Clone, Copy)]
pub(super) struct Scoring<'a> {
    pub tree: &'a Tree,
    pub profile: &'a Profile,
    pub index: &'a FieldIndex,
    pub terms: &'a [String],
    pub lists: &'a [Holding<'a>],
    pub held: Held<'a>,
}

/// What scores a file: BM25F over the terms it holds, times its kind's prior, its place
/// in the subject's scope and the share of the terms it holds.
struct Scorer<'a> {
    s: Scoring<'a>,
    /// Each file's kind and scope factor: only the files to be scored are asked.
    kinds: HashMap<u32, (FileKind, f64)>,
    /// Each term's idf times its weight (its code shape's), in the bound as in the score.
    idf: Vec<f64>,
}

impl<'a> Scorer<'a> {
    fn new<'f>(s: Scoring<'a>, files: impl Iterator<Item = &'f u32>) -> Self {
        let w = &s.profile.task_ranking;
        let all = s.tree.files();
        let files: Vec<u32> = files.copied().collect();
        let kinds = files
            .par_iter()
            .map(|&f| {
                let file = &all[f as usize];
                let scoped = match subject_scope::in_scope(s.held.scope, &file.path) {
                    true => 1.0 + w.subject_scope,
                    false => 1.0,
                };
                (f, (FileKind::of(file, s.profile), scoped))
            })
            .collect();
        let idf = s
            .lists
            .iter()
            .zip(s.held.term_weights)
            .map(|(l, w)| s.index.idf(l.len()) * w)
            .collect();
        Scorer { s, kinds, idf }
    }

    fn factor(&self, file: u32, held: usize) -> f64 {
        let w = &self.s.profile.task_ranking;
        let coverage = held as f64 / self.s.terms.len() as f64;
        let (kind, scoped) = self.kinds[&file];
        kind.prior(w) * scoped * coverage.powf(w.coverage)
    }

    /// The most `file`, holding `held`, can score.
    fn bound(&self, file: u32, held: &[usize]) -> f64 {
        let sum: f64 = held.iter().fold(0.0, |s, &t| s + self.idf[t]);
        sum * self.factor(file, held.len()) * (1.0 + SLACK)
    }

    /// `file`'s score, its terms counted in each field (read, or from the kept lists).
    fn score(&self, file: u32, bytes: &mut Vec<u8>) -> Scored {
        let Scoring {
            tree,
            profile,
            index,
            terms,
            lists,
            ..
        } = self.s;
        let w = &profile.task_ranking;
        let ((len, held), lines): (FileCounts, Option<TermLines>) =
            index.count(tree, profile, file, terms, lists, bytes);
        let mut sum = 0.0;
        let mut found = Vec::with_capacity(held.len());
        for (t, tf) in held {
            let weighted = index.weighted_tf(&tf, &len, w);
            sum += self.idf[t] * weighted / (w.k1 + weighted);
            found.push((t, tf.map(|n| n > 0)));
        }
        Scored {
            file,
            score: sum * self.factor(file, found.len()),
            found,
            lines,
            kind: self.kinds[&file].0,
        }
    }
}

/// The best `depth` scores found so far (at least one), lowest on top.
struct BestScores {
    depth: usize,
    lowest_first: BinaryHeap<Reverse<TotalOrder>>,
}

/// A score ordered by [`f64::total_cmp`].
#[derive(Debug, Clone, Copy)]
struct TotalOrder(f64);

impl PartialEq for TotalOrder {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}

impl Eq for TotalOrder {}

impl PartialOrd for TotalOrder {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for TotalOrder {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

impl BestScores {
    fn new(depth: usize) -> BestScores {
        BestScores {
            depth: depth.max(1),
            lowest_first: BinaryHeap::new(),
        }
    }

    fn add(&mut self, score: f64) {
        self.lowest_first.push(Reverse(TotalOrder(score)));
        if self.lowest_first.len() > self.depth {
            self.lowest_first.pop();
        }
    }

    /// Whether a file whose score is at most `bound` may be among the best `depth`: fewer
    /// were found, or the `depth`-th best is not above it.
    fn admits(&self, bound: f64) -> bool {
        match self.lowest_first.peek() {
            Some(Reverse(lowest)) if self.lowest_first.len() == self.depth => bound >= lowest.0,
            _ => true,
        }
    }
}

/// True when a term's part of a score is at most its idf, and the factors are not negative:
/// no weight, saturation or prior below zero.
fn bounds_hold(w: &TaskRankingWeights) -> bool {
    let fields = [&w.path, &w.symbols, &w.prose, &w.code];
    w.k1 >= 0.0
        && w.code_tokens >= 0.0
        && fields.iter().all(|f| f.weight >= 0.0)
        && [
            w.source_prior,
            w.test_prior,
            w.docs_prior,
            w.data_prior,
            w.other_prior,
            1.0 + w.subject_scope,
        ]
        .iter()
        .all(|&p| p >= 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::tokens::question_terms;

    /// A factor below 1 but not below 0 keeps the bounds (a negative one does not).
    #[test]
    fn the_bounds_hold_for_a_scope_factor_not_below_zero() {
        let mut w = Profile::default().task_ranking;
        for (weight, holds) in [(0.0, true), (-0.5, true), (-1.0, true), (-1.5, false)] {
            w.subject_scope = weight;
            assert_eq!(bounds_hold(&w), holds, "{weight}");
        }
    }

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
        let mut profile = Profile::default();
        // the files under `src/parse/` weighed three times, as a subject `parse: ...` asks
        profile.task_ranking.subject_scope = 2.0;
        let terms = question_terms(
            "how is the gzip header parsed",
            &profile.task_ranking.stop_words,
        );
        let in_scope = ["parse".to_string()];
        let mut every_score = Vec::new();
        for (index, scope) in [
            (FieldIndex::build(&tree, &profile), &in_scope[..]),
            (FieldIndex::build(&tree, &profile), &[][..]),
            (
                FieldIndex::for_terms(
                    &tree,
                    &profile,
                    &terms,
                    Default::default(),
                    None,
                    Default::default(),
                ),
                &in_scope[..],
            ),
        ] {
            let lists: Vec<Holding<'_>> = terms.iter().map(|t| index.holding(t).unwrap()).collect();
            let mut by_file: HashMap<u32, Vec<usize>> = HashMap::new();
            for (t, list) in lists.iter().enumerate() {
                for f in list.files() {
                    by_file.entry(f).or_default().push(t);
                }
            }
            let best = |depth: usize| {
                let scoring = Scoring {
                    tree: &tree,
                    profile: &profile,
                    index: &index,
                    terms: &terms,
                    lists: &lists,
                    held: Held {
                        by_file: &by_file,
                        term_weights: &vec![1.0; terms.len()],
                        scope,
                    },
                };
                let mut s = best_scored(scoring, depth);
                let n = s.len();
                s.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.file.cmp(&b.file)));
                (n, s)
            };
            let (n_all, all) = best(usize::MAX);
            assert_eq!(n_all, by_file.len());
            let mut by_path: Vec<(String, f64)> = all
                .iter()
                .map(|s| (tree.files()[s.file as usize].path.clone(), s.score))
                .collect();
            by_path.sort_by(|a, b| a.0.cmp(&b.0));
            every_score.push(by_path);
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
        // the same index with the scope and without: a file in it scores three times its own
        let (scoped, plain) = (&every_score[0], &every_score[1]);
        assert_eq!(scoped.len(), plain.len());
        let mut lifted = 0;
        for ((path, with), (_, without)) in scoped.iter().zip(plain) {
            let factor = match path.starts_with("src/parse/") {
                true => 3.0,
                false => 1.0,
            };
            assert!(
                (with / without - factor).abs() < 1e-12,
                "{path}: {with} {without}"
            );
            lifted += usize::from(factor > 1.0);
        }
        assert!(lifted > 10, "{lifted}");
    }

    /// The files and scores `best_scored` gives for `terms` (each with its weight) on a tree
    /// of prose files (BM25F with `b` = 0 and a prose weight of 1: a term's weighted
    /// frequency is its count), sorted by file: the ones it scored, not only the best.
    fn scored_files(
        tree: &Tree,
        profile: &Profile,
        terms: &[(&str, f64)],
        only: Option<&[u32]>,
        depth: usize,
    ) -> Vec<Scored> {
        let index = FieldIndex::build(tree, profile);
        let names: Vec<String> = terms.iter().map(|(t, _)| t.to_string()).collect();
        let weights: Vec<f64> = terms.iter().map(|&(_, w)| w).collect();
        let lists: Vec<Holding<'_>> = names.iter().map(|t| index.holding(t).unwrap()).collect();
        let mut by_file: HashMap<u32, Vec<usize>> = HashMap::new();
        for (t, list) in lists.iter().enumerate() {
            for f in list.files() {
                if only.is_none_or(|only| only.contains(&f)) {
                    by_file.entry(f).or_default().push(t);
                }
            }
        }
        let held = Held {
            by_file: &by_file,
            term_weights: &weights,
            scope: &[],
        };
        let scoring = Scoring {
            tree,
            profile,
            index: &index,
            terms: &names,
            lists: &lists,
            held,
        };
        let mut s = best_scored(scoring, depth);
        s.sort_by_key(|s| s.file);
        s
    }

    /// Every field with `b` = 0 and a prose weight of 1, the priors of `docs_prior`.
    fn prose_profile(k1: f64, docs_prior: f64, coverage: f64) -> Profile {
        let mut profile = Profile::default();
        let w = &mut profile.task_ranking;
        for f in [&mut w.path, &mut w.symbols, &mut w.prose, &mut w.code] {
            f.b = 0.0;
        }
        w.prose.weight = 1.0;
        (w.k1, w.docs_prior, w.coverage) = (k1, docs_prior, coverage);
        profile
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    /// Four prose files: `gamma` is held by two (idf ln(1 + 2.5 / 2.5) = ln 2), `delta` by
    /// two (idf ln 2, weighed 2 as a code-shaped term: 2 ln 2).
    fn four_files() -> Tree {
        Tree::from_memory(
            "t",
            [
                ("notes/a.md", "gamma\n"),
                ("notes/b.md", "gamma delta\n"),
                ("notes/c.md", "delta\n"),
                ("notes/z.md", "zeta\n"),
            ],
        )
    }

    /// The scores worked by hand, with k1 = 3, a docs prior of 0.25 and coverage's
    /// exponent 1: a term of count 1 adds idf x 1 / (3 + 1).
    /// - b.md: (ln 2 / 4 + 2 ln 2 / 4) x 0.25 x (2 / 2) = 3 ln 2 / 16 = 0.129965...;
    ///   its bound (the idfs' sum times the factor) 3 ln 2 x 0.25 = 0.519860...
    /// - c.md: 2 ln 2 / 4 x 0.25 x (1 / 2) = ln 2 / 16 = 0.043321...; bound 2 ln 2 x 0.125 =
    ///   0.173286..., above b.md's score: it is scored
    /// - a.md: bound ln 2 x 0.125 = 0.086643..., below b.md's score: not scored for the
    ///   best one
    #[test]
    fn scores_and_the_files_scored_worked_by_hand() {
        let tree = four_files();
        let profile = prose_profile(3.0, 0.25, 1.0);
        let terms = [("gamma", 1.0), ("delta", 2.0)];
        let ln2 = std::f64::consts::LN_2;
        let prose = [false, false, true, false];
        let best = scored_files(&tree, &profile, &terms, None, 1);
        assert_eq!(best.len(), 2, "{best:?}");
        assert_eq!(best[0].file, 1);
        assert!(close(best[0].score, 3.0 * ln2 / 16.0), "{best:?}");
        assert!(close(best[0].score, 0.129_965_096_354_989_73), "{best:?}");
        assert_eq!(best[0].found, [(0, prose), (1, prose)]);
        assert_eq!(best[1].file, 2);
        assert!(close(best[1].score, ln2 / 16.0), "{best:?}");
        assert_eq!(best[1].found, [(1, prose)]);
        // the best two: every file, a.md at ln 2 / 4 x 0.125 = ln 2 / 32
        let two = scored_files(&tree, &profile, &terms, None, 2);
        let files: Vec<u32> = two.iter().map(|s| s.file).collect();
        assert_eq!(files, [0, 1, 2]);
        assert!(close(two[0].score, ln2 / 32.0), "{two:?}");
        assert_eq!(two[0].found, [(0, prose)]);
        // of a.md and b.md, the best two are both, though a.md's bound is below b.md's score
        let pair = scored_files(&tree, &profile, &terms, Some(&[0, 1]), 2);
        assert_eq!(pair.iter().map(|s| s.file).collect::<Vec<_>>(), [0, 1]);
        // a negative prior (of no file here) allows no bound: every file is scored
        let mut unbounded = profile.clone();
        unbounded.task_ranking.other_prior = -1.0;
        let every = scored_files(&tree, &unbounded, &terms, None, 1);
        assert_eq!(every.iter().map(|s| s.file).collect::<Vec<_>>(), [0, 1, 2]);
        assert!(close(every[1].score, 3.0 * ln2 / 16.0), "{every:?}");
    }

    /// With k1 = 0 a term adds its whole idf, so a file's score is its bound (less the
    /// slack): two files of equal scores are both the best one, ties included.
    #[test]
    fn a_score_equal_to_the_best_is_scored() {
        let tree = Tree::from_memory(
            "t",
            [
                ("notes/a.md", "gamma\n"),
                ("notes/b.md", "gamma\n"),
                ("notes/c.md", "zeta\n"),
            ],
        );
        let profile = prose_profile(0.0, 0.5, 1.0);
        let best = scored_files(&tree, &profile, &[("gamma", 1.0)], None, 1);
        // ln(1 + 1.5 / 2.5) x 0.5 = ln 1.6 / 2
        let score = 0.235_001_814_622_867_82;
        assert!(close(score, 1.6f64.ln() / 2.0));
        assert_eq!(best.len(), 2, "{best:?}");
        assert!(best.iter().all(|s| close(s.score, score)), "{best:?}");
    }

    /// The `depth` best scores are kept whatever the order they come in: a bound is admitted
    /// while fewer are kept, then when it is not below the lowest kept.
    #[test]
    fn the_best_scores_keep_the_highest_depth() {
        let scores = [0.5, -1.0, 4.0, 2.0, 3.0];
        // every order of the five: the best three are 4, 3 and 2
        let orders: Vec<[usize; 5]> = (0..5usize.pow(5))
            .map(|n| [0, 1, 2, 3, 4].map(|d| n / 5usize.pow(d) % 5))
            .filter(|o| (0..5).all(|i| o.contains(&i)))
            .collect();
        assert_eq!(orders.len(), 120);
        for order in orders {
            let mut best = BestScores::new(3);
            for (n, &i) in order.iter().enumerate() {
                if n < 3 {
                    assert!(best.admits(-5.0), "{order:?}");
                }
                best.add(scores[i]);
            }
            assert_eq!(best.lowest_first.len(), 3);
            assert!(best.admits(2.0) && best.admits(2.5), "{order:?}");
            assert!(!best.admits(1.999), "{order:?}");
        }
        // a depth of 0 keeps one
        let mut one = BestScores::new(0);
        one.add(1.0);
        one.add(2.0);
        assert!(one.admits(2.0) && !one.admits(1.5));
    }

    #[test]
    fn scores_are_totally_ordered() {
        assert_eq!(TotalOrder(1.5), TotalOrder(1.5));
        assert_ne!(TotalOrder(1.5), TotalOrder(2.0));
        assert_ne!(TotalOrder(0.0), TotalOrder(-0.0));
        assert!(TotalOrder(-0.0) < TotalOrder(0.0));
        assert!(TotalOrder(2.0) > TotalOrder(1.5));
        assert_eq!(
            TotalOrder(1.0).partial_cmp(&TotalOrder(3.0)),
            Some(std::cmp::Ordering::Less)
        );
    }

    /// Bounds hold with every weight and prior at 0 or above, and with any one below not.
    #[test]
    fn a_negative_weight_or_prior_allows_no_bound() {
        let base = TaskRankingWeights::default();
        assert!(bounds_hold(&base));
        let mut zero = base.clone();
        (zero.k1, zero.code_tokens) = (0.0, 0.0);
        zero.path.weight = 0.0;
        zero.source_prior = 0.0;
        assert!(bounds_hold(&zero));
        let negative: [fn(&mut TaskRankingWeights); 11] = [
            |w| w.k1 = -0.1,
            |w| w.code_tokens = -0.1,
            |w| w.path.weight = -0.1,
            |w| w.symbols.weight = -0.1,
            |w| w.prose.weight = -0.1,
            |w| w.code.weight = -0.1,
            |w| w.source_prior = -0.1,
            |w| w.test_prior = -0.1,
            |w| w.docs_prior = -0.1,
            |w| w.data_prior = -0.1,
            |w| w.other_prior = -0.1,
        ];
        for (i, set) in negative.iter().enumerate() {
            let mut w = base.clone();
            set(&mut w);
            assert!(!bounds_hold(&w), "{i}");
        }
    }
}
