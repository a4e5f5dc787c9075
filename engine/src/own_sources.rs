//! This crate's own source files, for tests that check a fast path against a plain one on
//! real code (`retrieval/word_parts.rs`, `text/stem.rs`), and the source files of a tree the
//! repository ships, or of a real tree named by hand (`first_call/scanned.rs`,
//! `tree/symbols/tests.rs`, `tree/symbols/c_comments.rs`).

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

/// Every file in a language the symbol scan reads under `root`, with its language and text; symbolic links to
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

/// [`sources_under`] the directory the environment variable `var` names (a real tree the
/// test is run on by hand), or else under each of `shipped` (directories of this
/// repository, from its root: what the test reads by default), in `languages` only.
/// Panics when no such file is read (a test that read nothing would pass).
#[cfg(test)]
pub(crate) fn tree_sources(
    var: &str,
    shipped: &[&str],
    languages: &[crate::tree::symbols::Language],
) -> Vec<(std::path::PathBuf, crate::tree::symbols::Language, String)> {
    let repository = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let roots: Vec<std::path::PathBuf> = match std::env::var_os(var) {
        Some(root) => vec![root.into()],
        None => shipped.iter().map(|dir| repository.join(dir)).collect(),
    };
    let mut sources: Vec<_> = roots
        .iter()
        .flat_map(|root| sources_under(root))
        .filter(|(_, language, _)| languages.contains(language))
        .collect();
    sources.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(
        !sources.is_empty(),
        "{roots:?} hold no file in {languages:?}"
    );
    sources
}
