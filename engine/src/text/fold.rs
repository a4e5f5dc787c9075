//! Unicode case folding: the one normalisation every text comparison goes through.
//!
//! `str::to_lowercase` is not full case folding: `ß` stays `ß` while `SS` lowers to `ss`,
//! and the final sigma `ς` differs from `σ`. Folding both sides with [`fold`] makes
//! `STRASSE` find `straße` and `ΟΔΟΣ` find `οδος`. Diacritics are removed too (canonical
//! decomposition, combining marks dropped), so `resume` finds `Résumé`: a person typing a
//! half-remembered title rarely types its accents.

use unicode_normalization::char::{decompose_canonical, is_combining_mark};

/// Case-folds `text`: strips diacritics, lower-cases, then applies the full foldings that
/// lower-casing misses.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    fold_into(text, &mut out);
    out
}

/// [`fold`] of `text` appended to `out`: for a caller that folds many texts into one
/// buffer.
pub fn fold_into(text: &str, out: &mut String) {
    if text.is_ascii() {
        let from = out.len();
        out.push_str(text);
        out[from..].make_ascii_lowercase();
        return;
    }
    for c in text.chars() {
        fold_char(c, |f| out.push(f));
    }
}

/// The folding of one character, one folded character at a time (none for a combining
/// mark): what [`fold`] does per character, for callers that keep track of where each
/// folded byte came from.
#[inline]
pub fn fold_char(c: char, mut emit: impl FnMut(char)) {
    let special = match c {
        'ß' | 'ẞ' => "ss",
        'ς' => "σ",
        'ſ' => "s",
        'ﬀ' => "ff",
        'ﬁ' => "fi",
        'ﬂ' => "fl",
        'ﬃ' => "ffi",
        'ﬄ' => "ffl",
        'ﬅ' | 'ﬆ' => "st",
        c if is_combining_mark(c) => return,
        _ => {
            decompose_canonical(c, |d| {
                if !is_combining_mark(d) {
                    d.to_lowercase().for_each(&mut emit);
                }
            });
            return;
        }
    };
    special.chars().for_each(emit);
}

/// False only for a character outside ASCII whose folding ([`fold_char`]) is not empty and
/// holds no ASCII letter or digit: next to such characters, the ASCII letters and digits of
/// a folded text are those of its bytes folded to ASCII lower case. True for the Latin
/// letters with diacritics, the Kelvin and Angstrom signs, the ligatures and every combining
/// mark (whose folding is empty, joining the letters around it); a few more than those, as
/// whole blocks are named (held for every character by a test).
#[inline]
pub fn may_fold_into_ascii(c: char) -> bool {
    matches!(c, '\0'..='\u{024F}' | '\u{1E00}'..='\u{1EFF}' | '\u{2100}'..='\u{214F}'
        | '\u{FB00}'..='\u{FB06}')
        || is_combining_mark(c)
}

/// Folds and collapses runs of whitespace to one space, trimming both ends: the form in which
/// two titles are compared for equality.
pub fn fold_collapsed(text: &str) -> String {
    let folded = fold(text);
    folded.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every character whose folding is empty or holds an ASCII letter or digit is one
    /// `may_fold_into_ascii` names (over all of Unicode), and it names far fewer than all.
    #[test]
    fn the_characters_that_fold_into_ascii_are_all_named() {
        let mut named = 0;
        for c in (0x80u32..=0x10FFFF).filter_map(char::from_u32) {
            let (mut empty, mut ascii) = (true, false);
            fold_char(c, |f| {
                empty = false;
                ascii |= f.is_ascii_alphanumeric();
            });
            if empty || ascii {
                assert!(may_fold_into_ascii(c), "{c:?} U+{:04X}", c as u32);
            }
            named += usize::from(may_fold_into_ascii(c));
        }
        assert!(named < 5_000, "{named} characters named");
        assert!(!may_fold_into_ascii('д') && !may_fold_into_ascii('日'));
        assert!(may_fold_into_ascii('é') && may_fold_into_ascii('\u{301}'));
    }

    #[test]
    fn ascii_is_lowercased() {
        assert_eq!(fold("Fix AUTH Bug"), "fix auth bug");
    }

    #[test]
    fn sharp_s_and_final_sigma_fold() {
        assert_eq!(fold("STRASSE"), fold("Straße"));
        assert_eq!(fold("ΟΔΟΣ"), fold("οδος"));
        assert_eq!(fold("ΟΔΟΣ"), fold("οδoς".replace('o', "ο").as_str()));
    }

    #[test]
    fn diacritics_are_removed() {
        assert_eq!(fold("Résumé"), "resume");
        assert_eq!(fold("Ångström"), "angstrom");
        assert_eq!(fold("e\u{301}t\u{e9}"), "ete");
        // letters that are not decomposable stay
        assert_eq!(fold("Łódź"), "łodz");
    }

    #[test]
    fn collapsed_form_ignores_spacing() {
        assert_eq!(fold_collapsed("  Fix   the\tBug "), "fix the bug");
    }
}
