//! The layout rules of ARCHITECTURE.md, checked on the source itself: no import cycle
//! between files of a crate, no source file over 700 lines (its `#[cfg(test)]` part aside),
//! and every source file named in the code map.
//!
//! The import graph is read from the code: every `crate::`, `super::` and `self::` path in a
//! file's non-test code (in `use` items and inline) is resolved to the file that holds the
//! module it names. `mod x;` declarations are not edges: a parent declaring its children is
//! how Rust lays out a crate, not a dependency. A `pub use` of a module's own descendants
//! (a `lib.rs` or `mod.rs` facade) is followed to the file that defines the name; a `pub
//! use` of anything else is an edge of the file that holds it, and a path through it an
//! edge to that file too, so a circle closed by a re-export is a circle.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The crates whose files are checked, as their `src` directories.
const CRATE_SOURCES: &[&str] = &[
    "engine/src",
    "harness/tools/src",
    "harness/eval/src",
    "harness/traces/src",
    "harness/mcp/src",
    "harness/tune/src",
    "harness/cli/src",
    "benches/src",
];

/// Lines a source file may hold before its first `#[cfg(test)]`.
const MAX_LINES: usize = 700;

/// One source file: its module path in the crate (`["tree", "cache"]`) and its text.
struct SourceFile {
    rel: String,
    module: Vec<String>,
    text: String,
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file under `src`: `lib.rs`/`main.rs` is the root, `a/mod.rs` is `a`.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if !(stem == "mod" || (parts.is_empty() && (stem == "lib" || stem == "main"))) {
        parts.push(stem.to_string());
    }
    parts
}

fn crate_files(src: &str) -> Vec<SourceFile> {
    let base = common::repo_root().join(src);
    let mut paths = Vec::new();
    rust_files(&base, &mut paths);
    paths
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(&base).unwrap().to_path_buf();
            SourceFile {
                rel: format!("{src}/{}", rel.display()),
                module: module_of(&rel),
                text: std::fs::read_to_string(&p).unwrap(),
            }
        })
        .collect()
}

/// The code of a file without its tests (the repository keeps tests in a trailing
/// `#[cfg(test)]` module or in a `tests.rs` beside).
fn non_test(text: &str) -> &str {
    text.find("#[cfg(test)]").map_or(text, |i| &text[..i])
}

/// Text with comments and string literals blanked, so a path in prose is not an import.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
        } else if b[i] == b'r'
            && matches!(b.get(i + 1), Some(b'"') | Some(b'#'))
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            // raw string r"..." or r#"..."#
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push(b[i] as char);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == b'"'
                    && b[j + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&c| c == b'#')
                        .count()
                        == hashes
                {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push(' ');
            i = j;
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push(' ');
        } else if b[i] == b'\'' && b.get(i + 2) == Some(&b'\'') {
            // a char literal such as '"'
            i += 3;
            out.push(' ');
        } else {
            let ch_len = text[i..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&text[i..i + ch_len]);
            i += ch_len;
        }
    }
    out
}

/// A path a file's code names, and whether it is a `pub use` (a re-export: the file hands
/// the name on) with the name it is exported as.
struct NamedPath {
    segments: Vec<String>,
    reexport_as: Option<String>,
}

