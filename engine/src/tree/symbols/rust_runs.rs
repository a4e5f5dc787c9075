//! Runs of Rust lines a scan that knows its lines passes over at once.
//!
//! A scan of Rust given the lines that may declare a kept name ([`super::scan_lines_keeping`])
//! skims every other line ([`Scanner::passes_over_quickly`]): outside a block comment, with
//! no test attribute waiting, such a line changes nothing but the continuation flag unless
//! it opens a block comment (`/*`), a string that may span lines (`"`) or is an attribute
//! (`#[`); no brace is counted. Read line by line, the lines of a file
//! scanned for a common word (most of it) cost a `memchr` for their end and a look at each:
//! most of the scan. So the lines up to the next line that may declare, or to the next line
//! holding `/*`, `"` or `#[` anywhere, are passed over together: their ends counted, the last
//! one's continuation kept. What the scan finds is the same (held by the test that compares
//! a skimming scan with one that reads every line).

use super::lexical;
use super::line_runs::{lines_before, Run, Stop};
use super::scanner::Scanner;

/// Where the next `/*`, `"` and `#[` of a text are, from an offset on, and the run of
/// lines before the next of them.
pub(super) struct Openers<'t> {
    bytes: &'t [u8],
    comment: Stop,
    quote: Stop,
    attribute: Stop,
    /// The run before the next opener.
    run: Run,
}

impl<'t> Openers<'t> {
    pub(super) fn new(bytes: &'t [u8]) -> Openers<'t> {
        Openers {
            bytes,
            comment: Stop::new(bytes, b"/*"),
            quote: Stop::new(bytes, b"\""),
            attribute: Stop::new(bytes, b"#["),
            run: Run::default(),
        }
    }

    /// The first offset from `from` on where `/*`, `"` or `#[` is written (the text's
    /// length when none is).
    fn next(&mut self, from: usize) -> usize {
        let bytes = self.bytes;
        self.comment
            .next(bytes, from)
            .min(self.quote.next(bytes, from))
            .min(self.attribute.next(bytes, from))
    }
}

/// Passes over the lines from `offset` (a line's start; line `number`) that need no look
/// ([`Scanner::passes_over_quickly`] without reading them): up to the first line that may
/// declare a kept name, the first line holding `/*`, `"` or `#[`, or the last whole line.
/// Returns the offset and number of the first line not passed over (the same when none
/// is), and sets the scanner's continuation flag from the last line passed over.
pub(super) fn pass_over_run(
    scanner: &mut Scanner<'_>,
    openers: &mut Openers<'_>,
    offset: usize,
    number: u32,
) -> (usize, u32) {
    if scanner.test_attribute || scanner.block_comment || scanner.open_string.is_some() {
        return (offset, number);
    }
    let opener = openers.next(offset);
    let (end, after) = lines_before(scanner, &mut openers.run, offset, number, opener);
    if end == offset {
        return (offset, number);
    }
    // the last line passed over, without its line end, says whether the next continues it
    let last = &scanner.text[..end - 1];
    let start = memchr::memrchr(b'\n', last.as_bytes()).map_or(0, |k| k + 1);
    let last = last[start..].trim_end_matches('\r');
    scanner.continued = lexical::trim_end(last).ends_with('\\');
    (end, after)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openers_are_found_from_an_offset_on() {
        let text = b"a /* b\n#[test]\nc /* d \"";
        let mut openers = Openers::new(text);
        assert_eq!(openers.next(0), 2);
        assert_eq!(openers.next(3), 7);
        assert_eq!(openers.next(8), 17);
        assert_eq!(openers.next(18), 22);
        assert_eq!(openers.next(23), text.len());
    }
}
