//! The history of a git work tree, for `ask` on its top ([`attach_work_tree`]), kept
//! between calls of the command line: each call is a new process, and `git log` of the
//! newest 1000 commits costs more than a warm `ask` (29 ms on a clone of cobra, whose warm
//! `ask` takes 10). The log up to a commit never changes, so it is kept under the commit's
//! id: `CACHE/history/ID-N.log` holds `git log`'s output for the
//! newest `N` commits up to `ID`. A call asks git only which commit `HEAD` is; when `HEAD`
//! moved, the log is read again and kept under the new id. A file is written under a
//! temporary name, then renamed: one that exists is whole. The newest [`KEPT`] are kept.

use crate::history::{log_text, parse_log, read, Revision};
use findbench_engine::tree::History;
use findbench_engine::{Fixture, Profile};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Gives a tree fixture the history of the git work tree its root is the top of, when
/// `profile` uses it and the tree has none yet: what `ask` on the command line and
/// through the MCP server does. Read now when the ranking weighs it
/// (`task_ranking.history` or `co_change` above 0); else, when an answer lists the most
/// changed files (`history_listed` or `history_filled` above 0), read by the tree only if
/// an answer does. Kept in `cache_dir` under `HEAD`'s commit, when one is given. A root
/// that is not the top of a work tree (no `.git` in it), or a machine without git, ranks
/// and lists without it.
pub fn attach_work_tree(fixture: &Fixture, profile: &Profile, cache_dir: Option<&Path>) {
    let Fixture::Tree(tree) = fixture else {
        return;
    };
    let w = &profile.task_ranking;
    // the top of a work tree, not a directory inside one: a fixture kept in a project's
    // repository is not weighed by the commits of the project around it
    let weighed = w.history > 0.0 || w.co_change > 0.0;
    let used = weighed || w.history_listed > 0 || w.history_filled > 0;
    if !used || tree.has_history() || !tree.root().join(".git").exists() {
        return;
    }
    let (root, commits) = (tree.root().to_path_buf(), w.history_commits);
    let cache_dir = cache_dir.map(Path::to_path_buf);
    let read = move || read_work_tree(&root, commits, cache_dir.as_deref());
    if weighed {
        if let Ok(history) = read() {
            tree.set_history(history);
        }
    } else {
        tree.set_history_reader(Box::new(move || read().ok()));
    }
}

/// How many logs the cache keeps: one a commit `HEAD` was at when asked, newest first.
pub const KEPT: usize = 16;

/// The history of the work tree whose top is `root`, up to its `HEAD`: the log kept in
/// `cache_dir` for `HEAD`'s commit when there is one, else read from git and kept there.
/// Without a cache directory (`--no-cache`), or when the log cannot be kept, it is read
/// from git as [`read`] does.
pub fn read_work_tree(
    root: &Path,
    commits: usize,
    cache_dir: Option<&Path>,
) -> Result<History, String> {
    let (Some(dir), Some(head)) = (cache_dir, cache_dir.and_then(|_| head_commit(root))) else {
        return read(Revision::WorkTree(root), commits);
    };
    let kept = log_path(dir, &head, commits);
    if let Ok(log) = std::fs::read_to_string(&kept) {
        return Ok(parse_log(&log));
    }
    let log = log_text(Revision::WorkTreeAt { root, rev: &head }, commits)?;
    // a log that cannot be kept is still the answer's
    if keep(&kept, &log).is_ok() {
        prune(kept.parent().unwrap_or(dir));
    }
    Ok(parse_log(&log))
}

/// Where the log of the newest `commits` commits up to `head` is kept.
pub fn log_path(cache_dir: &Path, head: &str, commits: usize) -> PathBuf {
    cache_dir
        .join("history")
        .join(format!("{head}-{commits}.log"))
}

/// The id of the commit `HEAD` of the work tree at `root` is at; `None` when git cannot
/// say (no commit yet, not a work tree, no git).
fn head_commit(root: &Path) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let id = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !id.is_empty() && id.bytes().all(|b| b.is_ascii_hexdigit()))
        .then_some(id)
}

/// Writes `log` to `path` under a temporary name, then renames it.
fn keep(path: &Path, log: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let temporary = path.with_extension(format!("log.{}.tmp", std::process::id()));
    std::fs::write(&temporary, log)?;
    std::fs::rename(&temporary, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&temporary);
    })
}

/// Removes all but the [`KEPT`] newest logs of `dir`.
fn prune(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut logs: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "log"))
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
        .collect();
    logs.sort_by(|a, b| b.cmp(a));
    for (_, old) in logs.into_iter().skip(KEPT) {
        let _ = std::fs::remove_file(old);
    }
}