/// Every path a file's code names: `use` trees expanded (`use crate::a::{b, c::d}` gives
/// `crate::a::b` and `crate::a::c::d`) and inline paths (`crate::a::b::f()`,
/// `child::f()` for a child module).
fn named_paths(code: &str, children: &BTreeSet<String>) -> Vec<NamedPath> {
    let mut out = Vec::new();
    let mut rest = code;
    let mut offset = 0;
    while let Some(at) = find_word(rest, "use") {
        let line_start = code[..offset + at].rfind('\n').map_or(0, |i| i + 1);
        let is_pub = code[line_start..offset + at]
            .trim_start()
            .starts_with("pub");
        let after = &rest[at + 3..];
        let end = after.find(';').unwrap_or(after.len());
        let tree: String = after[..end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let mut paths = Vec::new();
        expand_use_tree(&tree, &mut Vec::new(), &mut paths);
        for (segments, alias) in paths {
            let name = alias.or_else(|| segments.last().cloned());
            out.push(NamedPath {
                segments,
                reexport_as: if is_pub { name } else { None },
            });
        }
        offset += at + 3 + end;
        rest = &after[end..];
    }
    // inline paths: crate::, super::, self::, and a child module's name, outside `use`
    // items (read above)
    let code = &without_use_items(code);
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let starts_word = (c.is_ascii_alphabetic() || c == b'_')
            && (i == 0
                || !(bytes[i - 1].is_ascii_alphanumeric()
                    || bytes[i - 1] == b'_'
                    || bytes[i - 1] == b':'));
        if !starts_word {
            i += 1;
            continue;
        }
        let path: String = code[i..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        i += path.len().max(1);
        let segments: Vec<String> = path
            .split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        let first = segments.first().map(String::as_str).unwrap_or("");
        if segments.len() > 1
            && (matches!(first, "crate" | "super" | "self") || children.contains(first))
        {
            out.push(NamedPath {
                segments,
                reexport_as: None,
            });
        }
    }
    out
}

/// The code with every `use` item blanked.
fn without_use_items(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = find_word(rest, "use") {
        out.push_str(&rest[..at]);
        let end = rest[at..].find(';').map_or(rest.len(), |e| at + e + 1);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(pos) = text[from..].find(word) {
        let at = from + pos;
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        let boundary = |c: Option<char>| !c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        if boundary(before) && after.is_some_and(char::is_whitespace) {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// Expands one `use` tree under `prefix` into (path, alias).
fn expand_use_tree(
    tree: &str,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    let tree = tree.trim().trim_start_matches("::");
    if let Some(open) = tree.find('{') {
        let head = &tree[..open];
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let added: Vec<String> = head
            .split("::")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        let n = added.len();
        prefix.extend(added);
        for part in split_top_level(inner) {
            expand_use_tree(part, prefix, out);
        }
        prefix.truncate(prefix.len() - n);
    } else {
        let mut words = tree.split(" as ");
        let path = words.next().unwrap_or(tree).trim();
        let alias = words.next().map(|a| a.trim().to_string());
        let mut full = prefix.clone();
        full.extend(
            path.split("::")
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string),
        );
        if full.last().is_some_and(|s| s == "self") {
            full.pop();
        }
        out.push((full, alias));
    }
}

fn split_top_level(inner: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < inner.len() {
        parts.push(&inner[start..]);
    }
    parts.into_iter().filter(|p| !p.trim().is_empty()).collect()
}

/// The crate's modules (path -> file), each module's re-exports (name -> absolute path)
/// and glob re-exports (`pub use x::*`).
struct CrateModules {
    files: BTreeMap<Vec<String>, String>,
    reexports: BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>>,
    globs: BTreeMap<Vec<String>, Vec<Vec<String>>>,
}

impl CrateModules {
    /// A path as seen from module `here`, made absolute (crate-rooted); `None` for a path
    /// into another crate.
    fn absolute(&self, path: &[String], here: &[String]) -> Option<Vec<String>> {
        match path.first().map(String::as_str) {
            Some("crate") => Some(path[1..].to_vec()),
            Some("self") => Some([here, &path[1..]].concat()),
            Some("super") => {
                let mut base = here.to_vec();
                let mut rest = path;
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop();
                    rest = &rest[1..];
                }
                Some([base.as_slice(), rest].concat())
            }
            Some(first) => {
                let mut child = here.to_vec();
                child.push(first.to_string());
                self.files
                    .contains_key(&child)
                    .then(|| [here, path].concat())
            }
            None => None,
        }
    }

    /// The file that defines what an absolute path names: the deepest module of the path
    /// that is a file, followed through that module's re-exports. `via` gets each file
    /// passed on the way that hands on a name from outside its own module (see
    /// [`Self::hands_on`]).
    fn defining_file(
        &self,
        path: &[String],
        depth: usize,
        via: &mut Vec<String>,
    ) -> Option<String> {
        let mut module = Vec::new();
        let mut i = 0;
        while i < path.len() {
            let mut next = module.clone();
            next.push(path[i].clone());
            if !self.files.contains_key(&next) {
                break;
            }
            module = next;
            i += 1;
        }
        if depth < 16 {
            if let Some(name) = path.get(i) {
                if let Some(target) = self.reexports.get(&module).and_then(|r| r.get(name)) {
                    self.hands_on(&module, target, via);
                    let mut target = target.clone();
                    target.extend(path[i + 1..].iter().cloned());
                    return self.defining_file(&target, depth + 1, via);
                }
                for glob in self.globs.get(&module).into_iter().flatten() {
                    let mut target = glob.clone();
                    target.extend(path[i..].iter().cloned());
                    let mut glob_via = Vec::new();
                    if let Some(file) = self.defining_file(&target, depth + 1, &mut glob_via) {
                        if Some(&file) != self.files.get(&module) {
                            self.hands_on(&module, glob, via);
                            via.extend(glob_via);
                            return Some(file);
                        }
                    }
                }
            }
        }
        self.files.get(&module).cloned()
    }

    /// Adds `module`'s file to `via` when the name it re-exports (`target`) lies outside
    /// the module: a facade over its own children is layout, a file handing on a
    /// neighbour's name is a step of the path.
    fn hands_on(&self, module: &[String], target: &[String], via: &mut Vec<String>) {
        if !target.starts_with(module) {
            via.extend(self.files.get(module).cloned());
        }
    }
}

/// file -> files it imports, within one crate. A path to a name that a module only hands
/// on (`pub use`) leads to the file that defines it, so a `lib.rs` or `mod.rs` that only
/// re-exports is no hub of false cycles.
fn import_graph(files: &[SourceFile]) -> BTreeMap<String, BTreeSet<String>> {
    let mut modules = CrateModules {
        files: files
            .iter()
            .map(|f| (f.module.clone(), f.rel.clone()))
            .collect(),
        reexports: BTreeMap::new(),
        globs: BTreeMap::new(),
    };
    let children_of = |module: &[String]| -> BTreeSet<String> {
        files
            .iter()
            .filter(|f| f.module.len() == module.len() + 1 && f.module.starts_with(module))
            .map(|f| f.module.last().unwrap().clone())
            .collect()
    };
    let mut named = Vec::new();
    for f in files {
        let code = code_only(non_test(&f.text));
        let paths = named_paths(&code, &children_of(&f.module));
        for p in &paths {
            let Some(name) = &p.reexport_as else { continue };
            let Some(abs) = modules.absolute(&p.segments, &f.module) else {
                continue;
            };
            if name == "*" {
                let mut abs = abs;
                abs.pop();
                modules.globs.entry(f.module.clone()).or_default().push(abs);
            } else {
                modules
                    .reexports
                    .entry(f.module.clone())
                    .or_default()
                    .insert(name.clone(), abs);
            }
        }
        named.push(paths);
    }
    let mut graph = BTreeMap::new();
    for (f, paths) in files.iter().zip(named) {
        let mut targets = BTreeSet::new();
        for p in paths {
            let Some(abs) = modules.absolute(&p.segments, &f.module) else {
                continue;
            };
            if p.reexport_as.is_some() && abs.starts_with(&f.module) {
                // a facade handing on its own children's names depends on none of them
                continue;
            }
            let mut via = Vec::new();
            let target = modules.defining_file(&abs, 0, &mut via);
            for target in target.into_iter().chain(via) {
                if target != f.rel {
                    targets.insert(target);
                }
            }
        }
        graph.insert(f.rel.clone(), targets);
    }
    graph
}

/// The strongly connected components of more than one file (Tarjan).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        next: usize,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.graph.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low[v];
                s.low.insert(v, lv.min(lw));
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low[v];
                s.low.insert(v, lv.min(iw));
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.found
}

#[test]
fn no_import_cycle_between_files_of_any_crate() {
    let mut all = Vec::new();
    for src in CRATE_SOURCES {
        let files = crate_files(src);
        for cycle in cycles(&import_graph(&files)) {
            all.push(cycle.join(" <-> "));
        }
    }
    assert!(all.is_empty(), "import cycles:\n{}", all.join("\n"));
}

#[test]
fn the_cycle_check_sees_a_cycle() {
    // two files that import each other, as the check reads them
    let files = vec![
        SourceFile {
            rel: "a.rs".into(),
            module: vec!["a".into()],
            text: "use crate::b::{Thing, other::{X}};\nfn f() {}".into(),
        },
        SourceFile {
            rel: "b.rs".into(),
            module: vec!["b".into()],
            text: "// crate::a is named in a comment only\nfn g() { super::a::f() }".into(),
        },
        SourceFile {
            rel: "c.rs".into(),
            module: vec!["c".into()],
            text: "const S: &str = \"crate::a::f\";\nuse crate::b::Thing;".into(),
        },
    ];
    let graph = import_graph(&files);
    assert_eq!(
        cycles(&graph),
        vec![vec!["a.rs".to_string(), "b.rs".to_string()]]
    );
    assert_eq!(graph["c.rs"], BTreeSet::from(["b.rs".to_string()]));
}

#[test]
fn the_cycle_check_follows_reexports_and_child_paths() {
    // lib.rs only hands `Spec` on: a file using `crate::Spec` depends on spec.rs, not on
    // lib.rs; but lib.rs's own `LIST` names `task::SPEC`, so using `crate::LIST` from
    // task.rs's dependency closes a loop
    let file = |rel: &str, module: &[&str], text: &str| SourceFile {
        rel: rel.into(),
        module: module.iter().map(|m| m.to_string()).collect(),
        text: text.into(),
    };
    let files = vec![
        file(
            "lib.rs",
            &[],
            "mod spec;\nmod task;\npub use spec::Spec;\npub const LIST: &[Spec] = &[task::SPEC];",
        ),
        file(
            "spec.rs",
            &["spec"],
            "pub struct Spec;\nfn named() { let _ = crate::LIST; }",
        ),
        file(
            "task.rs",
            &["task"],
            "use crate::Spec;\npub const SPEC: Spec = Spec;",
        ),
    ];
    let graph = import_graph(&files);
    assert_eq!(graph["task.rs"], BTreeSet::from(["spec.rs".to_string()]));
    assert_eq!(graph["lib.rs"], BTreeSet::from(["task.rs".to_string()]));
    assert_eq!(cycles(&graph).len(), 1, "{graph:?}");
}

#[test]
fn the_cycle_check_sees_a_cycle_closed_by_a_reexport() {
    // results.rs takes `GateSettings` through gate.rs, which hands it on from
    // gate_settings.rs and itself imports baseline.rs, which imports results.rs
    let file = |rel: &str, text: &str| SourceFile {
        rel: rel.into(),
        module: vec![rel.trim_end_matches(".rs").to_string()],
        text: text.into(),
    };
    let mut files = vec![
        file("gate_settings.rs", "pub struct GateSettings;"),
        file(
            "gate.rs",
            "use crate::baseline::BaselineDiff;\npub use crate::gate_settings::GateSettings;",
        ),
        file(
            "baseline.rs",
            "use crate::results::Results;\npub struct BaselineDiff;",
        ),
        file(
            "results.rs",
            "pub struct Results { gate: Option<crate::gate::GateSettings> }",
        ),
    ];
    let graph = import_graph(&files);
    assert_eq!(
        graph["gate.rs"],
        BTreeSet::from(["baseline.rs".to_string(), "gate_settings.rs".to_string()])
    );
    assert_eq!(
        cycles(&graph),
        vec![vec![
            "baseline.rs".to_string(),
            "gate.rs".to_string(),
            "results.rs".to_string()
        ]]
    );
    // taken from where it is defined, the name closes no circle
    files[3].text =
        "pub struct Results { gate: Option<crate::gate_settings::GateSettings> }".into();
    assert!(cycles(&import_graph(&files)).is_empty());
}

#[test]
fn no_source_file_is_over_700_lines_before_its_tests() {
    let mut long = Vec::new();
    for src in CRATE_SOURCES {
        for f in crate_files(src) {
            let lines = non_test(&f.text).lines().count();
            if lines > MAX_LINES {
                long.push(format!("{} ({lines} lines)", f.rel));
            }
        }
    }
    assert!(long.is_empty(), "files over {MAX_LINES} lines: {long:?}");
}

/// The section of ARCHITECTURE.md about one crate: from the heading that names its
/// directory (`### \`engine/\``) to the next heading of that level or above.
fn code_map_section<'a>(map: &'a str, crate_dir: &str) -> Option<&'a str> {
    let heading = format!("### `{crate_dir}/`");
    let start = map.find(&heading)?;
    let rest = &map[start + heading.len()..];
    let end = ["\n### ", "\n## "]
        .iter()
        .filter_map(|h| rest.find(h))
        .min()
        .unwrap_or(rest.len());
    Some(&rest[..end])
}

