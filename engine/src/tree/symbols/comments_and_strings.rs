//! A whole text cut into code, comments and strings as the symbol scanner reads them: what
//! the field split (`retrieval/fields.rs`) ranks as prose. The scanner reads comments and
//! strings a line at a time (`Scanner::code_of` for the brace languages, the line readers of
//! `ruby.rs` and `shell.rs`, `python_text.rs`); this file follows the same rules across a
//! whole text, jumping from one byte that may open a string or a comment to the next, from
//! the language's entry in the table (`languages.rs`) and the scanner's own ends of strings
//! and comments (`string_end.rs`, `lexical.rs`, `heredoc.rs`, `python.rs`). Where each line
//! starts (in code, a comment or a string) and the code the scanner reads on it are held to
//! the scanner's reading by `the_spans_are_read_as_the_scanner_reads`.

use super::heredoc::heredoc_opened_in;
use super::language::{
    CommentSyntax, Heredocs, SingleQuote, StringSyntax, TripleQuotes, HASH, PLAIN_STRINGS, SLASHES,
};
use super::languages::LanguageSpec;
use super::lexical::{comment_end, nested_comment_end, regex_end, trim};
use super::python::triple_quote;
use super::string_end::{
    cpp_raw_delimiter, cpp_raw_end, heredoc_at, raw_hashes, string_end, Close, Label, Template,
};
use crate::text::byte_set::ByteSet;

/// What a run of a text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Span {
    Code,
    Comment,
    String,
}

/// How a text's comments and strings are written: a language's, from its entry in the
/// table, or that of source files of no language the table holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Lexicon {
    pub(crate) comments: CommentSyntax,
    pub(crate) strings: StringSyntax,
    /// `/` may open a regular expression, and a backtick a template literal (TypeScript,
    /// JavaScript).
    pub(crate) script: bool,
}

impl Lexicon {
    /// Source files of no language in the table whose comments start with `#` (Perl, R,
    /// CMake...): `#` comments, `"` and `'` strings to their line's end.
    pub(crate) const HASH_SOURCE: Lexicon = Lexicon {
        comments: HASH,
        strings: StringSyntax {
            single_quote: SingleQuote::String,
            backticks: false,
            ..PLAIN_STRINGS
        },
        script: false,
    };

    /// Other source files of no language in the table: `//` and `/* */` comments, `"` and
    /// `'` strings to their line's end.
    pub(crate) const SLASH_SOURCE: Lexicon = Lexicon {
        comments: SLASHES,
        strings: StringSyntax {
            single_quote: SingleQuote::String,
            backticks: false,
            ..PLAIN_STRINGS
        },
        script: false,
    };
}

impl LanguageSpec {
    /// How the language writes its comments and strings.
    pub(crate) fn lexicon(&self) -> Lexicon {
        Lexicon {
            comments: self.comments,
            strings: self.strings,
            script: self.script,
        }
    }
}

/// Calls `emit(start, end, span)` for the consecutive runs of `text` that are code,
/// comments and strings, in order, none empty. A comment or a string starts at its first
/// delimiter and ends past its last; one left open at its line's end (a `//` or `#`
/// comment, a string that spans no lines) ends before the `\n`; a here-document of Ruby or
/// shell starts at the `\n` of the line that opens it and ends before the `\n` of the line
/// that closes it; a block comment or a string that spans lines left open ends with the
/// text. Character literals and regular expressions are code.
pub(crate) fn spans(text: &str, lexicon: &Lexicon, mut emit: impl FnMut(usize, usize, Span)) {
    let mut lexer = Lexer::new(text, lexicon);
    let bytes = text.as_bytes();
    let len = bytes.len();
    let openers = lexer.openers();
    let mut push = |start: usize, end: usize, span: Span| {
        if end > start {
            emit(start, end, span);
        }
    };
    let (mut code_from, mut i) = (0, 0);
    loop {
        // a here-document opened on this line starts at its end; a `=begin` line where it
        // starts
        let bound = lexer.pending.map_or(len, |(_, line_end)| line_end);
        let begin = lexer.next_begin(i);
        let stop = bound.min(begin);
        let step = match openers.find(&bytes[i..stop]) {
            Some(k) => lexer.step(i + k),
            None if stop == len => break,
            None if stop == begin => Step::Open {
                start: begin,
                end: lexer.block_lines_end(begin),
                span: Span::Comment,
            },
            None => {
                let (label, line_end) = lexer.pending.take().unwrap_or(("", len));
                Step::Open {
                    start: line_end,
                    end: lexer.here_document_end(line_end, label),
                    span: Span::String,
                }
            }
        };
        match step {
            Step::Pass(to) => i = to.min(len),
            Step::Open { start, end, span } => {
                push(code_from, start, Span::Code);
                let heredoc = match span {
                    Span::String if lexer.lexicon.strings.heredocs == Heredocs::TripleAngle => {
                        lexer.php_string(start, end)
                    }
                    _ => None,
                };
                let end = match heredoc {
                    // the string to its `<<<`, then the heredoc
                    Some((at, heredoc_end)) => {
                        push(start, at, span);
                        push(at, heredoc_end, span);
                        heredoc_end
                    }
                    None => {
                        push(start, end, span);
                        end
                    }
                };
                lexer.closed(start, end);
                code_from = end;
                i = end;
            }
        }
    }
    push(code_from, len, Span::Code);
}

