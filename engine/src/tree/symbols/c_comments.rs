//! The comments of a C or C++ text as the scanner reads them ([`Scanner::code_of`]), found
//! without reading its lines: a first call that scans a header for a key the header holds
//! only in comments (a licence's "source and binary forms") has nothing to scan. What it
//! saves on `/usr/include` is in `benches/RESULTS.md` (Fast-path A/Bs), measured with
//! `cargo run --release -p findbench-benches --example key_scan_speed -- ROOT KEY...`.
//!
//! The rules are `code_of`'s for these languages, byte for byte: a string (`"`, and the
//! backtick the scanner follows in every brace language) ends at its quote or at its
//! line's end; a `'` is a character literal when a `'` stands two bytes on or when a `\`
//! follows it, and is passed over otherwise; `//` comments out the rest of its line; `/*`
//! comments out everything to the next `*/`, across lines; in C++ a raw string
//! (`R"x(...)x"`) goes on to its delimiter, across lines. So a place inside a comment
//! found here is outside every line's code, and no name the scanner reads is there
//! (`every_comment_found_is_outside_the_code_the_scanner_reads`).
//!
//! [`Scanner::code_of`]: super::scanner::Scanner::code_of

use super::language::Language;
use super::lexical::skip_string;
use super::string_end::{cpp_raw_delimiter, cpp_raw_end};
use crate::text::byte_set::ByteSet;
use memchr::memmem;

/// The bytes that may open a string, a character literal or a comment.
const OPENERS: ByteSet = ByteSet::new(b"\"`'/");

/// Whether every one of `places` (offsets into `text`, ascending) is inside a comment. The
/// text is read only as far as the first place outside one.
pub(crate) fn all_in_comments(language: Language, text: &[u8], places: &[usize]) -> bool {
    let mut comments = Comments {
        text,
        at: 0,
        raw_strings: language.spec().strings.cpp_raw_strings,
    };
    let mut comment = comments.next();
    for &place in places {
        while comment.is_some_and(|(_, end)| end <= place) {
            comment = comments.next();
        }
        match comment {
            Some((start, _)) if start <= place => {}
            _ => return false,
        }
    }
    true
}

/// The comments of a C or C++ text in order: each as the range of its bytes (a `//`
/// comment to its line's end, not its `\n`; a `/*` comment to its `*/` included, or to the
/// text's end when it is left open).
pub(super) struct Comments<'t> {
    pub(super) text: &'t [u8],
    pub(super) at: usize,
    /// C++'s raw strings are followed.
    pub(super) raw_strings: bool,
}

