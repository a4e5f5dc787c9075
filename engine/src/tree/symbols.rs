//! Symbol declarations of a source file, per language: what `find code` matches a term
//! against when the file name alone does not say enough.
//!
//! These are line-based recognisers, not parsers, run over the whole file: one declaration
//! per line, the kinds an agent asks for (types, functions, methods, modules, macros,
//! constants, typedefs). A little state follows the file: block comments and Python
//! docstrings are skipped, a `#define`'s continuation lines are not read as code, Go's
//! `type (...)` groups and interface bodies are entered, and a brace stack says when a line
//! stands directly in a class body (a member, not a statement). A declaration spread over
//! several lines is found by the line that holds its name; what follows the name (a body
//! `{`, or `;`) says whether it defines the symbol or only declares it.

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
    /// 1-based line number of the line that holds the name.
    pub line: u32,
    /// The line defines the symbol (a body, a value, a type's fields); false for a
    /// declaration only: a prototype, a forward declaration, a trait or interface method
    /// without a body, `mod name;`.
    pub definition: bool,
    /// A test function (Rust `#[test]`, `#[tokio::test]` on the lines above).
    pub test: bool,
}

/// Every declaration of `text`, in line order.
pub fn scan_file(language: Language, text: &str) -> Vec<Symbol> {
    let mut scanner = Scanner {
        language,
        text,
        out: Vec::new(),
        block_comment: false,
        py_string: None,
        continued: false,
        scopes: Vec::new(),
        pending_scope: None,
        go_group: None,
        typedef_open: false,
        prev_type_line: false,
        open_statement: false,
        test_attribute: false,
    };
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        scanner.line(line, offset, i as u32 + 1);
        offset += line.len();
    }
    scanner.out
}

/// What a brace opened: a class-like body (its direct lines are members), a namespace or
/// `extern "C"` block (its lines are top-level), or any other block (statements).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    Class,
    Namespace,
    Block,
}

/// Go's grouped declarations: `type (`, `const (`, `var (`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct GoGroup {
    kind: SymbolKind,
    /// Brace depth of the group's own lines.
    depth: usize,
}

struct Scanner<'a> {
    language: Language,
    text: &'a str,
    out: Vec<Symbol>,
    block_comment: bool,
    /// Inside a Python triple-quoted string: its delimiter.
    py_string: Option<&'static str>,
    /// The previous line ended with `\` (a preprocessor line going on).
    continued: bool,
    /// Open braces, innermost last (C, C++, TypeScript/JavaScript, Java, Go).
    scopes: Vec<Scope>,
    /// A class-like declaration whose `{` is still to come (Allman style).
    pending_scope: Option<Scope>,
    go_group: Option<GoGroup>,
    /// A C `typedef struct|union|enum {` whose `} name;` is still to come.
    typedef_open: bool,
    /// The previous code line was a bare return type (`static int` above `name(...)`).
    prev_type_line: bool,
    /// A Rust test attribute stands above the next item.
    test_attribute: bool,
    /// The previous C or C++ code line left a statement open (it ended with `,`, `(`,
    /// `)`, an operator): this line continues it and declares nothing of its own.
    open_statement: bool,
}

/// What follows a declaration's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Follows {
    /// A body `{`: a definition.
    Body,
    /// `;` first: a declaration only.
    Semicolon,
    /// A `,` or nothing recognisable (an initialiser list, a call spread over lines).
    Other,
}

