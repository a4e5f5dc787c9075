//! Whether a loaded fixture still matches the disk, asked before every call so that an
//! agent's edit is seen by its next call.
//!
//! A tree is watched (Linux inotify, one watch per directory a walk enters, and every
//! directory created under them later): a check reads the events queued since the
//! last one, without a system call per file, so it costs microseconds whatever the size
//! of the tree. An event is queued while the writing call runs, so an edit made before a
//! call is always seen by it. Where there is no inotify, or its watches run out, a check
//! compares the size and mtime of every indexed file and directory (what `Tree::load`
//! itself compares). A store or path list is one file: its size and mtime.
//!
//! A tree at the top of a git work tree also compares the size and mtime of the files that
//! move with its `HEAD` (`HEAD`, its reflog, the branch it names): a commit changes only
//! the git directory, which the walk and the watch skip, yet `ask` lists the files that
//! changed lately by its history, read anew by a tree loaded again.
//!
//! A change only says "load again": the reload goes through `Tree::load` (the kept index:
//! only files whose size or mtime changed are read again) or the store cache.

use findbench_engine::Tree;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// An mtime this close to the load may belong to a write the load did not see (the same
/// rule as the kept index's): such a fixture is loaded again on the next call.
const RACY: Duration = Duration::from_secs(2);

/// The size and mtime of a file or directory (`None`: missing).
type Stamp = Option<(u64, SystemTime)>;

fn stamp(path: &Path) -> Stamp {
    let meta = std::fs::symlink_metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()?))
}

/// How a loaded fixture learns that it changed.
pub struct Freshness {
    how: How,
    /// Something may have changed unseen while it loaded: load again at the next check.
    doubtful: bool,
    /// The files of a work tree's git directory that move with its `HEAD`, stamped.
    head: Vec<(PathBuf, Stamp)>,
}

enum How {
    #[cfg(target_os = "linux")]
    Watch(crate::inotify::Watch),
    Stamps(Vec<(PathBuf, Stamp)>),
}

/// The directories a walk of `root` enters (the engine's walk rules: hidden and ignored
/// ones skipped, links not followed), empty ones included: a file written into any of them
/// is a file the next load indexes.
fn directories(root: &Path) -> Vec<PathBuf> {
    ignore::WalkBuilder::new(root)
        .hidden(true)
        .follow_links(false)
        .git_ignore(true)
        .git_exclude(true)
        .ignore(true)
        .git_global(false)
        .parents(false)
        .require_git(false)
        .filter_entry(|e| e.file_type().is_some_and(|t| t.is_dir()))
        .build()
        .flatten()
        .map(ignore::DirEntry::into_path)
        .collect()
}

/// The files of the git directory of the work tree whose top is `root` that change when its
/// `HEAD` moves: `HEAD` (a checkout), `logs/HEAD` (every move, where reflogs are kept) and
/// the branch `HEAD` names, loose or packed (a commit). None outside a work tree's top; a
/// `.git` file (a linked work tree, a submodule) names the git directory.
fn head_files(root: &Path) -> Vec<PathBuf> {
    let dot_git = root.join(".git");
    let git_dir = match std::fs::read_to_string(&dot_git) {
        Ok(text) => match text.trim().strip_prefix("gitdir:") {
            Some(dir) => root.join(dir.trim()),
            None => return Vec::new(),
        },
        Err(_) if dot_git.is_dir() => dot_git,
        Err(_) => return Vec::new(),
    };
    let mut files = vec![git_dir.join("HEAD"), git_dir.join("logs/HEAD")];
    let head = std::fs::read_to_string(git_dir.join("HEAD")).unwrap_or_default();
    if let Some(branch) = head.trim().strip_prefix("ref:") {
        files.push(git_dir.join(branch.trim()));
        files.push(git_dir.join("packed-refs"));
    }
    files
}

fn head_stamps(root: &Path) -> Vec<(PathBuf, Stamp)> {
    head_files(root)
        .into_iter()
        .map(|p| {
            let s = stamp(&p);
            (p, s)
        })
        .collect()
}

/// True when any of `stamps` is within [`RACY`] of `loaded_at` (or after it).
fn any_racy<'a>(stamps: impl Iterator<Item = &'a Stamp>, loaded_at: SystemTime) -> bool {
    let since = loaded_at
        .checked_sub(RACY)
        .unwrap_or(SystemTime::UNIX_EPOCH);
    stamps.flatten().any(|(_, mtime)| *mtime >= since)
}

