//! Identifier-aware tokens for ranking files by the words of a task.
//!
//! Text and questions go through the same steps, so that their terms compare: runs of
//! letters, digits and `_` are cut at `_`, at CamelCase humps (`parseArgs` -> `parse`,
//! `args`; `HTTPServer` -> `http`, `server`) and at any other character (`no-ignore-vcs`
//! -> `no`, `ignore`, `vcs`); each part is folded to lower case and reduced to its stem
//! (`crate::text::stem`), so `threads` in a question meets `num_threads` in code. Parts of
//! one character and parts made only of digits are dropped: they name nothing a reader
//! would search for.

use super::word_parts::part_ranges;
use crate::text::caseless::CaselessFinder;
use crate::text::stem::stem_prefix;

/// Calls `emit(term, byte_offset)` for every term of `text`, in order.
pub fn for_each_term(text: &str, mut emit: impl FnMut(String, usize)) {
    part_ranges(text.as_bytes(), |start, end| {
        emit_part(&text[start..end], start, &mut emit)
    });
}

/// Calls `each(part)` for every part of `text` that [`for_each_term`] makes a term of,
/// before it is folded and stemmed ([`term_of`]): a caller that looks for a few terms
/// compares a part's start with them first (a term is a prefix of its folded part) and
/// makes the term of the few parts that may be one.
pub fn for_each_part<'t>(text: &'t str, mut each: impl FnMut(&'t str)) {
    // a part is ASCII: its ends are character boundaries
    part_ranges(text.as_bytes(), |start, end| {
        let part = &text[start..end];
        if is_term(part) {
            each(part)
        }
    });
}

/// The term [`for_each_term`] makes of a part [`for_each_part`] gives.
pub fn term_of(part: &str) -> String {
    term_in(part, &mut String::new()).to_string()
}

/// [`term_of`] without a string of its own: `part` folded into `folded` (cleared first, kept
/// by a caller that makes the term of every part of a file) and the term its stem, a prefix
/// of the folding.
pub(crate) fn term_in<'f>(part: &str, folded: &'f mut String) -> &'f str {
    folded.clear();
    folded.push_str(part);
    folded.make_ascii_lowercase();
    stem_prefix(folded)
}

/// A few terms, and which of them a part [`for_each_part`] gives is made: a term is a
/// prefix of its folded part (stems only cut), so a part whose first byte begins none of
/// them, in either case, or that none of them begins, is made none, and only the few left
/// are folded and stemmed (what counting a few terms in a whole file needs).
pub(crate) struct TermStarts<'t> {
    terms: &'t [String],
    first: [bool; 256],
}

impl<'t> TermStarts<'t> {
    pub(crate) fn new(terms: &'t [String]) -> TermStarts<'t> {
        // an empty term begins every part
        let mut first = [terms.iter().any(String::is_empty); 256];
        for b in terms.iter().filter_map(|t| t.bytes().next()) {
            first[b.to_ascii_lowercase() as usize] = true;
            first[b.to_ascii_uppercase() as usize] = true;
        }
        TermStarts { terms, first }
    }

    /// Which first bytes of a part may begin one of the terms.
    pub(crate) fn first_bytes(&self) -> &[bool; 256] {
        &self.first
    }

    /// The place in the terms of the term `part` is made, when it is one of them.
    pub(crate) fn place_of(&self, part: &str) -> Option<usize> {
        // a part is never empty
        if !self.first[part.as_bytes()[0] as usize] {
            return None;
        }
        let begins = |t: &String| {
            part.len() >= t.len() && part.as_bytes()[..t.len()].eq_ignore_ascii_case(t.as_bytes())
        };
        if !self.terms.iter().any(begins) {
            return None;
        }
        let term = term_of(part);
        self.terms.iter().position(|t| *t == term)
    }
}

/// True when `text` holds `term` (a term [`for_each_term`] makes), found from where its
/// letters occur in `text` whatever their case ([`CaselessFinder`], as `memmem` finds them,
/// one occurrence after the end of the last, in the text folded to ASCII lower case)
/// rather than from every word: an occurrence is the term when a part of the word around it
/// starts there and is made that term. Each word is split once however many occurrences it
/// holds, so the time is linear in the text. A term in upper case or outside ASCII is in no
/// text (the parts of a word are ASCII and made lower case).
pub fn holds_term(text: &[u8], term: &str) -> bool {
    let Some(&first) = term.as_bytes().first() else {
        return false;
    };
    if !is_word_byte(first)
        || !term
            .bytes()
            .all(|b| b.is_ascii() && !b.is_ascii_uppercase())
    {
        return false;
    }
    let finder = CaselessFinder::new(term.as_bytes());
    let mut from = 0;
    let occurrences = std::iter::from_fn(|| {
        let at = from + finder.find(text.get(from..)?)?;
        from = at + term.len();
        Some(at)
    });
    // the word last split: its end, and where its term parts start (made that term or not)
    let mut word_end = 0;
    let mut starts: Vec<(usize, bool)> = Vec::new();
    for at in occurrences {
        if at >= word_end {
            let mut start = at;
            while start > 0 && is_word_byte(text[start - 1]) {
                start -= 1;
            }
            let mut end = at;
            while end < text.len() && is_word_byte(text[end]) {
                end += 1;
            }
            // word bytes are ASCII: the word is a str
            let Ok(word) = std::str::from_utf8(&text[start..end]) else {
                continue;
            };
            starts.clear();
            split_identifier(word, |part, offset| {
                if is_term(part) {
                    starts.push((
                        start + offset,
                        part.len() >= term.len() && term_of(part) == term,
                    ));
                }
            });
            word_end = end;
        }
        if let Ok(i) = starts.binary_search_by_key(&at, |&(s, _)| s) {
            if starts[i].1 {
                return true;
            }
        }
    }
    false
}

/// The terms of `text`, in order (duplicates kept).
pub fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_term(text, |t, _| out.push(t));
    out
}

