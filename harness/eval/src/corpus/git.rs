//! Fixtures pinned to history: `fixture: {git: DIR, rev: REV}` is the tree of commit `REV`
//! of the repository at `DIR` (a bare repository, a mirror, or a clone's `.git`),
//! materialized into a cache directory keyed by the repository's canonical path and the
//! full commit id: read into an index file of its own and checked out from it (`git
//! read-tree`, `git checkout-index`), every file of the commit. (`git archive` would leave
//! out what the commit's `.gitattributes` marks `export-ignore`, such as a monorepo's
//! split-out packages, and a question would be asked over a tree without its answer.) The repository is only read (its working tree,
//! index and refs are never touched); a materialized tree is written once, under a
//! temporary name renamed into place, and never written again, so concurrent runs share it.
//!
//! The trees live under `git/` in findbench's cache directory (`$FINDBENCH_CACHE`, else the
//! platform cache directory: `engine/src/cache_dir.rs`), beside the tree index and the store
//! cache; the temporary directory when neither is known.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The cache directory of materialized trees.
pub fn cache_dir() -> PathBuf {
    findbench_engine::cache_dir::cache_dir()
        .unwrap_or_else(|| std::env::temp_dir().join("findbench-cache"))
        .join("git")
}

/// Runs `git --git-dir DIR args...`; its stdout, or a message with its stderr.
pub fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .arg("--git-dir")
        .arg(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "`git {}` failed: {}",
            args.join(" "),
            err.trim().lines().next().unwrap_or("(no message)")
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The git directory of `dir`: `dir` itself when it is one (bare or `.git`), else its
/// `.git`; an error when neither is a repository.
pub fn git_dir(dir: &Path) -> Result<PathBuf, String> {
    let canonical = dir
        .canonicalize()
        .map_err(|e| format!("git directory `{}`: {e}", dir.display()))?;
    for candidate in [canonical.clone(), canonical.join(".git")] {
        if candidate.is_dir() && git(&candidate, &["rev-parse", "--git-dir"]).is_ok() {
            return Ok(candidate);
        }
    }
    Err(format!(
        "`{}` is not a git repository (neither it nor its .git is a git directory)",
        dir.display()
    ))
}

/// The full id of the commit `rev` names.
pub fn resolve_commit(dir: &Path, rev: &str) -> Result<String, String> {
    if rev.trim().is_empty() || rev.starts_with('-') {
        return Err(format!("`{rev}` is not a revision"));
    }
    let spec = format!("{}^{{commit}}", rev.trim());
    git(dir, &["rev-parse", "--verify", "--quiet", &spec])
        .map(|s| s.trim().to_string())
        .map_err(|_| format!("revision `{rev}` is not a commit of `{}`", dir.display()))
}

/// The tree of commit `rev` of the repository at `dir`, materialized (or found) in the
/// cache; returns its directory.
pub fn materialize(dir: &Path, rev: &str) -> Result<PathBuf, String> {
    materialize_in(&cache_dir(), dir, rev)
}

/// [`materialize`] into the cache directory `cache`.
pub fn materialize_in(cache: &Path, dir: &Path, rev: &str) -> Result<PathBuf, String> {
    let dir = git_dir(dir)?;
    let commit = resolve_commit(&dir, rev)?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    dir.hash(&mut h);
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // the repository's name for a person, its path's hash for uniqueness
    let repo = if name == ".git" || name == "repo" {
        dir.parent()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or(name)
    } else {
        name
    };
    let repo: String = repo
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    // `-all` names trees that hold every file of their commit
    let target = cache
        .join(format!("{repo}-{:016x}-all", h.finish()))
        .join(&commit);
    let parent = target.parent().unwrap_or(cache);
    // what an interrupted run left is cleared whether or not this tree is there
    remove_stale_partials(parent);
    if target.is_dir() {
        return Ok(target);
    }
    std::fs::create_dir_all(parent)
        .map_err(|e| format!("cannot create cache directory `{}`: {e}", parent.display()))?;
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let partial = parent.join(format!(".{commit}.{}.{nanos}.partial", std::process::id()));
    std::fs::create_dir_all(&partial)
        .map_err(|e| format!("cannot create `{}`: {e}", partial.display()))?;
    let extracted = extract(&dir, &commit, &partial);
    if let Err(e) = extracted {
        let _ = std::fs::remove_dir_all(&partial);
        return Err(e);
    }
    if std::fs::rename(&partial, &target).is_err() {
        // another run finished first: its tree is the same
        let _ = std::fs::remove_dir_all(&partial);
        if !target.is_dir() {
            return Err(format!("cannot move the tree into `{}`", target.display()));
        }
    }
    Ok(target)
}

/// Removes the `.<commit>.<pid>.<nanos>.partial` directories in `dir` whose process is gone:
/// what an interrupted extraction left. A directory whose process still runs (or a pid
/// reused since) is left alone; without `/proc` nothing is removed.
pub fn remove_stale_partials(dir: &Path) {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(inner) = name
            .strip_prefix('.')
            .and_then(|n| n.strip_suffix(".partial"))
        else {
            continue;
        };
        let pid = inner.split('.').nth(1).and_then(|p| p.parse::<u32>().ok());
        if let Some(pid) = pid {
            if !proc.join(pid.to_string()).exists() {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
}

/// Every file of `commit` written under `into`: the commit's tree read into an index file
/// of its own inside `into` (the repository's own index is never touched), then checked
/// out from it; the index file is removed after.
fn extract(dir: &Path, commit: &str, into: &Path) -> Result<(), String> {
    // absolute: git reads a relative index path from its own directory, which
    // `--work-tree` changes
    let into = &std::path::absolute(into)
        .map_err(|e| format!("cannot resolve `{}`: {e}", into.display()))?;
    let index = into.join(".findbench-index");
    let run = |args: &[&str], work_tree: bool| {
        let mut git = Command::new("git");
        git.arg("--git-dir").arg(dir);
        if work_tree {
            git.arg("--work-tree").arg(into);
        }
        git.args(args)
            .env("GIT_INDEX_FILE", &index)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run git: {e}"))
            .and_then(|out| {
                if out.status.success() {
                    Ok(())
                } else {
                    Err(format!(
                        "git {} failed: {}",
                        args.join(" "),
                        String::from_utf8_lossy(&out.stderr).trim()
                    ))
                }
            })
    };
    let checked_out = run(&["read-tree", commit], false)
        .and_then(|()| run(&["checkout-index", "--all", "--force"], true));
    let _ = std::fs::remove_file(&index);
    checked_out
}
