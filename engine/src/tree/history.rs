//! What a tree's caller read of its repository's history, for `ask` to weigh a task's
//! files by (`retrieval/history.rs`): the commits before the tree's revision, newest first,
//! each with the paths it changed. The engine reads no history; its caller hands it to the
//! tree ([`super::Tree::set_history`]).

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// Reads a tree's history when it is first wanted (`None` when it cannot be read).
pub type HistoryReader = Box<dyn FnOnce() -> Option<History> + Send>;

/// A tree's history: the one its caller gave ([`super::Tree::set_history`]), or the one
/// read by the reader it gave ([`super::Tree::set_history_reader`]) when a ranking first
/// wants it, so that a call which weighs no history runs no `git log`. Shared by the trees
/// made from one (a first call's, the built index's).
#[derive(Default)]
pub(crate) struct TreeHistory {
    value: OnceLock<History>,
    reader: Mutex<Option<HistoryReader>>,
}

impl std::fmt::Debug for TreeHistory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TreeHistory")
            .field("value", &self.value.get())
            .finish_non_exhaustive()
    }
}

impl TreeHistory {
    /// `false` when the tree has a history already.
    pub(crate) fn set(&self, history: History) -> bool {
        self.value.set(history).is_ok()
    }

    /// `false` when the tree has a history or a reader already.
    pub(crate) fn set_reader(&self, reader: HistoryReader) -> bool {
        let mut held = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        if self.value.get().is_some() || held.is_some() {
            return false;
        }
        *held = Some(reader);
        true
    }

    /// The history, read now when only its reader was given (once: a reader that finds
    /// none is not asked again). A second thread asking meanwhile waits for the first's.
    pub(crate) fn get(&self) -> Option<&History> {
        if let Some(history) = self.value.get() {
            return Some(history);
        }
        let mut held = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(history) = held.take().and_then(|read| read()) {
            let _ = self.value.set(history);
        }
        drop(held);
        self.value.get()
    }

    /// True when a history or a reader of one was given.
    pub(crate) fn is_given(&self) -> bool {
        self.value.get().is_some()
            || self
                .reader
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .is_some()
    }
}

/// How much one path changed in a history's newest commits ([`History::change_weights`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Changed {
    /// The commits that changed it.
    pub count: u32,
    /// Those commits weighed by their age.
    pub weight: f64,
    /// The commits newer than the newest that changed it (0: the newest did).
    pub newest: usize,
}

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
        self.change_weights(window, usize::MAX, 0.0)
            .into_iter()
            .map(|(path, changed)| (path, changed.count))
            .collect()
    }

    /// How much each path changed in the newest `window` commits of at most `most_files`
    /// paths (a larger one is a sweep: a rename, a reformat): each commit weighs `0.5 ^ (age / half_life)`, `age` the commits newer than
    /// it, so a change `half_life` commits old counts half of the newest one's; a
    /// `half_life` of 0 weighs every commit 1 (the plain count).
    pub fn change_weights(
        &self,
        window: usize,
        most_files: usize,
        half_life: f64,
    ) -> HashMap<&str, Changed> {
        let mut changed: HashMap<&str, Changed> = HashMap::new();
        for (age, commit) in self.commits.iter().take(window).enumerate() {
            if commit.len() > most_files {
                continue;
            }
            let weight = if half_life > 0.0 {
                0.5f64.powf(age as f64 / half_life)
            } else {
                1.0
            };
            for &p in commit {
                let entry = changed
                    .entry(self.paths[p as usize].as_str())
                    .or_insert(Changed {
                        count: 0,
                        weight: 0.0,
                        newest: age,
                    });
                entry.count += 1;
                entry.weight += weight;
            }
        }
        changed
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
    fn a_reader_runs_once_and_only_when_the_history_is_wanted() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::Arc;
        let runs = Arc::new(AtomicUsize::new(0));
        let h = TreeHistory::default();
        let counted = runs.clone();
        assert!(h.set_reader(Box::new(move || {
            counted.fetch_add(1, Ordering::SeqCst);
            Some(History::from_commits([vec!["a.rs"]]))
        })));
        assert!(h.is_given());
        assert_eq!(runs.load(Ordering::SeqCst), 0);
        assert_eq!(h.get().map(History::commits), Some(1));
        assert_eq!(h.get().map(History::commits), Some(1));
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        // given already: neither a second reader nor a history replaces it
        assert!(!h.set_reader(Box::new(|| None)));
        assert!(!h.set(History::default()));
        // a reader that finds nothing leaves no history, and is not asked again
        let none = TreeHistory::default();
        assert!(none.set_reader(Box::new(|| None)));
        assert!(none.get().is_none());
        assert!(!none.is_given());
        assert!(none.set(History::default()));
    }

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
        // the first commit changed two paths: past a bound of one it is a sweep
        let within_one = h.change_weights(usize::MAX, 1, 0.0);
        assert_eq!(
            (within_one["src/a.rs"].count, within_one["src/b.rs"].count),
            (1, 1)
        );
        let newest_two = h.change_counts(2);
        assert_eq!(newest_two.get("src/a.rs"), Some(&2));
        assert_eq!(newest_two.get("src/b.rs"), Some(&1));
        assert_eq!(newest_two.get("README.md"), None);
    }

    #[test]
    fn weights_halve_every_half_life_and_say_how_lately_a_path_changed() {
        let h = History::from_commits([
            vec!["src/a.rs"],
            vec!["README.md", "src/b.rs"],
            vec!["src/b.rs"],
            vec!["src/a.rs", "src/b.rs", "src/c.rs"],
            vec!["src/b.rs"],
        ]);
        let changed = |window, most_files, half_life| {
            let mut v: Vec<(String, Changed)> = h
                .change_weights(window, most_files, half_life)
                .into_iter()
                .map(|(p, c)| (p.to_string(), c))
                .collect();
            v.sort_by(|a, b| a.0.cmp(&b.0));
            v
        };
        let of = |count, weight, newest| Changed {
            count,
            weight,
            newest,
        };
        // a half-life of one commit: ages 0, 1, 2, 3, 4 weigh 1, 1/2, 1/4, 1/8, 1/16
        assert_eq!(
            changed(usize::MAX, usize::MAX, 1.0),
            [
                ("README.md".to_string(), of(1, 0.5, 1)),
                ("src/a.rs".to_string(), of(2, 1.125, 0)),
                ("src/b.rs".to_string(), of(4, 0.9375, 1)),
                ("src/c.rs".to_string(), of(1, 0.125, 3)),
            ]
        );
        // a half-life of two: the commit two old weighs a half
        assert_eq!(
            changed(3, usize::MAX, 2.0)[2].1,
            of(2, 0.5f64.sqrt() + 0.5, 1)
        );
        // no half-life counts; a commit of more than `most_files` paths is a sweep; the
        // window keeps the newest
        assert_eq!(
            changed(usize::MAX, 2, 0.0),
            [
                ("README.md".to_string(), of(1, 1.0, 1)),
                ("src/a.rs".to_string(), of(1, 1.0, 0)),
                ("src/b.rs".to_string(), of(3, 3.0, 1)),
            ]
        );
        assert_eq!(
            changed(1, usize::MAX, 0.0),
            [("src/a.rs".to_string(), of(1, 1.0, 0))]
        );
    }
}
