//! Where an ASCII text may write a name whose snake form holds a key.
//!
//! A name's snake form ([`crate::text::camel::snake`]) is its runs of ASCII letters and digits,
//! folded to lower case and cut by `_` at every other byte and at CamelCase humps: each of
//! its words is a run of the name's own bytes, folded. So a name whose snake form holds
//! `cursor_binary` is written with `cursor` then `binary` (in any case), with nothing
//! between them but bytes that are no letter or digit (`cursor_binary`, `CursorBinary`,
//! `CURSOR::binary`); the first word may end a longer one (`precursor_binary`) and the last
//! begin one (`cursor_binaryen`). Searching for the key's longest word, then reading the
//! others around it, finds those places without making the text's letters; anchored on
//! the first letter of the key instead, a common one (`c`, `s`) stops the search every
//! few dozen bytes (what the first `ask` on a root used before: `first_call/mod.rs`,
//! `first_call/scanned.rs`).

use memchr::memmem;

/// A key's words, and the finder of its longest one.
pub struct SnakeKey<'k> {
    words: Vec<&'k [u8]>,
    anchor: usize,
    finder: memmem::Finder<'k>,
}

impl<'k> SnakeKey<'k> {
    /// The words of `key` (cut at `_`); `None` when it has none, or when one of them holds
    /// a byte that is no ASCII letter or digit (no ASCII text's snake form holds it).
    pub fn new(key: &'k str) -> Option<SnakeKey<'k>> {
        let words: Vec<&[u8]> = key
            .split('_')
            .filter(|w| !w.is_empty())
            .map(str::as_bytes)
            .collect();
        let letters = |w: &&[u8]| {
            w.iter()
                .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase())
        };
        if words.is_empty() || !words.iter().all(letters) {
            return None;
        }
        // the longest word is searched for: the first of them, for the same offsets
        // whatever the order of equal lengths
        let anchor = (0..words.len())
            .max_by_key(|&i| (words[i].len(), std::cmp::Reverse(i)))
            .unwrap_or(0);
        let finder = memmem::Finder::new(words[anchor]);
        Some(SnakeKey {
            words,
            anchor,
            finder,
        })
    }

    /// The first offset from `from` on where `folded` (an ASCII text folded to lower case)
    /// writes the key's words as a name holding the key writes them (see the module's
    /// documentation; when `within_line`, with no `\n` between two words): the start of
    /// its first word. `from` is the start of a line when `within_line`.
    pub fn find(&self, folded: &[u8], from: usize, within_line: bool) -> Option<usize> {
        self.find_anchored(folded, from, within_line)
            .map(|(start, _)| start)
    }

