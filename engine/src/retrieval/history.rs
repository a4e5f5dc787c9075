//! What a repository's history says of a tree's files: a file that changed often before
//! the revision asked about is more likely the one a task changes than a file as well
//! matched by the question's words that seldom changes.
//!
//! The engine starts no process: its caller reads the commits before the tree's revision
//! (`harness/tools/src/history.rs`, `git log --name-only`, never the revision's own
//! successors) and hands them to the tree ([`crate::Tree::set_history`]). A ranked file's
//! score is multiplied by `1 + history x ln(1 + c) / ln(1 + m)`, `c` the commits of the
//! newest `history_commits` that changed it, `m` the most any path changed in them; and
//! a ranked file that changed with one of the best files by the question's words is lifted
//! by a share of that file's score (`co_change`). Files the question's words did not match
//! are never added.

use super::best_files::Scored;
use crate::profile::Profile;
use crate::tree::{History, Tree};
use std::collections::HashMap;

/// What the history did to a ranking: how many of the commits counted changed each file
/// the prior weighed, how many commits were counted, and each file lifted for changing
/// with a best file: that file, the commits that changed both, and the best file's commits.
#[derive(Debug, Default)]
pub(super) struct Changes {
    pub of_file: HashMap<u32, u32>,
    pub commits: usize,
    pub with: HashMap<u32, CoChanged>,
}

/// A file lifted for changing with one of the best files.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct CoChanged {
    pub best: u32,
    pub together: u32,
    pub of: u32,
}

/// Weighs the files of `ranked` by the tree's history: first each file that changed with
/// one of the `co_change_files` best is lifted by `co_change` times that file's score
/// times the share of its commits that changed both (the most such lift); then each
/// file's score is multiplied by `1 + history x ln(1 + c) / ln(1 + m)`. Both count the
/// newest `history_commits` commits. Nothing when the tree has no history or both weights
/// are 0.
pub(super) fn weigh_changes(tree: &Tree, profile: &Profile, ranked: &mut [Scored]) -> Changes {
    let w = &profile.task_ranking;
    let Some(history) = tree.history() else {
        return Changes::default();
    };
    if (w.history <= 0.0 && w.co_change <= 0.0) || ranked.is_empty() {
        return Changes::default();
    }
    let mut changes = Changes {
        commits: history.commits().min(w.history_commits),
        ..Changes::default()
    };
    if w.co_change > 0.0 {
        changes.with = lift_co_changed(tree, history, profile, ranked);
    }
    if w.history <= 0.0 {
        return changes;
    }
    let counts = history.change_counts(w.history_commits);
    let most = counts.values().copied().max().unwrap_or(0);
    if most == 0 {
        return changes;
    }
    let scale = (1.0 + most as f64).ln();
    let files = tree.files();
    for entry in ranked.iter_mut() {
        let Some(&c) = counts.get(files[entry.file as usize].path.as_str()) else {
            continue;
        };
        entry.score *= 1.0 + w.history * (1.0 + c as f64).ln() / scale;
        changes.of_file.insert(entry.file, c);
    }
    changes
}

