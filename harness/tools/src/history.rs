//! A tree's history read from git: the commits before the tree's revision and the files
//! each changed, which `ask` weighs a task's files by (`engine/src/retrieval/history.rs`;
//! the engine starts no process, so its callers read it here). The one place the harness
//! reads it: for the command line and the MCP server (a root inside a git work tree, up
//! to its `HEAD`) and for the runner's `{git, rev}` fixtures (up to `rev`, the commit whose
//! tree is asked about: a commit corpus's `rev` is the parent of the commit a case asks
//! about, so that commit and every later one are never counted).

use findbench_engine::tree::History;
use findbench_engine::{Profile, Tree};
use std::path::Path;
use std::process::{Command, Stdio};

/// Where the commits are read from.
#[derive(Debug, Clone, Copy)]
pub enum Revision<'a> {
    /// The work tree whose top is `root`, up to its `HEAD`; paths relative to `root`.
    WorkTree(&'a Path),
    /// The work tree whose top is `root`, up to its commit `rev` (what `HEAD` was when the
    /// history kept for it was read: `work_tree_history.rs`).
    WorkTreeAt { root: &'a Path, rev: &'a str },
    /// The repository at `git_dir` (bare, a mirror, or a clone's `.git`), up to the commit
    /// `rev` and including it; paths relative to the repository's top.
    Commit { git_dir: &'a Path, rev: &'a str },
}

/// The newest `commits` commits of `revision` (merges left out), each with the files it
/// changed; an error when git cannot be run or `revision` names no repository or commit.
pub fn read(revision: Revision<'_>, commits: usize) -> Result<History, String> {
    log_text(revision, commits).map(|log| parse_log(&log))
}

/// What [`read`] parses: `git log`'s output for `revision`.
pub(crate) fn log_text(revision: Revision<'_>, commits: usize) -> Result<String, String> {
    let limit = format!("-n{commits}");
    let mut git = Command::new("git");
    let log = [
        "-c",
        "core.quotepath=off",
        "log",
        "--no-merges",
        "--name-only",
        "--format=%x1e",
        &limit,
    ];
    match revision {
        Revision::WorkTree(root) => {
            git.arg("-C").arg(root).args(log).args(["HEAD", "--"]);
        }
        Revision::WorkTreeAt { root, rev } => {
            git.arg("-C").arg(root).args(log).args([rev, "--"]);
        }
        Revision::Commit { git_dir, rev } => {
            if rev.trim().is_empty() || rev.starts_with('-') {
                return Err(format!("`{rev}` is not a revision"));
            }
            git.arg("--git-dir")
                .arg(git_dir)
                .args(log)
                .args([rev.trim(), "--"]);
        }
    }
    let out = git
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "`git log` failed: {}",
            err.trim().lines().next().unwrap_or("(no message)")
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `git log --name-only --format=%x1e` output: a record separator opens each commit, its
/// changed files follow one a line.
pub(crate) fn parse_log(log: &str) -> History {
    History::from_commits(
        log.split('\x1e')
            .skip(1)
            .map(|commit| commit.lines().filter(|l| !l.trim().is_empty())),
    )
}

/// Gives `tree`, the tree of commit `rev` of the repository at `git_dir`, the history up
/// to that commit: what the runner does for a `{git, rev}` fixture, whatever the profile
/// (a run or a `tune` may rank with several), with the default profile's number of commits.
pub fn attach_commit(tree: &Tree, git_dir: &Path, rev: &str) -> Result<(), String> {
    let commits = Profile::default().task_ranking.history_commits;
    let history = read(Revision::Commit { git_dir, rev }, commits)?;
    tree.set_history(history);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_is_read_commit_by_commit_newest_first() {
        let log = "\x1e\n\nsrc/a.rs\nsrc/b.rs\n\x1e\n\nsrc/a.rs\n\x1e\n\x1e\n\nREADME.md\n";
        let h = parse_log(log);
        assert_eq!(h.commits(), 4);
        let counts = h.change_counts(usize::MAX);
        assert_eq!(counts.len(), 3);
        assert_eq!(
            (counts["src/a.rs"], counts["src/b.rs"], counts["README.md"]),
            (2, 1, 1)
        );
        assert_eq!(h.change_counts(1).len(), 2);
    }
}
