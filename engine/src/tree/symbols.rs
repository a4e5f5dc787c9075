//! Symbol declarations in the first lines of a source file, per language: what `find code`
//! matches a term against when the file name alone does not say enough.
//!
//! These are line-based recognisers, not parsers: one declaration per line, the kinds an
//! agent asks for (types, functions, methods, modules, macros, constants). A declaration
//! spread over several lines is found by its first line when that line holds the name.

use crate::text::camel::snake;
use serde::{Deserialize, Serialize};

/// Source languages whose declarations are scanned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    C,
    Cpp,
    Rust,
    Python,
    Go,
    TypeScript,
    JavaScript,
    Java,
}

impl Language {
    /// The language of a file by its (folded) extension.
    pub fn from_extension(ext: &str) -> Option<Language> {
        Some(match ext {
            "c" => Language::C,
            "h" | "hh" | "hpp" | "hxx" | "cc" | "cpp" | "cxx" | "c++" | "ipp" | "inl" => {
                Language::Cpp
            }
            "rs" => Language::Rust,
            "py" | "pyi" => Language::Python,
            "go" => Language::Go,
            "ts" | "tsx" | "mts" | "cts" => Language::TypeScript,
            "js" | "jsx" | "mjs" | "cjs" => Language::JavaScript,
            "java" => Language::Java,
            _ => return None,
        })
    }
}

/// What a declaration declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SymbolKind {
    Class,
    Struct,
    Enum,
    Union,
    Trait,
    Interface,
    Record,
    Type,
    Namespace,
    Module,
    Function,
    Method,
    Macro,
    Const,
}

/// How `find code` weighs a kind (see `CodeWeights`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolClass {
    Type,
    Function,
    Other,
}

impl SymbolKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SymbolKind::Class => "class",
            SymbolKind::Struct => "struct",
            SymbolKind::Enum => "enum",
            SymbolKind::Union => "union",
            SymbolKind::Trait => "trait",
            SymbolKind::Interface => "interface",
            SymbolKind::Record => "record",
            SymbolKind::Type => "type",
            SymbolKind::Namespace => "namespace",
            SymbolKind::Module => "module",
            SymbolKind::Function => "function",
            SymbolKind::Method => "method",
            SymbolKind::Macro => "macro",
            SymbolKind::Const => "const",
        }
    }

    pub fn class(self) -> SymbolClass {
        match self {
            SymbolKind::Class
            | SymbolKind::Struct
            | SymbolKind::Enum
            | SymbolKind::Union
            | SymbolKind::Trait
            | SymbolKind::Interface
            | SymbolKind::Record
            | SymbolKind::Type => SymbolClass::Type,
            SymbolKind::Function | SymbolKind::Method => SymbolClass::Function,
            SymbolKind::Namespace | SymbolKind::Module | SymbolKind::Macro | SymbolKind::Const => {
                SymbolClass::Other
            }
        }
    }
}

/// One declaration found in a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Symbol {
    pub kind: SymbolKind,
    /// The name as written, qualified when the source qualifies it (`ReplayService::replay`).
    pub name: String,
    /// The declared name's words joined by `_` (the last segment of a qualified name).
    pub snake: String,
    /// 1-based line number.
    pub line: u32,
}