/// What the byte at an opener does: opens a comment or a string (`start..end`), or is
/// code, the next byte to look at `Pass`ed to.
enum Step {
    Open {
        start: usize,
        end: usize,
        span: Span,
    },
    Pass(usize),
}

struct Lexer<'t> {
    text: &'t str,
    bytes: &'t [u8],
    lexicon: &'t Lexicon,
    /// The start of the last line a here-document's opener was looked for on (its first
    /// opener alone opens one, as the scanner reads a line).
    heredoc_tried: usize,
    /// A `<<EOT` here-document opened on the line that ends at this offset: its label.
    pending: Option<(&'t str, usize)>,
    /// Where the next line opening a block comment by its word starts (`=begin`; `None`
    /// when no line does), searched for again only once passed (`None` until searched).
    begin: Option<Option<usize>>,
    /// Where the code the scanner reads on a line of PHP starts: past a comment or string
    /// that closes on it, and past the comments that open its code (the line's start, the
    /// code's start).
    code_start: (usize, usize),
    /// The start of the last line whose code a comment that follows code cut (PHP).
    cut_line: Option<usize>,
}

impl<'t> Lexer<'t> {
    fn new(text: &'t str, lexicon: &'t Lexicon) -> Lexer<'t> {
        Lexer {
            text,
            bytes: text.as_bytes(),
            lexicon,
            heredoc_tried: usize::MAX,
            pending: None,
            begin: None,
            code_start: (0, 0),
            cut_line: None,
        }
    }

    /// The bytes that may open a comment or a string, or say what follows is none.
    fn openers(&self) -> ByteSet {
        let (comments, strings) = (&self.lexicon.comments, &self.lexicon.strings);
        let mut set = [0u8; 6];
        let mut len = 0;
        let block = comments.block.filter(|_| !comments.block_at_line_start);
        for (byte, on) in [
            (comments.line.as_bytes()[0], true),
            (b'/', block.is_some() || self.lexicon.script),
            (b'"', true),
            (b'\'', true),
            (b'`', strings.backticks || strings.backtick_spans_lines),
            (b'<', strings.heredocs != Heredocs::None),
        ] {
            if on && !set[..len].contains(&byte) {
                set[len] = byte;
                len += 1;
            }
        }
        ByteSet::new(&set[..len])
    }

    /// The end of the line `at` is on: its `\n`, or the text's end.
    fn line_end(&self, at: usize) -> usize {
        memchr::memchr(b'\n', &self.bytes[at..]).map_or(self.bytes.len(), |k| at + k)
    }

    fn line_start(&self, at: usize) -> usize {
        memchr::memrchr(b'\n', &self.bytes[..at]).map_or(0, |k| k + 1)
    }

    /// The line from `start` to its `\n` at `end` as the scanner reads it: without the `\r`s
    /// before its end.
    fn line(&self, start: usize, mut end: usize) -> &'t str {
        while end > start && self.bytes[end - 1] == b'\r' {
            end -= 1;
        }
        &self.text[start..end]
    }

    fn step(&mut self, at: usize) -> Step {
        let bytes = self.bytes;
        let strings = self.lexicon.strings;
        let open = |end: usize, span: Span| Step::Open {
            start: at,
            end,
            span,
        };
        match bytes[at] {
            b'"' => match verbatim_prefix(bytes, at).filter(|_| strings.verbatim) {
                // it opens at its `@` (`$@`, `@$`)
                Some(prefix) => Step::Open {
                    start: at - prefix,
                    end: self.across_lines(at + 1, Close::Verbatim),
                    span: Span::String,
                },
                None => open(self.string_end(at), Span::String),
            },
            b'\'' => match strings.single_quote {
                SingleQuote::String if strings.quotes_span_lines => {
                    open(self.across_lines(at + 1, Close::Quote(b'\'')), Span::String)
                }
                SingleQuote::String
                    if strings.triple_quotes == TripleQuotes::DoubleAndSingle
                        && bytes[at..].starts_with(b"'''") =>
                {
                    open(self.triple_end(at, b'\''), Span::String)
                }
                SingleQuote::String => open(self.line_string_end(at), Span::String),
                SingleQuote::Character | SingleQuote::CharacterOrLifetime => {
                    Step::Pass(self.character_end(at))
                }
            },
            b'`' if strings.backtick_spans_lines && self.lexicon.script => {
                open(self.template_end(at + 1), Span::String)
            }
            b'`' if strings.backtick_spans_lines => {
                open(self.across_lines(at + 1, Close::Backtick), Span::String)
            }
            b'`' if strings.backticks => open(self.line_string_end(at), Span::String),
            b'<' => self.here_document_at(at),
            b'/' => self.slash(at),
            b'#' if self.lexicon.comments.line == "#" => {
                let after_space = at == 0 || bytes[at - 1].is_ascii_whitespace();
                if self.lexicon.comments.line_after_space && !after_space {
                    Step::Pass(at + 1)
                } else {
                    open(self.line_end(at), Span::Comment)
                }
            }
            _ => Step::Pass(at + 1),
        }
    }

    /// Where the string whose `"` is at `at` ends, as `Scanner::code_of` reads the kinds a
    /// language has (but C#'s verbatim strings): three quotes, a C++ or Rust raw string, a
    /// quote that spans lines, else a string to its quote or its line's end.
    fn string_end(&self, at: usize) -> usize {
        let bytes = self.bytes;
        let strings = &self.lexicon.strings;
        if strings.triple_quotes != TripleQuotes::None && bytes[at..].starts_with(b"\"\"\"") {
            return self.triple_end(at, b'"');
        }
        if strings.cpp_raw_strings {
            // its delimiter stands on its line
            let line = &bytes[..self.line_end(at)];
            return match cpp_raw_delimiter(line, at) {
                Some(delimiter) => cpp_raw_end(bytes, at + delimiter.byte_len() + 2, &delimiter)
                    .unwrap_or(bytes.len()),
                None => self.line_string_end(at),
            };
        }
        if strings.raw_strings {
            if let Some(hashes) = raw_hashes(bytes, at) {
                return self.across_lines(at + 1, Close::Raw(hashes));
            }
        }
        if strings.quotes_span_lines {
            return self.across_lines(at + 1, Close::Quote(b'"'));
        }
        self.line_string_end(at)
    }

    /// Where a string that spans lines, read from `from`, ends: past its close, or at the
    /// text's end. Its close never spans two lines, so the text is read at once.
    fn across_lines(&self, from: usize, close: Close) -> usize {
        string_end(self.text, from, close).unwrap_or(self.bytes.len())
    }

    /// Where a template literal read from `from` ends, a line at a time (an expression's
    /// `//` comments out its line, a string in it ends with it).
    fn template_end(&self, mut from: usize) -> usize {
        let mut close = Close::Template(Template::default());
        loop {
            let end = self.line_end(from);
            match string_end(self.line(from, end), 0, close) {
                Ok(k) => return from + k,
                Err(open) => close = open,
            }
            if end == self.bytes.len() {
                return end;
            }
            from = end + 1;
        }
    }

    /// Where the triple-quoted string opening at `at` ends: past the first three `quote`s
    /// after its own (the scanner's `python_text` and `Close::TripleQuotes`).
    fn triple_end(&self, at: usize, quote: u8) -> usize {
        triple_quote(&self.bytes[at + 3..], quote).map_or(self.bytes.len(), |k| at + 3 + k + 3)
    }

    /// Where a string that ends with its line, opened at `at`, ends: past its quote, or
    /// before its line's `\n` (`python_text::after_string`, `lexical::skip_string`'s
    /// reading: `\` escapes the byte after it on its line).
    fn line_string_end(&self, at: usize) -> usize {
        super::python_text::after_string(self.bytes, at)
    }

    /// Where the code goes on after a `'` that opens no string (`Scanner::code_of`): past a
    /// character literal (`'a'`, `'\n'`) on its line, else past the `'` (a lifetime, a digit
    /// separator).
    fn character_end(&self, at: usize) -> usize {
        let bytes = self.bytes;
        match bytes.get(at + 1) {
            Some(b'\n') | None => at + 1,
            _ if bytes.get(at + 2) == Some(&b'\'') => at + 3,
            Some(b'\\') => {
                let end = self.line_end(at);
                let line = self.line(at, end).as_bytes();
                line.get(2..)
                    .and_then(|rest| memchr::memchr(b'\'', rest))
                    .map_or(end, |k| at + 2 + k + 1)
            }
            _ => at + 1,
        }
    }

    /// A `/` in code: a regular expression (passed over), a comment, or code.
    fn slash(&mut self, at: usize) -> Step {
        let bytes = self.bytes;
        let comments = self.lexicon.comments;
        let next = bytes.get(at + 1).copied();
        if self.lexicon.script && !matches!(next, Some(b'/' | b'*') | None) {
            let start = self.line_start(at);
            let end = self.line_end(at);
            if let Some(close) = regex_end(self.line(start, end).as_bytes(), at - start) {
                return Step::Pass(start + close + 1);
            }
        }
        let comment = |end: usize| Step::Open {
            start: at,
            end,
            span: Span::Comment,
        };
        match next {
            Some(b'/') if comments.line == "//" => comment(self.line_end(at)),
            Some(b'*') if comments.block.is_some() && !comments.block_at_line_start => {
                let end = if comments.nested {
                    nested_comment_end(bytes, at + 2, &mut 1)
                } else {
                    comment_end(&bytes[at + 2..]).map(|k| at + 2 + k + 2)
                }
                .unwrap_or(bytes.len());
                if self.lexicon.strings.heredocs == Heredocs::TripleAngle {
                    self.block_comment_opened(at, end);
                }
                comment(end)
            }
            _ => Step::Pass(at + 1),
        }
    }

    /// Where the next line from `from` on that opens a block comment by its word (`=begin`)
    /// starts (the text's length when none does, or the language has no such comment).
    fn next_begin(&mut self, from: usize) -> usize {
        let len = self.bytes.len();
        let comments = &self.lexicon.comments;
        let word = match comments.block {
            Some((open, _)) if comments.block_at_line_start => open.as_bytes(),
            _ => return len,
        };
        let passed = match self.begin {
            None => true,
            Some(next) => next.is_some_and(|at| at < from),
        };
        if passed {
            let mut at = from;
            self.begin = Some(loop {
                match memchr::memmem::find(&self.bytes[at..], word) {
                    Some(k) if at + k == 0 || self.bytes[at + k - 1] == b'\n' => {
                        break Some(at + k)
                    }
                    Some(k) => at += k + 1,
                    None => break None,
                }
            });
        }
        self.begin.flatten().unwrap_or(len)
    }

    /// Where the block comment whose opening line starts at `start` ends: before the `\n`
    /// of the line starting with its closing word (`=end`), or at the text's end.
    fn block_lines_end(&mut self, start: usize) -> usize {
        let close = self.lexicon.comments.block.map_or("", |(_, close)| close);
        let mut line = self.line_end(start);
        while line < self.bytes.len() {
            let end = self.line_end(line + 1);
            if self.text[line + 1..end].starts_with(close) {
                return end;
            }
            line = end;
        }
        line
    }

    /// The first `<` of `<<<EOT` (PHP) or `<<EOT` (Ruby, shell) at `at`: a here-document
    /// opened where the scanner finds one. PHP's opens at its `<<<`, on a line whose code
    /// ends with it (`Scanner::code_of`); Ruby's and shell's on the line below one whose
    /// first `<<` opens one (`heredoc.rs`), once this line's comments and strings are read.
    fn here_document_at(&mut self, at: usize) -> Step {
        let bytes = self.bytes;
        if bytes.get(at + 1) != Some(&b'<') {
            return Step::Pass(at + 1);
        }
        let start = self.line_start(at);
        if self.heredoc_tried == start {
            return Step::Pass(at + 1);
        }
        self.heredoc_tried = start;
        let end = self.line_end(at);
        match self.lexicon.strings.heredocs {
            Heredocs::DoubleAngle { .. } => {
                let line = trim(self.line(start, end));
                if let Some(label) = heredoc_opened_in(&self.lexicon.strings, line) {
                    self.pending = Some((label, end));
                }
            }
            Heredocs::TripleAngle => {
                if let Some(label) = self.php_heredoc(at, start, end) {
                    return Step::Open {
                        start: at,
                        end: self.php_heredoc_end(end, label),
                        span: Span::String,
                    };
                }
            }
            Heredocs::None => {}
        }
        Step::Pass(at + 1)
    }

    /// The label of the PHP heredoc whose `<<<` is at `at` on the line from `start` to
    /// `end`, when the scanner reads one there: the first `<<<` of the code it reads on the
    /// line (from [`Lexer::code_start`] to the first comment after code), its rest blank.
    fn php_heredoc(&self, at: usize, start: usize, end: usize) -> Option<Label> {
        if self.cut_line == Some(start) {
            return None;
        }
        let from = match self.code_start {
            (line, from) if line == start => from,
            _ => start,
        };
        if at < from {
            return None;
        }
        let code = self.line(from, end);
        let after = at - from;
        let cut = [&b"//"[..], b"/*"]
            .iter()
            .filter_map(|c| memchr::memmem::find(&code.as_bytes()[after..], c))
            .min()
            .map_or(code.len(), |k| after + k);
        let (found, label) = heredoc_at(&code[..cut])?;
        (from + found == at).then_some(label)
    }

    /// A PHP string from `start` to `end` on one line: a `<<<` in it may be the first of
    /// the code the scanner reads on the line (which holds the strings on it), and open a
    /// heredoc there. Returns where its `<<<` is and where it ends.
    fn php_string(&mut self, start: usize, end: usize) -> Option<(usize, usize)> {
        let line_start = self.line_start(start);
        let line_end = self.line_end(start);
        if end > line_end || self.heredoc_tried == line_start {
            return None;
        }
        let at = start + memchr::memmem::find(&self.bytes[start..end], b"<<<")?;
        self.heredoc_tried = line_start;
        let label = self.php_heredoc(at, line_start, line_end)?;
        Some((at, self.php_heredoc_end(line_end, label)))
    }

    /// Where the PHP heredoc opened on the line that ends at `end` ends: past its label on
    /// the line that closes it, or at the text's end.
    fn php_heredoc_end(&self, mut end: usize, label: Label) -> usize {
        while end < self.bytes.len() {
            let from = end + 1;
            end = self.line_end(from);
            if let Ok(k) = string_end(self.line(from, end), 0, Close::Heredoc(label)) {
                return from + k;
            }
        }
        end
    }

    /// Where the Ruby or shell here-document that starts at the `\n` at `start` ends: before
    /// the `\n` of the line that holds its label alone, or at the text's end.
    fn here_document_end(&self, mut end: usize, label: &str) -> usize {
        while end < self.bytes.len() {
            let from = end + 1;
            end = self.line_end(from);
            if trim(self.line(from, end)) == label {
                return end;
            }
        }
        end
    }

    /// A comment or a string from `start` to `end` was read: in PHP, the code the scanner
    /// reads on the line it closes on starts past it when it opened on a line above.
    fn closed(&mut self, start: usize, end: usize) {
        if self.lexicon.strings.heredocs == Heredocs::TripleAngle {
            if let Some(k) = memchr::memrchr(b'\n', &self.bytes[start..end]) {
                self.code_start = (start + k + 1, end);
            }
        }
    }

    /// A block comment from `at` to `end` opens in PHP: one before the line's code moves
    /// the start of its code past it; one after code cuts the code there (`code_of`).
    fn block_comment_opened(&mut self, at: usize, end: usize) {
        let start = self.line_start(at);
        let from = match self.code_start {
            (line, from) if line == start => from,
            _ => start,
        };
        if !self.text[from..at].trim().is_empty() {
            self.cut_line = Some(start);
        } else if end <= self.line_end(at) {
            self.code_start = (start, end);
        }
    }
}