impl<'a> Scanner<'a> {
    fn line(&mut self, raw: &'a str, offset: usize, number: u32) {
        let line = raw.trim_end_matches(['\n', '\r']);
        if self.language == Language::Python {
            return self.python_line(line, number);
        }
        let was_continued = self.continued;
        self.continued = line.trim_end().ends_with('\\');
        let code = self.code_of(line);
        if was_continued || code.is_empty() || code.starts_with("//") {
            return;
        }
        let indented = line.starts_with([' ', '\t']);
        if self.language == Language::Rust {
            if let Some(attr) = code.strip_prefix("#[") {
                let path = attr.split(['(', ']']).next().unwrap_or("");
                self.test_attribute |= path == "test" || path.ends_with("::test");
                if code.ends_with(']') {
                    return;
                }
            }
        }
        let found = match self.language {
            Language::C | Language::Cpp => self.c_family(code, indented),
            Language::Rust => rust(code),
            Language::Go => self.go(code, line),
            Language::TypeScript | Language::JavaScript => self.script(code, indented),
            Language::Java => self.java(code),
            Language::Python => None,
        };
        let declared_class = matches!(
            found,
            Some((
                SymbolKind::Class
                    | SymbolKind::Struct
                    | SymbolKind::Union
                    | SymbolKind::Interface
                    | SymbolKind::Record
                    | SymbolKind::Enum
                    | SymbolKind::Trait,
                _
            ))
        );
        let declared_namespace = matches!(found, Some((SymbolKind::Namespace, _)))
            || code.starts_with("namespace")
            || code.starts_with("inline namespace")
            || code.starts_with("extern \"C")
            || (self.language == Language::Go && code.starts_with("type ("));
        if let Some((kind, name)) = found {
            if !name.starts_with('$') {
                let at = offset + (name.as_ptr() as usize - raw.as_ptr() as usize);
                let definition = self.defines(kind, at + name.len());
                if let Some(definition) = definition {
                    self.push(kind, name, number, definition);
                }
            }
        }
        if matches!(self.language, Language::C | Language::Cpp) {
            self.open_statement =
                !code.starts_with('#') && code.ends_with([',', '(', ')', '=', '|', '&', '+', '?']);
        }
        if self.language != Language::Rust {
            let scope = if declared_class {
                Scope::Class
            } else if declared_namespace {
                Scope::Namespace
            } else {
                Scope::Block
            };
            self.braces(code, scope, indented);
        }
    }