/// Scans the first `max_lines` lines of `text` for declarations.
pub fn scan(language: Language, text: &str, max_lines: usize) -> Vec<Symbol> {
    let mut out = Vec::new();
    let mut in_block_comment = false;
    for (i, line) in text.lines().take(max_lines).enumerate() {
        let mut s = line.trim();
        if in_block_comment {
            match s.find("*/") {
                Some(end) => {
                    in_block_comment = false;
                    s = s[end + 2..].trim();
                }
                None => continue,
            }
        }
        if s.starts_with("/*") && !s.contains("*/") {
            in_block_comment = true;
            continue;
        }
        if s.is_empty() || s.starts_with("//") || s.starts_with('*') {
            continue;
        }
        let indented = line.starts_with([' ', '\t']);
        let found = match language {
            Language::C | Language::Cpp => c_family(s, indented),
            Language::Rust => rust(s),
            Language::Python => python(s, indented),
            Language::Go => go(s),
            Language::TypeScript | Language::JavaScript => script(s, indented),
            Language::Java => java(s),
        };
        if let Some((kind, name)) = found {
            let last = name.rsplit("::").next().unwrap_or(name);
            out.push(Symbol {
                kind,
                snake: snake(last),
                name: name.to_string(),
                line: (i + 1) as u32,
            });
        }
    }
    out
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// The identifier at the start of `s` (after whitespace), if any.
fn leading_ident(s: &str) -> Option<&str> {
    let s = s.trim_start();
    let end = s.find(|c: char| !is_ident_char(c)).unwrap_or(s.len());
    let ident = &s[..end];
    (!ident.is_empty() && !ident.starts_with(|c: char| c.is_ascii_digit())).then_some(ident)
}

/// `s` with `word` and following whitespace removed, when `s` starts with that whole word.
fn strip_word<'a>(s: &'a str, word: &str) -> Option<&'a str> {
    let rest = s.strip_prefix(word)?;
    if rest.starts_with(char::is_whitespace) {
        Some(rest.trim_start())
    } else {
        None
    }
}

/// Strips any number of the given leading words (modifiers).
fn strip_words<'a>(mut s: &'a str, words: &[&str]) -> &'a str {
    'outer: loop {
        for w in words {
            if let Some(rest) = strip_word(s, w) {
                s = rest;
                continue 'outer;
            }
        }
        return s;
    }
}

/// `keyword Name` at the start of `s`: the name.
fn declared_after<'a>(s: &'a str, keyword: &str) -> Option<&'a str> {
    leading_ident(strip_word(s, keyword)?)
}

/// Keywords that start a statement, never a declaration, in C-like languages.
const STATEMENT_WORDS: &[&str] = &[
    "return",
    "if",
    "else",
    "for",
    "while",
    "switch",
    "case",
    "do",
    "delete",
    "new",
    "throw",
    "goto",
    "sizeof",
    "catch",
    "try",
    "co_return",
    "co_await",
    "yield",
    "await",
    "assert",
];

/// A C-like function declaration: `[type tokens] name(`, where the name may be qualified
/// (`Class::method`, `~Class`). Calls (`foo(x);`), assignments and control flow are not.
fn c_like_function(s: &str, needs_return_type: bool) -> Option<&str> {
    let open = s.find('(')?;
    let head = s[..open].trim_end();
    if head.is_empty()
        || head.contains(['=', ';', '"', '\'', ')', '{', '}', '!', '|', '?'])
        || head.contains("<<")
        || head.contains("->")
        || head.contains('.')
    {
        return None;
    }
    let first = leading_ident(head)?;
    if STATEMENT_WORDS.contains(&first) {
        return None;
    }
    // the name is the last token: letters, digits, `_`, `::` and a leading `~`
    let start = head
        .rfind(|c: char| !(is_ident_char(c) || c == ':' || c == '~'))
        .map_or(0, |i| i + 1);
    let name = head[start..].trim_start_matches("::");
    let bare = name
        .rsplit("::")
        .next()
        .unwrap_or(name)
        .trim_start_matches('~');
    if bare.is_empty() || bare.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let has_type = !head[..start].trim().is_empty();
    if needs_return_type && !has_type && !name.contains("::") {
        return None;
    }
    Some(name)
}

