//! Shell (sh, bash, zsh): functions, `name() {`, `name () (`, `function name {` and
//! `function name() {`, outside comments and here-documents.

use super::heredoc::heredoc_opened_in;
use super::lexical::{strip_word, trim};
use super::scanner::Scanner;
use super::symbol::SymbolKind;

impl<'a> Scanner<'a> {
    pub(super) fn shell_line(&mut self, line: &'a str, number: u32) {
        if let Some(end) = self.heredoc {
            if line.trim() == end {
                self.heredoc = None;
            }
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
        if let Some(name) = function(s) {
            self.push(SymbolKind::Function, name, number, true);
        }
    }
}

/// The function a line of shell defines.
fn function(s: &str) -> Option<&str> {
    let (rest, keyword) = match strip_word(s, "function") {
        Some(rest) => (rest, true),
        None => (s, false),
    };
    // a shell function's name may hold `-`, `.`, `:` and `@` besides letters and digits
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ':' | '@')))
        .unwrap_or(rest.len());
    let name = &rest[..end];
    if name.is_empty() || name.starts_with(['-', '.']) || name.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let after = rest[end..].trim_start();
    let parens = after
        .strip_prefix('(')
        .map(|a| a.trim_start().starts_with(')'));
    match parens {
        Some(true) => Some(name),
        Some(false) => None,
        // `function name {` needs no parentheses
        None if keyword => (after.is_empty() || after.starts_with(['{', '('])).then_some(name),
        None => None,
    }
}
