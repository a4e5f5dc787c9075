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
use super::kind::FileKind;
use crate::profile::Profile;
use crate::tree::{Changed, History, Tree};
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
    // weighed first: a history given as a reader is read only when it is weighed
    if (w.history <= 0.0 && w.co_change <= 0.0) || ranked.is_empty() {
        return Changes::default();
    }
    let Some(history) = tree.history() else {
        return Changes::default();
    };
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

/// The source files of `tree` that changed most in the newest `history_commits` commits
/// of its history (a sweep of more than `co_change_max_commit_files` files left out, as for
/// `co_change`), each commit weighed by its age (`history_listed_half_life`: a file changed
/// in the last few commits is where work is going on), most first and then by path, at
/// most `n`, none for which `skip` holds: each file's place in the tree and how it changed.
/// What `ask` lists when the words are not evidence of a file
/// (`task_ranking.history_listed`); empty without a history.
pub fn most_changed(
    tree: &Tree,
    profile: &Profile,
    n: usize,
    skip: impl Fn(&str) -> bool,
) -> Vec<(usize, Changed)> {
    let w = &profile.task_ranking;
    let Some(history) = tree.history().filter(|_| n > 0) else {
        return Vec::new();
    };
    let weights = history.change_weights(
        w.history_commits,
        w.co_change_max_commit_files,
        w.history_listed_half_life,
    );
    let mut changed: Vec<(&str, Changed)> = weights.into_iter().collect();
    changed.sort_unstable_by(|a, b| b.1.weight.total_cmp(&a.1.weight).then_with(|| a.0.cmp(b.0)));
    let files = tree.files();
    changed
        .into_iter()
        .filter(|(path, _)| !skip(path))
        .filter_map(|(path, c)| {
            let i = files.binary_search_by(|f| f.path.as_str().cmp(path)).ok()?;
            FileKind::of(&files[i], profile)
                .is_source()
                .then_some((i, c))
        })
        .take(n)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::rank_files;

    /// A ranked file of `tree` by its path, with its score by the question's words.
    fn scored(tree: &Tree, path: &str, score: f64) -> Scored {
        let file = tree.files().iter().position(|f| f.path == path).unwrap() as u32;
        Scored {
            file,
            score,
            found: Vec::new(),
            lines: None,
            kind: FileKind::Source,
        }
    }

    fn id(tree: &Tree, path: &str) -> u32 {
        tree.files().iter().position(|f| f.path == path).unwrap() as u32
    }

    fn scores(ranked: &[Scored]) -> Vec<f64> {
        ranked.iter().map(|s| s.score).collect()
    }

    fn five_files() -> Tree {
        Tree::from_memory(
            "worked",
            [
                ("src/p.rs", "p"),
                ("src/l.rs", "l"),
                ("src/o.rs", "o"),
                ("src/q.rs", "q"),
                ("src/r.rs", "r"),
            ],
        )
    }

    #[test]
    fn the_history_factor_worked_by_hand() {
        let tree = five_files();
        // newest first; the newest 4 counted: p 3 times, l once, x (no ranked file) 4 times
        tree.set_history(History::from_commits([
            vec!["src/p.rs", "x"],
            vec!["src/p.rs", "src/l.rs", "x"],
            vec!["src/p.rs", "x"],
            vec!["x"],
            vec!["src/l.rs", "src/p.rs", "src/o.rs"],
        ]));
        let mut profile = Profile::default();
        profile.task_ranking.history = 0.5;
        profile.task_ranking.history_commits = 4;
        // more files than the best: a co-change weight of 0 must still lift none of them
        profile.task_ranking.co_change = 0.0;
        profile.task_ranking.co_change_files = 1;
        let mut ranked = vec![
            scored(&tree, "src/p.rs", 2.0),
            scored(&tree, "src/l.rs", 3.0),
            scored(&tree, "src/o.rs", 1.5),
        ];
        let changes = weigh_changes(&tree, &profile, &mut ranked);
        // x 1 + 0.5 ln(1 + c) / ln(1 + 4)
        let (l5, l4, l2) = (5f64.ln(), 4f64.ln(), 2f64.ln());
        let want = [
            2.0 * (1.0 + 0.5 * l4 / l5),
            3.0 * (1.0 + 0.5 * l2 / l5),
            1.5,
        ];
        for (got, want) in scores(&ranked).iter().zip(want) {
            assert!((got - want).abs() < 1e-12, "{got} against {want}");
        }
        let (p, l) = (id(&tree, "src/p.rs"), id(&tree, "src/l.rs"));
        assert_eq!(changes.of_file, HashMap::from([(p, 3), (l, 1)]));
        assert_eq!(changes.commits, 4);
        assert!(changes.with.is_empty(), "{:?}", changes.with);
        // more commits asked for than the history holds: all 5 counted
        profile.task_ranking.history_commits = 10;
        let mut ranked = vec![scored(&tree, "src/o.rs", 1.0)];
        let changes = weigh_changes(&tree, &profile, &mut ranked);
        assert_eq!(changes.commits, 5);
        // o once, x 4 times: 1 + 0.5 ln 2 / ln 5
        assert!((ranked[0].score - (1.0 + 0.5 * l2 / l5)).abs() < 1e-12);
        // no commit counted: nothing changed, nothing said
        profile.task_ranking.history_commits = 0;
        let mut ranked = vec![scored(&tree, "src/p.rs", 2.0)];
        let changes = weigh_changes(&tree, &profile, &mut ranked);
        assert_eq!(scores(&ranked), [2.0]);
        assert!(changes.of_file.is_empty());
    }

    #[test]
    fn no_history_no_weight_or_no_ranked_file_changes_nothing() {
        let tree = five_files();
        let mut profile = Profile::default();
        profile.task_ranking.history = 1.0;
        profile.task_ranking.co_change = 1.0;
        profile.task_ranking.co_change_files = 1;
        let ranked = || {
            vec![
                scored(&tree, "src/p.rs", 2.0),
                scored(&tree, "src/l.rs", 1.0),
            ]
        };
        let mut no_history = ranked();
        let changes = weigh_changes(&tree, &profile, &mut no_history);
        assert_eq!(scores(&no_history), [2.0, 1.0]);
        assert_eq!(changes.commits, 0);
        tree.set_history(History::from_commits([
            vec!["src/p.rs", "src/l.rs"],
            vec!["src/p.rs"],
        ]));
        // weights of 0 or below: the history is not counted
        profile.task_ranking.history = 0.0;
        profile.task_ranking.co_change = -1.0;
        let mut unweighed = ranked();
        let changes = weigh_changes(&tree, &profile, &mut unweighed);
        assert_eq!(scores(&unweighed), [2.0, 1.0]);
        assert_eq!(changes.commits, 0);
        assert!(changes.of_file.is_empty() && changes.with.is_empty());
        // no ranked file: nothing counted either
        profile.task_ranking.history = 1.0;
        profile.task_ranking.co_change = 1.0;
        let changes = weigh_changes(&tree, &profile, &mut []);
        assert_eq!(changes.commits, 0);
        // the same history weighed: both counted (p 2 of 2, l 1: x 1 + ln 2 / ln 3)
        let mut weighed = ranked();
        let changes = weigh_changes(&tree, &profile, &mut weighed);
        assert_eq!(changes.commits, 2);
        let l_lifted = (1.0 + 1.0 * 2.0 * 0.5) * (1.0 + 2f64.ln() / 3f64.ln());
        let want = [2.0 * 2.0, l_lifted];
        for (got, want) in scores(&weighed).iter().zip(want) {
            assert!((got - want).abs() < 1e-12, "{got} against {want}");
        }
    }

    #[test]
    fn the_co_change_lift_worked_by_hand() {
        let tree = five_files();
        // p is the best; commits of at most 3 files counted
        tree.set_history(History::from_commits([
            vec!["src/p.rs", "src/l.rs"],
            vec!["src/p.rs"],
            vec!["src/p.rs", "src/o.rs", "x"],
            vec!["src/p.rs", "src/q.rs", "y", "z"],
            vec!["src/l.rs", "src/p.rs"],
            vec!["src/l.rs", "src/o.rs"],
        ]));
        let mut profile = Profile::default();
        profile.task_ranking.history = 0.0;
        profile.task_ranking.co_change = 0.5;
        profile.task_ranking.co_change_files = 1;
        profile.task_ranking.co_change_max_commit_files = 3;
        let mut ranked = vec![
            scored(&tree, "src/l.rs", 1.0),
            scored(&tree, "src/p.rs", 4.0),
            scored(&tree, "src/o.rs", 1.0),
            scored(&tree, "src/q.rs", 1.0),
            scored(&tree, "src/r.rs", 2.0),
        ];
        let changes = weigh_changes(&tree, &profile, &mut ranked);
        // p changed in 4 counted commits; l with it in 2: + 0.5 x 4 x 2/4, o in 1 (the
        // commit of exactly 3 files): + 0.5 x 4 x 1/4; q only in a commit of 4 files
        assert_eq!(scores(&ranked), [2.0, 4.0, 1.5, 1.0, 2.0]);
        let p = id(&tree, "src/p.rs");
        let co = |together, of| CoChanged {
            best: p,
            together,
            of,
        };
        assert_eq!(
            changes.with,
            HashMap::from([
                (id(&tree, "src/l.rs"), co(2, 4)),
                (id(&tree, "src/o.rs"), co(1, 4))
            ])
        );
        assert_eq!(changes.commits, 6);
        assert!(changes.of_file.is_empty());
    }

    #[test]
    fn a_file_is_lifted_by_its_largest_lift_and_a_best_file_by_none() {
        let tree = five_files();
        tree.set_history(History::from_commits([
            vec!["src/p.rs", "src/l.rs", "src/q.rs"],
            vec!["src/p.rs", "src/r.rs"],
            vec!["src/o.rs", "src/l.rs", "src/q.rs"],
        ]));
        let mut profile = Profile::default();
        profile.task_ranking.history = 0.0;
        profile.task_ranking.co_change = 0.5;
        profile.task_ranking.co_change_files = 2;
        // p and o are the best (4 and 3); r, third, changed with p but is not one of them
        let mut ranked = vec![
            scored(&tree, "src/p.rs", 4.0),
            scored(&tree, "src/o.rs", 3.0),
            scored(&tree, "src/l.rs", 1.0),
            scored(&tree, "src/r.rs", 2.0),
            scored(&tree, "src/q.rs", 1.0),
        ];
        let changes = weigh_changes(&tree, &profile, &mut ranked);
        // l: with p in 1 of its 2 commits (0.5 x 4 x 1/2 = 1), with o in 1 of 1 (0.5 x 3 =
        // 1.5): lifted by o's; r: with p, 1 of 2 (1); q as l
        assert_eq!(scores(&ranked), [4.0, 3.0, 2.5, 3.0, 2.5]);
        let (p, o) = (id(&tree, "src/p.rs"), id(&tree, "src/o.rs"));
        let with = |best, of| CoChanged {
            best,
            together: 1,
            of,
        };
        assert_eq!(
            changes.with,
            HashMap::from([
                (id(&tree, "src/l.rs"), with(o, 1)),
                (id(&tree, "src/r.rs"), with(p, 2)),
                (id(&tree, "src/q.rs"), with(o, 1)),
            ])
        );
        // equal lifts: the better ranked best file's (p's 4 x 1/2 and o's 2 x 1)
        ranked[1].score = 2.0;
        for s in &mut ranked[2..] {
            s.score = 1.0;
        }
        let changes = weigh_changes(&tree, &profile, &mut ranked);
        assert_eq!(changes.with[&id(&tree, "src/l.rs")], with(p, 2));
        assert_eq!(scores(&ranked), [4.0, 2.0, 2.0, 2.0, 2.0]);
    }

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