#[test]
fn the_code_map_names_every_source_file_in_its_crate_section() {
    let map = std::fs::read_to_string(common::repo_root().join("ARCHITECTURE.md")).unwrap();
    let mut missing = Vec::new();
    for src in CRATE_SOURCES {
        let crate_dir = src.trim_end_matches("/src");
        let Some(section) = code_map_section(&map, crate_dir) else {
            missing.push(format!("no section `### \\`{crate_dir}/\\`` for {src}"));
            continue;
        };
        for f in crate_files(src) {
            let rel = f.rel.trim_start_matches(&format!("{src}/")).to_string();
            // a module's tests kept beside it are its tests, not a module of their own
            if rel == "tests.rs" || rel.ends_with("/tests.rs") {
                continue;
            }
            if !section.contains(&format!("`{rel}`")) {
                missing.push(f.rel.clone());
            }
        }
    }
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md does not name these source files (as `path/in/src.rs` in the crate's section):\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_source_file_the_docs_name_exists() {
    // a path ending in .rs, in backticks, in ARCHITECTURE.md, docs/*.md or benches/RESULTS.md:
    // it must exist,
    // either from the repository root or under one crate's src
    let root = common::repo_root();
    let mut docs = vec![
        root.join("ARCHITECTURE.md"),
        root.join("benches/RESULTS.md"),
    ];
    for e in std::fs::read_dir(root.join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            docs.push(p);
        }
    }
    let mut gone = Vec::new();
    for doc in docs {
        let text = std::fs::read_to_string(&doc).unwrap();
        for (i, quoted) in text.split('`').enumerate() {
            if i % 2 == 0
                || !quoted.ends_with(".rs")
                || quoted.contains(' ')
                || quoted.contains('*')
            {
                continue;
            }
            for piece in expand_braces(quoted) {
                // a path's tail (`walk.rs`, `ask/plan.rs` in a row about its directory) is
                // read as any source file whose path ends so
                let tail = CRATE_SOURCES.iter().any(|src| {
                    crate_files(src)
                        .iter()
                        .any(|f| f.rel.ends_with(&format!("/{piece}")))
                });
                let exists = tail
                    || root.join(&piece).exists()
                    || [
                        "harness/cli/tests",
                        "engine/tests",
                        "benches/benches",
                        "benches/examples",
                    ]
                    .iter()
                    .any(|dir| root.join(dir).join(&piece).exists());
                if !exists {
                    gone.push(format!("{}: `{piece}`", doc.display()));
                }
            }
        }
    }
    assert!(
        gone.is_empty(),
        "the docs name files that do not exist:\n{}",
        gone.join("\n")
    );
}

