//! Generated source trees and path lists for the code-retrieval benches: realistic
//! directory shapes, snake_case and CamelCase names, C++/Rust/Python files with a few
//! declarations each. Reproducible for a given seed.

use crate::Sequence;
use findbench_engine::{EngineError, PathList, Tree, TreeOptions};

const TOP: &[&str] = &[
    "src", "include", "lib", "tests", "tools", "docs", "vendor", "app",
];
const AREAS: &[&str] = &[
    "services",
    "engine",
    "telemetry",
    "cursor",
    "evidence",
    "config",
    "ui",
    "net",
    "storage",
    "auth",
    "replay",
    "diagnostics",
    "router",
    "cache",
    "index",
    "parser",
];
const NOUNS: &[&str] = &[
    "find",
    "replay",
    "checkpoint",
    "command",
    "cursor",
    "session",
    "trace",
    "token",
    "query",
    "result",
    "buffer",
    "socket",
    "index",
    "schema",
    "plan",
    "tool",
    "gate",
    "span",
    "cache",
];
const ROLES: &[&str] = &[
    "service", "router", "runner", "manager", "writer", "reader", "engine", "probe", "store",
    "handler", "builder", "client", "util", "types", "test",
];
const EXTS: &[&str] = &["cpp", "h", "rs", "py", "cpp", "h", "go", "ts", "md", "java"];

fn camel(words: &[&str]) -> String {
    words
        .iter()
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// `n` distinct relative paths, 2-5 directories deep.
pub fn paths(n: usize, seed: u64) -> Vec<String> {
    let mut seq = Sequence::new(seed);
    (0..n)
        .map(|i| {
            let mut p = String::from(seq.pick(TOP));
            for _ in 0..1 + seq.below(3) {
                p.push('/');
                p.push_str(seq.pick(AREAS));
            }
            let (noun, role) = (seq.pick(NOUNS), seq.pick(ROLES));
            let ext = seq.pick(EXTS);
            let stem = if ext == "java" || seq.below(5) == 0 {
                camel(&[noun, role])
            } else {
                format!("{noun}_{role}")
            };
            // a numeric suffix keeps paths distinct at any size
            format!("{p}/{stem}_{i}.{ext}")
        })
        .collect()
}

/// A path list of `n` generated paths.
pub fn path_list(n: usize, seed: u64) -> PathList {
    PathList::from_text("generated", &paths(n, seed).join("\n"))
}

/// Source text for a generated file: a few declarations in its language.
fn source(path: &str, seq: &mut Sequence) -> String {
    let (noun, role) = (seq.pick(NOUNS), seq.pick(ROLES));
    let ty = camel(&[noun, role]);
    let body = match path.rsplit('.').next().unwrap_or("") {
        "rs" => format!("pub struct {ty} {{\n    count: usize,\n}}\n\nimpl {ty} {{\n    pub fn {noun}_{role}(&self) -> usize {{\n        self.count\n    }}\n}}\n"),
        "py" => format!("class {ty}:\n    def {noun}(self, value):\n        return value\n\n\ndef make_{role}():\n    return {ty}()\n"),
        "go" => format!("package {noun}\n\ntype {ty} struct {{\n}}\n\nfunc New{ty}() *{ty} {{\n\treturn &{ty}{{}}\n}}\n"),
        "ts" => format!("export class {ty} {{\n  run(input: string): string {{\n    return input;\n  }}\n}}\n"),
        "java" => format!("package a.b;\n\npublic class {ty} {{\n    public int {noun}() {{\n        return 1;\n    }}\n}}\n"),
        "md" => format!("# {ty}\n\nHow the {noun} {role} works, and where the {noun} lives.\n"),
        _ => format!("#include <string>\n\nnamespace agent {{\n\nclass {ty} {{\npublic:\n    int {noun}(const std::string& s);\n}};\n\nint {ty}::{noun}(const std::string& s) {{\n    return static_cast<int>(s.size());\n}}\n\n}}  // namespace agent\n"),
    };
    body
}

/// A tree of `n` generated files with source text, indexed in memory.
pub fn tree(n: usize, seed: u64) -> Tree {
    let mut seq = Sequence::new(seed ^ 0x5eed);
    let paths = paths(n, seed);
    let texts: Vec<String> = paths.iter().map(|p| source(p, &mut seq)).collect();
    Tree::from_memory(
        "generated",
        paths
            .iter()
            .map(String::as_str)
            .zip(texts.iter().map(String::as_str)),
    )
}

/// The real tree at `root` walked and read into memory, without the kept index: what the
/// examples that time a pass over a tree's files (`dump_symbols`, `length_speed`,
/// `length_estimators`) measure on.
pub fn in_memory(root: &str) -> Result<Tree, EngineError> {
    let options = TreeOptions {
        no_cache: true,
        ..TreeOptions::default()
    };
    Tree::load(std::path::Path::new(root), &options)
}
