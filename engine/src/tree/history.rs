//! What a tree's caller read of its repository's history, for `ask` to weigh a task's
//! files by (`retrieval/history.rs`): the commits before the tree's revision, newest first,
//! each with the paths it changed. The engine reads no history; its caller hands it to the
//! tree ([`super::Tree::set_history`]).

use std::collections::HashMap;

/// The commits before a tree's revision, newest first, each with the paths it changed
/// (relative to the tree's root, `/`-separated).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    /// Every path any commit changed, once.
    paths: Vec<String>,
    /// Each commit's paths, as places in `paths`.
    commits: Vec<Vec<u32>>,
}

impl History {
    /// The history of `commits`, newest first, each given as the paths it changed.
    pub fn from_commits<C, S>(commits: impl IntoIterator<Item = C>) -> History
    where
        C: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut place: HashMap<String, u32> = HashMap::new();
        let mut history = History::default();
        for changed in commits {
            let mut ids: Vec<u32> = changed
                .into_iter()
                .map(|p| {
                    let p = p.as_ref();
                    *place.entry(p.to_string()).or_insert_with(|| {
                        history.paths.push(p.to_string());
                        history.paths.len() as u32 - 1
                    })
                })
                .collect();
            ids.sort_unstable();
            ids.dedup();
            history.commits.push(ids);
        }
        history
    }

    /// How many commits it holds.
    pub fn commits(&self) -> usize {
        self.commits.len()
    }

    /// How many of the newest `window` commits changed each path they changed.
    pub fn change_counts(&self, window: usize) -> HashMap<&str, u32> {
        let mut counts: HashMap<&str, u32> = HashMap::new();
        for commit in self.commits.iter().take(window) {
            for &p in commit {
                *counts.entry(self.paths[p as usize].as_str()).or_default() += 1;
            }
        }
        counts
    }

    /// The newest `n` commits, each as the places of its paths (see [`History::path`]).
    pub fn newest(&self, n: usize) -> impl Iterator<Item = &[u32]> {
        self.commits.iter().take(n).map(Vec::as_slice)
    }

    /// The path at place `p` of a commit.
    pub fn path(&self, p: u32) -> &str {
        &self.paths[p as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_of_the_newest_commits_of_the_window() {
        let h = History::from_commits([
            vec!["src/a.rs", "src/b.rs"],
            vec!["src/a.rs", "src/a.rs"],
            vec!["README.md"],
            vec!["src/b.rs"],
        ]);
        assert_eq!(h.commits(), 4);
        let all = h.change_counts(usize::MAX);
        assert_eq!(
            (all["src/a.rs"], all["src/b.rs"], all["README.md"]),
            (2, 2, 1)
        );
        let newest_two = h.change_counts(2);
        assert_eq!(newest_two.get("src/a.rs"), Some(&2));
        assert_eq!(newest_two.get("src/b.rs"), Some(&1));
        assert_eq!(newest_two.get("README.md"), None);
    }
}
