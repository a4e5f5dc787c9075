//! Python: `def` and `class` (methods by indentation), outside triple-quoted strings.

use super::lexical::{declared_after, skip_string, strip_word, strip_words};
use super::scanner::Scanner;
use super::symbol::SymbolKind;

impl<'a> Scanner<'a> {
    pub(super) fn python_line(&mut self, line: &'a str, number: u32) {
        let s = line.trim_start();
        let inside = self.py_string.is_some();
        self.py_string = python_string_after(line, self.py_string);
        if inside || s.is_empty() || s.starts_with('#') || self.passes_over(number) {
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
}

/// The triple-quoted string a Python line leaves open (`Some(delimiter)`), given the one
/// it starts in: quotes are followed left to right, so `'''` inside `"..."` opens nothing.
pub(super) fn python_string_after(
    line: &str,
    mut open: Option<&'static str>,
) -> Option<&'static str> {
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