/// ASCII letters, digits and `_`: a non-ASCII letter ends a word (the folded copies of
/// the text are ASCII, and so are the identifiers of the languages the tree scans).
fn is_word_byte(b: u8) -> bool {
    WORD_BYTES[b as usize]
}

/// [`is_word_byte`] of every byte, looked up (the words around a term's letters, a question's
/// words; a whole text is cut by `word_parts.rs`).
const WORD_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || c == b'_';
        b += 1;
    }
    table
};

/// Cuts one run of word bytes at `_` and at CamelCase humps.
fn split_identifier<'w>(word: &'w str, mut part: impl FnMut(&'w str, usize)) {
    let b = word.as_bytes();
    let mut start = 0;
    for i in 0..b.len() {
        if b[i] == b'_' {
            if i > start {
                part(&word[start..i], start);
            }
            start = i + 1;
            continue;
        }
        if i > start && b[i].is_ascii_uppercase() {
            let prev = b[i - 1];
            let next_lower = b.get(i + 1).is_some_and(u8::is_ascii_lowercase);
            // `aB` starts a word; so does the last capital of `HTTPServer`
            if prev.is_ascii_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_ascii_uppercase() && next_lower)
            {
                part(&word[start..i], start);
                start = i;
            }
        }
    }
    if start < b.len() {
        part(&word[start..], start);
    }
}

/// A part of one character, or made only of digits, names nothing: it is no term.
fn is_term(part: &str) -> bool {
    part.len() >= 2 && !part.bytes().all(|b| b.is_ascii_digit())
}

fn emit_part(part: &str, at: usize, emit: &mut impl FnMut(String, usize)) {
    if is_term(part) {
        emit(term_of(part), at);
    }
}