fn c_family(s: &str, indented: bool) -> Option<(SymbolKind, &str)> {
    if let Some(rest) = s.strip_prefix('#') {
        return declared_after(rest.trim_start(), "define").map(|n| (SymbolKind::Macro, n));
    }
    if s.starts_with("template") || s.starts_with("using namespace") {
        return None;
    }
    let s = strip_words(
        s,
        &[
            "export",
            "extern",
            "static",
            "inline",
            "constexpr",
            "typedef",
        ],
    );
    for (word, kind) in [
        ("class", SymbolKind::Class),
        ("struct", SymbolKind::Struct),
        ("union", SymbolKind::Union),
        ("namespace", SymbolKind::Namespace),
        ("enum", SymbolKind::Enum),
    ] {
        if let Some(rest) = strip_word(s, word) {
            let rest = strip_words(rest, &["class", "struct"]);
            let name = leading_ident(rest)?;
            let after = rest[name.len()..].trim_start();
            // `class Foo;` is a forward declaration, `struct stat st;` a variable
            if after.starts_with(';') || after.chars().next().is_some_and(is_ident_char) {
                return None;
            }
            return Some((kind, name));
        }
    }
    if let Some(rest) = strip_word(s, "using") {
        let name = leading_ident(rest)?;
        return rest[name.len()..]
            .trim_start()
            .starts_with('=')
            .then_some((SymbolKind::Type, name));
    }
    let s = strip_words(s, &["virtual", "explicit", "friend", "const", "unsigned"]);
    let name = c_like_function(s, true)?;
    let kind = if name.contains("::") || indented {
        SymbolKind::Method
    } else {
        SymbolKind::Function
    };
    Some((kind, name))
}

fn rust(s: &str) -> Option<(SymbolKind, &str)> {
    if let Some(rest) = s.strip_prefix("macro_rules!") {
        return leading_ident(rest).map(|n| (SymbolKind::Macro, n));
    }
    let mut s = s;
    if let Some(rest) = s.strip_prefix("pub(") {
        s = rest.split_once(')')?.1.trim_start();
    }
    let s = strip_words(
        s,
        &[
            "pub", "default", "async", "unsafe", "extern", "\"C\"", "\"Rust\"",
        ],
    );
    // `const fn` is a function, `const NAME` a constant
    let s = strip_word(s, "const")
        .filter(|r| r.starts_with("fn ") || r.starts_with("unsafe "))
        .map_or(s, |r| strip_words(r, &["unsafe"]));
    for (word, kind) in [
        ("fn", SymbolKind::Function),
        ("struct", SymbolKind::Struct),
        ("enum", SymbolKind::Enum),
        ("union", SymbolKind::Union),
        ("trait", SymbolKind::Trait),
        ("type", SymbolKind::Type),
        ("mod", SymbolKind::Module),
        ("const", SymbolKind::Const),
        ("static", SymbolKind::Const),
    ] {
        if let Some(name) = declared_after(s, word) {
            let name = if word == "static" {
                declared_after(s, "static").and_then(|n| {
                    if n == "mut" {
                        declared_after(strip_word(s, "static")?, "mut")
                    } else {
                        Some(n)
                    }
                })?
            } else {
                name
            };
            return Some((kind, name));
        }
    }
    None
}

fn python(s: &str, indented: bool) -> Option<(SymbolKind, &str)> {
    let s = strip_words(s, &["async"]);
    if let Some(name) = declared_after(s, "def") {
        let kind = if indented {
            SymbolKind::Method
        } else {
            SymbolKind::Function
        };
        return Some((kind, name));
    }
    declared_after(s, "class").map(|n| (SymbolKind::Class, n))
}

fn go(s: &str) -> Option<(SymbolKind, &str)> {
    if let Some(rest) = strip_word(s, "func") {
        if let Some(receiver) = rest.strip_prefix('(') {
            let after = receiver.split_once(')')?.1;
            return leading_ident(after).map(|n| (SymbolKind::Method, n));
        }
        return leading_ident(rest).map(|n| (SymbolKind::Function, n));
    }
    if let Some(rest) = strip_word(s, "type") {
        let name = leading_ident(rest)?;
        let after = rest[name.len()..].trim_start();
        let after = after.strip_prefix('[').map_or(after, |g| {
            g.split_once(']').map_or(g, |(_, r)| r.trim_start())
        });
        let kind = if after.starts_with("struct") {
            SymbolKind::Struct
        } else if after.starts_with("interface") {
            SymbolKind::Interface
        } else {
            SymbolKind::Type
        };
        return Some((kind, name));
    }
    for word in ["const", "var"] {
        if let Some(name) = declared_after(s, word) {
            return Some((SymbolKind::Const, name));
        }
    }
    None
}

