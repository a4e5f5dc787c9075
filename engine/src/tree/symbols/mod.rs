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
//!
//! One file per language family (`c_family.rs`, `rust.rs`, `python.rs`, `go.rs`, `js.rs`,
//! `java.rs`, `csharp.rs`, `kotlin.rs`, `swift.rs`, `scala.rs`, `php.rs`, `ruby.rs`,
//! `shell.rs`) on what they share (`scanner.rs`, `lexical.rs`, `c_like.rs`, `body.rs`,
//! `heredoc.rs`); what a language is (its extensions, comments, strings and recogniser) is
//! its entry in the table of `languages.rs`. Python, Ruby and shell read their own lines
//! (`#` comments, blocks closed by indentation or words); the others go through what brace
//! languages share.

mod body;
mod c_comments;
mod c_family;
mod c_like;
mod comments_and_strings;
mod csharp;
mod go;
mod heredoc;
mod java;
mod js;
mod kotlin;
mod language;
mod languages;
mod lexical;
mod line_runs;
mod packed;
mod php;
mod python;
mod python_text;
mod ruby;
mod rust;
mod rust_runs;
mod scala;
mod scanner;
mod shell;
mod string_end;
mod swift;
mod symbol;

pub(crate) use c_comments::all_in_comments;
pub(crate) use comments_and_strings::{spans, Lexicon, Span};
pub use language::Language;
pub(crate) use languages::LANGUAGES;
pub(crate) use packed::{PackedSymbols, SymbolList};
pub use symbol::{Symbol, SymbolClass, SymbolKind};

use languages::{CodeLine, Recogniser};
use scanner::{Scanner, Scope};

/// Every declaration of `text`, in line order.
pub fn scan_file(language: Language, text: &str) -> Vec<Symbol> {
    scan(language, text, None, None)
}

/// The declarations of `text` whose name `keep` accepts, in line order: what
/// [`scan_file`] gives, filtered, without making the symbols of the names refused (the
/// first call on a root keeps only the names a lookup can find of files holding a common
/// word: `first_call/scanned.rs`).
pub fn scan_file_keeping(
    language: Language,
    text: &str,
    keep: &mut dyn FnMut(&str) -> bool,
) -> Vec<Symbol> {
    scan(language, text, Some(keep), None)
}

/// [`scan_file_keeping`] for a caller that knows the lines (numbered from 1, ascending)
/// on which every name `keep` accepts is written: in a language whose recogniser reads
/// each line alone (Rust, Python, Ruby, shell) the other lines are passed over, unless a
/// test attribute above waits for its item; in C and C++ most of them are only followed
/// for their comments, strings and braces ([`Scanner::passes_over_c_line`]), and a name
/// the recogniser finds on one of them is neither looked past nor asked about (`keep` is
/// asked only about the names on the lines given). A name is written on its declaration's
/// line, so the caller of a first call's scan finds them in the lines' letters
/// (`first_call/scanned.rs`).
pub(crate) fn scan_lines_keeping(
    language: Language,
    text: &str,
    lines: &[u32],
    keep: &mut dyn FnMut(&str) -> bool,
) -> Vec<Symbol> {
    scan(language, text, Some(keep), Some(lines))
}

fn scan<'a>(
    language: Language,
    text: &'a str,
    keep: Option<&'a mut dyn FnMut(&str) -> bool>,
    lines: Option<&'a [u32]>,
) -> Vec<Symbol> {
    scan_skimming(language, text, keep, lines, true)
}

/// [`scan`], the lines of Rust that change nothing but the continuation flag skimmed
/// ([`Scanner::passes_over_quickly`]) or, for the test that holds the two equal, read.
fn scan_skimming<'a>(
    language: Language,
    text: &'a str,
    keep: Option<&'a mut dyn FnMut(&str) -> bool>,
    lines: Option<&'a [u32]>,
    skims: bool,
) -> Vec<Symbol> {
    let mut scanner = Scanner::new(language, text, keep, lines, skims);
    if let Recogniser::Text(read) = scanner.language.spec().recogniser {
        read(&mut scanner);
        return scanner.out;
    }
    let bytes = text.as_bytes();
    let mut offset = 0;
    let mut number = 1;
    // Rust given its lines: the runs of lines between them passed over at once
    let mut openers = (skims && scanner.lines.is_some() && scanner.language.spec().attributes)
        .then(|| rust_runs::Openers::new(bytes));
    // the lines of `text`, each with its `\n` (as `split_inclusive` cuts them)
    let mut line_ends = crate::text::line_ends::LineEnds::new(bytes);
    while offset < bytes.len() {
        if let Some(openers) = openers.as_mut() {
            (offset, number) = rust_runs::pass_over_run(&mut scanner, openers, offset, number);
            if offset == bytes.len() {
                break;
            }
        }
        let end = line_ends.end_from(offset);
        scanner.line(&text[offset..end], offset, number);
        offset = end;
        number += 1;
    }
    scanner.out
}

