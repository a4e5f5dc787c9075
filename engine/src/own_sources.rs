//! This crate's own source files, for tests that check a fast path against a plain one on
//! real code (`retrieval/word_parts.rs`, `text/stem.rs`), and the source files of a real tree
//! a test reads by hand (`first_call/scanned.rs`, `tree/symbols/tests.rs`,
//! `tree/symbols/c_comments.rs`).

/// Every file below this crate's `src/`, with its bytes.
#[cfg(test)]
pub(crate) fn own_sources() -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(bytes) = std::fs::read(&path) {
                out.push((path, bytes));
            }
        }
    }
    out.sort();
    out
}

/// The files of [`own_sources`] in a language the symbol scan reads, with it.
#[cfg(test)]
pub(crate) fn own_sources_by_language(
) -> Vec<(std::path::PathBuf, crate::tree::symbols::Language, Vec<u8>)> {
    own_sources()
        .into_iter()
        .filter_map(|(path, bytes)| {
            let language = path
                .extension()
                .and_then(|e| e.to_str())
                .and_then(crate::tree::symbols::Language::from_extension)?;
            Some((path, language, bytes))
        })
        .collect()
}

/// Every file in a language the symbol scan reads under `root` (a real tree a test reads by
/// hand, named by an environment variable), with its language and text; symbolic links to
/// directories are not followed, and a file that is not UTF-8 is left out.
#[cfg(test)]
pub(crate) fn sources_under(
    root: &std::path::Path,
) -> Vec<(std::path::PathBuf, crate::tree::symbols::Language, String)> {
    let mut out = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() && !path.is_symlink() {
                dirs.push(path);
                continue;
            }
            let language = path
                .extension()
                .and_then(|e| e.to_str())
                .and_then(crate::tree::symbols::Language::from_extension);
            if let (Some(language), Ok(text)) = (language, std::fs::read_to_string(&path)) {
                out.push((path, language, text));
            }
        }
    }
    out
}

/// [`sources_under`] the directory the environment variable `var` names, in `languages`
/// only: what a by-hand test reads of a real tree. Panics when the variable is unset or the
/// tree holds no such file (a test that read nothing would pass).
#[cfg(test)]
pub(crate) fn tree_sources(
    var: &str,
    languages: &[crate::tree::symbols::Language],
) -> Vec<(std::path::PathBuf, crate::tree::symbols::Language, String)> {
    let root = std::env::var(var).unwrap_or_else(|_| panic!("{var} names no tree"));
    let sources: Vec<_> = sources_under(std::path::Path::new(&root))
        .into_iter()
        .filter(|(_, language, _)| languages.contains(language))
        .collect();
    assert!(!sources.is_empty(), "{root} holds no file in {languages:?}");
    sources
}
