//! Linux inotify over a set of directories, read without blocking: [`Watch::changed`] drains
//! the events queued since the last call. Directories created (or moved in) under a watched
//! one are watched as soon as their event is read, so a file written into a new directory is
//! seen too. Names starting with `.` are skipped (editor swap files, `.git`), except the
//! ignore files that decide what a walk indexes.

use std::collections::HashMap;
use std::ffi::{CString, OsStr};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// One inotify instance and its watched directories.
pub struct Watch {
    fd: i32,
    dirs: HashMap<i32, PathBuf>,
}

const MASK: u32 = libc::IN_MODIFY
    | libc::IN_ATTRIB
    | libc::IN_CLOSE_WRITE
    | libc::IN_CREATE
    | libc::IN_DELETE
    | libc::IN_MOVED_FROM
    | libc::IN_MOVED_TO
    | libc::IN_DELETE_SELF
    | libc::IN_MOVE_SELF
    | libc::IN_ONLYDIR
    | libc::IN_DONT_FOLLOW;

/// A name whose changes do not change what a tree walk indexes: hidden files and
/// directories, which the walk skips, but for the ignore files.
fn skipped(name: &[u8]) -> bool {
    name.first() == Some(&b'.') && name != b".gitignore" && name != b".ignore"
}

impl Watch {
    /// Watches every directory of `dirs`; `None` when inotify is unavailable or a watch
    /// cannot be added (the user's watch limit, a directory gone meanwhile).
    pub fn new<'a>(dirs: impl Iterator<Item = &'a Path>) -> Option<Watch> {
        // SAFETY: plain system call; the descriptor is owned by the Watch and closed on drop
        let fd = unsafe { libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC) };
        if fd < 0 {
            return None;
        }
        let mut watch = Watch {
            fd,
            dirs: HashMap::new(),
        };
        for dir in dirs {
            watch.add(dir)?;
        }
        Some(watch)
    }

    fn add(&mut self, dir: &Path) -> Option<()> {
        let path = CString::new(dir.as_os_str().as_bytes()).ok()?;
        // SAFETY: `path` is a valid C string for the duration of the call
        let wd = unsafe { libc::inotify_add_watch(self.fd, path.as_ptr(), MASK) };
        if wd < 0 {
            return None;
        }
        self.dirs.insert(wd, dir.to_path_buf());
        Some(())
    }

    /// A directory that appeared under a watched one, and the directories under it.
    fn add_new(&mut self, dir: &Path) {
        if self.add(dir).is_none() {
            return;
        }
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if is_dir && !skipped(entry.file_name().as_bytes()) {
                self.add_new(&entry.path());
            }
        }
    }

    /// Whether anything under the watched directories changed since the last call.
    pub fn changed(&mut self) -> bool {
        let mut changed = false;
        let mut buf = [0u8; 16 * 1024];
        loop {
            // SAFETY: reads at most `buf.len()` bytes into `buf`
            let n = unsafe { libc::read(self.fd, buf.as_mut_ptr().cast(), buf.len()) };
            if n <= 0 {
                // EAGAIN: nothing more queued (an error is treated the same: no news)
                return changed;
            }
            let mut at = 0usize;
            let header = std::mem::size_of::<libc::inotify_event>();
            while at + header <= n as usize {
                // SAFETY: the kernel writes whole events; the header may be unaligned in buf
                let event: libc::inotify_event =
                    unsafe { std::ptr::read_unaligned(buf.as_ptr().add(at).cast()) };
                let name_bytes = &buf[at + header..at + header + event.len as usize];
                let name = &name_bytes[..name_bytes
                    .iter()
                    .position(|b| *b == 0)
                    .unwrap_or(name_bytes.len())];
                at += header + event.len as usize;
                if event.mask & libc::IN_Q_OVERFLOW != 0 {
                    // events were lost: anything may have changed
                    changed = true;
                    continue;
                }
                if event.mask & libc::IN_IGNORED != 0 {
                    // the directory is gone (its removal was an event of its parent)
                    self.dirs.remove(&event.wd);
                    continue;
                }
                if !name.is_empty() && skipped(name) {
                    continue;
                }
                changed = true;
                let new_dir = event.mask & libc::IN_ISDIR != 0
                    && event.mask & (libc::IN_CREATE | libc::IN_MOVED_TO) != 0;
                if new_dir {
                    if let Some(parent) = self.dirs.get(&event.wd).cloned() {
                        self.add_new(&parent.join(OsStr::from_bytes(name)));
                    }
                }
            }
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        // SAFETY: the descriptor was opened by `new` and is closed once
        unsafe {
            libc::close(self.fd);
        }
    }
}