    /// Every place where `folded` writes the key's words as a name holding the key writes
    /// them ([`SnakeKey::find`]), in the order of their longest word: the start of each.
    /// A name holding the key holds one of them.
    pub fn find_each<'t>(
        &'t self,
        folded: &'t [u8],
        within_line: bool,
    ) -> impl Iterator<Item = usize> + 't {
        let mut from = 0;
        std::iter::from_fn(move || {
            let (start, anchor) = self.find_anchored(folded, from, within_line)?;
            // on from the longest word: a word before it puts the start before `from`
            from = anchor + 1;
            Some(start)
        })
    }

    /// [`SnakeKey::find`], with where the longest word was found.
    fn find_anchored(
        &self,
        folded: &[u8],
        from: usize,
        within_line: bool,
    ) -> Option<(usize, usize)> {
        let separates = |b: u8| !(b.is_ascii_alphanumeric() || (within_line && b == b'\n'));
        let mut from = from;
        while let Some(k) = self.finder.find(folded.get(from..)?) {
            let at = from + k;
            if let Some(start) = self.around(folded, at, separates) {
                return Some((start, at));
            }
            // overlapping occurrences too (`aa` in `aaa`)
            from = at + 1;
        }
        None
    }

    /// The start of the key's first word when the words before and after the longest
    /// one, found at `at`, are written around it; `None` otherwise.
    fn around(&self, folded: &[u8], at: usize, separates: impl Fn(u8) -> bool) -> Option<usize> {
        let mut start = at;
        for word in self.words[..self.anchor].iter().rev() {
            while start > 0 && separates(folded[start - 1]) {
                start -= 1;
            }
            start = start.checked_sub(word.len())?;
            if &folded[start..start + word.len()] != *word {
                return None;
            }
        }
        let mut end = at + self.words[self.anchor].len();
        for word in &self.words[self.anchor + 1..] {
            while end < folded.len() && separates(folded[end]) {
                end += 1;
            }
            if folded.get(end..end + word.len()) != Some(*word) {
                return None;
            }
            end += word.len();
        }
        Some(start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::camel::snake;
    use crate::tree::symbols::scan_file;

    fn found(text: &str, key: &str, within_line: bool) -> Option<usize> {
        let folded = text.to_ascii_lowercase();
        SnakeKey::new(key)?.find(folded.as_bytes(), 0, within_line)
    }

    #[test]
    fn a_key_is_found_where_a_name_holding_it_is_written() {
        for (text, at) in [
            ("let x = CursorBinary;", 8),
            ("fn cursor_binary()", 3),
            ("CURSOR::binary", 0),
            ("precursor__binaryen", 3),
            ("cursor  binary", 0),
            ("x cursorxbinary cursor-binary", 16),
        ] {
            assert_eq!(found(text, "cursor_binary", false), Some(at), "{text}");
        }
        for text in ["cursorbin ary", "cur_sor_binary", "binary_cursor", "cursor"] {
            assert_eq!(found(text, "cursor_binary", false), None, "{text}");
        }
        // within a line: no `\n` between two words
        assert_eq!(found("cursor\nbinary", "cursor_binary", false), Some(0));
        assert_eq!(found("cursor\nbinary", "cursor_binary", true), None);
        // the longest word anchors; the others are read before and after it
        assert_eq!(
            found("a yaml_anchor_set b", "yaml_anchor_set", true),
            Some(2)
        );
        assert_eq!(found("yaml_anchors", "anchors", true), Some(5));
        // overlapping occurrences of the anchor
        assert_eq!(found("aaab", "aa_b", false), Some(1));
        // no words, or a byte no snake form holds
        assert!(SnakeKey::new("__").is_none());
        assert!(SnakeKey::new("cursor[ _-]?binary").is_none());
        assert!(SnakeKey::new("straße").is_none());
    }

    /// Where a key is found, the text's letters hold the key's (the wider test a text that
    /// is not ASCII is given), in the whole text and in one line's.
    #[test]
    fn where_a_key_is_found_the_letters_hold_it() {
        use crate::text::camel::{snake_letters, snake_letters_by_line};
        let mut texts: Vec<String> = [
            "cur_sor\nCUR::SOR x\ncur\nsor\nc u r s o r\n_cursor_\nCuRsOr2\n",
            "cursorcursor cursor\n\n\nbinary_Cursor9\ncursor",
            "yaml\nanchors Yaml_Anchor YAMLANCHORS- yaml::anchors\n",
            "cur_sor c u r s o r\nyaml an_chors\n",
        ]
        .map(String::from)
        .into();
        texts.extend(
            crate::own_sources::own_sources()
                .into_iter()
                .filter_map(|(_, bytes)| String::from_utf8(bytes).ok())
                .filter(|text| text.is_ascii()),
        );
        let keys = [
            "cursor",
            "yaml_anchors",
            "cursor2",
            "snake_letters",
            "symbol_table",
            "fn",
            "a",
            "zzqq",
        ];
        let (mut found, mut not_found) = (0, 0);
        for text in &texts {
            let folded = text.to_ascii_lowercase();
            let mut letters = Vec::new();
            snake_letters(text, &mut letters);
            let mut by_line = Vec::new();
            snake_letters_by_line(text, &mut by_line);
            for key in keys {
                let key_letters = key.replace('_', "");
                let sk = SnakeKey::new(key).unwrap();
                for (within_line, letters) in [(false, &letters), (true, &by_line)] {
                    let holds = memchr::memmem::find(letters, key_letters.as_bytes()).is_some();
                    match sk.find(folded.as_bytes(), 0, within_line) {
                        Some(at) => {
                            assert!(holds, "{key} at {at}: {text}");
                            assert!(folded[at..].starts_with(&key[..1]), "{key} at {at}");
                            found += 1;
                        }
                        None => not_found += usize::from(holds),
                    }
                }
            }
        }
        // some keys are found, and some texts hold letters no name writes as a key
        assert!(found > 300, "{found}");
        assert!(not_found > 0, "{not_found}");
    }

    /// Every name this repository's sources declare is found on its line by every key its
    /// snake form holds (a run of its words, the first and last possibly cut): so a text
    /// where a key is not found declares no name a lookup of the key finds.
    #[test]
    fn every_declared_name_is_found_by_the_keys_its_snake_form_holds() {
        let mut checked = 0;
        for (path, language, bytes) in crate::own_sources::own_sources_by_language() {
            let Ok(text) = String::from_utf8(bytes) else {
                continue;
            };
            if !text.is_ascii() {
                continue;
            }
            let folded = text.to_ascii_lowercase();
            let lines: Vec<&str> = folded.split('\n').collect();
            for symbol in scan_file(language, &text) {
                let last = symbol.name.rsplit("::").next().unwrap_or(&symbol.name);
                let snake_form = snake(last);
                assert_eq!(snake_form, symbol.snake);
                let words: Vec<&str> = snake_form.split('_').collect();
                let line = lines[symbol.line as usize - 1].as_bytes();
                let written = last.to_ascii_lowercase();
                let spans: Vec<usize> = memchr::memmem::find_iter(line, &written).collect();
                for i in 0..words.len() {
                    for j in i + 1..=words.len() {
                        // the first word cut at its start, the last at its end
                        let first = &words[i][words[i].len() / 2..];
                        let last = &words[j - 1][..words[j - 1].len().div_ceil(2)];
                        let mut key: Vec<&str> = words[i..j].to_vec();
                        key[0] = first;
                        if j - i > 1 {
                            key[j - i - 1] = last;
                        }
                        let key = key.join("_");
                        let Some(sk) = SnakeKey::new(&key) else {
                            continue;
                        };
                        assert!(
                            sk.find(line, 0, true).is_some(),
                            "{key} in {} ({}:{})",
                            symbol.name,
                            path.display(),
                            symbol.line
                        );
                        // and one of the places `find_each` gives is in the name as written
                        // (what lets a scan pass over a text whose places are all in comments)
                        assert!(
                            sk.find_each(line, true)
                                .any(|s| spans.iter().any(|&o| o <= s && s < o + written.len())),
                            "{key} in {} ({}:{})",
                            symbol.name,
                            path.display(),
                            symbol.line
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 5_000, "{checked}");
    }
}
