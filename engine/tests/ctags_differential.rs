//! The symbol reader against Universal Ctags: every definition ctags finds (of the kinds
//! both call definitions: functions, methods, classes, structs, enums, traits, interfaces)
//! in the trees this repository ships (`corpora/fixtures/*`), this crate's own sources and
//! a package of Python's standard library when the machine has one, the reader finds too:
//! the same file, the same name (the last segment of a qualified one), a line within
//! `LINES` of ctags'. A reader that loses its place (a string it ends too early, a comment
//! it opens inside a string) loses every definition after it, which this test sees.
//!
//! Without `ctags` on the path the test prints a note and passes, unless
//! `FINDBENCH_REQUIRE_CTAGS` is set (`scripts/ctags_differential.sh`, which CI runs after
//! installing Universal Ctags).
//!
//! Left out, each for its reason (`excluded`):
//! - names ctags makes up (`__anon…`, `<lambda>`, `AnonymousFunction…`): nothing is
//!   written to find;
//! - C and C++ "functions" named in capitals (`TEST(suite, name) {`): a macro invoked;
//! - C and C++ data members (ctags' `member`): fields, which the reader does not make
//!   symbols of;
//! - definitions inside a function body (ctags' `scope` is a function or a method): the
//!   reader reads the declarations an agent looks up by name, not a function's locals
//!   (Python's nested `def`s, JavaScript's inner functions).

use findbench_engine::tree::symbols::{scan_file, Language};
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// How far apart ctags' line and the reader's may be (a declaration over several lines is
/// placed by its first line or by its name's).
const LINES: u32 = 1;

/// The kinds of ctags tags compared: definitions both readers make of every language.
const KINDS: &[&str] = &[
    "function",
    "method",
    "class",
    "struct",
    "enum",
    "trait",
    "interface",
    "member",
];

fn ctags_works() -> bool {
    Command::new("ctags")
        .arg("--version")
        .output()
        .is_ok_and(|o| {
            o.status.success() && String::from_utf8_lossy(&o.stdout).contains("Universal")
        })
}

/// The trees compared, those the machine has.
fn trees() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut trees = vec![root.join("engine/src"), root.join("harness")];
    if let Ok(dir) = std::fs::read_dir(root.join("corpora/fixtures")) {
        trees.extend(dir.flatten().map(|e| e.path()).filter(|p| p.is_dir()));
    }
    for python in ["/usr/lib/python3.11/json", "/usr/lib/python3.11/email"] {
        let python = PathBuf::from(python);
        if python.is_dir() {
            trees.push(python);
        }
    }
    trees
}

/// What the reader finds in `path` of `language`: (name's last segment, line).
fn read(language: Language, path: &Path) -> Vec<(String, u32)> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    scan_file(language, &text)
        .into_iter()
        .map(|s| {
            let last = s
                .name
                .rsplit([':', '.'])
                .next()
                .unwrap_or(&s.name)
                .to_string();
            (last, s.line)
        })
        .collect()
}

/// Why a ctags tag is left out of the comparison, if it is.
fn excluded(tag: &Value, language: Language) -> Option<&'static str> {
    let name = tag["name"].as_str().unwrap_or("");
    let kind = tag["kind"].as_str().unwrap_or("");
    if !KINDS.contains(&kind) {
        return Some("kind");
    }
    if name.starts_with("__anon") || name.contains('<') || name.starts_with("Anonymous") {
        return Some("made-up name");
    }
    if matches!(language, Language::C | Language::Cpp)
        && kind == "function"
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
    {
        return Some("macro invoked");
    }
    if matches!(language, Language::C | Language::Cpp) && kind == "member" {
        return Some("a data member");
    }
    if matches!(tag["scopeKind"].as_str(), Some("function" | "method")) {
        return Some("inside a function");
    }
    if language == Language::Python
        && kind == "member"
        && tag["scopeKind"].as_str() != Some("class")
    {
        return Some("inside a function");
    }
    None
}

#[test]
fn the_reader_finds_every_definition_ctags_finds() {
    if !ctags_works() {
        assert!(
            std::env::var_os("FINDBENCH_REQUIRE_CTAGS").is_none(),
            "FINDBENCH_REQUIRE_CTAGS is set and Universal Ctags is not on the path"
        );
        println!("the_reader_finds_every_definition_ctags_finds: skipped, no Universal Ctags on the path");
        return;
    }
    let (mut compared, mut missed) = (0usize, Vec::new());
    for tree in trees() {
        let out = Command::new("ctags")
            .args([
                "--output-format=json",
                "--fields=+nKZ",
                "--extras=-F",
                "-R",
                "-f",
                "-",
            ])
            .arg(&tree)
            .output()
            .expect("ctags runs");
        let mut by_file: HashMap<String, Vec<Value>> = HashMap::new();
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let Ok(tag) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            if tag["_type"] == "tag" {
                let path = tag["path"].as_str().unwrap_or("").to_string();
                by_file.entry(path).or_default().push(tag);
            }
        }
        for (path, tags) in by_file {
            let path = PathBuf::from(path);
            let Some(language) = path
                .extension()
                .and_then(|e| e.to_str())
                .and_then(|e| Language::from_extension(&e.to_ascii_lowercase()))
            else {
                continue;
            };
            let found = read(language, &path);
            for tag in &tags {
                if excluded(tag, language).is_some() {
                    continue;
                }
                let name = tag["name"].as_str().unwrap_or("");
                let line = tag["line"].as_u64().unwrap_or(0) as u32;
                compared += 1;
                if !found
                    .iter()
                    .any(|(n, l)| n == name && l.abs_diff(line) <= LINES)
                {
                    missed.push(format!(
                        "{}:{line}: {} {name}",
                        path.display(),
                        tag["kind"].as_str().unwrap_or("")
                    ));
                }
            }
        }
    }
    println!(
        "ctags definitions compared: {compared}, missed: {}",
        missed.len()
    );
    assert!(compared > 500, "{compared} definitions compared");
    assert!(
        missed.is_empty(),
        "{} of {compared} definitions ctags finds the reader does not:\n{}",
        missed.len(),
        missed.join("\n")
    );
}
