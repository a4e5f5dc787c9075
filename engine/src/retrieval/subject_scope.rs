//! The part of the tree a commit subject's scope names. A subject that opens with a scope
//! (`printer: fix ...`, `fix(helpers/url): ...`, `ignore/types: add ...`: the Conventional
//! Commits form and the kernel's `subsystem: ...`) says where the change is: a file whose
//! path names every part of the scope, in order (a directory, a file's name or stem; case
//! folded), is in it. Its score is multiplied by `1 + subject_scope`, in the bound of
//! `best_files.rs` as in the score, so a file in the scope is ranked even when words alone
//! would have left it out of the best.

use super::code_tokens;

/// The parts of the scope that opens `question`, folded to lower case: `printer` of
/// `printer: ...`; `helpers`, `url` of `fix(helpers/url): ...` (the type before the
/// parentheses says what kind of change, not where). Empty when its first token is no scope.
pub fn scope_parts(question: &str) -> Vec<String> {
    let Some(scope) = question
        .split_whitespace()
        .next()
        .and_then(code_tokens::scope_named)
    else {
        return Vec::new();
    };
    scope
        .split(['/', ','])
        .map(str::trim)
        .filter(|p| !p.is_empty() && p.bytes().any(|b| b.is_ascii_alphanumeric()))
        .map(str::to_ascii_lowercase)
        .collect()
}

/// True when `path` names every part of `parts` (folded), in order, each as a directory of
/// it, its file name or its file's stem; false for no parts.
pub fn in_scope(parts: &[String], path: &str) -> bool {
    if parts.is_empty() {
        return false;
    }
    let folded = path.to_ascii_lowercase();
    let mut components = folded.split('/').peekable();
    let mut wanted = parts.iter();
    let mut part = wanted.next();
    while let (Some(p), Some(c)) = (part, components.next()) {
        let last = components.peek().is_none();
        let names = *c == **p || (last && c.split_once('.').is_some_and(|(stem, _)| stem == p));
        if names {
            part = wanted.next();
        }
    }
    part.is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subjects_scope_is_its_parts_folded() {
        for (question, parts) in [
            ("printer: fix multi-line replacement bug", &["printer"][..]),
            (
                "fix(helpers/validator): added docs",
                &["helpers", "validator"],
            ),
            (
                "ignore/types: add *.sbt to scala type",
                &["ignore", "types"],
            ),
            ("feat(Core)!: breaking", &["core"]),
            ("fix(a,b): two", &["a", "b"]),
            ("Docs: fixes", &["docs"]),
            ("fix: ensure the project is removed", &["fix"]),
            // a part of no letter or digit names nothing
            ("chore(deps/*): bump", &["deps"]),
        ] {
            assert_eq!(scope_parts(question), parts, "{question}");
        }
        for question in [
            "Fix the printer",
            "fix(parser) without a colon",
            "read step:2 again",
            "",
            "(): nothing",
            "fix(*): everything",
            // parentheses that do not close the token hold no scope
            "fix(parser)x: odd",
        ] {
            assert!(scope_parts(question).is_empty(), "{question}");
        }
    }

    #[test]
    fn a_path_is_in_scope_when_it_names_every_part_in_order() {
        let parts = |s: &[&str]| s.iter().map(|p| p.to_string()).collect::<Vec<_>>();
        let cli = parts(&["cli"]);
        assert!(in_scope(&cli, "crates/cli/src/lib.rs"));
        assert!(in_scope(&cli, "src/Cli.rs"));
        assert!(in_scope(&cli, "cli"));
        assert!(!in_scope(&cli, "crates/client/src/lib.rs"));
        assert!(!in_scope(&cli, "src/cli.d/x.rs/y"));
        let two = parts(&["ignore", "types"]);
        assert!(in_scope(&two, "crates/ignore/src/types.rs"));
        assert!(in_scope(&two, "crates/ignore/src/default_types.rs/types"));
        assert!(!in_scope(&two, "crates/types/ignore.rs"));
        assert!(!in_scope(&two, "crates/ignore/src/walk.rs"));
        // a stem is the name before its first dot
        let validator = parts(&["helpers", "validator"]);
        assert!(in_scope(&validator, "lib/helpers/validator.js"));
        assert!(in_scope(&validator, "lib/helpers/validator.test.js"));
        assert!(!in_scope(&parts(&[]), "lib/helpers/validator.js"));
    }
}
