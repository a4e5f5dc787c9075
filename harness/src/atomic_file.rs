//! Writing report files whole or not at all: to a temporary name beside the target, then
//! renamed, so a reader (or a crashed run) never sees half a report.

use findbench_engine::EngineError;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The temporary name used while `path` is being written.
pub fn temp_name(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    path.with_file_name(format!(".{name}.tmp-{}", std::process::id()))
}

/// Writes `bytes` to `path` through a temporary file and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), EngineError> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Streams into `path` through a temporary file and a rename; `fill` writes the content.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> Result<(), EngineError> {
    let err = |e: std::io::Error| EngineError::File {
        path: path.to_path_buf(),
        message: format!("cannot write: {e}"),
        hint: None,
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
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
    result.map_err(err)
}
