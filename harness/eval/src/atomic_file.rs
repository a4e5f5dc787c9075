//! The one way findbench writes a report, an export or a compare file: whole or not at
//! all. Content goes to a temporary name beside the target (same directory, so the rename
//! never crosses a filesystem), is fsynced, then renamed over the target, and the directory
//! is synced so the rename survives a crash. A reader, or a crashed run, never sees half a
//! file, and a failed write leaves the previous file in place and no temporary behind.
//!
//! Every writer of `run`, `replay`, `compare` and `clusters --export` goes through here.

use findbench_engine::EngineError;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The temporary name used while `path` is being written: hidden, beside it, unique to this
/// process and this call (two threads writing one target never share a temporary).
pub fn temp_name(path: &Path) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(".{name}.tmp-{}-{n}", std::process::id()))
}

/// Writes `bytes` to `path` through a temporary file and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), EngineError> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Streams into `path` through a temporary file and a rename; `fill` writes the content.
/// Creates the parent directory when it is missing.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> Result<(), EngineError> {
    let err = |e: std::io::Error| EngineError::File {
        path: path.to_path_buf(),
        message: format!("cannot write: {e}"),
        hint: None,
    };
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir).map_err(err)?;
    }
    let tmp = temp_name(path);
    let result = (|| {
        let mut w = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        fill(&mut w)?;
        w.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(err)?;
    // the rename itself is durable once the directory is synced (best effort: not every
    // platform lets a directory be opened for this)
    if let Ok(d) = std::fs::File::open(dir.unwrap_or(Path::new("."))) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leftovers(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".tmp"))
            .collect()
    }

    #[test]
    fn a_failed_write_keeps_the_old_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("nested/report.md");
        write_atomic(&target, b"old\n").unwrap();
        let err = write_atomic_with(&target, |w| {
            w.write_all(b"half a rep")?;
            Err(std::io::Error::other("render failed"))
        })
        .unwrap_err();
        assert_eq!(err.exit_code(), 3);
        assert_eq!(std::fs::read(&target).unwrap(), b"old\n");
        assert!(leftovers(target.parent().unwrap()).is_empty());
    }

    #[test]
    fn concurrent_writers_of_one_target_never_share_a_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("results.json");
        let contents: Vec<Vec<u8>> = (0..8u8).map(|i| vec![b'a' + i; 64 * 1024]).collect();
        std::thread::scope(|s| {
            for c in &contents {
                let target = &target;
                s.spawn(move || {
                    for _ in 0..5 {
                        write_atomic(target, c).unwrap();
                    }
                });
            }
        });
        let got = std::fs::read(&target).unwrap();
        assert!(contents.contains(&got), "the file is a mix of writers");
        assert!(leftovers(dir.path()).is_empty());
    }
}