    /// The code of a line, trimmed: without a comment that opens it (a block comment's end
    /// included) or ends it; a block comment left open is remembered for the next lines.
    /// Quotes are followed, so `"**/*.rs"` opens no comment.
    fn code_of(&mut self, line: &'a str) -> &'a str {
        let bytes = line.as_bytes();
        let mut start = 0;
        if self.block_comment {
            match line.find("*/") {
                Some(end) => {
                    self.block_comment = false;
                    start = end + 2;
                }
                None => return "",
            }
        }
        let script = self.language.is_script();
        let mut end = bytes.len();
        let mut i = start;
        while i < bytes.len() {
            match bytes[i] {
                b'"' | b'`' => i = skip_string(bytes, i),
                b'\'' if script || self.language == Language::Java => i = skip_string(bytes, i),
                // a character literal (`'"'`, `'\''`); a Rust lifetime is no quote
                b'\'' if bytes.get(i + 2) == Some(&b'\'') => i += 2,
                b'\'' if bytes.get(i + 1) == Some(&b'\\') => {
                    i = bytes[i + 2..]
                        .iter()
                        .position(|&c| c == b'\'')
                        .map_or(bytes.len(), |p| i + 2 + p);
                }
                b'/' if bytes.get(i + 1) == Some(&b'/') => {
                    end = end.min(i);
                    break;
                }
                b'/' if bytes.get(i + 1) == Some(&b'*') => match line[i + 2..].find("*/") {
                    Some(close) if line[start..i].trim().is_empty() => {
                        // a comment before the code: the code starts after it
                        start = i + 2 + close + 2;
                        i = start;
                        continue;
                    }
                    Some(close) => {
                        end = end.min(i);
                        i += 2 + close + 2;
                        continue;
                    }
                    None => {
                        self.block_comment = true;
                        end = end.min(i);
                        break;
                    }
                },
                _ => {}
            }
            i += 1;
        }
        line[start..end.max(start)].trim()
    }

    fn push(&mut self, kind: SymbolKind, name: &str, line: u32, definition: bool) {
        let last = if name.contains(':') {
            name.rsplit("::").next().unwrap_or(name)
        } else {
            name
        };
        let test = std::mem::take(&mut self.test_attribute);
        self.out.push(Symbol {
            kind,
            snake: snake(last),
            name: name.to_string(),
            line,
            definition,
            test,
        });
    }

    /// Whether the declaration whose name ends at `end` defines the symbol; `None` when it
    /// is no declaration after all.
    fn defines(&self, kind: SymbolKind, end: usize) -> Option<bool> {
        // Rust and script generics (`<OP, R>`) put commas outside parentheses
        let comma_ends = !matches!(
            self.language,
            Language::Rust | Language::TypeScript | Language::JavaScript
        );
        let follows = || follows(self.text.as_bytes(), end, comma_ends);
        Some(match (self.language, kind) {
            (Language::Python, _) | (_, SymbolKind::Macro | SymbolKind::Record) => true,
            (Language::Rust, SymbolKind::Module) => follows() == Follows::Body,
            (Language::Rust, SymbolKind::Type | SymbolKind::Const) => {
                // an associated `type Item;` or `const N: usize;` of a trait declares
                !self.text[end..]
                    .split(['\n', ';'])
                    .next()
                    .is_some_and(|rest| {
                        self.text.as_bytes().get(end + rest.len()) == Some(&b';')
                            && !rest.contains('=')
                    })
            }
            (Language::Rust, SymbolKind::Function | SymbolKind::Method) => {
                follows() == Follows::Body
            }
            (_, SymbolKind::Function | SymbolKind::Method) => match follows() {
                Follows::Body => true,
                Follows::Semicolon => false,
                // Go interface methods and arrow functions have no `{` or `;`
                Follows::Other if matches!(self.language, Language::Go) => {
                    kind == SymbolKind::Function || self.scopes.last() != Some(&Scope::Class)
                }
                Follows::Other if self.language.is_script() => true,
                Follows::Other => return None,
            },
            (
                Language::C | Language::Cpp | Language::Java | Language::TypeScript,
                SymbolKind::Class | SymbolKind::Struct | SymbolKind::Union | SymbolKind::Enum,
            ) => follows() != Follows::Semicolon,
            _ => true,
        })
    }

    /// Counts the braces of a code line, opening `scope` for the first one a declaration
    /// opened, and [`Scope::Block`] for the others.
    fn braces(&mut self, code: &str, scope: Scope, indented: bool) {
        let bytes = code.as_bytes();
        let mut opened_first = false;
        let mut i = 0;
        if let Some(pending) = self.pending_scope.take() {
            if code.starts_with('{') {
                self.scopes.push(pending);
                opened_first = true;
                i = 1;
            }
        }
        let mut any_brace = false;
        while i < bytes.len() {
            match bytes[i] {
                b'"' | b'\'' | b'`' => i = skip_string(bytes, i),
                b'/' if bytes.get(i + 1) == Some(&b'/') => break,
                b'{' => {
                    any_brace = true;
                    self.scopes
                        .push(if opened_first { Scope::Block } else { scope });
                    opened_first = true;
                }
                b'}' => {
                    any_brace = true;
                    // a `}` at column 0 closes a top-level body: recover from unbalanced
                    // braces under `#if`/`#else`
                    if !indented && i == 0 && self.language != Language::Go {
                        while self.scopes.len() > 1 && self.scopes.last() != Some(&Scope::Namespace)
                        {
                            self.scopes.pop();
                        }
                    }
                    self.scopes.pop();
                }
                _ => {}
            }
            i += 1;
        }
        if !any_brace && scope == Scope::Class && !code.ends_with(';') {
            self.pending_scope = Some(Scope::Class);
        }
    }

    fn in_class(&self) -> bool {
        self.scopes.last() == Some(&Scope::Class)
    }

    /// Inside a function body or other block: statements, not declarations.
    fn in_block(&self) -> bool {
        self.scopes.last() == Some(&Scope::Block)
    }

    fn python_line(&mut self, line: &'a str, number: u32) {
        let s = line.trim_start();
        let inside = self.py_string.is_some();
        self.py_string = python_string_after(line, self.py_string);
        if inside || s.is_empty() || s.starts_with('#') {
            return;
        }
        let indented = s.len() != line.len();
        let s = strip_words(s, &["async"]);
        let found = if let Some(name) = declared_after(s, "def") {
            let kind = if indented {
                SymbolKind::Method
            } else {
                SymbolKind::Function
            };
            let after = strip_word(s, "def").unwrap_or(s)[name.len()..].trim_start();
            (after.starts_with('(') || after.starts_with('[')).then_some((kind, name))
        } else if let Some(name) = declared_after(s, "class") {
            let after = strip_word(s, "class").unwrap_or(s)[name.len()..].trim_start();
            (after.starts_with(['(', ':', '['])).then_some((SymbolKind::Class, name))
        } else {
            None
        };
        if let Some((kind, name)) = found {
            self.push(kind, name, number, true);
        }
    }

    fn c_family(&mut self, s: &'a str, indented: bool) -> Option<(SymbolKind, &'a str)> {
        let prev_type_line = std::mem::replace(&mut self.prev_type_line, false);
        if self.open_statement && !prev_type_line {
            return None;
        }
        if let Some(rest) = s.strip_prefix('#') {
            return declared_after(rest.trim_start(), "define").map(|n| (SymbolKind::Macro, n));
        }
        if self.typedef_open && s.starts_with('}') && !indented {
            self.typedef_open = false;
            let rest = s[1..].trim_start();
            let rest = strip_attributes(rest);
            let name = leading_ident(rest)?;
            return Some((SymbolKind::Type, name));
        }
        if indented && self.in_block() {
            return None;
        }
        let s = strip_template(s)?;
        if s.starts_with("using namespace") {
            return None;
        }
        let mut s = strip_attributes(s);
        let mut typedef = false;
        loop {
            let before = s;
            s = strip_words(
                s,
                &[
                    "export",
                    "extern",
                    "static",
                    "inline",
                    "constexpr",
                    "consteval",
                    "constinit",
                    "\"C\"",
                    "\"C++\"",
                    "__extension__",
                ],
            );
            if let Some(rest) = strip_word(s, "typedef") {
                typedef = true;
                s = rest;
            }
            s = strip_attributes(s);
            if s == before {
                break;
            }
        }
        for (word, kind) in [
            ("class", SymbolKind::Class),
            ("struct", SymbolKind::Struct),
            ("union", SymbolKind::Union),
            ("namespace", SymbolKind::Namespace),
            ("enum", SymbolKind::Enum),
        ] {
            let Some(rest) = strip_word(s, word).or_else(|| {
                // `struct{` and `enum{` with no name before the brace
                s.strip_prefix(word).filter(|r| r.starts_with('{'))
            }) else {
                continue;
            };
            let rest = strip_attributes(strip_words(rest, &["class", "struct"]));
            let name = leading_ident(rest);
            let after = name.map_or(rest, |n| rest[n.len()..].trim_start());
            let after = after.strip_prefix("final").map_or(after, str::trim_start);
            let opens = after.starts_with('{')
                || (after.starts_with(':') && !after.starts_with("::"))
                || after.is_empty();
            if typedef {
                if opens && !after.contains('}') {
                    self.typedef_open = true;
                } else if let Some(alias) = typedef_name(after) {
                    return Some((SymbolKind::Type, alias));
                }
                return name.filter(|_| opens).map(|n| (kind, n));
            }
            let name = name?;
            if opens || after.starts_with(';') {
                return Some((kind, name));
            }
            // `struct stat st;`, `struct node *next(...)`: a variable or a function
            break;
        }
        if typedef {
            return typedef_name(s).map(|n| (SymbolKind::Type, n));
        }
        if let Some(rest) = strip_word(s, "using") {
            let name = leading_ident(rest)?;
            return rest[name.len()..]
                .trim_start()
                .starts_with('=')
                .then_some((SymbolKind::Type, name));
        }
        let s = strip_words(s, &["virtual", "explicit", "friend", "const", "unsigned"]);
        let in_class = self.in_class();
        let name = match c_like_function(s, !in_class) {
            Some(name) => name,
            None if prev_type_line && !indented => c_like_function(s, false)?,
            None => {
                self.prev_type_line = !indented && is_type_line(s);
                return None;
            }
        };
        let kind = if name.contains("::") || in_class {
            SymbolKind::Method
        } else {
            SymbolKind::Function
        };
        Some((kind, name))
    }

    fn go(&mut self, s: &'a str, line: &str) -> Option<(SymbolKind, &'a str)> {
        let depth = self.scopes.len();
        if self.in_class() && line.starts_with([' ', '\t']) {
            // an interface's method set: `Read(p []byte) (n int, err error)`
            let name = leading_ident(s)?;
            return s[name.len()..]
                .starts_with('(')
                .then_some((SymbolKind::Method, name));
        }
        if let Some(group) = self.go_group {
            if s.starts_with(')') && depth <= group.depth {
                self.go_group = None;
                return None;
            }
            if depth == group.depth {
                let name = leading_ident(s)?;
                let after = s[name.len()..].trim_start();
                let kind = if group.kind != SymbolKind::Type {
                    group.kind
                } else if after.starts_with("struct") {
                    SymbolKind::Struct
                } else if after.starts_with("interface") {
                    SymbolKind::Interface
                } else {
                    SymbolKind::Type
                };
                return (!after.is_empty() || group.kind == SymbolKind::Const)
                    .then_some((kind, name));
            }
            return None;
        }
        if self.in_block() {
            return None;
        }
        if let Some(rest) = strip_word(s, "func") {
            if let Some(receiver) = rest.strip_prefix('(') {
                let after = receiver.split_once(')')?.1;
                return leading_ident(after).map(|n| (SymbolKind::Method, n));
            }
            return leading_ident(rest).map(|n| (SymbolKind::Function, n));
        }
        for (word, kind) in [
            ("type", SymbolKind::Type),
            ("const", SymbolKind::Const),
            ("var", SymbolKind::Const),
        ] {
            let Some(rest) = strip_word(s, word).or_else(|| s.strip_prefix(word)) else {
                continue;
            };
            if rest.starts_with('(') {
                self.go_group = Some(GoGroup { kind, depth });
                return None;
            }
            if word != "type" {
                return declared_after(s, word).map(|n| (kind, n));
            }
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
        None
    }

    fn script(&mut self, s: &'a str, indented: bool) -> Option<(SymbolKind, &'a str)> {
        if self.in_class() {
            return script_member(s);
        }
        if indented && self.in_block() {
            return None;
        }
        script(s)
    }

    fn java(&mut self, s: &'a str) -> Option<(SymbolKind, &'a str)> {
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
        let s = strip_template(s)?;
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
        if !self.in_class() {
            return None;
        }
        // a member: a method, or a constructor (no return type)
        c_like_function(s, false).map(|n| (SymbolKind::Method, n))
    }
}

impl Language {
    fn is_script(self) -> bool {
        matches!(self, Language::TypeScript | Language::JavaScript)
    }
}

/// The offset just past the string or character literal that starts at `at`, minus one
/// (the caller steps past the closing quote); a quote left open ends the line.
fn skip_string(bytes: &[u8], at: usize) -> usize {
    let quote = bytes[at];
    let mut i = at + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            c if c == quote => return i,
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// What follows a declaration's name at `from`: the first `{` or `;` outside parentheses
/// and brackets (strings and comments skipped), within a few lines.
fn follows(text: &[u8], from: usize, comma_ends: bool) -> Follows {
    const LOOKAHEAD: usize = 4096;
    let end = text.len().min(from + LOOKAHEAD);
    let mut depth = 0i32;
    let mut i = from;
    while i < end {
        match text[i] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b'"' => i = skip_string(text, i),
            b'/' if text.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &text[i..end]).map_or(end, |n| i + n);
            }
            b'/' if text.get(i + 1) == Some(&b'*') => {
                i = memchr::memmem::find(&text[i + 2..end], b"*/").map_or(end, |n| i + 2 + n + 1);
            }
            b'{' if depth <= 0 => return Follows::Body,
            b';' if depth <= 0 => return Follows::Semicolon,
            b',' if depth <= 0 && comma_ends => return Follows::Other,
            b'}' if depth <= 0 => return Follows::Other,
            _ => {}
        }
        i += 1;
    }
    Follows::Other
}

