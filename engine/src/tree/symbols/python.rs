//! Python: `def` and `class` (methods by indentation), outside triple-quoted strings; the
//! whole text is followed by `python_text.rs`.

use super::lexical::{declared_after, strip_word, strip_words, trim_start};
use super::symbol::SymbolKind;

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

/// Where the first three `quote`s in a row start in `bytes`: a triple-quoted string's end,
/// found from the quotes (a search for the delimiter set up for each line of a docstring
/// was a tenth of a ranked first call's CPU on Python's library).
pub(super) fn triple_quote(bytes: &[u8], quote: u8) -> Option<usize> {
    memchr::memchr_iter(quote, bytes)
        .find(|&k| bytes.get(k + 1) == Some(&quote) && bytes.get(k + 2) == Some(&quote))
}

#[cfg(test)]
mod tests {
    use super::triple_quote;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn three_quotes_are_found_where_the_delimiter_is(line in "[\"' a]{0,30}") {
            prop_assert_eq!(triple_quote(line.as_bytes(), b'"'), line.find("\"\"\""));
            prop_assert_eq!(triple_quote(line.as_bytes(), b'\''), line.find("\'\'\'"));
        }
    }
}
