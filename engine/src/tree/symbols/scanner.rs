//! The state a scan carries from line to line (block comments, strings that span lines, `#define`
//! continuations, Go groups, the brace stack) and what every language's lines go through:
//! the code of a line without its comments, whether a declaration defines its symbol, and
//! the braces that open class bodies, namespaces and blocks.

use super::body::{ends_in_body, Ends, Follows, LOOKAHEAD};
use super::language::{Bodies, Heredocs, Language, Neither, SingleQuote, TripleQuotes};
use super::lexical::{comment_end, nested_comment_end, regex_end, skip_string, trim};
use super::string_end::{
    cpp_raw_delimiter, heredoc_at, is_verbatim, raw_hashes, string_end, template_end, Close,
    Template,
};
use super::symbol::{Symbol, SymbolKind};
use crate::text::byte_set::ByteSet;
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
    /// How many block comments are open, in a language that nests them (Rust): the
    /// innermost closes first, the code resumes when the outermost does.
    pub(super) comment_depth: u32,
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
    /// Inside a string that spans lines (`"""`, `@"`, a backtick, a Rust or PHP quote, a
    /// raw string): how it closes.
    pub(super) open_string: Option<Close>,
    /// Inside a here-document (Ruby, shell): the line that ends it.
    pub(super) heredoc: Option<&'a str>,
    /// The recogniser found a declaration that does not define its symbol, whatever follows
    /// its name.
    pub(super) declares_only: bool,
    /// The line opened an object literal (`= {`, `({`, `return {`) whose members follow
    /// (TypeScript, JavaScript).
    pub(super) opens_object: bool,
    /// Which names to make a symbol of (`None`: every one); a name refused costs no
    /// string (`super::scan_file_keeping`).
    pub(super) keep: Option<&'a mut dyn FnMut(&str) -> bool>,
    /// The only lines (ascending) that may declare a name `keep` accepts, in a language
    /// that declares line by line (`super::scan_lines_keeping`).
    pub(super) lines: Option<&'a [u32]>,
    /// Lines of Rust that change nothing but [`Scanner::continued`] are not read further
    /// ([`Scanner::passes_over_quickly`]); off only where a test reads them all.
    pub(super) skims: bool,
    /// Where the text was last searched for a byte that may open a string or a comment,
    /// and where the first such byte from there is (the text's length when none is): the
    /// lines between hold none ([`Scanner::next_opener`]).
    pub(super) opener: Option<(usize, usize)>,
}

/// The word `typedef`, searched for in most lines of a C header a first call scans for a
/// key: one searcher for every line (`memmem::find` made one per line: with it, the
/// search took 2.3 % of the CPU of a cold `ask "find cursor binary"` on `/usr/include`).
static TYPEDEF: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"typedef"));

/// The bytes that may open a string or a comment in [`Scanner::code_of`].
const OPENS_STRING_OR_COMMENT: ByteSet = ByteSet::new(b"\"`'/@$");

/// The bytes [`Scanner::braces`] acts on: a brace, or what may open a string or a comment
/// (every other byte of a code line is passed over at once).
const BRACE_OR_OPENER: ByteSet = ByteSet::new(b"{}\"'`/");

