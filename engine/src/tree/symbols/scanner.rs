//! The state a scan carries from line to line (block comments, Python strings, `#define`
//! continuations, Go groups, the brace stack) and what every language's lines go through:
//! the code of a line without its comments, whether a declaration defines its symbol, and
//! the braces that open class bodies, namespaces and blocks.

use super::language::Language;
use super::lexical::skip_string;
use super::symbol::{Symbol, SymbolKind};
use crate::text::camel::snake;

/// What a brace opened: a class-like body (its direct lines are members), a namespace or
/// `extern "C"` block (its lines are top-level), or any other block (statements).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Scope {
    Class,
    Namespace,
    Block,
}

/// Go's grouped declarations: `type (`, `const (`, `var (`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct GoGroup {
    pub(super) kind: SymbolKind,
    /// Brace depth of the group's own lines.
    pub(super) depth: usize,
}

pub(super) struct Scanner<'a> {
    pub(super) language: Language,
    pub(super) text: &'a str,
    pub(super) out: Vec<Symbol>,
    pub(super) block_comment: bool,
    /// Inside a Python triple-quoted string: its delimiter.
    pub(super) py_string: Option<&'static str>,
    /// The previous line ended with `\` (a preprocessor line going on).
    pub(super) continued: bool,
    /// Open braces, innermost last (C, C++, TypeScript/JavaScript, Java, Go).
    pub(super) scopes: Vec<Scope>,
    /// A class-like declaration whose `{` is still to come (Allman style).
    pub(super) pending_scope: Option<Scope>,
    pub(super) go_group: Option<GoGroup>,
    /// A C `typedef struct|union|enum {` whose `} name;` is still to come.
    pub(super) typedef_open: bool,
    /// The previous code line was a bare return type (`static int` above `name(...)`).
    pub(super) prev_type_line: bool,
    /// A Rust test attribute stands above the next item.
    pub(super) test_attribute: bool,
    /// The previous C or C++ code line left a statement open (it ended with `,`, `(`,
    /// `)`, an operator): this line continues it and declares nothing of its own.
    pub(super) open_statement: bool,
}

/// What follows a declaration's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Follows {
    /// A body `{`: a definition.
    Body,
    /// `;` first: a declaration only.
    Semicolon,
    /// A `,` or nothing recognisable (an initialiser list, a call spread over lines).
    Other,
}

impl<'a> Scanner<'a> {
    /// The code of a line, trimmed: without a comment that opens it (a block comment's end
    /// included) or ends it; a block comment left open is remembered for the next lines.
    /// Quotes are followed, so `"**/*.rs"` opens no comment.
    pub(super) fn code_of(&mut self, line: &'a str) -> &'a str {
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

    pub(super) fn push(&mut self, kind: SymbolKind, name: &str, line: u32, definition: bool) {
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
    pub(super) fn defines(&self, kind: SymbolKind, end: usize) -> Option<bool> {
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
    pub(super) fn braces(&mut self, code: &str, scope: Scope, indented: bool) {
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

    pub(super) fn in_class(&self) -> bool {
        self.scopes.last() == Some(&Scope::Class)
    }

    /// Inside a function body or other block: statements, not declarations.
    pub(super) fn in_block(&self) -> bool {
        self.scopes.last() == Some(&Scope::Block)
    }
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
