//! The files an answer lists by the tree's history, when it has one. An
//! `insufficient_evidence` answer (the tree lacks the question's subject, nothing read
//! holds its term, or the files read hold too little of it) has words that say little of
//! which file a task changes ("Fix a typo", "small refactor" name nothing a file holds),
//! while a file that changed often, and lately, is the likeliest to change again: the best
//! files by the question's words keep the first places, the last
//! `task_ranking.history_listed` go to the source files that changed most, each commit
//! weighed by its age (`retrieval/history.rs`, `most_changed`); none of them is read as
//! evidence. A `success` answer whose files found are fewer than the limit ("Fix the
//! docs" finds one README) gives up to `task_ranking.history_filled` of the free places to
//! the same files, after its own; unless the file read as evidence is what the question
//! names as a whole (its definition, the file named for it; not a phrase's within a task),
//! which is a whole answer.

use super::found::AskMatch;
use crate::profile::Profile;
use crate::retrieval::history::most_changed;
use crate::tree::Tree;

/// Lays the most changed source files into the last places of `matches` (at most
/// `limit`): the best `limit - history_listed` by the question's words first, then the
/// most changed files not among them, then the rest by words while places remain.
/// Nothing changes when the profile lists none or the tree has no history. Returns how
/// many files it listed.
pub(super) fn list_most_changed(
    tree: &Tree,
    profile: &Profile,
    matches: &mut Vec<AskMatch>,
    limit: usize,
) -> usize {
    let n = profile.task_ranking.history_listed.min(limit);
    if n == 0 || !tree.has_history() {
        return 0;
    }
    matches.truncate(limit);
    let rest = matches.split_off((limit - n).min(matches.len()));
    let listed = push_most_changed(
        tree,
        profile,
        matches,
        limit - matches.len(),
        "the question's words are not evidence of a file",
    );
    for m in rest {
        if matches.len() >= limit {
            break;
        }
        if !matches.iter().any(|k| k.path == m.path) {
            matches.push(m);
        }
    }
    listed
}

/// Lays the most changed source files into the places an answer *with* evidence leaves
/// free (at most `task_ranking.history_filled` of them, and only up to `limit`): what the
/// question names is in fewer files than the agent asked for, and the file a task
/// changes is often one beside them that changed lately. The files found keep their
/// places. Returns how many it listed.
pub(super) fn fill_free_places(
    tree: &Tree,
    profile: &Profile,
    matches: &mut Vec<AskMatch>,
    limit: usize,
) -> usize {
    let free = limit.saturating_sub(matches.len());
    let n = profile.task_ranking.history_filled.min(free);
    if n == 0 || !tree.has_history() {
        return 0;
    }
    push_most_changed(
        tree,
        profile,
        matches,
        n,
        "listed in a place the files found left free",
    )
}

/// Appends the `n` source files that changed most, lately most of all, that `matches`
/// does not hold, each with a reason that says how often and how lately it changed and
/// `why` it is listed. Returns how many it appended.
fn push_most_changed(
    tree: &Tree,
    profile: &Profile,
    matches: &mut Vec<AskMatch>,
    n: usize,
    why: &str,
) -> usize {
    let changed = most_changed(tree, profile, n, |path| {
        matches.iter().any(|m| m.path == path)
    });
    let commits = tree
        .history()
        .map_or(0, |h| h.commits().min(profile.task_ranking.history_commits));
    let files = tree.files();
    let listed = changed.len();
    for (i, changed) in changed {
        let last = match changed.newest {
            0 => "in the newest".to_string(),
            1 => "1 commit before the newest".to_string(),
            n => format!("{n} commits before the newest"),
        };
        matches.push(AskMatch {
            path: files[i].path.clone(),
            score: 0.0,
            reason: format!(
                "history: changed in {} of the newest {commits} commits, most lately {last}; \
                 among the tree's source files that changed most, lately most of all ({why})",
                changed.count
            ),
            line: None,
            step: None,
            ranked: false,
            names_term: false,
        });
    }
    listed
}

