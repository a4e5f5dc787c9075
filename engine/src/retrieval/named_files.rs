//! The file a question names, by its path or for a name it quotes: a task that says "Move
//! some functions from helpers.go to licenses.go" or "Make `HttpException` unchecked"
//! changes that file, though its other words ("functions", "call adapters") rank the files
//! that use it far above. An engineer opens that file first.
//!
//! A file is named by a path when the path is its own or its last components (`walk.rs`,
//! `src/walk.rs` of `src/walk.rs:120`), whatever its kind: the question says which file. A
//! file is named for a name when its file name, from its first `.` cut, is the name in any
//! case style (their letters and digits are equal: `HttpException.java`,
//! `http_exception.py`, `urlmap.rb` for `URLMap`),
//! it defines that name (not only declares it; not in a test) and it is a source file.
//! Such a file's score is raised to at least `named_file` times the best score by the
//! words; a file the bounds left unscored is scored first. The other lifts (proximity,
//! `defines_named`, the history) then weigh it as any file.

use super::best_files::Scored;
use super::code_tokens::{named_identifiers, named_paths};
use super::kind::FileKind;
use crate::profile::Profile;
use crate::text::camel::snake;
use crate::tree::Tree;
use std::collections::HashMap;

/// How many of the names a question quotes are looked for among the file names.
const NAMED: usize = 8;

/// The files of `holding` (the files that hold a term of the question) that `question`
/// names: by their path or file name (`licenses.go`, `src/walk.rs:120`), of any kind; or
/// named for a name it quotes and defining it, a source file. Each with the name or path
/// written, in the order of the files: none when `named_file` is 0.
pub(super) fn named_files(
    tree: &Tree,
    profile: &Profile,
    question: &str,
    holding: impl Iterator<Item = u32>,
) -> Vec<(u32, String)> {
    if profile.task_ranking.named_file <= 0.0 {
        return Vec::new();
    }
    let names = named_identifiers(question, NAMED);
    let paths = named_paths(question, NAMED);
    if names.is_empty() && paths.is_empty() {
        return Vec::new();
    }
    let snakes: Vec<String> = names.iter().map(|n| snake(n)).collect();
    let letters: Vec<Vec<u8>> = snakes.iter().map(|s| letters_of(s)).collect();
    let files = tree.files();
    let mut out: Vec<(u32, String)> = Vec::new();
    for f in holding {
        let file = &files[f as usize];
        if let Some(p) = paths.iter().find(|p| ends_with_path(&file.path, p)) {
            out.push((f, p.clone()));
            continue;
        }
        let base = file.path.rsplit('/').next().unwrap_or(&file.path);
        let stem = base.split('.').next().unwrap_or(base);
        // every file holding a word is asked, without a string made: its letters and
        // digits, whatever the case and separators (`urlmap.rb` for `URLMap`)
        let Some(k) = letters.iter().position(|l| same_letters(stem, l)) else {
            continue;
        };
        if FileKind::of(file, profile) != FileKind::Source {
            continue;
        }
        let defines = file.symbols_once().iter().any(|s| s.defines(&snakes[k]));
        if defines {
            out.push((f, names[k].clone()));
        }
    }
    out.sort_by_key(|(f, _)| *f);
    out
}

/// Whether `path` is `named` or ends with `/` and `named`: whole path components.
fn ends_with_path(path: &str, named: &str) -> bool {
    path.strip_suffix(named)
        .is_some_and(|rest| rest.is_empty() || rest.ends_with('/'))
}

/// The letters and digits of `name`, lower case.
fn letters_of(name: &str) -> Vec<u8> {
    name.bytes()
        .filter(u8::is_ascii_alphanumeric)
        .map(|b| b.to_ascii_lowercase())
        .collect()
}

/// Whether the letters and digits of `stem`, lower case, are `letters` (a name written
/// in another case style has the same).
fn same_letters(stem: &str, letters: &[u8]) -> bool {
    let mut own = stem
        .bytes()
        .filter(u8::is_ascii_alphanumeric)
        .map(|b| b.to_ascii_lowercase());
    !letters.is_empty() && letters.iter().all(|&b| own.next() == Some(b)) && own.next().is_none()
}

