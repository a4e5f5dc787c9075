//! The reports of one `run` or `replay` as one unit: a reader of `--out DIR` sees all five
//! files of one run or all five of another, never a mix, whatever is killed when.
//!
//! The set is written into a staging directory beside `DIR` (`.DIR.staging-PID-N`), then
//! swapped in: `DIR` is renamed aside, the staging directory renamed to `DIR`, the old one
//! removed. A lock file beside `DIR` (`.DIR.lock`) serialises the swap, so two runs with one
//! `--out` each leave a complete set (the later one's); its holder removes it once the set
//! is in, so nothing is left beside `DIR` (see [`SwapLock`]). A run killed before the swap leaves
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
            // the staging name is findbench's own: an error names the directory asked for
            std::fs::create_dir_all(&staging).map_err(|e| unwritable(dir, &parent, e))?;
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
        let lock = SwapLock::acquire(&parent.join(format!("{prefix}lock")))?;
        let swapped = self.swap_in(&parent, &prefix);
        lock.release();
        swapped
    }

    /// The swap itself, under the lock.
    fn swap_in(&self, parent: &Path, prefix: &str) -> Result<(), EngineError> {
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
        if let Ok(d) = std::fs::File::open(parent) {
            let _ = d.sync_all();
        }
        let _ = std::fs::remove_dir_all(&old);
        Ok(())
    }
}

/// The lock file beside `DIR` (`.DIR.lock`), held while a set is swapped in and removed
/// by its holder before it lets go.
///
/// Removing a lock file others may be waiting on is safe only with a check: a waiter that
/// opened the file before its holder removed it gets the lock on a file no longer at that
/// path, while a later writer creates and locks a new one. So a lock counts only when the
/// file locked is still the one at the path (same device and inode); otherwise it is
/// dropped and taken again. Two writers therefore never hold the lock at the same path at
/// once, and a finished run leaves no lock file behind.
struct SwapLock {
    file: std::fs::File,
    path: PathBuf,
}

impl SwapLock {
    fn acquire(path: &Path) -> Result<SwapLock, EngineError> {
        loop {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(path)
                .map_err(|e| io_error(path, "cannot create lock file", e))?;
            file.lock().map_err(|e| io_error(path, "cannot lock", e))?;
            if is_at(&file, path) {
                return Ok(SwapLock {
                    file,
                    path: path.to_path_buf(),
                });
            }
            // the holder before removed (or replaced) it while this one waited: again
        }
    }

    /// Removes the lock file, then lets go of it.
    fn release(self) {
        // on Unix, an open file can be unlinked and waiters see it gone by the inode check
        if cfg!(unix) {
            let _ = std::fs::remove_file(&self.path);
        }
        drop(self.file);
    }
}

/// Whether `file` is the file now at `path` (on Unix by device and inode; elsewhere the
/// lock file is never removed, so any file at the path is it).
fn is_at(file: &std::fs::File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(held), Ok(now)) => held.dev() == now.dev() && held.ino() == now.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        path.exists()
    }
}

/// The error for a staging directory that cannot be made beside `dir`: it names `dir`, the
/// directory the person asked for, and why its parent cannot be written.
fn unwritable(dir: &Path, parent: &Path, e: std::io::Error) -> EngineError {
    let why = match e.kind() {
        std::io::ErrorKind::ReadOnlyFilesystem => {
            format!("{} is on a read-only file system", parent.display())
        }
        std::io::ErrorKind::PermissionDenied => {
            format!("no permission to write in {}", parent.display())
        }
        _ => format!("cannot create a directory in {}: {e}", parent.display()),
    };
    EngineError::File {
        path: dir.to_path_buf(),
        message: format!("cannot write the reports: {why}"),
        hint: Some("give --out a directory you can write to".into()),
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
            .filter(|n| n.starts_with('.'))
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
    fn the_lock_is_removed_with_the_swap_and_an_old_one_too() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        write_set(&out, "one");
        assert!(!tmp.path().join(".out.lock").exists());
        // a lock file an earlier version left behind goes with the next swap
        std::fs::write(tmp.path().join(".out.lock"), "").unwrap();
        write_set(&out, "two");
        assert!(hidden(tmp.path()).is_empty(), "{:?}", hidden(tmp.path()));
    }

    #[test]
    fn a_waiter_on_a_removed_lock_takes_it_again() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(".out.lock");
        let held = SwapLock::acquire(&path).unwrap();
        // opened before the holder removes it: the inode check sends it back for a new one
        let stale = std::fs::File::open(&path).unwrap();
        held.release();
        assert!(!is_at(&stale, &path));
        let again = SwapLock::acquire(&path).unwrap();
        assert!(is_at(&again.file, &path));
        again.release();
        assert!(!path.exists());
    }

    #[test]
    fn holders_of_a_lock_removed_on_release_never_overlap() {
        use std::sync::atomic::AtomicUsize;
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(".out.lock");
        let (inside, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    for _ in 0..50 {
                        let lock = SwapLock::acquire(&path).unwrap();
                        let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::yield_now();
                        inside.fetch_sub(1, Ordering::SeqCst);
                        lock.release();
                    }
                });
            }
        });
        assert_eq!(most.load(Ordering::SeqCst), 1, "two holders at once");
        assert!(!path.exists());
    }

    #[test]
    fn an_unwritable_parent_names_the_directory_asked_for() {
        let e = unwritable(
            Path::new("/ro/out"),
            Path::new("/ro"),
            std::io::Error::from(std::io::ErrorKind::PermissionDenied),
        );
        assert_eq!(
            e.to_string(),
            "/ro/out: cannot write the reports: no permission to write in /ro"
        );
        assert_eq!(e.exit_code(), 3);
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
