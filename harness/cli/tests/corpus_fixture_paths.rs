//! A corpus fixture is a path relative to its corpus file. One that leads outside the
//! directory above the corpus file's (corpora live in `corpora/` of the repository they
//! test) is loaded all the same, with a warning on stderr naming the corpus file, the
//! fixture's line and where it leads; `root: ../` (the repository) and `fixtures/...` stay
//! silent. See docs/corpora.md.

mod common;

use common::{assert_exit, findbench, findbench_in};
use std::path::Path;

/// `outer/repo/corpora/c.yaml` with `fixture` as given, and a file to find in the repo
/// (`main` is `found` under the fixture's root).
fn layout(root: &Path, fixture: &str, found: &str) -> std::path::PathBuf {
    let repo = root.join("outer/repo");
    std::fs::create_dir_all(repo.join("corpora")).unwrap();
    std::fs::create_dir_all(repo.join("src")).unwrap();
    std::fs::write(repo.join("src/main.rs"), "fn main() {}\n").unwrap();
    let corpus = repo.join("corpora/c.yaml");
    std::fs::write(
        &corpus,
        format!(
            "suite: s\n# a comment line\nfixture: {fixture}\ncases:\n  - {{id: one, query: \
             main, mode: path, expect: {{contains: [{found}]}}}}\n"
        ),
    )
    .unwrap();
    corpus
}

fn warnings(stderr: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(stderr)
        .lines()
        .filter(|l| l.starts_with("warning:"))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_fixture_that_climbs_out_of_the_repository_is_loaded_with_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = layout(tmp.path(), "{root: ../..}", "repo/src/main.rs");
    let out = findbench_in(
        &tmp.path().join("outer/repo"),
        &["run", "corpora/c.yaml", "--no-progress", "-q", "--no-cache"],
    );
    assert_exit(&out, 0);
    let outer = tmp.path().join("outer").canonicalize().unwrap();
    let repo = tmp.path().join("outer/repo").canonicalize().unwrap();
    assert_eq!(
        warnings(&out.stderr),
        [format!(
            "warning: corpora/c.yaml:3: fixture root `../..` resolves to {}, outside {} (the \
             directory above the corpus file's); it is loaded all the same",
            outer.display(),
            repo.display()
        )]
    );
    assert!(corpus.exists());
}

#[test]
fn a_fixture_inside_the_repository_says_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    layout(tmp.path(), "{root: ../}", "src/main.rs");
    let out = findbench_in(
        &tmp.path().join("outer/repo"),
        &["run", "corpora/", "--no-progress", "-q", "--no-cache"],
    );
    assert_exit(&out, 0);
    assert_eq!(warnings(&out.stderr), Vec::<String>::new());
}

#[test]
fn the_shipped_corpora_say_nothing() {
    let out = findbench(&[
        "run",
        "corpora/paths.yaml",
        "corpora/validation.yaml",
        "--no-progress",
        "-q",
    ]);
    assert_eq!(warnings(&out.stderr), Vec::<String>::new());
}
