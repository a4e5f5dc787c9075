//! The words and quotes every recogniser reads: identifiers, leading keywords and
//! modifiers, string literals to skip, and the words that start a statement.

/// The offset just past the string or character literal that starts at `at`, minus one
/// (the caller steps past the closing quote); a quote left open ends the line.
pub(super) fn skip_string(bytes: &[u8], at: usize) -> usize {
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

pub(super) fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// The identifier at the start of `s` (after whitespace), if any.
pub(super) fn leading_ident(s: &str) -> Option<&str> {
    let s = s.trim_start();
    let end = s.find(|c: char| !is_ident_char(c)).unwrap_or(s.len());
    let ident = &s[..end];
    (!ident.is_empty() && !ident.starts_with(|c: char| c.is_ascii_digit())).then_some(ident)
}

/// `s` with `word` and following whitespace removed, when `s` starts with that whole word.
pub(super) fn strip_word<'a>(s: &'a str, word: &str) -> Option<&'a str> {
    let rest = s.strip_prefix(word)?;
    if rest.starts_with(char::is_whitespace) {
        Some(rest.trim_start())
    } else {
        None
    }
}

/// Strips any number of the given leading words (modifiers).
pub(super) fn strip_words<'a>(mut s: &'a str, words: &[&str]) -> &'a str {
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
pub(super) fn declared_after<'a>(s: &'a str, keyword: &str) -> Option<&'a str> {
    leading_ident(strip_word(s, keyword)?)
}

/// Keywords that start a statement, never a declaration, in C-like languages.
pub(super) const STATEMENT_WORDS: &[&str] = &[
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
