//! Python: `def` and `class` (methods by indentation), outside triple-quoted strings.

use super::lexical::{declared_after, skip_string, strip_word, strip_words, trim_start};
use super::scanner::Scanner;
use super::symbol::SymbolKind;

impl<'a> Scanner<'a> {
    pub(super) fn python_line(&mut self, line: &'a str, number: u32) {
        let inside = self.py_string.is_some();
        self.py_string = python_string_after(line, self.py_string);
        if inside || self.passes_over(number) {
            return;
        }
        if let Some((kind, name)) = python_declaration(line) {
            self.push(kind, name, number, true);
        }
    }
}

/// What a line of Python that starts outside a triple-quoted string declares: `def` (a
/// method when indented) or `class`, after any `async`.
pub(super) fn python_declaration(line: &str) -> Option<(SymbolKind, &str)> {
    // the indentation passed over as bytes (`str::trim_start` decoded it a char at a time)
    let s = trim_start(line);
    if s.is_empty() || s.starts_with('#') {
        return None;
    }
    let indented = s.len() != line.len();
    let s = strip_words(s, &["async"]);
    if let Some(name) = declared_after(s, "def") {
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
            match triple_quote(&bytes[i..], delim.as_bytes()[0]) {
                Some(at) => {
                    i += at + 3;
                    open = None;
                    continue;
                }
                None => return open,
            }
        }
        // only a comment or a quote changes what is open: every other byte passed over
        match memchr::memchr3(b'#', b'"', b'\'', &bytes[i..]) {
            Some(k) => i += k,
            None => break,
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

/// Where the first three `quote`s in a row start in `bytes`: a triple-quoted string's end,
/// found from the quotes (a search for the delimiter set up for each line of a docstring
/// was a tenth of a ranked first call's CPU on Python's library).
pub(super) fn triple_quote(bytes: &[u8], quote: u8) -> Option<usize> {
    memchr::memchr_iter(quote, bytes)
        .find(|&k| bytes.get(k + 1) == Some(&quote) && bytes.get(k + 2) == Some(&quote))
}

#[cfg(test)]
mod tests {
    use super::{python_string_after, triple_quote};
    use proptest::prelude::*;

    /// [`python_string_after`] as it read a line before (a byte at a time, the delimiter
    /// searched as a string).
    fn string_after_byte_by_byte(
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
                    let triple = if bytes[i] == b'"' { "\"\"\"" } else { "\'\'\'" };
                    if line[i..].starts_with(triple) {
                        open = Some(triple);
                        i += 3;
                        continue;
                    }
                    i = super::skip_string(bytes, i);
                }
                _ => {}
            }
            i += 1;
        }
        open
    }

    proptest! {
        /// Lines drawn from quotes, `#`, `\\` and letters leave open what the byte-by-byte
        /// reading left open, from every state.
        #[test]
        fn a_line_leaves_open_what_it_left_open(line in "[\"'#\\\\ ab]{0,30}") {
            for open in [None, Some("\"\"\""), Some("\'\'\'")] {
                prop_assert_eq!(python_string_after(&line, open), string_after_byte_by_byte(&line, open));
            }
        }

        #[test]
        fn three_quotes_are_found_where_the_delimiter_is(line in "[\"' a]{0,30}") {
            prop_assert_eq!(triple_quote(line.as_bytes(), b'"'), line.find("\"\"\""));
            prop_assert_eq!(triple_quote(line.as_bytes(), b'\''), line.find("\'\'\'"));
        }
    }
}