/// Raises each of `named` in `ranked` to at least `named_file` times the best score of
/// `ranked` (before any is raised). Returns the names of the files raised, by file.
pub(super) fn raise_named(
    profile: &Profile,
    named: &[(u32, String)],
    ranked: &mut [Scored],
) -> HashMap<u32, String> {
    let best = ranked.iter().map(|s| s.score).fold(0.0, f64::max);
    let floor = best * profile.task_ranking.named_file;
    let mut out = HashMap::new();
    for (file, name) in named {
        if let Some(entry) = ranked.iter_mut().find(|s| s.file == *file) {
            entry.score = entry.score.max(floor);
            out.insert(*file, name.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::{rank_candidates, Ranking};

    /// Twelve adapters that use `HttpException` and hold the task's other words (`call`,
    /// `adapter`, `custom`, `unchecked`), so that they rank far above the file that holds
    /// the class; beside it, a test, a header that only declares the name, a document
    /// and a file named for it in snake case that defines it.
    fn adapters_tree() -> Tree {
        let mut files: Vec<(String, String)> = (0..12)
            .map(|i| {
                (
                    format!("src/adapters/custom_call_adapter_{i:02}.java"),
                    format!(
                        "/** A custom call adapter; unchecked. */\nclass CustomCallAdapter{i} {{\n  \
                         void adapt(Call call) throws HttpException {{ unchecked(call); }}\n}}\n"
                    ),
                )
            })
            .collect();
        files.extend([
            (
                "src/HttpException.java".to_string(),
                "/** An HTTP status. */\npublic class HttpException extends Exception {\n  \
                 int code() { return 0; }\n}\n"
                    .to_string(),
            ),
            (
                "tests/HttpException.java".to_string(),
                "class HttpException { void testHttpException() {} }\n".to_string(),
            ),
            (
                "include/http_exception.h".to_string(),
                "struct http_exception;\nint http_exception_code(struct http_exception *e);\n"
                    .to_string(),
            ),
            (
                "docs/HttpException.md".to_string(),
                "# HttpException\nThe exception.\n".to_string(),
            ),
        ]);
        Tree::from_memory("named", files.iter().map(|(p, t)| (p.as_str(), t.as_str())))
    }

    const TASK: &str = "Make HttpException unchecked to allow custom call adapters";

    fn ranked(tree: &Tree, named_file: f64, limit: usize) -> Ranking {
        let mut p = Profile::default();
        p.task_ranking.named_file = named_file;
        // the other lifts left out, so that the raised score is the rule's alone
        p.task_ranking.proximity = 0.0;
        p.task_ranking.defines_named = 0.0;
        p.task_ranking.tested_subject = 0.0;
        p.task_ranking.rerank_depth = 5;
        rank_candidates(tree, TASK, &p, limit)
    }

    fn score_of(ranking: &Ranking, path: &str) -> Option<f64> {
        ranking
            .files
            .iter()
            .find(|f| f.path == path)
            .map(|f| f.score)
    }

    #[test]
    fn the_file_named_for_a_quoted_name_is_raised_to_its_share_of_the_best_score() {
        let tree = adapters_tree();
        let named = "src/HttpException.java";
        // ranked below the twelve adapters by the words; among the best three (the bounds
        // leave it unscored) only when raised
        let plain = ranked(&tree, 0.0, 3);
        assert_eq!(score_of(&plain, named), None, "{plain:?}");
        let best = plain.files[0].score;
        let all = ranked(&tree, 0.0, 20);
        let own = score_of(&all, named).unwrap();
        assert!(own < 0.25 * best, "{own} vs {best}");
        // at the best score's own share it ties the best, first by its shorter path
        let whole = ranked(&tree, 1.0, 3);
        assert_eq!(whole.files[0].path, named, "{whole:?}");
        assert_eq!(whole.files[0].score, best);
        let reason = &whole.files[0].reason;
        assert!(reason.contains("; named for `HttpException`"), "{reason}");
        // at half, half the best (each score rounded to 4 decimals), after the adapters,
        // which keep their scores
        let half = ranked(&tree, 0.5, 20);
        let raised = score_of(&half, named).unwrap();
        assert!((raised - 0.5 * best).abs() < 1.5e-4, "{raised} vs {best}");
        assert_eq!(half.files[12].path, named, "{half:?}");
        assert_eq!(half.files[0].score, best);
        // the test, the header that only declares and the document are not raised
        for other in [
            "tests/HttpException.java",
            "include/http_exception.h",
            "docs/HttpException.md",
        ] {
            assert_eq!(score_of(&half, other), score_of(&all, other), "{other}");
            let reason = &half.files.iter().find(|f| f.path == other);
            assert!(
                reason.is_none_or(|f| !f.reason.contains("named for")),
                "{other}"
            );
        }
    }

    #[test]
    fn a_file_named_in_another_case_style_that_defines_the_name_is_named_for_it() {
        let tree = Tree::from_memory(
            "styles",
            [
                (
                    "pkg/http_exception.py",
                    "class HttpException(Exception):\n    pass\n",
                ),
                ("pkg/json_null.py", "JSON_NULL = None\n"),
                ("pkg/other.py", "class HttpException: pass\n"),
            ],
        );
        let profile = Profile::default();
        let question = "Fix `HttpException` and JsonNull.equals()";
        let all = [0, 1, 2];
        assert_eq!(
            named_files(&tree, &profile, question, all.into_iter()),
            [(0, "HttpException".to_string())]
        );
        let mut none = Profile::default();
        none.task_ranking.named_file = 0.0;
        assert!(named_files(&tree, &none, question, all.into_iter()).is_empty());
        // the files holding a word are the only ones asked
        assert!(named_files(&tree, &profile, question, [1, 2].into_iter()).is_empty());
    }

    #[test]
    fn the_owner_of_a_quoted_member_names_its_file_written_in_any_case() {
        let tree = Tree::from_memory(
            "owners",
            [
                (
                    "lib/rack/urlmap.rb",
                    "module Rack\n  class URLMap\n    def call(env)\n    end\n  end\nend\n",
                ),
                (
                    "logger.go",
                    "package logrus\n\ntype Logger struct {\n\tHooks LevelHooks\n}\n",
                ),
                (
                    "hooks.go",
                    "package logrus\n\ntype LevelHooks map[int]int\n",
                ),
            ],
        );
        let profile = Profile::default();
        let id = |path: &str| tree.files().iter().position(|f| f.path == path).unwrap() as u32;
        assert_eq!(
            named_files(&tree, &profile, "Add URLMap#remap", 0..3),
            [(id("lib/rack/urlmap.rb"), "URLMap".to_string())]
        );
        assert_eq!(
            named_files(&tree, &profile, "logger.ReplaceHooks", 0..3),
            [(id("logger.go"), "logger".to_string())]
        );
        // a member that is no name (`logger.hooks`) names no owner
        assert!(named_files(&tree, &profile, "logger.hooks", 0..3).is_empty());
    }

    #[test]
    fn a_file_the_question_names_by_its_path_is_named_whatever_its_kind() {
        let tree = Tree::from_memory(
            "paths",
            [
                ("cmd/helpers.go", "package cmd\nfunc helper() {}\n"),
                ("cmd/licenses.go", "package cmd\nvar licenses = 1\n"),
                ("cmd/mylicenses.go", "package cmd\n"),
                ("README.md", "# cmd\n"),
            ],
        );
        let profile = Profile::default();
        let all = || 0..4;
        let id = |path: &str| tree.files().iter().position(|f| f.path == path).unwrap() as u32;
        assert_eq!(
            named_files(
                &tree,
                &profile,
                "Move helpers from cmd/helpers.go to licenses.go",
                all()
            ),
            [
                (id("cmd/helpers.go"), "cmd/helpers.go".to_string()),
                (id("cmd/licenses.go"), "licenses.go".to_string())
            ]
        );
        assert_eq!(
            named_files(&tree, &profile, "Updated README.md;", all()),
            [(id("README.md"), "README.md".to_string())]
        );
        // a path names whole components: `licenses.go` is not `mylicenses.go`'s
        assert!(!ends_with_path("cmd/mylicenses.go", "licenses.go"));
        assert!(ends_with_path("licenses.go", "licenses.go"));
        assert!(!ends_with_path("cmd/licenses.go", "md/licenses.go"));
    }

    #[test]
    fn letters_compare_across_case_styles_and_whole() {
        let name = letters_of("http_exception");
        assert!(same_letters("HttpException", &name));
        assert!(same_letters("http-exception", &name));
        assert!(!same_letters("HttpExceptions", &name));
        assert!(!same_letters("HttpExc", &name));
        assert!(!same_letters("", &letters_of("")));
    }
}
