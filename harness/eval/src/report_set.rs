//! The reports of one `run` or `replay` as one unit: a reader of `--out DIR` sees all five
//! files of one run or all five of another, never a mix, whatever is killed when.
//!
//! The set is written into a staging directory beside `DIR` (`.DIR.staging-PID-N`), then
//! swapped in: `DIR` is renamed aside, the staging directory renamed to `DIR`, the old one
//! removed. A lock file beside `DIR` (`.DIR.lock`) serialises the swap, so two runs with one
//! `--out` each leave a complete set (the later one's). A run killed before the swap leaves
//! `DIR` as it was; what it staged is removed by the next run with that `--out` (the
//! staging name carries the pid, and a live process's staging is left alone).
//!
//! The swap replaces the whole directory, so it is done only when `DIR` holds nothing but
//! reports (the set's files and findbench's own temporaries): a `--out` shared with other
//! files gets the reports written in place, each file whole ([`crate::atomic_file`]).

use findbench_engine::EngineError;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A report set being written.
#[derive(Debug)]
pub struct ReportSet {
    dir: PathBuf,
    /// Where the files are written: the staging directory, or `dir` when it is shared.
    staging: PathBuf,
    swap: bool,
}

fn io_error(path: &Path, what: &str, e: std::io::Error) -> EngineError {
    EngineError::File {
        path: path.to_path_buf(),
        message: format!("{what}: {e}"),
        hint: None,
    }
}

impl ReportSet {
    /// Starts a set of the files `names` for `dir`, removing what killed runs left beside
    /// and inside it.
    pub fn begin(dir: &Path, names: &[&str]) -> Result<ReportSet, EngineError> {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        let parent = parent_of(dir);
        std::fs::create_dir_all(&parent)
            .map_err(|e| io_error(&parent, "cannot create report directory", e))?;
        remove_stale(&parent, &hidden_prefix(dir));
        if dir.is_dir() {
            remove_stale_temporaries(dir);
        }
        let swap = match std::fs::read_dir(dir) {
            Ok(entries) => entries
                .filter_map(|e| e.ok())
                .all(|e| names.iter().any(|n| e.file_name() == *n) || is_temporary(&e.file_name())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => true,
            Err(e) => return Err(io_error(dir, "cannot read report directory", e)),
        };
        // `.` and `..` cannot be renamed: the set is written in place there
        let swap = swap && dir.file_name().is_some();
        let staging = if swap {
            static NEXT: AtomicU64 = AtomicU64::new(0);
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let staging = parent.join(format!(
                "{}staging-{}-{n}",
                hidden_prefix(dir),
                std::process::id()
            ));
            std::fs::create_dir_all(&staging)
                .map_err(|e| io_error(&staging, "cannot create staging directory", e))?;
            staging
        } else {
            std::fs::create_dir_all(dir)
                .map_err(|e| io_error(dir, "cannot create report directory", e))?;
            dir.to_path_buf()
        };
        Ok(ReportSet {
            dir: dir.to_path_buf(),
            staging,
            swap,
        })
    }

    /// The directory to write the set's files into.
    pub fn path(&self) -> &Path {
        &self.staging
    }

    /// Where `file` (written under [`ReportSet::path`]) is once the set is committed.
    pub fn final_path(&self, file: &Path) -> PathBuf {
        match file.strip_prefix(&self.staging) {
            Ok(rel) => self.dir.join(rel),
            Err(_) => file.to_path_buf(),
        }
    }

    /// Swaps the staged set in as `dir`.
    pub fn commit(self) -> Result<(), EngineError> {
        if !self.swap {
            return Ok(());
        }
        let parent = parent_of(&self.dir);
        let prefix = hidden_prefix(&self.dir);
        let lock_path = parent.join(format!("{prefix}lock"));
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|e| io_error(&lock_path, "cannot create lock file", e))?;
        lock.lock()
            .map_err(|e| io_error(&lock_path, "cannot lock", e))?;
        let old = parent.join(format!("{prefix}old-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&old);
        let had_old = match std::fs::rename(&self.dir, &old) {
            Ok(()) => true,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
            Err(e) => {
                return Err(io_error(
                    &self.dir,
                    "cannot move the previous reports aside",
                    e,
                ))
            }
        };
        if let Err(e) = std::fs::rename(&self.staging, &self.dir) {
            if had_old {
                let _ = std::fs::rename(&old, &self.dir);
            }
            return Err(io_error(&self.dir, "cannot move the new reports in", e));
        }
        if let Ok(d) = std::fs::File::open(&parent) {
            let _ = d.sync_all();
        }
        drop(lock);
        let _ = std::fs::remove_dir_all(&old);
        Ok(())
    }
}

impl Drop for ReportSet {
    /// A set dropped without a commit (an error while writing) leaves no staging behind.
    fn drop(&mut self) {
        if self.swap && self.staging.exists() {
            let _ = std::fs::remove_dir_all(&self.staging);
        }
    }
}

/// The directory `dir` is in (`.` for a bare name).
fn parent_of(dir: &Path) -> PathBuf {
    match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// `.NAME.`: the start of every hidden sibling of `dir` (staging, old, lock).
fn hidden_prefix(dir: &Path) -> String {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    format!(".{name}.")
}

/// A temporary of [`crate::atomic_file`] (`.NAME.tmp-PID-N`) or a replay spool.
fn is_temporary(name: &std::ffi::OsStr) -> bool {
    let name = name.to_string_lossy();
    name.starts_with('.') && name.contains(".tmp-")
}

/// The pid in a `...-PID` or `...-PID-N` name.
fn pid_of(name: &str, marker: &str) -> Option<u32> {
    let rest = &name[name.find(marker)? + marker.len()..];
    rest.split('-').next()?.parse().ok()
}

/// Whether the process `pid` may still be writing: it is this one, it is running (Linux:
/// `/proc/PID` exists), or there is no way to tell.
fn maybe_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    let proc = Path::new("/proc");
    !proc.is_dir() || proc.join(pid.to_string()).exists()
}

/// Removes the staging and old directories of `dir` that processes no longer running left.
fn remove_stale(parent: &Path, prefix: &str) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.filter_map(|e| e.ok()) {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix(prefix) else {
            continue;
        };
        let marker = if rest.starts_with("staging-") {
            "staging-"
        } else if rest.starts_with("old-") {
            "old-"
        } else {
            continue;
        };
        if pid_of(rest, marker).is_some_and(|pid| !maybe_alive(pid)) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Removes the temporaries (`.NAME.tmp-PID-N`, replay spools) that processes no longer
/// running left inside `dir`.
pub fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(|e| e.ok()) {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !is_temporary(entry.file_name().as_os_str()) {
            continue;
        }
        if pid_of(&name, ".tmp-").is_some_and(|pid| !maybe_alive(pid)) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 2] = ["a.txt", "b.txt"];

    fn write_set(dir: &Path, content: &str) {
        let set = ReportSet::begin(dir, &NAMES).unwrap();
        for n in NAMES {
            std::fs::write(set.path().join(n), content).unwrap();
        }
        set.commit().unwrap();
    }

    fn hidden(parent: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(parent)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with('.') && !n.ends_with(".lock"))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_set_replaces_the_previous_one_whole() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        write_set(&out, "one");
        write_set(&out, "two");
        for n in NAMES {
            assert_eq!(std::fs::read_to_string(out.join(n)).unwrap(), "two");
        }
        assert!(hidden(tmp.path()).is_empty(), "{:?}", hidden(tmp.path()));
    }

    #[test]
    fn an_uncommitted_set_leaves_the_old_one_and_nothing_else() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        write_set(&out, "one");
        {
            let set = ReportSet::begin(&out, &NAMES).unwrap();
            std::fs::write(set.path().join("a.txt"), "half").unwrap();
            // dropped: an error while writing
        }
        assert_eq!(std::fs::read_to_string(out.join("a.txt")).unwrap(), "one");
        assert!(hidden(tmp.path()).is_empty());
    }