/// `a/{b,c}.rs` -> `a/b.rs`, `a/c.rs` (one brace group).
fn expand_braces(path: &str) -> Vec<String> {
    match (path.find('{'), path.find('}')) {
        (Some(open), Some(close)) if open < close => path[open + 1..close]
            .split(',')
            .map(|alt| format!("{}{alt}{}", &path[..open], &path[close + 1..]))
            .collect(),
        _ => vec![path.to_string()],
    }
}

/// README.md, ARCHITECTURE.md and `docs/*.md`: the pages that describe the software (as
/// `(name, text)`). Measured figures, with their dates, live in `benches/RESULTS.md` alone.
fn descriptive_docs() -> Vec<(String, String)> {
    let root = common::repo_root();
    let mut paths = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    paths.extend(docs);
    paths
        .into_iter()
        .map(|p| {
            let name = p.strip_prefix(&root).unwrap().display().to_string();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// Whether a line holds a date written `YYYY-MM-DD` (digits, not inside a longer word).
fn holds_a_date(line: &str) -> bool {
    let b = line.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    (0..b.len().saturating_sub(9)).any(|i| {
        let s = &b[i..i + 10];
        let shape = s.iter().enumerate().all(|(k, &c)| match k {
            4 | 7 => c == b'-',
            _ => c.is_ascii_digit(),
        });
        shape
            && s.starts_with(b"20")
            && (i == 0 || !word(b[i - 1]))
            && b.get(i + 10).is_none_or(|&c| !word(c))
    })
}

/// Whether a line tells the history of the work (an ordinal or "this" or "last" before the
/// word session, or "session of" and a year)
/// rather than what the software does.
fn narrates_history(line: &str) -> bool {
    const WHICH: &str = "first second third fourth fifth sixth seventh eighth ninth tenth \
        eleventh twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth \
        nineteenth twentieth this last next previous";
    let l = line.to_lowercase();
    l.contains("session of 20")
        || l.contains("sessions of 20")
        || WHICH.split_whitespace().any(|w| {
            [" session", " sessions"].iter().any(|s| {
                let phrase = format!("{w}{s}");
                l.match_indices(&phrase).any(|(at, _)| {
                    let before = l[..at].chars().next_back();
                    let after = l[at + phrase.len()..].chars().next();
                    !before.is_some_and(char::is_alphanumeric)
                        && !after.is_some_and(char::is_alphanumeric)
                })
            })
        })
}

/// Lines of the descriptive docs that date a figure or narrate the work's history.
fn history_lines(docs: &[(String, String)]) -> Vec<String> {
    let mut found = Vec::new();
    for (name, text) in docs {
        for (i, line) in text.lines().enumerate() {
            if holds_a_date(line) || narrates_history(line) {
                found.push(format!("{name}:{}: {line}", i + 1));
            }
        }
    }
    found
}

#[test]
fn the_docs_describe_the_software_and_leave_dated_figures_to_the_results() {
    let docs = descriptive_docs();
    let found = history_lines(&docs);
    assert!(
        found.is_empty(),
        "dated or history lines in the docs (measured figures go to benches/RESULTS.md, \
         history to git):\n{}",
        found.join("\n")
    );
    let lines = |name: &str| {
        docs.iter()
            .find(|(n, _)| n == name)
            .map_or(0, |(_, t)| t.lines().count())
    };
    assert!(
        lines("docs/index.md") <= 400,
        "docs/index.md has {} lines (at most 400)",
        lines("docs/index.md")
    );
    let total: usize = docs.iter().map(|(_, t)| t.lines().count()).sum();
    assert!(
        total <= 4000,
        "README.md, ARCHITECTURE.md and docs/*.md hold {total} lines (at most 4,000)"
    );
    let results = std::fs::read_to_string(common::repo_root().join("benches/RESULTS.md"));
    assert!(
        results.is_ok(),
        "benches/RESULTS.md holds the measured figures"
    );
}

#[test]
fn the_history_check_sees_dates_and_sessions() {
    // the samples are put together here, so that this file holds no such line itself
    let session = "session";
    let docs = vec![(
        "x.md".to_string(),
        format!(
            "measured on 2026-11-29 at load 2\n\
             the seventeenth {session}'s figures\n\
             {} of 2026-11-26 (fifth).\n\
             an agent {session} log, findbench-YYYY-MM-DD.jsonl, build 2026-11-29T10:00\n\
             the {session}s ran in a work tree; v20261129-01\n",
            "Session"
        ),
    )];
    let found = history_lines(&docs);
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(found[0].starts_with("x.md:1:"));
    assert!(found[1].starts_with("x.md:2:"));
    assert!(found[2].starts_with("x.md:3:"));
}

/// Every command `benches/RESULTS.md`, the README and `docs/*.md` give to reproduce a
/// figure names a script of this repository that exists (`benches/peer_ask.sh 3 3`,
/// `python3 scripts/stats_reference.py`): a figure whose command is gone can no longer be
/// checked.
#[test]
fn every_script_the_results_and_docs_name_exists() {
    let root = common::repo_root();
    let mut pages = vec![root.join("benches/RESULTS.md"), root.join("README.md")];
    for e in std::fs::read_dir(root.join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            pages.push(p);
        }
    }
    let mut gone = Vec::new();
    let mut named = 0;
    for page in pages {
        let text = std::fs::read_to_string(&page).unwrap();
        for (i, quoted) in text.split('`').enumerate() {
            if i % 2 == 0 {
                continue;
            }
            for word in quoted.split_whitespace() {
                let script = word.trim_matches(|c: char| c == '(' || c == ')' || c == ';');
                let ours = script.starts_with("benches/") || script.starts_with("scripts/");
                if !(ours && (script.ends_with(".sh") || script.ends_with(".py"))) {
                    continue;
                }
                named += 1;
                if !root.join(script).is_file() {
                    gone.push(format!("{}: `{script}`", page.display()));
                }
            }
        }
    }
    assert!(
        named > 10,
        "only {named} scripts named: the check reads nothing"
    );
    assert!(
        gone.is_empty(),
        "commands name scripts that do not exist:\n{}",
        gone.join("\n")
    );
}