/// What a reason adds for the `n` files [`list_most_changed`] listed.
pub(super) fn listed_after(n: usize) -> String {
    match n {
        0 => String::new(),
        1 => "; the one after them changed most, lately most of all".to_string(),
        n => format!("; the {n} after them changed most, lately most of all"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::History;

    fn by_words(path: &str) -> AskMatch {
        AskMatch {
            path: path.to_string(),
            score: 1.0,
            reason: "rank".to_string(),
            line: Some(1),
            step: None,
            ranked: true,
            names_term: false,
        }
    }

    fn listed(tree: &Tree, profile: &Profile, words: &[&str], limit: usize) -> Vec<String> {
        let mut matches: Vec<AskMatch> = words.iter().map(|p| by_words(p)).collect();
        list_most_changed(tree, profile, &mut matches, limit);
        matches.into_iter().map(|m| m.path).collect()
    }

    #[test]
    fn the_best_by_words_keep_the_first_places_and_the_most_changed_the_last() {
        let tree = Tree::from_memory(
            "t",
            [
                ("src/a.rs", "a"),
                ("src/b.rs", "b"),
                ("src/c.rs", "c"),
                ("src/hot.rs", "h"),
                ("src/warm.rs", "w"),
                ("src/cold.rs", "c"),
                ("tests/hot_test.rs", "t"),
                ("NEWS.md", "n"),
            ],
        );
        let mut profile = Profile::default();
        assert_eq!(profile.task_ranking.history_listed, 3);
        profile.task_ranking.history_listed = 2;
        // without a history nothing changes
        assert_eq!(
            listed(&tree, &profile, &["src/a.rs", "src/b.rs"], 5),
            ["src/a.rs", "src/b.rs"]
        );
        let sweep: Vec<String> = (0..40).map(|i| format!("src/f{i}.rs")).collect();
        tree.set_history(History::from_commits([
            vec!["src/hot.rs".to_string(), "tests/hot_test.rs".to_string()],
            vec!["src/hot.rs".to_string(), "NEWS.md".to_string()],
            vec!["src/warm.rs".to_string(), "tests/hot_test.rs".to_string()],
            vec!["tests/hot_test.rs".to_string(), "NEWS.md".to_string()],
            // a sweep of 41 files counts for none of them
            sweep.into_iter().chain(["src/c.rs".to_string()]).collect(),
            vec!["src/gone.rs".to_string()],
            vec!["src/cold.rs".to_string()],
        ]));
        // three by words, then the two most changed source files (the test and the news
        // changed as often, but are not source; a file the tree lacks is not listed)
        assert_eq!(
            listed(
                &tree,
                &profile,
                &["src/a.rs", "src/b.rs", "src/c.rs", "NEWS.md"],
                5
            ),
            [
                "src/a.rs",
                "src/b.rs",
                "src/c.rs",
                "src/hot.rs",
                "src/warm.rs"
            ]
        );
        // fewer by words: the most changed fill what they leave, nothing twice
        assert_eq!(
            listed(&tree, &profile, &["src/hot.rs"], 5),
            ["src/hot.rs", "src/warm.rs", "src/cold.rs"]
        );
        // a short limit keeps its share of each
        assert_eq!(
            listed(&tree, &profile, &["src/a.rs", "src/b.rs"], 3),
            ["src/a.rs", "src/hot.rs", "src/warm.rs"]
        );
        // more places than the most changed files: the rest by words fill them, a file
        // listed already not twice
        let mut four = profile.clone();
        four.task_ranking.history_listed = 4;
        assert_eq!(
            listed(
                &tree,
                &four,
                &["src/a.rs", "src/b.rs", "src/warm.rs", "src/c.rs", "NEWS.md"],
                6
            ),
            [
                "src/a.rs",
                "src/b.rs",
                "src/hot.rs",
                "src/warm.rs",
                "src/cold.rs",
                "src/c.rs"
            ]
        );
        let mut none = profile.clone();
        none.task_ranking.history_listed = 0;
        assert_eq!(
            listed(&tree, &none, &["src/a.rs", "src/b.rs"], 5),
            ["src/a.rs", "src/b.rs"]
        );
    }

    #[test]
    fn a_file_changed_lately_comes_before_one_changed_more_often_long_ago() {
        let tree = Tree::from_memory("t", [("src/new.rs", "n"), ("src/old.rs", "o")]);
        let mut commits = vec![vec!["src/new.rs"]];
        commits.extend(std::iter::repeat_n(vec!["README.md"], 4));
        commits.extend(std::iter::repeat_n(vec!["src/old.rs"], 3));
        tree.set_history(History::from_commits(commits));
        // a half-life of one commit: the newest change weighs 1, three changes five to
        // seven commits old weigh 1/32 + 1/64 + 1/128
        let profile = Profile::default();
        assert_eq!(profile.task_ranking.history_listed_half_life, 1.0);
        assert_eq!(
            listed(&tree, &profile, &[], 5),
            ["src/new.rs", "src/old.rs"]
        );
        // every commit alike: three changes before one
        let mut counted = profile.clone();
        counted.task_ranking.history_listed_half_life = 0.0;
        assert_eq!(
            listed(&tree, &counted, &[], 5),
            ["src/old.rs", "src/new.rs"]
        );
        // a half-life of twenty commits: the three old changes weigh more than the new one
        counted.task_ranking.history_listed_half_life = 20.0;
        assert_eq!(
            listed(&tree, &counted, &[], 5),
            ["src/old.rs", "src/new.rs"]
        );
        // the reason says how often and how lately
        let mut matches = Vec::new();
        list_most_changed(&tree, &profile, &mut matches, 5);
        let reasons: Vec<&str> = matches.iter().map(|m| m.reason.as_str()).collect();
        assert!(
            reasons[0].starts_with(
                "history: changed in 1 of the newest 8 commits, most lately in the newest;"
            ),
            "{reasons:?}"
        );
        assert!(
            reasons[1].starts_with(
                "history: changed in 3 of the newest 8 commits, most lately 5 commits before \
                 the newest;"
            ),
            "{reasons:?}"
        );
    }
}