/// The significant terms of a question, in order, each once: its terms without the stop
/// words (compared before stemming, folded).
pub fn question_terms(question: &str, stop_words: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for_each_part(question, |part| {
        if stop_words.contains(&part.to_ascii_lowercase()) {
            return;
        }
        let term = term_of(part);
        if !out.contains(&term) {
            out.push(term);
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_split_at_underscores_humps_and_punctuation() {
        assert_eq!(terms("num_threads"), ["num", "thread"]);
        assert_eq!(
            terms("parseArgs(HTTPServer)"),
            ["parse", "arg", "http", "serv"]
        );
        assert_eq!(terms("--no-ignore-vcs"), ["no", "ignore", "vcs"]);
        assert_eq!(terms("x = 42; utf8"), ["utf8"]);
    }

    #[test]
    fn the_terms_of_the_parts_are_the_terms() {
        for text in [
            "parseArgs(HTTPServer) x = 42; utf8 a_b_cc __9_99x replayed_Traces",
            "--no-ignore-vcs // Café crème ÄÖ über_alles",
            "I a 1 22 b2 HTTP2Server _",
            "",
        ] {
            let mut made = Vec::new();
            for_each_part(text, |p| made.push(term_of(p)));
            assert_eq!(made, terms(text), "{text}");
            // each term is a prefix of its folded part
            for_each_part(text, |p| {
                assert!(p.to_ascii_lowercase().starts_with(&term_of(p)))
            });
        }
    }

    /// The term a part is made, looked up among a few terms from the part's first bytes,
    /// is the one folding and stemming every part finds among them.
    #[test]
    fn a_part_is_made_the_term_its_start_says() {
        let text = "parseArgs(HTTPServer) parsed PARSING Parser header_headers Heads hea \
                    x = 42; utf8 a_b_cc replayed_Traces Café über_alles";
        for terms in [
            vec!["pars", "header", "head", "trace"],
            vec!["http", "server", "utf8", "arg"],
            vec!["caf", "replai", "missing"],
            vec![],
        ] {
            let terms: Vec<String> = terms.into_iter().map(String::from).collect();
            let starts = TermStarts::new(&terms);
            let (mut want, mut got) = (Vec::new(), Vec::new());
            for_each_part(text, |p| {
                want.push(terms.iter().position(|t| *t == term_of(p)));
                got.push(starts.place_of(p));
            });
            assert_eq!(got, want, "{terms:?}");
            // the comparison finds terms where the terms are there
            assert_eq!(
                want.iter().flatten().count() > 0,
                !terms.is_empty(),
                "{terms:?}"
            );
        }
    }

    /// A term is held where the terms of the text hold it, on texts made of pieces that
    /// cut words every way (humps, underscores, digits, stems, non-ASCII letters).
    #[test]
    fn a_term_is_held_where_the_terms_hold_it() {
        let pieces = [
            "head",
            "Header",
            "HEADER",
            "_",
            "ahead",
            "headers",
            "HTTPHeader",
            "x",
            "2",
            "é",
            " ",
            "\n",
            "parse",
            "sparse",
            "Parsing",
            "heAd",
            "9head",
            "head9",
            "(",
            "-",
        ];
        let probe = [
            "head", "pars", "spars", "http", "ahead", "header", "x", "he",
        ];
        for text in crate::text::pieced_texts(&pieces, 3000, 9, 7) {
            let all = terms(&text);
            for t in probe {
                assert_eq!(
                    holds_term(text.as_bytes(), t),
                    all.iter().any(|a| a == t),
                    "{t} in {text:?}: {all:?}"
                );
            }
        }
        // a term in upper case or outside ASCII is held by no text, and no term by an empty one
        for (text, t) in [
            ("HEAD head Head", "Head"),
            ("café Café", "café"),
            ("", "head"),
        ] {
            assert!(!holds_term(text.as_bytes(), t), "{t} in {text:?}");
        }
        assert!(holds_term(b"Head_HEAD", "head"));
    }

    /// The parts of one word and where each starts, as `holds_term` cuts them.
    fn split(word: &str) -> Vec<(&str, usize)> {
        let mut parts = Vec::new();
        split_identifier(word, |p, at| parts.push((p, at)));
        parts
    }

    #[test]
    fn a_word_is_cut_at_underscores_and_humps_into_parts_never_empty() {
        assert_eq!(split("parseArgs"), [("parse", 0), ("Args", 5)]);
        assert_eq!(split("HTTPServer"), [("HTTP", 0), ("Server", 4)]);
        assert_eq!(split("headHTTP"), [("head", 0), ("HTTP", 4)]);
        assert_eq!(split("v2Beta"), [("v2", 0), ("Beta", 2)]);
        assert_eq!(split("aB"), [("a", 0), ("B", 1)]);
        assert_eq!(split("HEADER"), [("HEADER", 0)]);
        assert_eq!(split("a_b__cc_"), [("a", 0), ("b", 2), ("cc", 5)]);
        assert_eq!(split("_x"), [("x", 1)]);
        assert_eq!(split("X"), [("X", 0)]);
        assert_eq!(split("__"), []);
        assert_eq!(split(""), []);
    }

    #[test]
    fn a_part_of_two_characters_not_all_digits_is_a_term() {
        assert!(is_term("ab") && is_term("1a") && is_term("a1") && is_term("abc"));
        assert!(!is_term("a") && !is_term("12") && !is_term("7") && !is_term(""));
    }

    #[test]
    fn the_first_bytes_are_those_of_the_terms_in_either_case() {
        let bytes = |terms: &[&str]| {
            let terms: Vec<String> = terms.iter().map(|t| t.to_string()).collect();
            let starts = TermStarts::new(&terms);
            (0..=255u8)
                .filter(|&b| starts.first_bytes()[b as usize])
                .collect::<Vec<u8>>()
        };
        assert_eq!(bytes(&["parse", "http", "9x", "pars"]), b"9HPhp");
        assert_eq!(bytes(&[]), b"");
        // an empty term begins every part
        assert_eq!(bytes(&["x", ""]).len(), 256);
    }

    #[test]
    fn a_term_spanning_two_parts_is_not_held() {
        // `http`'s letters run across the parts `Ht` and `Tp`
        assert_eq!(terms("HtTp"), ["ht", "tp"]);
        assert!(!holds_term(b"HtTp", "http"));
        assert!(holds_term(b"HtTp", "tp"));
        assert!(holds_term(b"x HTTP", "http"));
        assert!(!holds_term(b"-x", "-x"));
    }

    #[test]
    fn offsets_point_at_the_part() {
        let mut got = Vec::new();
        for_each_term("let numThreads", |t, at| got.push((t, at)));
        assert_eq!(
            got,
            [("let".into(), 0), ("num".into(), 4), ("thread".into(), 7)]
        );
    }

    #[test]
    fn question_terms_drop_stop_words_and_repeat_nothing() {
        let stop: Vec<String> = ["the", "when", "has", "been"].map(String::from).to_vec();
        assert_eq!(
            question_terms("Exit immediately when Ctrl-C has been pressed twice", &stop),
            ["exit", "immediately", "ctrl", "press", "twice"]
        );
        assert_eq!(
            question_terms("Tweak the threads, threads (#1234)", &stop),
            ["tweak", "thread"]
        );
    }
}
