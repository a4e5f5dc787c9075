//! Strings that may span lines, as the scanner follows them from one line to the next:
//! how each kind closes (triple quotes, a C# verbatim string, a backtick, a quote, a Rust
//! raw string with its `#`s) and where in a line it does.

/// The `"` at `i` opens a C# verbatim string: `@"`, `$@"`, `@$"`.
pub(super) fn is_verbatim(bytes: &[u8], i: usize) -> bool {
    (i > 0 && bytes[i - 1] == b'@') || (i > 1 && bytes[i - 1] == b'$' && bytes[i - 2] == b'@')
}

/// How a string that may span lines closes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Close {
    /// `"""`.
    TripleQuotes,
    /// A C# verbatim string's `"` that is not doubled.
    Verbatim,
    /// An unescaped backtick.
    Backtick,
    /// This quote, unescaped.
    Quote(u8),
    /// A `"` followed by this many `#` (a Rust raw string: `\` escapes nothing).
    Raw(usize),
}

/// How many `#` stand between the `r` that opens a Rust raw string and its `"` at `i`
/// (`r"`, `r#"`, `br##"`): `None` when no raw string opens there.
pub(super) fn raw_hashes(bytes: &[u8], i: usize) -> Option<usize> {
    let hashes = bytes[..i].iter().rev().take_while(|&&b| b == b'#').count();
    let r = i.checked_sub(hashes + 1)?;
    if bytes[r] != b'r' {
        return None;
    }
    // the `r` starts a word, or follows the `b` of a byte string that does
    let word_starts = |at: usize| at == 0 || !is_word_byte(bytes[at - 1]);
    (word_starts(r) || (bytes[r - 1] == b'b' && word_starts(r - 1))).then_some(hashes)
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// Where the string closed by `close` ends in `line`, searching from `from`: the offset
/// just past its closing delimiter. A verbatim string (`@"`, `$@"`) closes at a `"` that is
/// not doubled; a template or quoted string at its unescaped delimiter; a raw string at
/// its `"` and `#`s.
pub(super) fn string_end(line: &str, from: usize, close: Close) -> Option<usize> {
    let bytes = line.as_bytes();
    let mut i = from;
    match close {
        Close::TripleQuotes => line[from.min(line.len())..]
            .find("\"\"\"")
            .map(|at| from + at + 3),
        Close::Backtick | Close::Quote(_) => {
            let quote = match close {
                Close::Quote(quote) => quote,
                _ => b'`',
            };
            while i < bytes.len() {
                match bytes[i] {
                    b'\\' => i += 1,
                    b if b == quote => return Some(i + 1),
                    _ => {}
                }
                i += 1;
            }
            None
        }
        Close::Raw(hashes) => {
            while let Some(k) = memchr::memchr(b'"', &bytes[i.min(bytes.len())..]) {
                let at = i + k + 1;
                if bytes
                    .get(at..at + hashes)
                    .is_some_and(|h| h.iter().all(|&b| b == b'#'))
                {
                    return Some(at + hashes);
                }
                i = at;
            }
            None
        }
        Close::Verbatim => {
            while i < bytes.len() {
                if bytes[i] == b'"' {
                    if bytes.get(i + 1) == Some(&b'"') {
                        i += 1;
                    } else {
                        return Some(i + 1);
                    }
                }
                i += 1;
            }
            None
        }
    }
}