/// How many bytes before the `"` at `i` open a C# verbatim string with it, as the scanner
/// reads one: `@"`, or two of `@` and `$` (`$@"`, `@$"`).
fn verbatim_prefix(bytes: &[u8], i: usize) -> Option<usize> {
    let before = |k: usize| i.checked_sub(k).map(|at| bytes[at]);
    match (before(2), before(1)) {
        (Some(b'@' | b'$'), Some(b'@' | b'$')) => Some(2),
        (_, Some(b'@')) => Some(1),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::symbols::languages::{Recogniser, LANGUAGES};
    use crate::tree::symbols::scanner::Scanner;
    use crate::tree::symbols::tests::python_string_after;
    use crate::tree::Language;

    /// What the spans make of each byte of a text: its span, and where the run of comments
    /// and strings holding it starts (its own offset for code).
    struct Read {
        span: Vec<Span>,
        run_start: Vec<usize>,
        /// Each string's (start, end), by its first byte.
        strings: Vec<(usize, usize)>,
    }

    fn read(text: &str, lexicon: &Lexicon) -> Read {
        let len = text.len();
        let mut read = Read {
            span: vec![Span::Code; len],
            run_start: (0..len).collect(),
            strings: Vec::new(),
        };
        let mut last_end = 0;
        spans(text, lexicon, |start, end, span| {
            assert!(start == last_end && start < end && end <= len, "{text:?}");
            last_end = end;
            let run = match read.run_start.get(start.wrapping_sub(1)) {
                Some(&run) if start > 0 && read.span[start - 1] != Span::Code => run,
                _ => start,
            };
            for b in start..end {
                read.span[b] = span;
                if span != Span::Code {
                    read.run_start[b] = run;
                }
            }
            if span == Span::String {
                read.strings.push((start, end));
            }
        });
        assert_eq!(last_end, len, "{text:?}");
        read
    }

    impl Read {
        /// The byte at `at` is in a comment or a string that opened before `line`.
        fn inside(&self, at: usize, line: usize) -> bool {
            self.span[at] != Span::Code && self.run_start[at] < line
        }

        /// The string holding the byte at `at`.
        fn string(&self, at: usize) -> (usize, usize) {
            let k = self.strings.partition_point(|&(start, _)| start <= at);
            self.strings[k - 1]
        }
    }

    /// Asserts that the spans of `text` read its lines as the scanner does: each line starts
    /// in a comment or a string that opened above it exactly where the scanner's state says
    /// so, and (the brace languages) the code `Scanner::code_of` keeps of a line holds no
    /// comment and no string that goes on past its line, and what it cuts off is comments
    /// and strings. Returns how many lines were compared.
    fn reads_as_the_scanner(language: Language, text: &str) -> usize {
        let spec = language.spec();
        let read = read(text, &spec.lexicon());
        let mut scanner = Scanner::new(language, text, None, None, false);
        let mut python_open = None;
        let mut offset = 0;
        let mut lines = 0;
        for (number, raw) in (1..).zip(text.split_inclusive('\n')) {
            let start = offset;
            offset += raw.len();
            let line = raw.trim_end_matches(['\n', '\r']);
            let end = start + line.len();
            let inside = match spec.recogniser {
                Recogniser::Code(_) => scanner.block_comment || scanner.open_string.is_some(),
                Recogniser::Lines(_) => scanner.block_comment || scanner.heredoc.is_some(),
                Recogniser::Text(_) => python_open.is_some(),
            };
            let context = || format!("{language:?} line {number} of {text:?}");
            assert_eq!(read.inside(start, start), inside, "{}", context());
            lines += 1;
            match spec.recogniser {
                Recogniser::Code(_) => {
                    let code = scanner.code_of(line);
                    let (from, to) = if code.is_empty() {
                        (end, end)
                    } else {
                        let from = code.as_ptr() as usize - text.as_ptr() as usize;
                        (from, from + code.len())
                    };
                    for at in from..to {
                        let in_line_string = read.span[at] == Span::String && {
                            // (its `\r`s before the line's end are the line's)
                            let (s, e) = read.string(at);
                            s >= start && e <= start + raw.trim_end_matches('\n').len()
                        };
                        assert!(
                            read.span[at] == Span::Code || in_line_string,
                            "{:?} in {code:?}: {}",
                            read.span[at],
                            context()
                        );
                    }
                    // what it cuts off before its code, and the first byte after it
                    let prose = |at: usize| read.span[at] != Span::Code;
                    for (k, c) in text[start..from].char_indices() {
                        assert!(c.is_whitespace() || prose(start + k), "{}", context());
                    }
                    let after = text[to..end]
                        .char_indices()
                        .find(|(_, c)| !c.is_whitespace());
                    if let Some((k, _)) = after {
                        assert!(prose(to + k), "after {code:?}: {}", context());
                    }
                }
                Recogniser::Lines(read_line) => read_line(&mut scanner, line, number),
                Recogniser::Text(_) => python_open = python_string_after(line, python_open),
            }
        }
        lines
    }

    /// Pieces of texts that open and close every kind of comment and string the table
    /// knows, in and out of one another.
    const PIECES: &[&str] = &[
        "a", " x_y ", "\n", "\r\n", "\"", "'", "`", "\"\"\"", "'''", "/*", "*/", "//", "#", "\\",
        "r#\"", "\"#", "R\"x(", ")x\"", "@\"", "$@\"", "${", "}", "<<<EOT\n", "\nEOT;", "<<EOF\n",
        "\nEOF\n", "=begin\n", "\n=end\n", "= /r\"e/", "$#", "'\\''", "é",
    ];

    /// Texts made to trip a lexer, one or more languages' forms each.
    const TRICKY: &[&str] = &[
        "let s = \"a\n// b\";\nlet t = r#\"c \"// d\"#; /* e /* f */ g */ h\n",
        "auto s = R\"x(\n/* not \" )\" \n)x\"; int k; /* c */ char q = '\"';\n",
        "const t = `a ${ `b ${x}` } // c\n d`; // e\nconst r = /\"/g; f();\n",
        "s := `raw // no\ncomment` // yes\nfunc F() {}\n",
        "var p = @\"C:\\dir\n\"\"q\"\"\"; /* x\n y */ class A {}\n",
        "$a = <<<EOT\n/* x\nEOT;\n$b = 'c\n// d'; /* e */ $f = <<<'G'\nG;\n",
        "cat <<EOF\n# x\nEOF\necho ${#a} \"# b\" # c\ncat <<- 'E' >f\n  E\n",
        "x = <<~SQL\n  # no\nSQL\n=begin\ndef f\n=end\ndef g; end # h\n",
        "def f():\n    \"\"\"a # b\n    '''\"\"\"\n    s = 'c \\\n# d'\n",
        "val s = \"\"\"a /* b\n c \"\"\" + 'x' // d\nfun f() {}\n",
    ];

    /// For every language of the table, on texts made of pieces that open and close every
    /// comment and string in every order, on texts made to trip a lexer and on the source
    /// files this repository ships, the spans start each line in a comment or a string
    /// where the scanner does, and cut off of a line's code what it does.
    #[test]
    fn the_spans_are_read_as_the_scanner_reads() {
        let mut lines = 0;
        let pieced = crate::text::pieced_texts(PIECES, 4000, 14, 7);
        for spec in LANGUAGES {
            for text in pieced
                .iter()
                .map(String::as_str)
                .chain(TRICKY.iter().copied())
            {
                lines += reads_as_the_scanner(spec.language, text);
            }
        }
        let every: Vec<Language> = LANGUAGES.iter().map(|spec| spec.language).collect();
        let shipped = crate::own_sources::tree_sources(
            "FINDBENCH_LEXER_TREE",
            &[
                "corpora/fixtures",
                "scripts",
                "benches",
                "engine/src/retrieval",
            ],
            &every,
        );
        for (_, language, text) in &shipped {
            lines += reads_as_the_scanner(*language, text);
        }
        assert!(
            shipped.len() > 30 && lines > 200_000,
            "{} {lines}",
            shipped.len()
        );
    }

    /// The source files of no language the table holds: comments and strings by their
    /// family.
    #[test]
    fn source_of_no_language_is_read_by_its_family() {
        fn cut<'t>(text: &'t str, lexicon: &Lexicon) -> Vec<(&'t str, Span)> {
            let mut out = Vec::new();
            spans(text, lexicon, |s, e, span| out.push((&text[s..e], span)));
            out
        }
        assert_eq!(
            cut("my $x = 'a # b'; # c\n", &Lexicon::HASH_SOURCE),
            [
                ("my $x = ", Span::Code),
                ("'a # b'", Span::String),
                ("; ", Span::Code),
                ("# c", Span::Comment),
                ("\n", Span::Code),
            ]
        );
        assert_eq!(
            cut("x = 'a // b' /* c */", &Lexicon::SLASH_SOURCE),
            [
                ("x = ", Span::Code),
                ("'a // b'", Span::String),
                (" ", Span::Code),
                ("/* c */", Span::Comment),
            ]
        );
    }
}