impl Freshness {
    /// Watches `tree`, loaded at `loaded_at`: inotify where it can, stamps otherwise.
    pub fn for_tree(tree: &Tree, loaded_at: SystemTime) -> Freshness {
        #[cfg(target_os = "linux")]
        {
            let dirs = directories(tree.root());
            if let Some(watch) = crate::inotify::Watch::new(dirs.iter().map(PathBuf::as_path)) {
                // a write between the load's walk and the watches: its mtime is recent
                let files = tree.files().iter().map(|f| tree.root().join(&f.path));
                let stamps: Vec<Stamp> = dirs
                    .iter()
                    .cloned()
                    .chain(files)
                    .map(|p| stamp(&p))
                    .collect();
                return Freshness {
                    how: How::Watch(watch),
                    doubtful: any_racy(stamps.iter(), loaded_at),
                    head: head_stamps(tree.root()),
                };
            }
        }
        Freshness::stamped(tree, loaded_at)
    }

    /// Compares the size and mtime of every indexed file and directory at each check.
    pub fn stamped(tree: &Tree, loaded_at: SystemTime) -> Freshness {
        let files = tree.files().iter().map(|f| tree.root().join(&f.path));
        Freshness {
            head: head_stamps(tree.root()),
            ..Freshness::of_paths(directories(tree.root()).into_iter().chain(files), loaded_at)
        }
    }

    /// One file (a store, a path list): its size and mtime.
    pub fn for_file(path: &Path, loaded_at: SystemTime) -> Freshness {
        Freshness::of_paths(std::iter::once(path.to_path_buf()), loaded_at)
    }

    fn of_paths(paths: impl Iterator<Item = PathBuf>, loaded_at: SystemTime) -> Freshness {
        let stamps: Vec<(PathBuf, Stamp)> = paths
            .map(|p| {
                let s = stamp(&p);
                (p, s)
            })
            .collect();
        Freshness {
            doubtful: any_racy(stamps.iter().map(|(_, s)| s), loaded_at),
            how: How::Stamps(stamps),
            head: Vec::new(),
        }
    }

    /// Whether the fixture should be loaded again: something changed since it was loaded
    /// (or since the last check), or it may have.
    pub fn changed(&mut self) -> bool {
        let doubtful = std::mem::take(&mut self.doubtful);
        let seen = match &mut self.how {
            #[cfg(target_os = "linux")]
            How::Watch(watch) => watch.changed(),
            How::Stamps(stamps) => stamps.iter().any(|(p, s)| stamp(p) != *s),
        };
        let moved = self.head.iter().any(|(p, s)| stamp(p) != *s);
        doubtful || seen || moved
    }

    /// The fixture may have changed unseen: the next check says it changed.
    pub fn doubt(&mut self) {
        self.doubtful = true;
    }

    /// After the fixture was loaded again at `loaded_at`: a watch goes on (the events of a
    /// write during the reload are queued in it, seen by the next check), stamps are taken
    /// anew.
    pub fn reloaded(self, tree: Option<&Tree>, path: &Path, loaded_at: SystemTime) -> Freshness {
        match (self.how, tree) {
            #[cfg(target_os = "linux")]
            (How::Watch(watch), Some(tree)) => Freshness {
                how: How::Watch(watch),
                doubtful: false,
                head: head_stamps(tree.root()),
            },
            (_, Some(tree)) => Freshness::for_tree(tree, loaded_at),
            (_, None) => Freshness::for_file(path, loaded_at),
        }
    }

