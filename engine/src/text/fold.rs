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
        match c {
            'ß' | 'ẞ' => out.push_str("ss"),
            'ς' => out.push('σ'),
            'ſ' => out.push('s'),
            'ﬀ' => out.push_str("ff"),
            'ﬁ' => out.push_str("fi"),
            'ﬂ' => out.push_str("fl"),
            'ﬃ' => out.push_str("ffi"),
            'ﬄ' => out.push_str("ffl"),
            'ﬅ' | 'ﬆ' => out.push_str("st"),
            c if is_combining_mark(c) => {}
            _ => decompose_canonical(c, |d| {
                if !is_combining_mark(d) {
                    out.extend(d.to_lowercase());
                }
            }),
        }
    }
    out
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
