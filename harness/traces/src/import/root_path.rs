//! A path an agent log names, made relative to the fixture root: the session's working
//! directory, or the `--root` that stands in for it. Lexical only: the tree the session ran
//! in is seldom on the machine that imports its log.

use std::path::{Component, Path, PathBuf};

/// The roots a logged path may be under.
#[derive(Debug, Clone, Default)]
pub struct Roots {
    /// The directory the session ran in, as the log names it.
    pub session: Option<PathBuf>,
    /// `--root`, when given (absolute).
    pub replacement: Option<PathBuf>,
}

impl Roots {
    /// `path` relative to the root, `/`-separated; `None` when it is outside every root.
    /// A relative `path` is relative to `base`, else to the session's directory.
    pub fn relative(&self, path: &str, base: Option<&str>) -> Option<String> {
        let path = Path::new(path);
        let joined = if path.is_absolute() {
            path.to_path_buf()
        } else {
            let base = match base {
                Some(b) if Path::new(b).is_absolute() => PathBuf::from(b),
                Some(b) => self.session.clone().unwrap_or_default().join(b),
                None => self.session.clone().unwrap_or_default(),
            };
            base.join(path)
        };
        let full = normalise(&joined)?;
        let roots = self.session.iter().chain(&self.replacement);
        for root in roots {
            let Some(root) = normalise(root) else {
                continue;
            };
            if let Ok(rest) = full.strip_prefix(&root) {
                return slash_path(rest);
            }
        }
        // no directory known at all: a relative path that stays inside is kept as given
        if self.session.is_none() && !full.is_absolute() {
            return slash_path(&full);
        }
        None
    }
}

/// `.` and `..` removed lexically; `None` when `..` climbs above a relative path's start.
fn normalise(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    Some(out)
}

fn slash_path(rest: &Path) -> Option<String> {
    let parts: Vec<String> = rest
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    (!parts.is_empty()).then(|| parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roots(session: Option<&str>, replacement: Option<&str>) -> Roots {
        Roots {
            session: session.map(PathBuf::from),
            replacement: replacement.map(PathBuf::from),
        }
    }

    #[test]
    fn absolute_and_relative_paths_under_the_session_directory() {
        let r = roots(Some("/home/dev/agent-cpp"), None);
        assert_eq!(
            r.relative("/home/dev/agent-cpp/src/main.cpp", None)
                .as_deref(),
            Some("src/main.cpp")
        );
        assert_eq!(
            r.relative("./include/../src/main.cpp", None).as_deref(),
            Some("src/main.cpp")
        );
        assert_eq!(
            r.relative("cursor_binary.cpp", Some("src/cursor"))
                .as_deref(),
            Some("src/cursor/cursor_binary.cpp")
        );
        assert_eq!(
            r.relative("a.h", Some("/home/dev/agent-cpp/include"))
                .as_deref(),
            Some("include/a.h")
        );
        assert_eq!(r.relative("/etc/passwd", None), None);
        assert_eq!(r.relative("../other/x.rs", None), None);
        // the root itself is no file
        assert_eq!(r.relative("/home/dev/agent-cpp", None), None);
    }

    #[test]
    fn the_replacement_root_and_no_root_at_all() {
        let r = roots(Some("/home/dev/proj"), Some("/srv/copy"));
        assert_eq!(
            r.relative("/srv/copy/src/x.rs", None).as_deref(),
            Some("src/x.rs")
        );
        let r = roots(None, None);
        assert_eq!(r.relative("src/x.rs", None).as_deref(), Some("src/x.rs"));
        assert_eq!(r.relative("/abs/x.rs", None), None);
        assert_eq!(r.relative("../x.rs", None), None);
        assert_eq!(r.relative("a/../b.rs", None).as_deref(), Some("b.rs"));
    }
}