    /// Whether it is watched (inotify), not compared file by file.
    pub fn is_watched(&self) -> bool {
        match self.how {
            #[cfg(target_os = "linux")]
            How::Watch(_) => true,
            How::Stamps(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use findbench_engine::TreeOptions;

    fn tree_at(dir: &Path) -> Tree {
        let options = TreeOptions {
            no_cache: true,
            ..TreeOptions::default()
        };
        Tree::load(dir, &options).unwrap()
    }

    /// A load long after the files were written: nothing is doubtful.
    fn later() -> SystemTime {
        SystemTime::now() + Duration::from_secs(60)
    }

    fn check_both(dir: &Path, change: impl Fn(&Path)) {
        let tree = tree_at(dir);
        let mut watched = Freshness::for_tree(&tree, later());
        let mut stamped = Freshness::stamped(&tree, later());
        assert!(
            !watched.changed() && !stamped.changed(),
            "nothing changed yet"
        );
        change(dir);
        // a file's mtime may not move within one clock tick: change its size too
        assert!(stamped.changed(), "stamps see the change");
        assert!(watched.changed(), "the watch sees the change");
        assert!(!watched.changed(), "and only once");
    }

    fn small_tree() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src/deep")).unwrap();
        std::fs::write(dir.path().join("src/deep/a.rs"), "fn a() {}\n").unwrap();
        std::fs::write(dir.path().join("b.rs"), "fn b() {}\n").unwrap();
        dir
    }

    #[test]
    fn a_commit_seen_in_the_git_directory_alone_is_a_change() {
        let dir = small_tree();
        let git = dir.path().join(".git");
        std::fs::create_dir_all(git.join("refs/heads")).unwrap();
        std::fs::write(git.join("HEAD"), "ref: refs/heads/main\n").unwrap();
        std::fs::write(git.join("refs/heads/main"), "1111\n").unwrap();
        assert_eq!(
            head_files(dir.path()),
            ["HEAD", "logs/HEAD", "refs/heads/main", "packed-refs"].map(|f| git.join(f))
        );
        let tree = tree_at(dir.path());
        let mut watched = Freshness::for_tree(&tree, later());
        let mut stamped = Freshness::stamped(&tree, later());
        assert!(!watched.changed() && !stamped.changed());
        // a commit: the branch moves, no file of the tree changes
        std::fs::write(git.join("refs/heads/main"), "222222\n").unwrap();
        assert!(watched.changed() && stamped.changed());
        // a reload stamps the git directory anew
        let mut reloaded = watched.reloaded(Some(&tree), dir.path(), later());
        assert!(!reloaded.changed());
        // a checkout: HEAD names another branch
        std::fs::write(git.join("HEAD"), "ref: refs/heads/other-branch\n").unwrap();
        assert!(reloaded.changed());
        // a `.git` file names the git directory of a linked work tree; a tree outside git
        // has none
        let linked = tempfile::tempdir().unwrap();
        std::fs::write(
            linked.path().join(".git"),
            format!("gitdir: {}\n", git.display()),
        )
        .unwrap();
        assert_eq!(head_files(linked.path())[0], git.join("HEAD"));
        assert!(head_files(tempfile::tempdir().unwrap().path()).is_empty());
    }

    #[test]
    fn an_edit_in_place_is_seen() {
        let dir = small_tree();
        check_both(dir.path(), |d| {
            std::fs::write(d.join("src/deep/a.rs"), "fn a() { changed(); }\n").unwrap()
        });
    }

    #[test]
    fn an_added_and_a_removed_file_are_seen() {
        let dir = small_tree();
        check_both(dir.path(), |d| {
            std::fs::write(d.join("src/new.rs"), "fn n() {}\n").unwrap()
        });
        let dir = small_tree();
        check_both(dir.path(), |d| {
            std::fs::remove_file(d.join("b.rs")).unwrap()
        });
    }

    #[test]
    fn a_file_in_a_directory_made_after_the_load_is_seen() {
        let dir = small_tree();
        std::fs::create_dir(dir.path().join("empty")).unwrap();
        let tree = tree_at(dir.path());
        let mut watched = Freshness::for_tree(&tree, later());
        assert!(watched.is_watched());
        std::fs::write(dir.path().join("empty/d.rs"), "fn d() {}\n").unwrap();
        assert!(watched.changed(), "a file in a directory empty at the load");
        std::fs::create_dir(dir.path().join("fresh")).unwrap();
        assert!(watched.changed(), "the new directory");
        std::fs::write(dir.path().join("fresh/c.rs"), "fn c() {}\n").unwrap();
        assert!(watched.changed(), "a file written into it");
    }

    #[test]
    fn a_fixture_loaded_as_its_files_were_written_is_doubtful_once() {
        let dir = small_tree();
        let tree = tree_at(dir.path());
        let mut fresh = Freshness::for_tree(&tree, SystemTime::now());
        assert!(
            fresh.changed(),
            "written within the racy window of the load"
        );
        assert!(!fresh.changed());
        let mut file = Freshness::for_file(&dir.path().join("b.rs"), later());
        assert!(!file.changed());
        std::fs::write(dir.path().join("b.rs"), "fn b() { longer(); }\n").unwrap();
        assert!(file.changed());
    }
}
