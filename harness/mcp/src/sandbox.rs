//! What the server may read: the roots, stores and path lists it was started with, and the
//! roots the MCP client declares. A per-call path is checked twice before anything is read:
//! lexically (`..` resolved without touching the filesystem, so a path that climbs out is
//! refused without learning whether it exists), then after the filesystem resolves its
//! symbolic links (so a link inside a root that points outside is refused too).

use findbench_engine::EngineError;
use findbench_tools::FixtureKind;
use std::path::{Component, Path, PathBuf};
use std::sync::RwLock;

/// One place the server may read: a directory (everything under it) or a single file.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Allowed {
    /// As lexically normalised from the path given (absolute).
    lexical: PathBuf,
    /// As the filesystem resolves it.
    canonical: PathBuf,
}

/// The start fixtures and the client's roots.
#[derive(Debug)]
pub struct Sandbox {
    cwd: PathBuf,
    roots: Vec<Allowed>,
    stores: Vec<Allowed>,
    path_lists: Vec<Allowed>,
    client_roots: RwLock<Vec<Allowed>>,
}

/// `..` and `.` resolved lexically against `cwd`, never touching the filesystem.
pub fn lexical_absolute(cwd: &Path, path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        cwd.join(path)
    };
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

fn allowed(cwd: &Path, path: &Path, want_dir: bool) -> Result<Allowed, EngineError> {
    let canonical = path.canonicalize().map_err(|e| EngineError::File {
        path: path.to_path_buf(),
        message: format!("cannot read: {e}"),
        hint: Some("pass an existing directory with --root, or a file with --store".into()),
    })?;
    if want_dir != canonical.is_dir() {
        return Err(EngineError::File {
            path: path.to_path_buf(),
            message: if want_dir {
                "root is not a directory".into()
            } else {
                "is a directory, not a file".into()
            },
            hint: None,
        });
    }
    Ok(Allowed {
        lexical: lexical_absolute(cwd, path),
        canonical,
    })
}

impl Sandbox {
    /// The start fixtures, each checked to exist (a missing one is a file error at start).
    pub fn new(
        roots: &[PathBuf],
        stores: &[PathBuf],
        path_lists: &[PathBuf],
    ) -> Result<Sandbox, EngineError> {
        let cwd = std::env::current_dir()
            .map_err(|e| EngineError::Internal(format!("no working directory: {e}")))?;
        let collect = |paths: &[PathBuf], dir: bool| -> Result<Vec<Allowed>, EngineError> {
            paths.iter().map(|p| allowed(&cwd, p, dir)).collect()
        };
        Ok(Sandbox {
            roots: collect(roots, true)?,
            stores: collect(stores, false)?,
            path_lists: collect(path_lists, false)?,
            client_roots: RwLock::new(Vec::new()),
            cwd,
        })
    }

    /// Replaces the roots the client declared (`file://` URIs); others are ignored.
    pub fn set_client_roots(&self, uris: &[String]) -> Vec<PathBuf> {
        let dirs: Vec<Allowed> = uris
            .iter()
            .filter_map(|uri| uri.strip_prefix("file://"))
            .map(|p| PathBuf::from(percent_decode(p)))
            .filter_map(|p| allowed(&self.cwd, &p, true).ok())
            .collect();
        let shown = dirs.iter().map(|a| a.canonical.clone()).collect();
        if let Ok(mut guard) = self.client_roots.write() {
            *guard = dirs;
        }
        shown
    }

    fn client_roots(&self) -> Vec<Allowed> {
        self.client_roots
            .read()
            .map(|g| g.clone())
            .unwrap_or_default()
    }

    /// The fixture a call without a path runs against: the first start root (or client root),
    /// store or path list of the kind asked.
    pub fn default_for(&self, kind: FixtureKind) -> Result<PathBuf, EngineError> {
        let (list, what, flag) = match kind {
            FixtureKind::Root => (&self.roots, "root", "`root`"),
            FixtureKind::Store => (&self.stores, "store", "`store`"),
            FixtureKind::Paths => (&self.path_lists, "path list", "`paths_from`"),
        };
        if let Some(first) = list.first() {
            return Ok(first.canonical.clone());
        }
        if kind == FixtureKind::Root {
            if let Some(first) = self.client_roots().first() {
                return Ok(first.canonical.clone());
            }
        }
        Err(EngineError::invalid_with_hint(
            format!("no {what} given, and the server was started without one"),
            format!(
                "pass {flag} in the call, or start the server with --{}",
                start_flag(kind)
            ),
        ))
    }

    /// A path a call names, checked against the sandbox: the canonical path to read, or a
    /// tool error. A store or path list may also be any file under a root.
    pub fn check(&self, kind: FixtureKind, requested: &Path) -> Result<PathBuf, EngineError> {
        let lexical = lexical_absolute(&self.cwd, requested);
        let client = self.client_roots();
        let dirs: Vec<&Allowed> = self.roots.iter().chain(client.iter()).collect();
        let files: &[Allowed] = match kind {
            FixtureKind::Root => &[],
            FixtureKind::Store => &self.stores,
            FixtureKind::Paths => &self.path_lists,
        };
        let inside_lexically = dirs
            .iter()
            .any(|d| lexical.starts_with(&d.lexical) || lexical.starts_with(&d.canonical))
            || files
                .iter()
                .any(|f| lexical == f.lexical || lexical == f.canonical);
        if !inside_lexically {
            return Err(self.outside(requested, "is outside"));
        }
        let canonical = requested.canonicalize().map_err(|e| EngineError::File {
            path: requested.to_path_buf(),
            message: format!("cannot read: {e}"),
            hint: None,
        })?;
        let inside = dirs.iter().any(|d| canonical.starts_with(&d.canonical))
            || files.iter().any(|f| canonical == f.canonical);
        if !inside {
            return Err(self.outside(
                requested,
                "resolves through a symbolic link to a place outside",
            ));
        }
        Ok(canonical)
    }

    fn outside(&self, requested: &Path, how: &str) -> EngineError {
        let mut places: Vec<String> = self
            .roots
            .iter()
            .chain(self.client_roots().iter())
            .chain(self.stores.iter())
            .chain(self.path_lists.iter())
            .map(|a| a.canonical.display().to_string())
            .collect();
        if places.is_empty() {
            places.push("(none)".into());
        }
        EngineError::invalid_with_hint(
            format!(
                "`{}` {how} the roots and stores this server may read",
                requested.display()
            ),
            format!(
                "the server reads only under: {}; start it with --root/--store for more",
                places.join(", ")
            ),
        )
    }
}

fn start_flag(kind: FixtureKind) -> &'static str {
    match kind {
        FixtureKind::Root => "root",
        FixtureKind::Store => "store",
        FixtureKind::Paths => "paths-from",
    }
}

/// `%20` and friends in a `file://` URI.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexical_resolution_climbs_without_touching_the_filesystem() {
        let cwd = Path::new("/work/repo");
        assert_eq!(
            lexical_absolute(cwd, Path::new("a/../../secret")),
            PathBuf::from("/work/secret")
        );
        assert_eq!(
            lexical_absolute(cwd, Path::new("/x/./y/../z")),
            PathBuf::from("/x/z")
        );
    }

    #[test]
    fn percent_decoding_of_file_uris() {
        assert_eq!(percent_decode("/a%20b/c"), "/a b/c");
        assert_eq!(percent_decode("/a%2"), "/a%2");
        assert_eq!(percent_decode("/plain"), "/plain");
    }
}
