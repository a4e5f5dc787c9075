//! Strings that may span lines, as the scanner follows them from one line to the next:
//! how each kind closes (triple quotes, a C# verbatim string, a backtick, a template
//! literal with its `${...}` expressions, a quote, a Rust raw string with its `#`s, a C++
//! raw string with its delimiter, a PHP heredoc with its label) and where in a line it does.

use super::lexical::skip_string;

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
    /// A JavaScript or TypeScript template literal, as deep in it as the scan got.
    Template(Template),
    /// A C++ raw string's `)`, its delimiter and `"` (`R"x(...)x"`).
    CppRaw(Label),
    /// A line whose first word is a PHP heredoc's or nowdoc's label.
    Heredoc(Label),
}

/// A C++ raw string's delimiter (at most 16 bytes) or a PHP heredoc's label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Label {
    bytes: [u8; 32],
    len: u8,
}

impl Label {
    /// `None` for a label longer than 32 bytes.
    pub(super) fn new(label: &[u8]) -> Option<Label> {
        let mut bytes = [0; 32];
        bytes.get_mut(..label.len())?.copy_from_slice(label);
        Some(Label {
            bytes,
            len: label.len() as u8,
        })
    }

    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }

    pub(super) fn byte_len(&self) -> usize {
        self.len as usize
    }
}

/// The `${...}` expressions open in a template literal, and the templates opened in them:
/// `` `a ${ `b ${x}` } c` `` closes at its last backtick, not its second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Template {
    /// Each open expression's unclosed `{`s, outermost first.
    braces: [u8; MAX_EXPRESSIONS],
    /// Expressions open.
    expressions: u8,
    /// In an expression's code, not in a template's text.
    in_code: bool,
}

/// Expressions nested deeper are read as text.
const MAX_EXPRESSIONS: usize = 8;

/// Where a template literal ends in `bytes`, from `from` (just past its opening backtick,
/// or where the line before left it): the offset past its closing backtick, or how deep in
/// it the line ends.
pub(super) fn template_end(bytes: &[u8], from: usize, mut t: Template) -> Result<usize, Template> {
    let mut i = from;
    while i < bytes.len() {
        let b = bytes[i];
        if !t.in_code {
            match b {
                b'\\' => i += 1,
                b'`' if t.expressions == 0 => return Ok(i + 1),
                // a nested template closes: back in the expression that opened it
                b'`' => t.in_code = true,
                b'$' if bytes.get(i + 1) == Some(&b'{')
                    && (t.expressions as usize) < MAX_EXPRESSIONS =>
                {
                    t.braces[t.expressions as usize] = 0;
                    t.expressions += 1;
                    t.in_code = true;
                    i += 1;
                }
                _ => {}
            }
        } else {
            let open = &mut t.braces[t.expressions as usize - 1];
            match b {
                b'{' => *open = open.saturating_add(1),
                b'}' if *open > 0 => *open -= 1,
                b'}' => {
                    t.expressions -= 1;
                    t.in_code = false;
                }
                b'`' => t.in_code = false,
                b'"' | b'\'' => i = skip_string(bytes, i),
                // the expression's comment: the line's rest
                b'/' if bytes.get(i + 1) == Some(&b'/') => break,
                _ => {}
            }
        }
        i += 1;
    }
    Err(t)
}

/// The C++ raw string whose `"` is at `i` (`R"x(`, `u8R"(`, `LR"(`): its delimiter, `None`
/// where no raw string opens.
pub(super) fn cpp_raw_delimiter(bytes: &[u8], i: usize) -> Option<Label> {
    let r = i.checked_sub(1)?;
    if bytes[r] != b'R' {
        return None;
    }
    // `R` starts a word, or follows an encoding prefix that does
    let prefix = bytes[..r]
        .iter()
        .rev()
        .take_while(|&&b| is_word_byte(b))
        .count();
    if !matches!(&bytes[r - prefix..r], b"" | b"u8" | b"u" | b"U" | b"L") {
        return None;
    }
    let rest = &bytes[i + 1..];
    let open = rest.iter().take(17).position(|&b| b == b'(')?;
    let delimiter = &rest[..open];
    if delimiter
        .iter()
        .any(|&b| matches!(b, b' ' | b')' | b'\\' | b'\t' | b'"'))
    {
        return None;
    }
    Label::new(delimiter)
}

/// Where a C++ raw string delimited by `delimiter` ends in `bytes` (a line, or a whole text),
/// searching from `from`: the offset past its `)`, delimiter and `"`.
pub(super) fn cpp_raw_end(bytes: &[u8], from: usize, delimiter: &Label) -> Option<usize> {
    let delimiter = delimiter.as_bytes();
    let mut i = from;
    while let Some(k) = memchr::memchr(b')', &bytes[i.min(bytes.len())..]) {
        let after = i + k + 1;
        let rest = &bytes[after..];
        if rest.starts_with(delimiter) && rest.get(delimiter.len()) == Some(&b'"') {
            return Some(after + delimiter.len() + 1);
        }
        i = after;
    }
    None
}

/// The label of a PHP heredoc or nowdoc opening in `code` (`<<<EOT`, `<<<"EOT"`,
/// `<<<'EOT'`, the rest of the line blank) and where its `<<<` is.
pub(super) fn heredoc_at(code: &str) -> Option<(usize, Label)> {
    let at = memchr::memmem::find(code.as_bytes(), b"<<<")?;
    let rest = code[at + 3..].trim_start_matches([' ', '\t']);
    let quote = rest
        .as_bytes()
        .first()
        .filter(|&&q| q == b'"' || q == b'\'');
    let rest = &rest[usize::from(quote.is_some())..];
    let len = rest.bytes().take_while(|&b| is_word_byte(b)).count();
    let label = &rest[..len];
    let after = &rest[len..];
    let after = match quote {
        Some(&q) => after.strip_prefix(q as char)?,
        None => after,
    };
    let starts_right = label.bytes().next().is_some_and(|b| !b.is_ascii_digit());
    (starts_right && after.trim().is_empty()).then_some(())?;
    Some((at, Label::new(label.as_bytes())?))
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
pub(super) fn string_end(line: &str, from: usize, close: Close) -> Result<usize, Close> {
    let bytes = line.as_bytes();
    match close {
        Close::Template(t) => template_end(bytes, from, t).map_err(Close::Template),
        Close::CppRaw(delimiter) => cpp_raw_end(bytes, from, &delimiter).ok_or(close),
        Close::Heredoc(label) => {
            let label = label.as_bytes();
            let indent = bytes
                .iter()
                .take_while(|&&b| b == b' ' || b == b'\t')
                .count();
            let rest = &bytes[indent..];
            let closes = from == 0
                && rest.starts_with(label)
                && !rest.get(label.len()).is_some_and(|&b| is_word_byte(b));
            if closes {
                Ok(indent + label.len())
            } else {
                Err(close)
            }
        }
        _ => plain_string_end(line, from, close).ok_or(close),
    }
}

/// [`string_end`] of the strings that need no state but their kind.
fn plain_string_end(line: &str, from: usize, close: Close) -> Option<usize> {
    let bytes = line.as_bytes();
    let mut i = from;
    match close {
        Close::Template(_) | Close::CppRaw(_) | Close::Heredoc(_) => None,
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