impl<'a> Scanner<'a> {
    /// A scanner of `text` at its first line: every name `keep` accepts made a symbol (all
    /// without it), only `lines` read where the language declares line by line.
    pub(super) fn new(
        language: Language,
        text: &'a str,
        keep: Option<&'a mut dyn FnMut(&str) -> bool>,
        lines: Option<&'a [u32]>,
        skims: bool,
    ) -> Scanner<'a> {
        Scanner {
            language,
            text,
            out: Vec::new(),
            block_comment: false,
            comment_depth: 0,
            continued: false,
            scopes: Vec::new(),
            pending_scope: None,
            go_group: None,
            typedef_open: false,
            prev_type_line: false,
            open_statement: false,
            test_attribute: false,
            heredoc: None,
            open_string: None,
            opens_object: false,
            declares_only: false,
            keep,
            lines: lines.filter(|_| language.skims_lines()),
            skims,
            opener: None,
        }
    }

    /// How far past `i` the first byte of `line` at or after `i` that may open a string or
    /// a comment is. `line` is a slice of the scanned text: the text is searched on from
    /// there past the line's end, and the place found answers every line up to it (code is
    /// searched sixteen bytes at a compare, once, not line by line with a compare set up
    /// for each).
    fn next_opener(&mut self, line: &str, i: usize) -> Option<usize> {
        let base = self.text.as_ptr() as usize;
        let at = line.as_ptr() as usize;
        if at < base || at + line.len() > base + self.text.len() {
            // not a slice of the text (a test's line): searched alone
            return OPENS_STRING_OR_COMMENT.find(&line.as_bytes()[i..]);
        }
        let start = at - base;
        let from = start + i;
        let next = match self.opener {
            Some((searched, found)) if searched <= from && from <= found => found,
            _ => {
                let found = OPENS_STRING_OR_COMMENT
                    .find(&self.text.as_bytes()[from..])
                    .map_or(self.text.len(), |k| from + k);
                self.opener = Some((from, found));
                found
            }
        };
        (next < start + line.len()).then(|| next - from)
    }

    /// The code of a line, trimmed: without a comment that opens it (a block comment's end
    /// included) or ends it; a block comment left open is remembered for the next lines.
    /// Quotes are followed, so `"**/*.rs"` opens no comment.
    pub(super) fn code_of(&mut self, line: &'a str) -> &'a str {
        let bytes = line.as_bytes();
        let mut start = 0;
        let nested = self.language.spec().comments.nested;
        if self.block_comment {
            let close = if nested {
                self.nested_comment_end(bytes, 0)
            } else {
                comment_end(bytes).map(|end| end + 2)
            };
            match close {
                Some(end) => {
                    self.block_comment = false;
                    start = end;
                }
                None => return "",
            }
        }
        if let Some(delimiter) = self.open_string {
            match string_end(line, 0, delimiter) {
                Ok(end) => {
                    self.open_string = None;
                    start = end;
                }
                Err(open) => {
                    self.open_string = Some(open);
                    return "";
                }
            }
        }
        let single_quote = self.language.spec().strings.single_quote == SingleQuote::String;
        let script = self.language.spec().script;
        let mut end = bytes.len();
        let mut i = start;
        while i < bytes.len() {
            // only these bytes open a string or a comment: skip the rest at once (sixteen
            // bytes at a compare: the loop most of a scan's time goes to)
            match self.next_opener(line, i) {
                Some(k) => i += k,
                None => break,
            }
            if let Some((delimiter, opener)) = self.multiline_string_at(bytes, i) {
                match string_end(line, i + opener, delimiter) {
                    Ok(close) => {
                        i = close;
                        continue;
                    }
                    Err(open) => {
                        // the string goes on below: its lines are no code (nor is a
                        // comment before it, which cut the code already)
                        self.open_string = Some(open);
                        end = end.min(i);
                        break;
                    }
                }
            }
            match bytes[i] {
                b'"' | b'`' => i = skip_string(bytes, i),
                b'\'' if single_quote => i = skip_string(bytes, i),
                b'/' if script && regex_end(bytes, i).is_some() => {
                    i = regex_end(bytes, i).unwrap_or(i);
                }
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
                b'/' if bytes.get(i + 1) == Some(&b'*') => match self.block_comment_end(bytes, i) {
                    Some(close) if line[start..i].trim().is_empty() => {
                        // a comment before the code: the code starts after it
                        start = close;
                        i = start;
                        continue;
                    }
                    Some(close) => {
                        end = end.min(i);
                        i = close;
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
        let mut end = end.max(start);
        if self.language.spec().strings.heredocs == Heredocs::TripleAngle
            && self.open_string.is_none()
        {
            // `<<<EOT` ends its line: the lines below are the string's up to `EOT`
            if let Some((at, label)) = heredoc_at(&line[start..end]) {
                self.open_string = Some(Close::Heredoc(label));
                end = start + at;
            }
        }
        trim(&line[start..end])
    }

    /// How a string that may span lines opening at `i` closes, and how many bytes open
    /// it: `"""`, a verbatim `@"` or `$@"` (C#), a backtick (JavaScript and TypeScript
    /// templates, Go raw strings), a quote where quotes span lines (Rust, PHP), a Rust raw
    /// string (its `r` and `#`s, written before the `"` found here, already passed).
    fn multiline_string_at(&self, bytes: &[u8], i: usize) -> Option<(Close, usize)> {
        let strings = &self.language.spec().strings;
        match bytes[i] {
            b'"' if strings.triple_quotes != TripleQuotes::None
                && bytes[i..].starts_with(b"\"\"\"") =>
            {
                Some((Close::TripleQuotes, 3))
            }
            b'@' if strings.verbatim && bytes.get(i + 1) == Some(&b'"') => {
                Some((Close::Verbatim, 2))
            }
            b'$' | b'@'
                if strings.verbatim
                    && (bytes.get(i + 1) == Some(&b'@') || bytes.get(i + 1) == Some(&b'$')) =>
            {
                // `$@"` and `@$"`: an interpolated verbatim string
                (bytes.get(i + 2) == Some(&b'"')).then_some((Close::Verbatim, 3))
            }
            b'`' if strings.backtick_spans_lines && self.language.spec().script => {
                Some((Close::Template(Template::default()), 1))
            }
            b'`' if strings.backtick_spans_lines => Some((Close::Backtick, 1)),
            b'"' if strings.cpp_raw_strings => cpp_raw_delimiter(bytes, i)
                .map(|delimiter| (Close::CppRaw(delimiter), delimiter.byte_len() + 2)),
            b'"' if strings.raw_strings && raw_hashes(bytes, i).is_some() => {
                Some((Close::Raw(raw_hashes(bytes, i).unwrap_or(0)), 1))
            }
            b'"' if strings.quotes_span_lines => Some((Close::Quote(b'"'), 1)),
            b'\'' if strings.quotes_span_lines && strings.single_quote == SingleQuote::String => {
                Some((Close::Quote(b'\''), 1))
            }
            _ => None,
        }
    }

    /// Where the block comment opening at `at` (its `/*`) ends: the offset just past its
    /// `*/` (the outermost one's where comments nest); `None` when it goes on below, the
    /// comments left open remembered.
    fn block_comment_end(&mut self, bytes: &[u8], at: usize) -> Option<usize> {
        if self.language.spec().comments.nested {
            self.comment_depth = 1;
            self.nested_comment_end(bytes, at + 2)
        } else {
            comment_end(&bytes[at + 2..]).map(|close| at + 2 + close + 2)
        }
    }

    /// Where the open nested comments ([`Scanner::comment_depth`]) all close in `bytes`,
    /// read from `from` (`lexical::nested_comment_end`).
    fn nested_comment_end(&mut self, bytes: &[u8], from: usize) -> Option<usize> {
        nested_comment_end(bytes, from, &mut self.comment_depth)
    }

    /// Makes the symbol of a declaration, when the scan's caller keeps its name (the
    /// declaration spends the test attribute above it either way).
    pub(super) fn push(&mut self, kind: SymbolKind, name: &str, line: u32, definition: bool) {
        if self.keeps(name) {
            self.push_kept(kind, name, line, definition);
        } else {
            self.test_attribute = false;
        }
    }

    /// Whether line `number` may be passed over: it declares no name the caller keeps
    /// ([`Scanner::lines`]) and no test attribute waits for the item it may declare.
    pub(super) fn passes_over(&self, number: u32) -> bool {
        !self.test_attribute
            && self
                .lines
                .is_some_and(|lines| lines.binary_search(&number).is_err())
    }

    /// Whether a line of Rust that may be passed over ([`Scanner::passes_over`]) changes
    /// nothing but [`Scanner::continued`]: outside a block comment and a string, with no
    /// `/` to open a comment nor `"` to open a string, it is no test attribute (`#[`), and
    /// it declares nothing kept (Rust's lines change no other state: no braces are
    /// counted). Most of
    /// the lines of a file scanned for a common word are not read further. (Skimming every
    /// line that starts with no byte a declaration starts with was tried for whole and
    /// counting scans: no faster.)
    pub(super) fn passes_over_quickly(&self, line: &str, number: u32) -> bool {
        self.passes_over(number)
            && !self.block_comment
            && self.open_string.is_none()
            && memchr::memchr2(b'/', b'"', line.as_bytes()).is_none()
            && !super::lexical::trim_start(line).starts_with("#[")
    }

    /// Whether a line of C or C++ that declares no name the caller keeps
    /// ([`Scanner::passes_over`]) may skip its recogniser (`c_family`), whose only effect on
    /// the lines below is then to leave no return type standing above them
    /// (`prev_type_line`, cleared here): a preprocessor line, or one whose code opens no
    /// brace, ends with `;` or `}` (so it is no bare return type, and the kind of what it
    /// declares opens no scope: `braces` pushes no scope and leaves none pending), holds no
    /// `typedef` (which may leave a `typedef struct {` open) and closes no open one. Its
    /// comments, strings, braces and open statement are followed as any line's. Most lines
    /// of a C header scanned for a word are such lines.
    pub(super) fn passes_over_c_line(&self, code: &str, number: u32) -> bool {
        if !self.passes_over(number) {
            return false;
        }
        let bytes = code.as_bytes();
        bytes.first() == Some(&b'#')
            || (matches!(bytes.last(), Some(b';' | b'}'))
                && memchr::memchr(b'{', bytes).is_none()
                && !(self.typedef_open && bytes.first() == Some(&b'}'))
                && TYPEDEF.find(bytes).is_none())
    }

    /// Whether the scan's caller keeps `name` (every name, without a `keep`); asked once
    /// per declaration, as a caller may count the names it is asked about.
    pub(super) fn keeps(&mut self, name: &str) -> bool {
        self.keep.as_mut().is_none_or(|keep| keep(name))
    }

    /// Whether [`Scanner::defines`] may find that a `kind` declaration is none after all
    /// (a C, C++ or Java function whose name no body, `;` or `=` follows): only then must
    /// it look past the name before the caller is asked whether it keeps it.
    pub(super) fn may_unmake(&self, kind: SymbolKind) -> bool {
        matches!(
            self.language.spec().bodies,
            Bodies::Braces {
                neither: Neither::NoDeclaration,
                ..
            }
        ) && matches!(kind, SymbolKind::Function | SymbolKind::Method)
    }

    /// Makes the symbol of a declaration whose name the caller keeps.
    pub(super) fn push_kept(&mut self, kind: SymbolKind, name: &str, line: u32, definition: bool) {
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
        let spec = self.language.spec();
        let (comma_ends, forward_types, neither) = match spec.bodies {
            Bodies::Braces {
                comma_ends,
                forward_types,
                neither,
            } => (comma_ends, forward_types, Some(neither)),
            _ => (false, false, None),
        };
        let follows = || follows(self.text.as_bytes(), end, comma_ends);
        let text = self.text.as_bytes();
        let function = matches!(kind, SymbolKind::Function | SymbolKind::Method);
        Some(match (spec.bodies, kind) {
            (_, SymbolKind::Extension) => false,
            (Bodies::BodyOnItsLine, _) if function => {
                ends_in_body(text, end, Ends::AtNewline) == Follows::Body
            }
            (Bodies::BodyBeforeSemicolon, _) if function || kind == SymbolKind::Property => {
                ends_in_body(text, end, Ends::AtSemicolon) == Follows::Body
            }
            (Bodies::Always, _) | (_, SymbolKind::Macro | SymbolKind::Record) => true,
            (Bodies::Rust, SymbolKind::Module) => follows() == Follows::Body,
            (Bodies::Rust, SymbolKind::Type | SymbolKind::Const) => {
                // an associated `type Item;` or `const N: usize;` of a trait declares
                !self.text[end..]
                    .split(['\n', ';'])
                    .next()
                    .is_some_and(|rest| {
                        self.text.as_bytes().get(end + rest.len()) == Some(&b';')
                            && !rest.contains('=')
                    })
            }
            (Bodies::Rust, _) if function => follows() == Follows::Body,
            (Bodies::Braces { .. }, _) if function => match (follows(), neither) {
                (Follows::Body, _) => true,
                // an arrow function's expression ends at the `;`: `const f = (a) => a;`
                (Follows::Semicolon, _) => spec.script && assigned_here(text, end),
                // Go interface methods and arrow functions have no `{` or `;`
                (Follows::Other, Some(Neither::InterfaceMethod)) => {
                    kind == SymbolKind::Function || self.scopes.last() != Some(&Scope::Class)
                }
                (Follows::Other, Some(Neither::Defines)) => true,
                (Follows::Other, _) => {
                    // what lets a scan ask its caller first elsewhere (`Scanner::line`)
                    debug_assert!(self.may_unmake(kind), "{} {kind:?}", spec.name);
                    return None;
                }
            },
            (
                Bodies::Braces { .. },
                SymbolKind::Class | SymbolKind::Struct | SymbolKind::Union | SymbolKind::Enum,
            ) if forward_types => follows() != Follows::Semicolon,
            _ => true,
        })
    }

    /// Counts the braces of a code line, opening `scope` for the first one a declaration
    /// opened, and [`Scope::Block`] for the others.
    pub(super) fn braces(&mut self, code: &str, scope: Scope, indented: bool) {
        let bytes = code.as_bytes();
        let mut opened_first = false;
        let mut scope = scope;
        if let Some(pending) = self.pending_scope.take() {
            if !code.contains(['{', '}', ';']) {
                // the declaration's head goes on (`class Cache<\n  K,\n  V,\n> extends Base {`)
                self.pending_scope = Some(pending);
                return;
            }
            if scope == Scope::Block {
                scope = pending;
            }
        }
        let (verbatim, script) = {
            let spec = self.language.spec();
            (spec.strings.verbatim, spec.script)
        };
        let mut i = 0;
        let mut any_brace = false;
        while i < bytes.len() {
            match BRACE_OR_OPENER.find(&bytes[i..]) {
                Some(k) => i += k,
                None => break,
            }
            match bytes[i] {
                b'"' if verbatim && is_verbatim(bytes, i) => {
                    // a verbatim string: `\` escapes nothing, `""` is a quote
                    i = string_end(code, i + 1, Close::Verbatim).map_or(bytes.len(), |end| end - 1);
                }
                b'`' if script => {
                    i = template_end(bytes, i + 1, Template::default())
                        .map_or(bytes.len(), |end| end - 1);
                }
                b'"' | b'\'' | b'`' => i = skip_string(bytes, i),
                b'/' if bytes.get(i + 1) == Some(&b'/') => break,
                b'/' if script && regex_end(bytes, i).is_some() => {
                    i = regex_end(bytes, i).unwrap_or(i);
                }
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
        if !any_brace && scope != Scope::Block && !code.ends_with(';') {
            // a class or namespace whose `{` is on a line below
            self.pending_scope = Some(scope);
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

/// The name that ends at `end` is given a value on its line: `name = `, or
/// `name: Type = ` (not `==`, `=>`, nor a default inside parentheses).
fn assigned_here(text: &[u8], end: usize) -> bool {
    let line = &text[end..];
    let line = &line[..memchr::memchr(b'\n', line).unwrap_or(line.len())];
    let rest = line.trim_ascii_start();
    if !rest.starts_with(b"=") && !rest.starts_with(b":") {
        return false;
    }
    let mut depth = 0i32;
    for (i, &c) in rest.iter().enumerate() {
        match c {
            b'(' | b'[' | b'{' | b'<' => depth += 1,
            b')' | b']' | b'}' | b'>' => depth -= 1,
            b'=' if depth <= 0 => {
                let next = rest.get(i + 1).copied();
                let prev = if i > 0 { rest[i - 1] } else { b' ' };
                return !matches!(next, Some(b'=' | b'>')) && !matches!(prev, b'=' | b'!');
            }
            _ => {}
        }
    }
    false
}

/// The bytes [`follows`] reads; it passes over the others.
const FOLLOWS_READS: ByteSet = ByteSet::new(b"()[]\"/{};,:");

/// What follows a declaration's name at `from`: the first `{` or `;` outside parentheses
/// and brackets (strings and comments skipped), within a few lines. A constructor's
/// member initializer list (`) : a_(a), b_(b) {`) is passed over: its commas end nothing.
fn follows(text: &[u8], from: usize, comma_ends: bool) -> Follows {
    let mut comma_ends = comma_ends;
    let end = text.len().min(from + LOOKAHEAD);
    let mut depth = 0i32;
    let mut i = from;
    while i < end {
        // every other byte is passed over at once
        match FOLLOWS_READS.find(&text[i..end]) {
            Some(k) => i += k,
            None => break,
        }
        match text[i] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b'"' => i = skip_string(text, i),
            b'/' if text.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &text[i..end]).map_or(end, |n| i + n);
            }
            b'/' if text.get(i + 1) == Some(&b'*') => {
                i = comment_end(&text[i + 2..end]).map_or(end, |n| i + 2 + n + 1);
            }
            b'{' if depth <= 0 => return Follows::Body,
            b';' if depth <= 0 => return Follows::Semicolon,
            b':' if depth <= 0
                && text.get(i + 1) != Some(&b':')
                && (i == 0 || text[i - 1] != b':') =>
            {
                comma_ends = false;
            }
            b',' if depth <= 0 && comma_ends => return Follows::Other,
            b'}' if depth <= 0 => return Follows::Other,
            _ => {}
        }
        i += 1;
    }
    Follows::Other
}