/// `s` without a leading `template <...>` (balanced); `None` when nothing follows it.
fn strip_template(s: &str) -> Option<&str> {
    let Some(rest) = s.strip_prefix("template") else {
        return Some(s);
    };
    let rest = rest.trim_start();
    if !rest.starts_with('<') {
        return Some(s);
    }
    let mut depth = 0;
    for (i, c) in rest.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => {
                depth -= 1;
                if depth == 0 {
                    let after = rest[i + 1..].trim_start();
                    return (!after.is_empty()).then_some(after);
                }
            }
            _ => {}
        }
    }
    None
}

/// `s` without leading attributes and export macros: `[[nodiscard]]`,
/// `__attribute__((x))`, `__declspec(dllexport)`, `alignas(8)`, and an ALL_CAPS macro with
/// arguments (`LIB_DEPRECATED("msg")`) before the declaration proper.
fn strip_attributes(mut s: &str) -> &str {
    loop {
        if let Some(rest) = s.strip_prefix("[[") {
            match rest.find("]]") {
                Some(end) => s = rest[end + 2..].trim_start(),
                None => return s,
            }
            continue;
        }
        let Some(word) = leading_ident(s) else {
            return s;
        };
        let rest = s[word.len()..].trim_start();
        let is_attribute = matches!(word, "__attribute__" | "__declspec" | "alignas")
            || (word.len() > 2
                && word.starts_with(|c: char| c.is_ascii_uppercase() || c == '_')
                && word
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'));
        if !is_attribute || !rest.starts_with('(') {
            return s;
        }
        // the macro's balanced arguments, then something that can be declared
        let mut depth = 0;
        let mut close = None;
        for (i, c) in rest.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(close) = close else {
            return s;
        };
        let after = rest[close + 1..].trim_start();
        if leading_ident(after).is_none() && !after.starts_with("[[") {
            return s;
        }
        s = after;
    }
}

/// The triple-quoted string a Python line leaves open (`Some(delimiter)`), given the one
/// it starts in: quotes are followed left to right, so `'''` inside `"..."` opens nothing.
fn python_string_after(line: &str, mut open: Option<&'static str>) -> Option<&'static str> {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if let Some(delim) = open {
            match line[i..].find(delim) {
                Some(at) => {
                    i += at + 3;
                    open = None;
                    continue;
                }
                None => return open,
            }
        }
        match bytes[i] {
            b'#' => return None,
            b'"' | b'\'' => {
                let triple = if bytes[i] == b'"' { "\"\"\"" } else { "'''" };
                if line[i..].starts_with(triple) {
                    open = Some(triple);
                    i += 3;
                    continue;
                }
                i = skip_string(bytes, i);
            }
            _ => {}
        }
        i += 1;
    }
    open
}

/// The name a `typedef` gives: `(*name)` of a function pointer, else the last identifier
/// before the closing `;` (and any array bounds).
fn typedef_name(s: &str) -> Option<&str> {
    // a function pointer: `(*name)`, `(APIENTRYP name)`: the last word of the first group
    if let Some((_, rest)) = s.split_once('(') {
        if let Some((group, after)) = rest.split_once(')') {
            if after.trim_start().starts_with('(') {
                let start = group
                    .rfind(|c: char| !is_ident_char(c))
                    .map_or(0, |i| i + 1);
                let name = &group[start..];
                return (!name.is_empty()).then_some(name);
            }
        }
    }
    let end = s.find(';')?;
    let head = s[..end].trim_end();
    let head = head.split('[').next()?.trim_end();
    let start = head.rfind(|c: char| !is_ident_char(c)).map_or(0, |i| i + 1);
    let name = &head[start..];
    (!name.is_empty() && start > 0 && !name.starts_with(|c: char| c.is_ascii_digit()))
        .then_some(name)
}

/// A line that is only a return type (`static int`, `struct node *`), as GNU style writes
/// above a function's name.
fn is_type_line(s: &str) -> bool {
    !s.is_empty()
        && !s.contains(['(', ')', ';', '{', '}', '=', '#', ',', '"', '<', ':'])
        && s.ends_with(|c: char| is_ident_char(c) || c == '*')
        && s.split_whitespace().count() <= 4
        && !STATEMENT_WORDS.contains(&leading_ident(s).unwrap_or(""))
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
    "defined",
];

/// Where the qualified name that ends `head` starts: letters, digits, `_`, `::`, a
/// leading `~`, and the template arguments of a qualifier (`Cache<T>::lookup`).
fn name_start(head: &str) -> usize {
    let bytes = head.as_bytes();
    let mut i = bytes.len();
    loop {
        while i > 0
            && (bytes[i - 1].is_ascii_alphanumeric()
                || matches!(bytes[i - 1], b'_' | b'$' | b':' | b'~')
                || bytes[i - 1] >= 0x80)
        {
            i -= 1;
        }
        if !(i > 0 && bytes[i - 1] == b'>' && head[i..].starts_with("::")) {
            return i;
        }
        let mut depth = 0;
        let mut j = i;
        while j > 0 {
            j -= 1;
            match bytes[j] {
                b'>' => depth += 1,
                b'<' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
        }
        if depth != 0 {
            return i;
        }
        i = j;
    }
}

/// A C-like function declaration: `[type tokens] name(`, where the name may be qualified
/// (`Class::method`, `~Class`). Calls (`foo(x);`), assignments and control flow are not.
fn c_like_function(s: &str, needs_return_type: bool) -> Option<&str> {
    let open = s.find('(')?;
    let head = s[..open].trim_end();
    if head.is_empty()
        || head.contains(['=', ';', '"', '\'', ')', '{', '}', '!', '|', '?', ','])
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
    // the name is the last token: letters, digits, `_`, `::`, a leading `~`, and the
    // template arguments of a qualifier (`Cache<T>::lookup`)
    let start = name_start(head);
    let name = head[start..].trim_start_matches("::");
    let bare = name
        .rsplit("::")
        .next()
        .unwrap_or(name)
        .trim_start_matches('~');
    if bare.is_empty()
        || bare.starts_with(|c: char| c.is_ascii_digit())
        || STATEMENT_WORDS.contains(&bare)
    {
        return None;
    }
    let has_type = !head[..start].trim().is_empty();
    if needs_return_type && !has_type && !name.contains("::") {
        return None;
    }
    Some(name)
}

fn rust(s: &str) -> Option<(SymbolKind, &str)> {
    let mut s = s;
    // attributes on the declaration's line: `#[inline] pub fn f()`
    while let Some(rest) = s.strip_prefix("#[") {
        s = rest.split_once(']')?.1.trim_start();
    }
    if let Some(rest) = s.strip_prefix("macro_rules!") {
        return leading_ident(rest).map(|n| (SymbolKind::Macro, n));
    }
    if let Some(rest) = s.strip_prefix("pub(") {
        s = rest.split_once(')')?.1.trim_start();
    }
    let mut s = strip_words(s, &["pub", "default", "async", "unsafe", "auto"]);
    if let Some(rest) = strip_word(s, "extern") {
        // `extern "C" fn`, `extern "system" fn`
        s = match rest.strip_prefix('"') {
            Some(abi) => abi.split_once('"')?.1.trim_start(),
            None => rest,
        };
        s = strip_words(s, &["unsafe"]);
    }
    // `const fn` is a function, `const NAME` a constant
    let s = strip_word(s, "const")
        .filter(|r| r.starts_with("fn ") || r.starts_with("unsafe ") || r.starts_with("async "))
        .map_or(s, |r| strip_words(r, &["unsafe", "async"]));
    let s = strip_words(s, &["async", "unsafe"]);
    if let Some(rest) = strip_word(s, "static") {
        let rest = strip_words(rest, &["mut"]);
        return leading_ident(rest).map(|n| (SymbolKind::Const, n));
    }
    for (word, kind) in [
        ("fn", SymbolKind::Function),
        ("struct", SymbolKind::Struct),
        ("enum", SymbolKind::Enum),
        ("union", SymbolKind::Union),
        ("trait", SymbolKind::Trait),
        ("type", SymbolKind::Type),
        ("mod", SymbolKind::Module),
        ("const", SymbolKind::Const),
    ] {
        if let Some(name) = declared_after(s, word) {
            if name == "_" {
                return None;
            }
            return Some((kind, name.strip_prefix("r#").unwrap_or(name)));
        }
    }
    None
}

/// A top-level (or namespace-level) declaration of TypeScript or JavaScript.
fn script(s: &str) -> Option<(SymbolKind, &str)> {
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
            // a type annotation before the value: `const f: Handler = (req) => ...`
            let value = value.split_once('=').map(|(_, v)| v.trim_start())?;
            let is_function = value.starts_with("function")
                || value.starts_with("async")
                || (value.starts_with('(') && (value.contains("=>") || value.ends_with('(')))
                || value.split_once("=>").is_some_and(|(p, _)| {
                    leading_ident(p).is_some_and(|i| i.len() == p.trim().len())
                });
            if is_function {
                return Some((SymbolKind::Function, name));
            }
            return (word == "const").then_some((SymbolKind::Const, name));
        }
    }
    None
}

