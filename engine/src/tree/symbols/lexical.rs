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

/// [`char::is_whitespace`] of an ASCII byte.
#[inline]
fn is_ascii_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t'..=b'\r')
}

/// `s.trim_start()`, the ASCII bytes looked at as bytes (a line's indentation, the space
/// after a keyword): the characters are decoded only from a byte outside ASCII on. Every
/// line of a scan is trimmed several times, and decoding each character was a large share
/// of a scan that keeps few names (`engine/src/first_call/scanned.rs`).
#[inline]
pub(super) fn trim_start(s: &str) -> &str {
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() && is_ascii_space(bytes[i]) {
        i += 1;
    }
    match bytes.get(i) {
        Some(&b) if b >= 0x80 => s[i..].trim_start(),
        _ => &s[i..],
    }
}

/// `s.trim_end()`, as [`trim_start`] does it.
#[inline]
pub(super) fn trim_end(s: &str) -> &str {
    let bytes = s.as_bytes();
    let mut j = bytes.len();
    while j > 0 && is_ascii_space(bytes[j - 1]) {
        j -= 1;
    }
    match j.checked_sub(1).map(|k| bytes[k]) {
        Some(b) if b >= 0x80 => s[..j].trim_end(),
        _ => &s[..j],
    }
}

/// `s.trim()`, as [`trim_start`] does it.
#[inline]
pub(super) fn trim(s: &str) -> &str {
    trim_end(trim_start(s))
}

/// The ASCII bytes of an identifier (letters, digits, `_`, `$`), looked up in one load
/// (a C header's scan asks for the leading identifier of most lines, several times).
const ASCII_IDENT: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
        b += 1;
    }
    table
};

/// The identifier at the start of `s` (after whitespace), if any.
#[inline]
pub(super) fn leading_ident(s: &str) -> Option<&str> {
    let s = trim_start(s);
    let bytes = s.as_bytes();
    // its ASCII characters as bytes; the rest, from the first byte outside ASCII, decoded
    let mut end = bytes
        .iter()
        .position(|&b| !ASCII_IDENT[b as usize])
        .unwrap_or(s.len());
    if bytes.get(end).is_some_and(|&b| b >= 0x80) {
        end += s[end..]
            .find(|c: char| !is_ident_char(c))
            .unwrap_or(s.len() - end);
    }
    let ident = &s[..end];
    (!ident.is_empty() && !ident.as_bytes()[0].is_ascii_digit()).then_some(ident)
}

/// Where the first `*/` of `bytes` starts (a block comment's end): the first `/` after a
/// `*` (a search set up for each line of a block comment was a twentieth of a C header's
/// scan).
pub(super) fn comment_end(bytes: &[u8]) -> Option<usize> {
    memchr::memchr_iter(b'/', bytes)
        .find(|&i| i > 0 && bytes[i - 1] == b'*')
        .map(|i| i - 1)
}

/// Where `depth` open nested block comments (Rust's) all close in `bytes`, read from
/// `from`: the offset just past the outermost `*/`; `None` when some are still open at the
/// end, `depth` left as deep as they are.
pub(super) fn nested_comment_end(bytes: &[u8], from: usize, depth: &mut u32) -> Option<usize> {
    let mut i = from;
    while let Some(k) = memchr::memchr2(b'/', b'*', &bytes[i.min(bytes.len())..]) {
        let at = i + k;
        match (bytes[at], bytes.get(at + 1)) {
            (b'/', Some(b'*')) => {
                *depth += 1;
                i = at + 2;
            }
            (b'*', Some(b'/')) => {
                *depth = depth.saturating_sub(1);
                i = at + 2;
                if *depth == 0 {
                    return Some(i);
                }
            }
            _ => i = at + 1,
        }
    }
    None
}

/// `s` with `word` and following whitespace removed, when `s` starts with that whole word.
#[inline]
pub(super) fn strip_word<'a>(s: &'a str, word: &str) -> Option<&'a str> {
    // most lines start with another letter: no call to compare the rest
    if !word.is_empty() && s.as_bytes().first() != word.as_bytes().first() {
        return None;
    }
    let rest = s.strip_prefix(word)?;
    if rest.starts_with(char::is_whitespace) {
        Some(trim_start(rest))
    } else {
        None
    }
}

