//! CamelCase normalisation: `CommandRouter`, `command_router`, `command-router` and
//! `command router` all become the words `command`, `router`.

use super::fold::fold_char;

/// Splits an identifier or phrase into folded words: at spaces, `_`, `-`, `.`, `/`, at
/// lower-to-upper humps (`commandRouter`) and at the end of an acronym (`HTTPServer` ->
/// `http`, `server`). Digits stay with the letters before them.
pub fn split_words(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut words = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            flush(&mut current, &mut words);
            continue;
        }
        if !current.is_empty() && starts_word(chars[i - 1], c, chars.get(i + 1).copied()) {
            flush(&mut current, &mut words);
        }
        // folded as stems and directories are (`ß` ~ `ss`), so the forms compare
        fold_char(c, |f| current.push(f));
    }
    flush(&mut current, &mut words);
    words
}

/// True when `c`, after the letter or digit `prev` and before `next`, starts a word of its
/// own: `aB` and `1B` do, and so does the last capital of `HTTPServer` before `e`.
fn starts_word(prev: char, c: char, next: Option<char>) -> bool {
    c.is_uppercase()
        && (prev.is_lowercase()
            || prev.is_numeric()
            || (prev.is_uppercase() && next.is_some_and(char::is_lowercase)))
}

/// The last of [`split_words`]' words, as written and without allocating: what a directory
/// name ends in (`Tests` of `Newtonsoft.Json.Tests`, `Test` of `commonTest`).
pub fn last_word(text: &str) -> &str {
    let text = text.trim_end_matches(|c: char| !c.is_alphanumeric());
    let start = text
        .char_indices()
        .rev()
        .find(|&(_, c)| !c.is_alphanumeric())
        .map_or(0, |(i, c)| i + c.len_utf8());
    let word = &text[start..];
    let mut next = None;
    for (i, c) in word.char_indices().rev() {
        if let Some(prev) = word[..i].chars().next_back() {
            if starts_word(prev, c, next) {
                return &word[i..];
            }
        }
        next = Some(c);
    }
    word
}

fn flush(current: &mut String, words: &mut Vec<String>) {
    if !current.is_empty() {
        words.push(std::mem::take(current));
    }
}

/// The snake_case form of an identifier: its words joined by `_`.
pub fn snake(text: &str) -> String {
    if text.is_ascii() {
        return snake_ascii(text.as_bytes());
    }
    split_words(text).join("_")
}

/// [`snake`] of an ASCII identifier, byte by byte into one string (most names are ASCII,
/// and the symbol scan makes one per declaration): the same cuts as [`split_words`].
fn snake_ascii(b: &[u8]) -> String {
    let mut out = String::with_capacity(b.len() + 4);
    // bytes of the word being made, so that a cut between words writes one `_`
    let mut in_word = false;
    for (i, &c) in b.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            in_word = false;
            continue;
        }
        if c.is_ascii_uppercase() && in_word {
            let prev = b[i - 1];
            let next_lower = b.get(i + 1).is_some_and(u8::is_ascii_lowercase);
            if prev.is_ascii_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_ascii_uppercase() && next_lower)
            {
                in_word = false;
            }
        }
        if !in_word && !out.is_empty() {
            out.push('_');
        }
        in_word = true;
        out.push(c.to_ascii_lowercase() as char);
    }
    out
}

/// The letters and digits of `text`, folded as [`snake`] folds them, appended to `out`:
/// a name's snake form without its `_`s. The folding goes character by character, so the
/// `snake_letters` of a name written in a text are part of the text's own; and a key part
/// of a name's snake form has its letters (the key without its `_`s) in them. So a text
/// whose `snake_letters` lack a key's letters declares no name the key is part of (what
/// the first `ask` on a root relies on to leave such files unscanned:
/// `engine/src/first_call/mod.rs`).
pub fn snake_letters(text: &str, out: &mut Vec<u8>) {
    letters_through(text, out, &ASCII_LETTERS);
}

/// [`snake_letters`] of each line of `text`, each but the last followed by `\n`: the line's
/// letters are those between two `\n`s, and a run of letters found in them lies on one
/// line (`first_call/scanned.rs` finds the lines that may declare a name a key is part of).
pub fn snake_letters_by_line(text: &str, out: &mut Vec<u8>) {
    letters_through(text, out, &ASCII_LETTERS_AND_NEWLINE);
}

/// [`snake_letters`], an ASCII byte written as `table` gives it (0: dropped).
fn letters_through(text: &str, out: &mut Vec<u8>, table: &[u8; 256]) {
    // its ASCII bytes through the table (most of a text that is not ASCII still is), no
    // branch per byte: each written, the next one over it unless it was a letter or digit
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let ascii = super::first_non_ascii(&bytes[i..]).map_or(bytes.len(), |k| i + k);
        let start = out.len();
        out.resize(start + (ascii - i), 0);
        let mut at = start;
        for &b in &bytes[i..ascii] {
            out[at] = table[b as usize];
            at += usize::from(table[b as usize] != 0);
        }
        out.truncate(at);
        i = ascii;
        let Some(c) = text[i..].chars().next() else {
            break;
        };
        i += c.len_utf8();
        if c.is_alphanumeric() {
            let mut utf8 = [0u8; 4];
            fold_char(c, |f| {
                out.extend_from_slice(f.encode_utf8(&mut utf8).as_bytes())
            });
        }
    }
}

