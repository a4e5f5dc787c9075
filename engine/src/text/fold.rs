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
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        fold_char(c, |f| out.push(f));
    }
    out
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

/// Folds and collapses runs of whitespace to one space, trimming both ends: the form in which
/// two titles are compared for equality.
pub fn fold_collapsed(text: &str) -> String {
    let folded = fold(text);
    folded.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

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
