//! A whole Python text scanned from the bytes that change what is open and the words that
//! declare, not line by line: a line of Python carries to the next only a triple-quoted
//! string left open (`python.rs`), which only a quote opens or closes, and declares only
//! with `def` or `class` as its first word. So the scan follows the quotes and `#`s in
//! order (a comment to its line's end, a string to its quote or its line's end, a
//! triple-quoted string to the three quotes that close it, wherever they are) and looks at
//! a line only where `def` or `class` is written in code, once per line; a line that
//! starts inside a triple-quoted string declares nothing. The symbols are those reading
//! every line gives (`tests.rs`: `skims_as_it_reads`, on this repository's scripts and, by
//! hand, on Python's library), at a fraction of the work: most lines of Python hold no
//! quote and no declaration.

use super::line_runs::Stop;
use super::python::{python_declaration, triple_quote};
use super::scanner::Scanner;
use super::BYTE_ORDER_MARK;

impl<'a> Scanner<'a> {
    /// Every declaration of the scanner's Python text (no lines given), in line order.
    pub(super) fn python_text(&mut self) {
        let text = self.text;
        let bytes = text.as_bytes();
        let mut defs = Stop::new(bytes, b"def");
        let mut classes = Stop::new(bytes, b"class");
        // the first byte not yet followed for what it opens or closes: always in code
        let mut pos = 0;
        // the next quote or `#` from `pos`
        let mut event = next_event(bytes, pos);
        // where the last triple-quoted string closed: a line starting before it starts in it
        let mut code_since = 0;
        // the end of the last line looked at for a declaration
        let mut looked_to = 0;
        // the number of the line that starts at `counted`
        let (mut counted, mut number) = (0, 1u32);
        while pos < bytes.len() {
            let from = pos.max(looked_to);
            let word = defs.next(bytes, from).min(classes.next(bytes, from));
            if word < event {
                // `def` or `class` in code (nothing opens or closes between `pos` and it)
                let start = memchr::memrchr(b'\n', &bytes[..word]).map_or(0, |n| n + 1);
                let end = memchr::memchr(b'\n', &bytes[word..]).map_or(bytes.len(), |n| word + n);
                looked_to = end;
                if start >= code_since {
                    if let Some((kind, name)) = python_declaration(line_at(text, start, end)) {
                        number += memchr::memchr_iter(b'\n', &bytes[counted..start]).count() as u32;
                        counted = start;
                        self.push(kind, name, number, true);
                    }
                }
                continue;
            }
            if event == bytes.len() {
                break;
            }
            let quote = bytes[event];
            if quote == b'#' {
                // a comment: nothing opens or closes before its line's end
                pos = memchr::memchr(b'\n', &bytes[event..]).map_or(bytes.len(), |n| event + n);
            } else if bytes[event..].starts_with(&[quote; 3]) {
                // (three quotes in a row are on one line)
                match triple_quote(&bytes[event + 3..], quote).map(|k| event + 3 + k) {
                    Some(at) => {
                        pos = at + 3;
                        code_since = pos;
                    }
                    // open to the text's end: nothing more is declared
                    None => break,
                }
            } else {
                pos = after_string(bytes, event);
            }
            event = next_event(bytes, pos);
        }
    }
}

/// The next quote or `#` from `pos` (the text's length when none).
fn next_event(bytes: &[u8], pos: usize) -> usize {
    match bytes.get(pos..) {
        Some(rest) => memchr::memchr3(b'"', b'\'', b'#', rest).map_or(bytes.len(), |k| pos + k),
        None => bytes.len(),
    }
}

/// Where code goes on after the string whose quote is at `at`: past its closing quote,
/// or at its line's end when it is not closed on its line (what `skip_string` gives of the
/// line, a `\` passing over the byte after it; the `\r`s before a line's end hold no
/// quote).
pub(super) fn after_string(bytes: &[u8], at: usize) -> usize {
    let quote = bytes[at];
    let mut from = at + 1;
    while let Some(k) = bytes
        .get(from..)
        .and_then(|rest| memchr::memchr3(quote, b'\\', b'\n', rest))
    {
        let found = from + k;
        match bytes[found] {
            b'\n' => return found,
            b'\\' if bytes.get(found + 1) == Some(&b'\n') => return found + 1,
            b'\\' => from = found + 2,
            _ => return found + 1,
        }
    }
    bytes.len()
}

/// The line from `start` to its `\n` at `end`, as a line is read (`Scanner::line`):
/// without the `\r`s before its end and the byte-order marks at its start.
fn line_at(text: &str, start: usize, mut end: usize) -> &str {
    while end > start && text.as_bytes()[end - 1] == b'\r' {
        end -= 1;
    }
    let mut line = &text[start..end];
    while let Some(rest) = line.strip_prefix(BYTE_ORDER_MARK) {
        line = rest;
    }
    line
}