/// The co-change lift of [`weigh_changes`]: each ranked file, not one of the best, that
/// changed in a commit (of at most `co_change_max_commit_files` files) with one of them.
fn lift_co_changed(
    tree: &Tree,
    history: &History,
    profile: &Profile,
    ranked: &mut [Scored],
) -> HashMap<u32, CoChanged> {
    let w = &profile.task_ranking;
    let files = tree.files();
    let path = |i: usize| files[ranked[i].file as usize].path.as_str();
    // the best by the question's words, in the ranking's order
    let mut order: Vec<usize> = (0..ranked.len()).collect();
    order.sort_by(|&a, &b| {
        ranked[b].score.total_cmp(&ranked[a].score).then_with(|| {
            let (pa, pb) = (path(a), path(b));
            pa.len().cmp(&pb.len()).then_with(|| pa.cmp(pb))
        })
    });
    let best = &order[..w.co_change_files.min(order.len())];
    let place: HashMap<&str, usize> = (0..ranked.len()).map(|i| (path(i), i)).collect();
    let mut commits_of_best = vec![0u32; best.len()];
    let mut together: HashMap<(usize, usize), u32> = HashMap::new();
    for commit in history.newest(w.history_commits) {
        if commit.len() > w.co_change_max_commit_files {
            continue;
        }
        let held: Vec<usize> = commit
            .iter()
            .filter_map(|&p| place.get(history.path(p)).copied())
            .collect();
        for (k, b) in best.iter().enumerate() {
            if !held.contains(b) {
                continue;
            }
            commits_of_best[k] += 1;
            for &r in held.iter().filter(|&r| r != b) {
                *together.entry((k, r)).or_default() += 1;
            }
        }
    }
    let best_scores: Vec<f64> = best.iter().map(|&b| ranked[b].score).collect();
    let mut lifted = HashMap::new();
    for r in 0..ranked.len() {
        if best.contains(&r) {
            continue;
        }
        let lift = (0..best.len())
            .filter_map(|k| {
                let both = *together.get(&(k, r))?;
                let share = both as f64 / commits_of_best[k] as f64;
                Some((w.co_change * best_scores[k] * share, k, both))
            })
            .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        if let Some((add, k, both)) = lift {
            ranked[r].score += add;
            lifted.insert(
                ranked[r].file,
                CoChanged {
                    best: ranked[best[k]].file,
                    together: both,
                    of: commits_of_best[k],
                },
            );
        }
    }
    lifted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::rank_files;

    #[test]
    fn the_file_that_changed_more_often_leads_files_matched_alike_and_says_so() {
        let text = "pub fn parse_flags() {}\n// parse the command flags\n";
        let tree = Tree::from_memory(
            "history",
            [
                ("src/one.rs", text),
                ("src/two.rs", text),
                ("src/gamma.rs", "pub fn unrelated() {}\n"),
            ],
        );
        let mut profile = Profile::default();
        profile.task_ranking.history = 0.5;
        let question = "parse the command flags";
        let ranked = |p: &Profile| {
            rank_files(&tree, question, p, 5)
                .into_iter()
                .map(|r| (r.path, r.score, r.reason))
                .collect::<Vec<_>>()
        };
        let before = ranked(&profile);
        assert_eq!(before.len(), 2);
        assert_eq!(before[0].0, "src/one.rs", "equal scores: path order");
        assert_eq!(before[0].1, before[1].1);
        // two changed in two of three commits, one in one, gamma (unmatched) in all
        tree.set_history(History::from_commits([
            vec!["src/two.rs", "src/gamma.rs"],
            vec!["src/two.rs", "src/one.rs", "src/gamma.rs"],
            vec!["README.md", "src/gamma.rs"],
        ]));
        let after = ranked(&profile);
        assert_eq!(
            after.len(),
            2,
            "a file the words did not match is not added"
        );
        assert_eq!(after[0].0, "src/two.rs");
        assert!(
            after[0].2.contains("; changed in 2 of the last 3 commits"),
            "{}",
            after[0].2
        );
        assert!(after[1].2.contains("; changed in 1 of the last 3 commits"));
        // x (1 + 0.5 ln 3 / ln 4) and x (1 + 0.5 ln 2 / ln 4): gamma's 3 is the most
        let base = before[0].1;
        let close = |a: f64, b: f64| (a - b).abs() < 1e-3;
        assert!(close(
            after[0].1,
            base * (1.0 + 0.5 * 3f64.ln() / 4f64.ln())
        ));
        assert!(close(
            after[1].1,
            base * (1.0 + 0.5 * 2f64.ln() / 4f64.ln())
        ));
        // the newest commit alone: only beta changed in it
        profile.task_ranking.history_commits = 1;
        let newest = ranked(&profile);
        assert_eq!(newest[0].0, "src/two.rs");
        assert!(newest[0].2.contains("changed in 1 of the last 1 commits"));
        assert!(!newest[1].2.contains("changed in"));
        // weight 0: the ranking without history, reasons and scores alike
        profile.task_ranking.history = 0.0;
        assert_eq!(ranked(&profile), before);
    }

    #[test]
    fn a_file_that_changed_with_the_best_file_is_lifted_by_a_share_of_its_score() {
        let weak = "// flags\n";
        let tree = Tree::from_memory(
            "co-change",
            [
                (
                    "src/parser.rs",
                    "// parse the command flags\nfn parse_flags() {}\n",
                ),
                ("src/lexer.rs", weak),
                ("src/other.rs", weak),
            ],
        );
        let mut profile = Profile::default();
        profile.task_ranking.history = 0.0;
        profile.task_ranking.co_change = 0.5;
        profile.task_ranking.co_change_files = 1;
        profile.task_ranking.co_change_max_commit_files = 3;
        let ranked = |p: &Profile| {
            rank_files(&tree, "parse the command flags", p, 5)
                .into_iter()
                .map(|r| (r.path, r.score, r.reason))
                .collect::<Vec<_>>()
        };
        let before = ranked(&profile);
        let paths: Vec<&str> = before.iter().map(|r| r.0.as_str()).collect();
        assert_eq!(paths, ["src/parser.rs", "src/lexer.rs", "src/other.rs"]);
        let weak_score = before[2].1;
        // lexer changed with the parser in 2 of its 3 commits; other with it only in a
        // sweep of four files, which is not counted
        tree.set_history(History::from_commits([
            vec!["src/parser.rs", "src/lexer.rs"],
            vec!["src/parser.rs"],
            vec!["src/other.rs", "src/parser.rs", "a", "b"],
            vec!["src/lexer.rs", "src/parser.rs"],
        ]));
        let after = ranked(&profile);
        assert_eq!(after[0], before[0], "the best file is not lifted");
        assert_eq!(after[1].0, "src/lexer.rs");
        let lift = 0.5 * before[0].1 * 2.0 / 3.0;
        assert!((after[1].1 - (weak_score + lift)).abs() < 1e-3, "{after:?}");
        assert!(after[1]
            .2
            .contains("; changed with `src/parser.rs` in 2 of its 3 commits"));
        assert_eq!(after[2], before[2]);
        profile.task_ranking.co_change = 0.0;
        assert_eq!(ranked(&profile), before);
    }
}
