//! Paths a generated corpus writes for its fixture, relative to the corpus file's
//! directory (as a corpus's fixture paths are read), so a corpus committed beside the code
//! it tests works from any clone.

use std::path::{Component, Path, PathBuf};

/// `target` as seen from `dir`, both absolute and canonical (`../.git` from
/// `repo/corpora` for `repo/.git`); `target` itself when no relative path leads there
/// (another drive or prefix).
pub fn relative_to(dir: &Path, target: &Path) -> PathBuf {
    let from: Vec<Component> = dir.components().collect();
    let to: Vec<Component> = target.components().collect();
    if from.first() != to.first() {
        return target.to_path_buf();
    }
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..from.len() {
        out.push("..");
    }
    for c in &to[common..] {
        out.push(c);
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// The canonical directory a corpus written to `out` lives in (`out`'s parent, which must
/// exist), for [`relative_to`].
pub fn corpus_dir(out: &Path) -> std::io::Result<PathBuf> {
    let parent = out.parent().filter(|p| !p.as_os_str().is_empty());
    parent.unwrap_or(Path::new(".")).canonicalize()
}

/// `target` relative to the directory of the corpus written to `out`, in `/` form as a
/// corpus spells paths; absolute when that directory cannot be read.
pub fn fixture_path(out: &Path, target: &Path) -> String {
    let path = match corpus_dir(out) {
        Ok(dir) => relative_to(&dir, target),
        Err(_) => target.to_path_buf(),
    };
    path.to_string_lossy().replace('\\', "/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_lead_up_then_down() {
        let r = |a: &str, b: &str| relative_to(Path::new(a), Path::new(b));
        assert_eq!(r("/w/repo/corpora", "/w/repo/.git"), Path::new("../.git"));
        assert_eq!(r("/w/repo", "/w/repo"), Path::new("."));
        assert_eq!(r("/w/repo", "/w/repo/src"), Path::new("src"));
        assert_eq!(r("/tmp/c", "/w/repo"), Path::new("../../w/repo"));
    }
}