fn script(s: &str, indented: bool) -> Option<(SymbolKind, &str)> {
    let s = strip_words(s, &["export", "default", "declare", "abstract", "async"]);
    if let Some(rest) = s.strip_prefix("function") {
        let rest = rest.trim_start_matches('*');
        if rest.starts_with(|c: char| c.is_whitespace()) {
            return leading_ident(rest).map(|n| (SymbolKind::Function, n));
        }
    }
    for (word, kind) in [
        ("class", SymbolKind::Class),
        ("interface", SymbolKind::Interface),
        ("enum", SymbolKind::Enum),
        ("namespace", SymbolKind::Namespace),
        ("module", SymbolKind::Module),
        ("type", SymbolKind::Type),
    ] {
        if let Some(name) = declared_after(s, word) {
            return Some((kind, name));
        }
    }
    for word in ["const", "let", "var"] {
        if let Some(rest) = strip_word(s, word) {
            let name = leading_ident(rest)?;
            let value = rest[name.len()..].trim_start();
            let value = value.split_once('=').map(|(_, v)| v.trim_start())?;
            let is_function = value.starts_with("function")
                || value.starts_with("async")
                || (value.starts_with('(') && value.contains("=>"))
                || value.split_once("=>").is_some_and(|(p, _)| {
                    leading_ident(p).is_some_and(|i| i.len() == p.trim().len())
                });
            if is_function {
                return Some((SymbolKind::Function, name));
            }
            return (!indented && word == "const").then_some((SymbolKind::Const, name));
        }
    }
    if indented {
        // a class member: `name(args) {`, `static async name(args): T {`
        let s = strip_words(
            s,
            &[
                "public",
                "private",
                "protected",
                "static",
                "readonly",
                "override",
                "async",
                "get",
                "set",
            ],
        );
        let name = c_like_function(s, false)?;
        let after = &s[s.find('(')?..];
        if (after.trim_end().ends_with('{') || after.contains(") {") || after.contains("): "))
            && !name.contains("::")
        {
            return Some((SymbolKind::Method, name));
        }
    }
    None
}

const JAVA_MODIFIERS: &[&str] = &[
    "public",
    "private",
    "protected",
    "static",
    "final",
    "abstract",
    "sealed",
    "non-sealed",
    "synchronized",
    "native",
    "default",
    "strictfp",
];