    #[test]
    fn what_a_killed_run_left_is_removed_and_a_live_one_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        write_set(&out, "one");
        // pid 4194305 is above Linux's pid_max: never a running process
        let dead = tmp.path().join(".out.staging-4194305-0");
        std::fs::create_dir_all(&dead).unwrap();
        std::fs::write(out.join(".results.json.tmp-4194305-3"), "x").unwrap();
        let live = tmp
            .path()
            .join(format!(".out.staging-{}-99", std::process::id()));
        std::fs::create_dir_all(&live).unwrap();
        write_set(&out, "two");
        assert!(!dead.exists());
        assert!(!out.join(".results.json.tmp-4194305-3").exists());
        assert!(live.exists());
    }

    #[test]
    fn a_directory_shared_with_other_files_is_written_in_place() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join("notes.md"), "mine").unwrap();
        write_set(&out, "one");
        assert_eq!(
            std::fs::read_to_string(out.join("notes.md")).unwrap(),
            "mine"
        );
        assert_eq!(std::fs::read_to_string(out.join("a.txt")).unwrap(), "one");
    }

    #[test]
    fn concurrent_sets_leave_one_whole_set() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        std::thread::scope(|s| {
            for i in 0..6 {
                let out = &out;
                s.spawn(move || {
                    for _ in 0..5 {
                        write_set(out, &format!("writer {i}"));
                    }
                });
            }
        });
        let a = std::fs::read_to_string(out.join("a.txt")).unwrap();
        let b = std::fs::read_to_string(out.join("b.txt")).unwrap();
        assert_eq!(a, b, "a mix of two sets");
    }
}