/// U+FEFF, which an editor may write before a file's first line.
pub(super) const BYTE_ORDER_MARK: &str = "\u{feff}";

/// Each line goes to its language's recogniser, then through what every language shares.
impl<'a> Scanner<'a> {
    fn line(&mut self, raw: &'a str, offset: usize, number: u32) {
        // a byte-order mark before the first line is no code
        let bytes = raw.as_bytes();
        let mut end = bytes.len();
        while end > 0 && matches!(bytes[end - 1], b'\n' | b'\r') {
            end -= 1;
        }
        // compared as bytes: a `char` pattern set up a searcher for every line
        let mut line = &raw[..end];
        while line.as_bytes().starts_with(BYTE_ORDER_MARK.as_bytes()) {
            line = &line[BYTE_ORDER_MARK.len()..];
        }
        let spec = self.language.spec();
        let recognise = match spec.recogniser {
            Recogniser::Code(recognise) => recognise,
            Recogniser::Lines(read) => return read(self, line, number),
            // read whole by `scan_skimming`
            Recogniser::Text(_) => return,
        };
        if !spec.braces && self.skims && self.passes_over_quickly(line, number) {
            self.continued = lexical::trim_end(line).ends_with('\\');
            return;
        }
        let was_continued = self.continued;
        self.continued = lexical::trim_end(line).ends_with('\\');
        let code = self.code_of(line);
        if was_continued || code.is_empty() || code.starts_with("//") {
            return;
        }
        let indented = matches!(line.as_bytes().first(), Some(b' ' | b'\t'));
        if spec.attributes {
            if let Some(attr) = code.strip_prefix("#[") {
                let path = attr.split(['(', ']']).next().unwrap_or("");
                self.test_attribute |= path == "test" || path.ends_with("::test");
                if code.ends_with(']') {
                    return;
                }
            }
        }
        let found = recognise(
            self,
            &CodeLine {
                code,
                line,
                indented,
                number,
            },
        );
        let declared_class = matches!(
            found,
            Some((
                SymbolKind::Class
                    | SymbolKind::Struct
                    | SymbolKind::Union
                    | SymbolKind::Interface
                    | SymbolKind::Record
                    | SymbolKind::Enum
                    | SymbolKind::Trait
                    | SymbolKind::Object
                    | SymbolKind::Extension,
                _
            ))
        );
        let declared_namespace = matches!(found, Some((SymbolKind::Namespace, _)))
            || code.starts_with("namespace")
            || code.starts_with("inline namespace")
            || code.starts_with("extern \"C")
            || (self.language == Language::Go && code.starts_with("type ("));
        let declares_only = std::mem::take(&mut self.declares_only);
        if let Some((kind, name)) = found {
            if self.passes_over(number) {
                // a line not given declares no name the caller keeps (`scan_lines_keeping`):
                // neither looked past nor asked about; its test attribute is spent
                self.test_attribute = false;
            } else if !name.starts_with('$') {
                let at = offset + (name.as_ptr() as usize - raw.as_ptr() as usize);
                if self.may_unmake(kind) {
                    if let Some(definition) = self.defines(kind, at + name.len()) {
                        self.push(kind, name, number, definition && !declares_only);
                    }
                } else if self.keeps(name) {
                    // `defines` gives `Some` here (`may_unmake`)
                    let definition = self.defines(kind, at + name.len()).unwrap_or(true);
                    self.push_kept(kind, name, number, definition && !declares_only);
                } else {
                    // a name refused needs no look past it (a first call's scans and the
                    // ranking's counting refuse most of them); its test attribute is spent
                    self.test_attribute = false;
                }
            }
        }
        if spec.open_statements {
            // the line's last byte first: most lines end no open statement, and the macro
            // call is then not looked for
            self.open_statement = code
                .as_bytes()
                .last()
                .is_some_and(|b| b",()=|&+?".contains(b))
                && !code.starts_with('#')
                && !c_family::is_macro_call_line(code);
        }
        if spec.braces {
            let object_literal = std::mem::take(&mut self.opens_object);
            let scope = if declared_class || object_literal {
                Scope::Class
            } else if declared_namespace {
                Scope::Namespace
            } else {
                Scope::Block
            };
            self.braces(code, scope, indented);
        }
    }
}

#[cfg(test)]
mod tests;