fn java(s: &str) -> Option<(SymbolKind, &str)> {
    if s.starts_with("import ") || s.starts_with("package ") {
        return None;
    }
    let mut s = s;
    // annotations on the same line as the declaration: `@Override public void run() {`
    while let Some(rest) = s.strip_prefix('@') {
        if let Some(decl) = rest.strip_prefix("interface") {
            return leading_ident(decl).map(|n| (SymbolKind::Interface, n));
        }
        let name = leading_ident(rest)?;
        let mut r = &rest[name.len()..];
        if r.starts_with('(') {
            r = r.split_once(')')?.1;
        }
        s = r.trim_start();
    }
    let s = strip_words(s, JAVA_MODIFIERS);
    for (word, kind) in [
        ("class", SymbolKind::Class),
        ("interface", SymbolKind::Interface),
        ("enum", SymbolKind::Enum),
        ("record", SymbolKind::Record),
    ] {
        if let Some(name) = declared_after(s, word) {
            return Some((kind, name));
        }
    }
    c_like_function(s, true).map(|n| (SymbolKind::Method, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(language: Language, src: &str) -> Vec<(SymbolKind, String, u32)> {
        scan(language, src, 80)
            .into_iter()
            .map(|s| (s.kind, s.name, s.line))
            .collect()
    }

    fn names(language: Language, src: &str) -> Vec<String> {
        kinds(language, src).into_iter().map(|k| k.1).collect()
    }

    #[test]
    fn cpp_declarations() {
        let src = "#pragma once\n#define MAX_TOOLS 8\nnamespace agent {\nclass Fwd;\n\
                   class ReplayService : public Service {\n public:\n  explicit ReplayService(int n);\n\
                   \x20 void replay(const Trace& t);\n  int count() const;\n};\n\
                   struct FindCandidate {\n  int score;\n};\nenum class Outcome { Success };\n\
                   using TraceList = std::vector<Trace>;\n\
                   std::vector<FindCandidate> directory_aware_find(const std::string& term, bool impl);\n\
                   void ReplayService::replay(const Trace& t) {\n  if (t.ok()) {\n    run(t);\n  }\n\
                   \x20 return helper(t);\n}\n}\n";
        let got = kinds(Language::Cpp, src);
        let expected = [
            (SymbolKind::Macro, "MAX_TOOLS"),
            (SymbolKind::Namespace, "agent"),
            (SymbolKind::Class, "ReplayService"),
            (SymbolKind::Method, "replay"),
            (SymbolKind::Method, "count"),
            (SymbolKind::Struct, "FindCandidate"),
            (SymbolKind::Enum, "Outcome"),
            (SymbolKind::Type, "TraceList"),
            (SymbolKind::Function, "directory_aware_find"),
            (SymbolKind::Method, "ReplayService::replay"),
        ];
        let got_pairs: Vec<(SymbolKind, &str)> =
            got.iter().map(|(k, n, _)| (*k, n.as_str())).collect();
        assert_eq!(got_pairs, expected);
        assert_eq!(got[2].2, 5, "line numbers are 1-based");
    }

    #[test]
    fn c_statements_are_not_declarations() {
        let src = "int main(void) {\n  foo(1);\n  x = bar(2);\n  return baz(3);\n  if (a) {}\n  \
                   service.replay(t);\n  self->run(t);\n  \
                   printf(\"%d\", f(x));\n  struct stat st;\n}\n";
        assert_eq!(names(Language::C, src), ["main"]);
    }

    #[test]
    fn rust_declarations() {
        let src = "pub struct Engine {\n}\npub(crate) enum Mode { A }\ntrait Scorer {}\n\
                   pub async fn run_replay() {}\nconst fn limit() -> usize { 1 }\n\
                   pub const MAX: usize = 3;\nstatic mut COUNT: u32 = 0;\nmod tree;\n\
                   type Result<T> = std::result::Result<T, E>;\nmacro_rules! bail {}\nimpl Engine {\n    \
                   pub fn execute(&self) {}\n}\nlet x = 1;\n";
        let got = kinds(Language::Rust, src);
        let pairs: Vec<(SymbolKind, &str)> = got.iter().map(|(k, n, _)| (*k, n.as_str())).collect();
        assert_eq!(
            pairs,
            [
                (SymbolKind::Struct, "Engine"),
                (SymbolKind::Enum, "Mode"),
                (SymbolKind::Trait, "Scorer"),
                (SymbolKind::Function, "run_replay"),
                (SymbolKind::Function, "limit"),
                (SymbolKind::Const, "MAX"),
                (SymbolKind::Const, "COUNT"),
                (SymbolKind::Module, "tree"),
                (SymbolKind::Type, "Result"),
                (SymbolKind::Macro, "bail"),
                (SymbolKind::Function, "execute"),
            ]
        );
    }

    #[test]
    fn python_declarations() {
        let src = "import os\nclass AuthMiddleware(Base):\n    def __call__(self, req):\n        \
                   return handle(req)\n\nasync def replay_traces(path):\n    pass\n";
        let got = kinds(Language::Python, src);
        let pairs: Vec<(SymbolKind, &str)> = got.iter().map(|(k, n, _)| (*k, n.as_str())).collect();
        assert_eq!(
            pairs,
            [
                (SymbolKind::Class, "AuthMiddleware"),
                (SymbolKind::Method, "__call__"),
                (SymbolKind::Function, "replay_traces"),
            ]
        );
    }

    #[test]
    fn go_declarations() {
        let src = "package replay\n\ntype Service struct {\n}\ntype Runner interface {\n}\n\
                   type ID string\nfunc NewService() *Service {\n\treturn nil\n}\n\
                   func (s *Service) Replay(t Trace) error {\n}\nconst MaxIterations = 3\n";
        let got = kinds(Language::Go, src);
        let pairs: Vec<(SymbolKind, &str)> = got.iter().map(|(k, n, _)| (*k, n.as_str())).collect();
        assert_eq!(
            pairs,
            [
                (SymbolKind::Struct, "Service"),
                (SymbolKind::Interface, "Runner"),
                (SymbolKind::Type, "ID"),
                (SymbolKind::Function, "NewService"),
                (SymbolKind::Method, "Replay"),
                (SymbolKind::Const, "MaxIterations"),
            ]
        );
    }

    #[test]
    fn script_declarations() {
        let src = "import x from 'y';\nexport default class CommandRouter {\n  \
                   async route(cmd) {\n    if (cmd) {\n      return go(cmd);\n    }\n  }\n}\n\
                   export interface Candidate {}\nexport type Score = number;\n\
                   export async function findFiles(term) {}\nconst selectTool = (plan) => plan[0];\n\
                   const LIMIT = 10;\nenum Outcome { Success }\n";
        let got = kinds(Language::TypeScript, src);
        let pairs: Vec<(SymbolKind, &str)> = got.iter().map(|(k, n, _)| (*k, n.as_str())).collect();
        assert_eq!(
            pairs,
            [
                (SymbolKind::Class, "CommandRouter"),
                (SymbolKind::Method, "route"),
                (SymbolKind::Interface, "Candidate"),
                (SymbolKind::Type, "Score"),
                (SymbolKind::Function, "findFiles"),
                (SymbolKind::Function, "selectTool"),
                (SymbolKind::Const, "LIMIT"),
                (SymbolKind::Enum, "Outcome"),
            ]
        );
    }

    #[test]
    fn java_declarations() {
        let src = "package a.b;\nimport java.util.List;\n@Service\npublic final class CheckpointService {\n    \
                   private final int limit;\n    @Override public void run() {\n    }\n    \
                   public static List<String> listCheckpoints(String dir) {\n        \
                   return helper(dir);\n    }\n}\ninterface Store {}\nrecord Point(int x) {}\n";
        let got = kinds(Language::Java, src);
        let pairs: Vec<(SymbolKind, &str)> = got.iter().map(|(k, n, _)| (*k, n.as_str())).collect();
        assert_eq!(
            pairs,
            [
                (SymbolKind::Class, "CheckpointService"),
                (SymbolKind::Method, "run"),
                (SymbolKind::Method, "listCheckpoints"),
                (SymbolKind::Interface, "Store"),
                (SymbolKind::Record, "Point"),
            ]
        );
    }

    #[test]
    fn only_the_first_lines_are_scanned() {
        let mut src = "\n".repeat(80);
        src.push_str("class Late {};\n");
        assert!(scan(Language::Cpp, &src, 80).is_empty());
        assert_eq!(scan(Language::Cpp, &src, 81).len(), 1);
    }

    #[test]
    fn block_comments_are_skipped() {
        let src = "/*\nclass Commented {};\n*/\nclass Real {};\n";
        assert_eq!(names(Language::Cpp, src), ["Real"]);
    }
}
