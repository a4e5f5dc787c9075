//! What the kept index records of a file and of a walked directory, and the clock rules
//! that say when such a record may be trusted without reading the file again.

use super::content::ContentKind;
use super::symbols::Symbol;
use serde::{Deserialize, Serialize};
use std::time::{SystemTime, UNIX_EPOCH};

/// How close (in nanoseconds) to the last build an mtime may be before it is not trusted:
/// coarse file systems keep mtimes to the second or two.
pub(crate) const RACY_NS: i64 = 2_000_000_000;

/// What the index keeps of a file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct FileRecord {
    pub path: String,
    pub size: u64,
    /// Nanoseconds since the Unix epoch.
    pub mtime: i64,
    pub kind: ContentKind,
    /// Kept in the symbol table, not in the head: empty in a record read back.
    #[serde(skip)]
    pub symbols: Vec<Symbol>,
    /// [`super::TreeFile::name_bag`], counted when the file was read.
    pub name_bag: u64,
}

/// A walked directory or ignore file, relative to the root (`""` is the root).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Stamp {
    pub path: String,
    pub size: u64,
    pub mtime: i64,
    /// For a directory, a hash of the names it held ([`names_of`]): a directory whose mtime
    /// moved but whose names did not had a file replaced, none added or removed
    /// (`tree/edits.rs`); `None` for an ignore file.
    pub names: Option<u64>,
}

/// A hash of the names of the entries of the directory `dir` (every entry, ignored or
/// not), each with its kind (a directory, a link, anything else), in byte order; `None`
/// when it cannot be listed.
pub(crate) fn names_of(dir: &std::path::Path) -> Option<u64> {
    let mut names: Vec<Vec<u8>> = std::fs::read_dir(dir)
        .ok()?
        .map(|e| {
            e.map(|e| {
                let kind = match e.file_type() {
                    Ok(t) if t.is_dir() => b'd',
                    Ok(t) if t.is_symlink() => b'l',
                    _ => b'f',
                };
                let mut name = e.file_name().as_encoded_bytes().to_vec();
                name.push(kind);
                name
            })
        })
        .collect::<std::io::Result<_>>()
        .ok()?;
    names.sort_unstable();
    let parts: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
    Some(crate::encoding::fnv::fnv(&parts))
}

/// Nanoseconds since the Unix epoch of a file's mtime (0 when the platform has none).
pub(crate) fn mtime_ns(meta: &std::fs::Metadata) -> i64 {
    meta.modified().map(system_ns).unwrap_or(0)
}

pub(crate) fn system_ns(t: SystemTime) -> i64 {
    match t.duration_since(UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_nanos()).unwrap_or(i64::MAX),
        Err(e) => -i64::try_from(e.duration().as_nanos()).unwrap_or(i64::MAX),
    }
}

/// True when an mtime is far enough before the build that read it to trust it.
pub(crate) fn trusted(mtime: i64, built_ns: i64) -> bool {
    mtime.saturating_add(RACY_NS) < built_ns
}
