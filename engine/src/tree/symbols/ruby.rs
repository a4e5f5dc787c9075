//! Ruby: `def` (instance methods, `def self.name` and `def obj.name` singleton methods, with
//! `private def` and the like), `class` (`class A::B < C`) and `module` (a namespace),
//! outside comments, `=begin`/`=end` blocks and here-documents.

use super::heredoc::heredoc_opened_in;
use super::lexical::{is_ident_char, leading_ident, strip_word, strip_words, trim};
use super::scanner::Scanner;
use super::symbol::SymbolKind;

impl<'a> Scanner<'a> {
    pub(super) fn ruby_line(&mut self, line: &'a str, number: u32) {
        if let Some(end) = self.heredoc {
            if line.trim() == end {
                self.heredoc = None;
            }
            return;
        }
        // `=begin` ... `=end`, from the table
        let (open, close) = self.language.spec().comments.block.unwrap_or_default();
        if self.block_comment {
            self.block_comment = !line.starts_with(close);
            return;
        }
        if !open.is_empty() && line.starts_with(open) {
            self.block_comment = true;
            return;
        }
        let s = trim(line);
        if s.is_empty() || s.starts_with('#') {
            return;
        }
        self.heredoc = heredoc_opened_in(&self.language.spec().strings, s);
        if self.passes_over(number) {
            return;
        }
        let indented = s.len() != line.trim_end().len();
        if let Some((kind, name)) = declaration(s, indented) {
            self.push(kind, name, number, true);
        }
    }
}

/// The method, class or module a line of Ruby declares.
fn declaration(s: &str, indented: bool) -> Option<(SymbolKind, &str)> {
    let s = strip_words(
        s,
        &[
            "private",
            "protected",
            "public",
            "module_function",
            "private_class_method",
            "public_class_method",
        ],
    );
    if let Some(rest) = strip_word(s, "def") {
        // a singleton method: `def self.name`, `def Klass.name`
        let (rest, singleton) = match leading_ident(rest) {
            Some(owner) if rest[owner.len()..].starts_with('.') => (&rest[owner.len() + 1..], true),
            _ => (rest, false),
        };
        let name = method_name(rest)?;
        let kind = if indented || singleton {
            SymbolKind::Method
        } else {
            SymbolKind::Function
        };
        return Some((kind, name));
    }
    // a module is reopened by every file that adds to it (`module Rack` heads most files of
    // a gem): a namespace, not one file's definition
    for (word, kind) in [
        ("class", SymbolKind::Class),
        ("module", SymbolKind::Namespace),
    ] {
        if let Some(rest) = strip_word(s, word) {
            // `class << self` opens the singleton class: no name
            let end = rest
                .find(|c: char| !(is_ident_char(c) || c == ':'))
                .unwrap_or(rest.len());
            let name = rest[..end].trim_start_matches("::");
            let first = name.chars().next()?;
            return first.is_uppercase().then_some((kind, name));
        }
    }
    None
}

/// A method's name: an identifier with its `?`, `!` or setter `=`.
fn method_name(s: &str) -> Option<&str> {
    let name = leading_ident(s)?;
    let next = s[name.len()..].chars().next();
    let with_suffix = match next {
        Some('?' | '!') => true,
        Some('=') => {
            s[name.len() + 1..].starts_with(['(', ' ']) && !s[name.len()..].starts_with("==")
        }
        _ => false,
    };
    Some(if with_suffix {
        &s[..name.len() + 1]
    } else {
        name
    })
}