impl Iterator for Comments<'_> {
    type Item = (usize, usize);

    fn next(&mut self) -> Option<(usize, usize)> {
        let text = self.text;
        loop {
            let i = self.at + OPENERS.find(text.get(self.at..)?)?;
            // the line the opener stands on: strings and literals end with it
            let line_end = memchr::memchr(b'\n', &text[i..]).map_or(text.len(), |k| i + k);
            let line = &text[..line_end];
            let raw = match text[i] {
                b'"' if self.raw_strings => cpp_raw_delimiter(text, i),
                _ => None,
            };
            self.at = match text[i] {
                b'"' if raw.is_some() => raw.map_or(text.len(), |delimiter| {
                    cpp_raw_end(text, i + delimiter.byte_len() + 2, &delimiter)
                        .unwrap_or(text.len())
                }),
                // `skip_string` stops at the closing quote, or at the line's end
                b'"' | b'`' => skip_string(line, i) + 1,
                b'\'' if line.get(i + 2) == Some(&b'\'') => i + 3,
                b'\'' if line.get(i + 1) == Some(&b'\\') => {
                    line[i + 2..]
                        .iter()
                        .position(|&c| c == b'\'')
                        .map_or(line_end, |p| i + 2 + p)
                        + 1
                }
                b'/' if line.get(i + 1) == Some(&b'/') => {
                    self.at = line_end;
                    return Some((i, line_end));
                }
                b'/' if line.get(i + 1) == Some(&b'*') => {
                    let end =
                        memmem::find(&text[i + 2..], b"*/").map_or(text.len(), |k| i + 2 + k + 2);
                    self.at = end;
                    return Some((i, end));
                }
                _ => i + 1,
            }
            .min(text.len());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::symbols::scanner::Scanner;

    /// The code `Scanner::code_of` reads on each line of `text`, as ranges of the text.
    fn code_ranges(language: Language, text: &str) -> Vec<(usize, usize)> {
        let mut scanner = Scanner::new(language, text, None, None, true);
        let mut ranges = Vec::new();
        let mut offset = 0;
        for raw in text.split_inclusive('\n') {
            let mut end = raw.len();
            while end > 0 && matches!(raw.as_bytes()[end - 1], b'\n' | b'\r') {
                end -= 1;
            }
            let code = scanner.code_of(&raw[..end]);
            // an empty code may be no slice of the line
            if !code.is_empty() {
                let start = code.as_ptr() as usize - text.as_ptr() as usize;
                ranges.push((start, start + code.len()));
            }
            offset += raw.len();
        }
        assert_eq!(offset, text.len());
        ranges
    }

    /// Texts that put comment openers in strings, character literals and backticks, leave
    /// strings and comments open, and close comments on lines below.
    const TRICKY: [&str; 7] = [
        "char q = '\"'; char *s = \"/*\"; int after_quote; // */\n",
        "int a; /* x */ int b; // c\nchar *s = \"/* no\"; int cursor; /* one\n two */ int d;\n",
        "char q = '\"'; /* c1 */ char e = '\\''; int f; // tail\nchar g = '/'; int h;\n",
        "char *u = \"open /* \n int cursor_here; /* c */\n#define X `/*` int y;\n",
        "x = 'a /* b */ c';\n/* open\n * still\n */ int z; /**/ int w; /*/ not closed */ int v;\n",
        "char *p = \"\\\"/*\"; int k;\r\n// a /* b\r\nint m; /* left open",
        "'\\\n/* after an escape left open */ int n;\n'\n'/' // x\n",
    ];

    /// C++ raw strings holding comment openers and quotes, over lines.
    const TRICKY_CPP: [&str; 2] = [
        "auto s = R\"x(\n/* not a comment \" )\" \n)x\"; int after; /* c */\n",
        "auto t = u8R\"(//)\"; int k; OR\"/*\"; int m; // end\n",
    ];

    /// Over texts made to trip the lexers and every C and C++ file the repository ships
    /// (or of the tree `FINDBENCH_C_TREE` names, by hand on a real one:
    /// `FINDBENCH_C_TREE=/usr/include cargo test --release -p findbench-engine --lib --
    /// every_comment_found`), no comment found overlaps the code the scanner reads.
    #[test]
    fn every_comment_found_is_outside_the_code_the_scanner_reads() {
        let mut texts: Vec<(Language, String)> = TRICKY
            .iter()
            .map(|t| (Language::C, t.to_string()))
            .chain(TRICKY_CPP.iter().map(|t| (Language::Cpp, t.to_string())))
            .collect();
        let sources = crate::own_sources::tree_sources(
            "FINDBENCH_C_TREE",
            &["corpora/fixtures"],
            &[Language::C, Language::Cpp],
        );
        texts.extend(
            sources
                .into_iter()
                .map(|(_, language, text)| (language, text)),
        );
        assert!(texts.len() > 12, "{}", texts.len());
        let (mut comments, mut commented) = (0, 0);
        for (language, text) in &texts {
            let (n, bytes) = every_comment_is_outside_the_code(*language, text);
            comments += n;
            commented += bytes;
        }
        assert!(comments > 40 && commented > 1_500, "{comments} {commented}");
        eprintln!("{} texts, {comments} comments", texts.len());
    }

    /// Asserts that no comment [`Comments`] finds in `text` overlaps the code the scanner
    /// reads; gives how many comments and commented bytes there are.
    fn every_comment_is_outside_the_code(language: Language, text: &str) -> (usize, usize) {
        let code = code_ranges(language, text);
        let (mut next, mut comments, mut commented) = (0, 0, 0);
        for (start, end) in (Comments {
            text: text.as_bytes(),
            at: 0,
            raw_strings: language.spec().strings.cpp_raw_strings,
        }) {
            assert!(start < end && end <= text.len(), "{start}..{end}: {text}");
            // the code ranges are in order: those ending before the comment pass
            while next < code.len() && code[next].1 <= start {
                next += 1;
            }
            if let Some(&(from, to)) = code.get(next) {
                assert!(
                    from >= end,
                    "comment {:?} overlaps code {:?}",
                    &text[start..end],
                    &text[from..to]
                );
            }
            comments += 1;
            commented += end - start;
        }
        (comments, commented)
    }

    #[test]
    fn places_in_comments_are_told_from_places_in_code() {
        let text = "/* cursor */ int a;\n// cursor\nint cursor; /* cursor\n */\nchar *s = \"/* cursor */\";\n";
        let at = |nth: usize| text.match_indices("cursor").nth(nth).unwrap().0;
        let bytes = text.as_bytes();
        assert!(all_in_comments(Language::C, bytes, &[at(0), at(1), at(3)]));
        assert!(!all_in_comments(Language::C, bytes, &[at(0), at(2)]));
        // in a string: no comment
        assert!(!all_in_comments(Language::C, bytes, &[at(4)]));
        assert!(all_in_comments(Language::C, bytes, &[]));
        // a place past the last comment
        assert!(!all_in_comments(
            Language::C,
            bytes,
            &[at(0), text.len() - 1]
        ));
        // after a C++ raw string that holds `/*`: no comment
        let text = "auto s = R\"x(/* )x\";\nint cursor;\n";
        let place = text.find("cursor").unwrap();
        assert!(!all_in_comments(Language::Cpp, text.as_bytes(), &[place]));
    }
}