/// Strips any number of the given leading words (modifiers).
pub(super) fn strip_words<'a>(mut s: &'a str, words: &[&str]) -> &'a str {
    'outer: loop {
        // most lines start with none of the words: their first bytes tell, without a call
        let Some(&first) = s.as_bytes().first() else {
            return s;
        };
        for w in words {
            if w.as_bytes().first() != Some(&first) {
                continue;
            }
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

/// Whether `word` is a keyword that starts a statement, never a declaration, in C-like
/// languages (a `match`: a list searched word by word was compared on most lines of a C
/// header several times).
pub(super) fn is_statement_word(word: &str) -> bool {
    matches!(
        word,
        "return"
            | "if"
            | "else"
            | "for"
            | "while"
            | "switch"
            | "case"
            | "do"
            | "delete"
            | "new"
            | "throw"
            | "goto"
            | "sizeof"
            | "catch"
            | "try"
            | "co_return"
            | "co_await"
            | "yield"
            | "await"
            | "assert"
            | "defined"
    )
}

/// `s` without leading annotations and attributes: `@Name`, `@pkg.Name`, `@Name(args)`
/// with its balanced arguments (Kotlin, Swift, Scala, Java), `#[Attr(args)]` (PHP) and
/// `[Attr(args)]` (C#).
pub(super) fn strip_annotations(mut s: &str) -> &str {
    loop {
        let rest = if let Some(rest) = s.strip_prefix('@') {
            let end = rest
                .find(|c: char| !(is_ident_char(c) || matches!(c, '.' | ':')))
                .unwrap_or(rest.len());
            if end == 0 {
                return s;
            }
            let after = &rest[end..];
            if after.starts_with('(') {
                match balanced_end(after, b'(', b')') {
                    Some(close) => &after[close..],
                    None => return s,
                }
            } else {
                after
            }
        } else if let Some(rest) = s.strip_prefix("#[").or_else(|| s.strip_prefix('[')) {
            match balanced_end(rest, b'[', b']') {
                // the attribute list closes the opening bracket, not one inside it
                Some(_) if rest.starts_with(['[', ']']) => return s,
                Some(close) => &rest[close..],
                None => return s,
            }
        } else {
            return s;
        };
        s = rest.trim_start();
    }
}

/// The offset just past the bracket that closes `open` in `s`: `s` starts with `open`, or
/// sits just inside it (then depth starts at 1).
pub(super) fn balanced_end(s: &str, open: u8, close: u8) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut depth = i32::from(bytes.first() != Some(&open));
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' | b'\'' => i = skip_string(bytes, i),
            c if c == open => depth += 1,
            c if c == close => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The name a declaration gives after its keyword: the identifier after the last `.` of a
/// qualified or receiver-prefixed name (`Foo.Bar`, `List<T>.sum`, `String?.orEmpty`), up to
/// `(`, `<`, `:`, `=`, `{`, or whitespace; `None` when no identifier stands there.
pub(super) fn last_segment(s: &str) -> Option<&str> {
    let bytes = s.as_bytes();
    let mut depth = 0i32;
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'<' => depth += 1,
            b'>' => depth -= 1,
            b'.' if depth == 0 => start = i + 1,
            b'?' if depth == 0 => {}
            c if depth == 0 && !(c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80) => break,
            _ => {}
        }
        i += 1;
    }
    leading_ident(&s[start..i])
}

/// `s` without leading type parameters `<T : Comparable<T>>`.
pub(super) fn skip_type_parameters(s: &str) -> &str {
    if !s.starts_with('<') {
        return s;
    }
    balanced_end(s, b'<', b'>').map_or(s, |end| s[end..].trim_start())
}

/// The offset of the `/` that closes a JavaScript regular expression literal opened at
/// `at`, when the `/` there opens one: it stands where a value starts (at the line's start,
/// after an operator or an opening bracket, after `return`), and closes on the line.
pub(super) fn regex_end(bytes: &[u8], at: usize) -> Option<usize> {
    if matches!(bytes.get(at + 1), Some(b'/' | b'*') | None) {
        return None;
    }
    let before = bytes[..at].trim_ascii_end();
    let opens = match before.last() {
        None => true,
        Some(c) => {
            b"(,=:[!&|?{};+-*%<>~^".contains(c)
                || (before.ends_with(b"return")
                    && !before[..before.len() - 6]
                        .last()
                        .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_'))
        }
    };
    if !opens {
        return None;
    }
    let mut in_class = false;
    let mut i = at + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'[' => in_class = true,
            b']' => in_class = false,
            b'/' if !in_class => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Texts around every character `char::is_whitespace` holds and a few it does not
    /// (ASCII controls beside the spaces, a non-breaking space's neighbours, letters
    /// outside ASCII): the byte-wise trims and identifier agree with the decoding ones.
    #[test]
    fn the_byte_wise_trims_and_identifier_agree_with_the_decoded_ones() {
        let mut pieces: Vec<String> = (0..=0x3000u32)
            .chain([0x205f, 0xfeff, 0x10000])
            .filter_map(char::from_u32)
            .filter(|c| c.is_whitespace() || c.is_control() || (0x9f..=0xa1).contains(&(*c as u32)))
            .map(String::from)
            .collect();
        pieces.extend(
            [
                "", "a", "_x1", "$v", "é", "日本", "9z", "a-b", "x\u{a0}", "fn",
            ]
            .map(String::from),
        );
        let mut texts = Vec::new();
        for a in &pieces {
            for b in ["", "name", "é_ü", " x ", "x\u{3000}y", "\t"] {
                for c in [" ", "", "\u{2028}", "\u{b}", "\u{1c}", "q"] {
                    texts.push(format!("{a}{b}{c}"));
                    texts.push(format!("{c}{b}{a}"));
                }
            }
        }
        fn decoded_ident(s: &str) -> Option<&str> {
            let s = s.trim_start();
            let end = s.find(|c: char| !is_ident_char(c)).unwrap_or(s.len());
            let ident = &s[..end];
            (!ident.is_empty() && !ident.starts_with(|c: char| c.is_ascii_digit())).then_some(ident)
        }
        for t in &texts {
            assert_eq!(trim_start(t), t.trim_start(), "{t:?}");
            assert_eq!(trim_end(t), t.trim_end(), "{t:?}");
            assert_eq!(trim(t), t.trim(), "{t:?}");
            assert_eq!(leading_ident(t), decoded_ident(t), "{t:?}");
        }
        assert!(texts.len() > 5_000);
    }

    proptest::proptest! {
        /// The first `*/` is where a search for it finds it, in texts drawn from the bytes
        /// around it (`/*/` holds no end after its own `/*`).
        #[test]
        fn a_comment_ends_where_the_first_star_slash_is(text in "[*/a ]{0,40}") {
            proptest::prop_assert_eq!(comment_end(text.as_bytes()), text.find("*/"));
        }
    }
}