/// A member of a TypeScript or JavaScript class (or interface): `name(args) {`,
/// `static async name<T>(args): T {`, `name = (args) => {`, `name(args): T;`.
fn script_member(s: &str) -> Option<(SymbolKind, &str)> {
    let s = strip_words(
        s,
        &[
            "public",
            "private",
            "protected",
            "static",
            "readonly",
            "override",
            "abstract",
            "declare",
            "async",
            "get",
            "set",
        ],
    );
    let s = s.trim_start_matches(['*', '#']);
    let name = leading_ident(s)?;
    if STATEMENT_WORDS.contains(&name) || name == "constructor" {
        return None;
    }
    let after = s[name.len()..].trim_start();
    let after = after.strip_prefix('?').unwrap_or(after);
    let is_method = after.starts_with('(') || after.starts_with('<') || {
        // an arrow function assigned to a field
        after
            .strip_prefix('=')
            .filter(|v| !v.starts_with(['=', '>']))
            .is_some_and(|v| {
                let v = v.trim_start();
                v.starts_with("async") || (v.starts_with('(') && v.contains("=>"))
            })
    };
    is_method.then_some((SymbolKind::Method, name))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(language: Language, src: &str) -> Vec<(SymbolKind, String, u32)> {
        scan_file(language, src)
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
            (SymbolKind::Class, "Fwd"),
            (SymbolKind::Class, "ReplayService"),
            (SymbolKind::Method, "ReplayService"),
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
        assert_eq!(got[3].2, 5, "line numbers are 1-based");
        let defined: Vec<bool> = scan_file(Language::Cpp, src)
            .iter()
            .map(|s| s.definition)
            .collect();
        // the forward declaration and the members declared in the class body declare only
        assert_eq!(
            defined,
            [true, true, false, true, false, false, false, true, true, true, false, true]
        );
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
    fn the_whole_file_is_scanned() {
        let mut src = "\n".repeat(5000);
        src.push_str("class Late {};\n");
        let got = scan_file(Language::Cpp, &src);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].line, 5001);
    }

    #[test]
    fn block_comments_are_skipped() {
        let src = "/*\nclass Commented {};\n*/\nclass Real {};\n";
        assert_eq!(names(Language::Cpp, src), ["Real"]);
    }
}
