//! What a recorded call needs to be replayed later, anywhere: in a git work tree, the
//! repository, its HEAD commit, the fixture's path inside it and whether the work tree had
//! uncommitted changes (`{git, rev, path, dirty}`); outside git, the fixture's absolute path
//! (`{root}`). `findbench replay` materializes the commit (`harness/traces/src/trace/fixture.rs`).
//!
//! The facts are asked of git once per fixture (`git rev-parse --show-toplevel
//! --absolute-git-dir HEAD`; no git, or not a repository: `{root}`), and again only when
//! something that moves them changed: the git directory's `HEAD`, `index` or `logs/HEAD`
//! (commit, checkout, reset, add), or the fixture itself (the server reloaded it). So a call
//! costs three `stat`s, not a `git status`.

use findbench_traces::trace::FixtureSource;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::SystemTime;

/// The size and mtime of the git files whose change may move HEAD or the dirty state.
type GitStamp = Vec<Option<(u64, SystemTime)>>;

/// The facts of one fixture inside a repository.
#[derive(Debug, Clone)]
struct RepoFacts {
    toplevel: PathBuf,
    git_dir: PathBuf,
    /// The fixture relative to `toplevel` (`/`-separated); `None` for the whole tree.
    path: Option<String>,
    /// Asked for a file fixture: is it in the commit at all (an untracked store is not).
    tracked: bool,
    head: String,
    dirty: bool,
    stamp: GitStamp,
    generation: u64,
}

#[derive(Debug, Clone)]
enum Known {
    NotGit,
    Repo(RepoFacts),
}

/// The pins of every fixture seen, asked of git once each and refreshed on change.
#[derive(Default)]
pub struct GitPins {
    known: Mutex<HashMap<PathBuf, Known>>,
}

fn stamp_of(git_dir: &Path) -> GitStamp {
    ["HEAD", "index", "logs/HEAD"]
        .iter()
        .map(|name| {
            std::fs::metadata(git_dir.join(name))
                .ok()
                .and_then(|m| Some((m.len(), m.modified().ok()?)))
        })
        .collect()
}

/// `git -C dir args...`: its stdout, or `None` when git is missing or fails.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        // never write the index (a refresh would move its stamp and ask again)
        .arg("--no-optional-locks")
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

impl GitPins {
    /// The `fixture` object of a call on `fixture` (a canonical path: a root directory, or a
    /// store's or path list's file). `generation` counts the server's reloads of that
    /// fixture: a changed one is asked about again.
    pub fn source(&self, fixture: &Path, generation: u64) -> FixtureSource {
        let Ok(mut known) = self.known.lock() else {
            return FixtureSource::Root(fixture.display().to_string());
        };
        let entry = known
            .entry(fixture.to_path_buf())
            .or_insert_with(|| discover(fixture));
        if let Known::Repo(facts) = entry {
            let stamp = stamp_of(&facts.git_dir);
            if stamp != facts.stamp || generation != facts.generation {
                refresh(facts, fixture.is_file());
                facts.stamp = stamp;
                facts.generation = generation;
            }
        }
        match entry {
            Known::Repo(facts) if !facts.head.is_empty() && facts.tracked => FixtureSource::Git {
                git: facts.toplevel.display().to_string(),
                rev: facts.head.clone(),
                path: facts.path.clone(),
                dirty: facts.dirty,
            },
            _ => FixtureSource::Root(fixture.display().to_string()),
        }
    }
}

/// The repository a fixture lies in, or `NotGit`.
fn discover(fixture: &Path) -> Known {
    let dir = if fixture.is_file() {
        fixture.parent().unwrap_or(fixture)
    } else {
        fixture
    };
    let Some(out) = git(
        dir,
        &["rev-parse", "--show-toplevel", "--absolute-git-dir", "HEAD"],
    ) else {
        return Known::NotGit;
    };
    let lines: Vec<&str> = out.lines().collect();
    let [toplevel, git_dir, _head] = lines[..] else {
        return Known::NotGit;
    };
    let Ok(toplevel) = Path::new(toplevel).canonicalize() else {
        return Known::NotGit;
    };
    let Ok(inside) = fixture.strip_prefix(&toplevel) else {
        return Known::NotGit;
    };
    let path =
        (!inside.as_os_str().is_empty()).then(|| inside.to_string_lossy().replace('\\', "/"));
    let mut facts = RepoFacts {
        git_dir: PathBuf::from(git_dir),
        toplevel,
        path,
        tracked: true,
        head: String::new(),
        dirty: false,
        stamp: Vec::new(),
        generation: u64::MAX,
    };
    facts.stamp = stamp_of(&facts.git_dir);
    refresh(&mut facts, fixture.is_file());
    Known::Repo(facts)
}

/// Asks git for HEAD and whether the fixture's part of the work tree differs from it.
fn refresh(facts: &mut RepoFacts, is_file: bool) {
    let top = facts.toplevel.clone();
    facts.head = git(&top, &["rev-parse", "HEAD"])
        .map(|s| s.trim().to_string())
        .unwrap_or_default();
    let pathspec = facts.path.clone().unwrap_or_else(|| ".".into());
    // untracked files count (the server's walk reads them); ignored ones do not
    facts.dirty =
        git(&top, &["status", "--porcelain", "-z", "--", &pathspec]).is_none_or(|s| !s.is_empty());
    if is_file {
        facts.tracked = git(&top, &["ls-files", "--error-unmatch", "--", &pathspec]).is_some();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(dir: &Path, args: &[&str]) {
        let ok = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "git {args:?}");
    }

    fn have_git() -> bool {
        Command::new("git").arg("--version").output().is_ok()
    }

    #[test]
    fn a_fixture_outside_git_is_pinned_by_its_path() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let pins = GitPins::default();
        assert_eq!(
            pins.source(&root, 0),
            FixtureSource::Root(root.display().to_string())
        );
    }

    #[test]
    fn a_work_tree_is_pinned_by_commit_path_and_dirt() {
        if !have_git() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(top.join("sub")).unwrap();
        std::fs::write(top.join("sub/a.rs"), "fn a() {}\n").unwrap();
        run(&top, &["init", "-q"]);
        run(
            &top,
            &["-c", "user.name=t", "-c", "user.email=t@t", "add", "."],
        );
        run(
            &top,
            &[
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "commit",
                "-q",
                "-m",
                "one",
            ],
        );
        let pins = GitPins::default();
        let sub = top.join("sub");
        let FixtureSource::Git {
            git,
            rev,
            path,
            dirty,
        } = pins.source(&sub, 0)
        else {
            panic!("a git pin")
        };
        assert_eq!(git, top.display().to_string());
        assert_eq!(rev.len(), 40);
        assert_eq!(path.as_deref(), Some("sub"));
        assert!(!dirty);
        // an edit the server saw (its reload moves the generation): dirty now
        std::fs::write(top.join("sub/a.rs"), "fn a() { 1; }\n").unwrap();
        let FixtureSource::Git { dirty, .. } = pins.source(&sub, 1) else {
            panic!("a git pin")
        };
        assert!(dirty);
        // an untracked store is not in the commit: pinned by its path
        std::fs::write(top.join("todo.json"), "[]").unwrap();
        assert_eq!(
            pins.source(&top.join("todo.json"), 0),
            FixtureSource::Root(top.join("todo.json").display().to_string())
        );
    }
}
