//! The lines before a stop that a scan passes over at once: every line up to the first
//! that may declare a kept name (in a scan given its lines, [`super::scan_lines_keeping`])
//! or the one holding the stop (what the language says a line passed over must not hold),
//! their ends counted once per run however many lines that may declare cut it. Rust's runs,
//! in a scan given its lines, stop at `/*`, `"` and `#[` (`rust_runs.rs`). Where a word is next
//! written ([`Stop`]) is also what the scan of a whole Python text looks ahead to
//! (`python_text.rs`).

use super::scanner::Scanner;

/// What a run counted: where it ends (the start of the line holding its stop), where the
/// lines left in it start, and how many line ends are left.
#[derive(Default)]
pub(super) struct Run(Option<(usize, usize, usize)>);

/// The offset and number of the first line from `offset` (a line's start; line `number`)
/// that is not passed over: the first line that may declare a kept name, the one holding
/// byte `stop`, or the last whole line. The same when none is passed over.
pub(super) fn lines_before(
    scanner: &Scanner<'_>,
    run: &mut Run,
    offset: usize,
    number: u32,
    stop: usize,
) -> (usize, u32) {
    let bytes = scanner.text.as_bytes();
    // the lines before the next one that may declare (every line may, when no lines are
    // given, unless the stop says it may not)
    let wanted = scanner.lines.map_or(usize::MAX, |lines| {
        lines[lines.partition_point(|&l| l < number)..]
            .first()
            .map_or(usize::MAX, |&l| (l - number) as usize)
    });
    if wanted == 0 {
        return (offset, number);
    }
    // the lines before the one holding the stop
    let limit = memchr::memrchr(b'\n', &bytes[offset..stop]).map_or(offset, |k| offset + k + 1);
    let left = match run.0 {
        Some((end, from, left)) if end == limit && from <= offset => {
            left - memchr::memchr_iter(b'\n', &bytes[from..offset]).count()
        }
        _ => memchr::memchr_iter(b'\n', &bytes[offset..limit]).count(),
    };
    let (end, count) = if left <= wanted {
        (limit, left)
    } else {
        // the line end before the line that may declare
        let nth = memchr::memchr_iter(b'\n', &bytes[offset..limit]).nth(wanted - 1);
        (nth.map_or(limit, |k| offset + k + 1), wanted)
    };
    run.0 = Some((limit, end, left - count));
    (end, number + count as u32)
}

/// Where a word is next written in a text, from an offset on (searched for again only once
/// passed), and its searcher.
pub(super) struct Stop {
    at: Option<usize>,
    finder: memchr::memmem::Finder<'static>,
}

impl Stop {
    pub(super) fn new(bytes: &[u8], word: &'static [u8]) -> Stop {
        let finder = memchr::memmem::Finder::new(word);
        Stop {
            at: finder.find(bytes),
            finder,
        }
    }

    /// The first offset from `from` on where the word is written in `bytes` (the text
    /// the stop was made for; its length when the word is not).
    pub(super) fn next(&mut self, bytes: &[u8], from: usize) -> usize {
        if self.at.is_some_and(|at| at < from) {
            self.at = self.finder.find(&bytes[from..]).map(|k| from + k);
        }
        self.at.unwrap_or(bytes.len())
    }
}