/// [`ASCII_LETTERS`], and `\n` kept.
const ASCII_LETTERS_AND_NEWLINE: [u8; 256] = {
    let mut table = ASCII_LETTERS;
    table[b'\n' as usize] = b'\n';
    table
};

/// An ASCII letter or digit folded to lower case; 0 for any other byte.
const ASCII_LETTERS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() {
            table[b] = c.to_ascii_lowercase();
        }
        b += 1;
    }
    table
};

/// True at byte `at` of `text` when a word starts there by CamelCase (a lower-case letter or
/// digit followed by an upper-case one).
pub fn is_hump(text: &[u8], at: usize) -> bool {
    at > 0 && text[at].is_ascii_uppercase() && (text[at - 1].is_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The last word, as written, is the last of the words split and folded.
    #[test]
    fn the_last_word_is_the_last_word_split() {
        for (name, last) in [
            ("Newtonsoft.Json.Tests", "Tests"),
            ("commonTest", "Test"),
            ("APITests", "Tests"),
            ("tests-", "tests"),
            ("__tests__", "tests"),
            ("latest", "latest"),
            ("v2", "v2"),
            ("HTTPServer", "Server"),
            ("--", ""),
            ("", ""),
        ] {
            assert_eq!(last_word(name), last, "{name}");
            let split = split_words(name);
            assert_eq!(
                split.last().map_or("", String::as_str),
                last.to_lowercase(),
                "{name}"
            );
        }
    }

    /// The letters by line are each line's letters, joined by `\n`.
    #[test]
    fn the_letters_by_line_are_each_lines_letters() {
        let texts = [
            "",
            "\n",
            "fn cur_sor() {}\n\n  CURSOR\r\nlast",
            "é_Ü\nstraße ﬁle\n日本 x\u{300}y\n",
            "a\n\nb\n",
            include_str!("camel.rs"),
        ];
        for text in texts {
            let mut by_line = Vec::new();
            snake_letters_by_line(text, &mut by_line);
            let want: Vec<Vec<u8>> = text
                .split('\n')
                .map(|line| {
                    let mut letters = Vec::new();
                    snake_letters(line, &mut letters);
                    letters
                })
                .collect();
            assert_eq!(by_line, want.join(&b'\n'), "{text:?}");
        }
    }

    #[test]
    fn camel_and_snake_agree() {
        assert_eq!(snake("CommandRouter"), "command_router");
        assert_eq!(snake("command_router"), "command_router");
        assert_eq!(snake("command-router"), "command_router");
        assert_eq!(snake("commandRouter"), "command_router");
    }

    #[test]
    fn acronyms_and_digits() {
        assert_eq!(split_words("HTTPServer"), ["http", "server"]);
        assert_eq!(split_words("parseV2Config"), ["parse", "v2", "config"]);
        assert_eq!(split_words("sha256sum"), ["sha256sum"]);
    }

    /// The ASCII path cuts where the general one does, on names made of pieces that cut
    /// every way (humps, acronyms, digits, separators at either end).
    #[test]
    fn the_ascii_snake_is_the_general_one() {
        let pieces = [
            "a", "B", "cd", "EF", "Gh", "9", "_", "-", ".", " ", "HTTP", "x2Y", "__",
        ];
        for name in crate::text::pieced_texts(&pieces, 5000, 7, 11) {
            assert_eq!(
                snake_ascii(name.as_bytes()),
                split_words(&name).join("_"),
                "{name:?}"
            );
        }
    }

    /// A name's snake form without its `_`s is its `snake_letters`, and a name written in
    /// a text has its `snake_letters` in the text's: on names cut every way, with letters
    /// that fold to others (`ß`, the Kelvin sign, a combining accent, a ligature).
    #[test]
    fn snake_letters_are_the_snake_form_without_its_cuts() {
        let pieces = [
            "a",
            "B",
            "cd",
            "EF",
            "9",
            "_",
            "-",
            " ",
            "HTTP",
            "x2Y",
            "ß",
            "\u{212A}elvin",
            "e\u{301}",
            "ﬁ",
            "Σσς",
            "Ǆ",
            "::",
        ];
        let letters = |text: &str| {
            let mut out = Vec::new();
            snake_letters(text, &mut out);
            String::from_utf8(out).unwrap()
        };
        for name in crate::text::pieced_texts(&pieces, 5000, 6, 5) {
            assert_eq!(snake(&name).replace('_', ""), letters(&name), "{name:?}");
            let text = format!("let {name} = (x);");
            assert!(letters(&text).contains(&letters(&name)), "{name:?}");
        }
        // a replaced byte is no letter
        assert_eq!(letters("Caf\u{e9}"), "cafe");
        let mut out = Vec::new();
        snake_letters(&crate::text::decoded(b"a\xffB_c"), &mut out);
        assert_eq!(out, b"abc");
    }

    #[test]
    fn humps() {
        assert!(is_hump(b"fooBar", 3));
        assert!(!is_hump(b"foobar", 3));
        assert!(!is_hump(b"FOO", 1));
    }
}
