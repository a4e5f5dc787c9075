//! A light, conservative English stemmer for the words of a question.
//!
//! It strips inflections the way Porter's step 1 does (`-s`, `-es`, `-ed`, `-ing`), plus the
//! few derivational endings questions use for what code names differently (`-er`, `-ion`,
//! `-ation`, `-ication`, `-ier`), and returns a *prefix* shared by the word's family rather
//! than a dictionary word: `replayed` -> `replay`, `launched` -> `launch`, `classification`
//! and `classifier` -> `classif`, `boundaries` -> `boundar`, `running` -> `run`. Callers
//! match the stem as the start of a word (`replay` in `replay_traces`, `classif` in
//! `goal_classifier`).
//!
//! Only plain lower-case ASCII words are stemmed: identifiers (`CommandRouter`,
//! `extract_best_term`, `v2`) are kept as written. A word is never cut below
//! [`MIN_STEM`] letters, so short words (`gating`, `string`, `used`) stay whole.

/// The shortest stem an ending may leave (a doubled consonant undone may leave one less).
pub const MIN_STEM: usize = 4;

/// Endings, longest first; the first that leaves a long enough stem wins.
/// (suffix, minimum stem length)
const RULES: &[(&str, usize)] = &[
    ("ications", 4),
    ("ication", 4),
    ("ations", 5),
    ("ation", 5),
    ("tions", 3),
    ("sions", 3),
    ("iers", 4),
    ("ier", 4),
    ("ies", 4),
    ("ied", 4),
    ("ings", MIN_STEM),
    ("ing", MIN_STEM),
    ("ers", MIN_STEM),
    ("er", MIN_STEM),
    ("ed", MIN_STEM),
];

/// True for a word the stemmer may change: lower-case ASCII letters only.
pub fn is_plain_word(word: &str) -> bool {
    !word.is_empty() && word.bytes().all(|b| b.is_ascii_lowercase())
}

/// The last letters of every ending [`stem`] may cut (its rules', `-tion`/`-sion`'s and
/// the plurals'): a word ending in another letter is its own stem, known from one byte
/// (most words of a text; the index build stems every one).
const ENDING_LETTERS: [bool; 256] = {
    let mut table = [false; 256];
    let mut k = 0;
    while k < RULES.len() {
        let suffix = RULES[k].0.as_bytes();
        table[suffix[suffix.len() - 1] as usize] = true;
        k += 1;
    }
    table[b'n' as usize] = true;
    table[b's' as usize] = true;
    table
};

/// The stem of `word`; the word itself when it is not a plain word or no ending applies.
pub fn stem(word: &str) -> String {
    stem_prefix(word).to_string()
}

/// [`stem`] as the prefix of `word` it is (every rule only cuts): what a caller that
/// stems every word of a text looks up without making a string of each.
pub fn stem_prefix(word: &str) -> &str {
    match word.as_bytes().last() {
        Some(&last) if ENDING_LETTERS[last as usize] => stem_by_rules(word),
        _ => word,
    }
}

/// [`stem_prefix`] trying every rule in turn.
fn stem_by_rules(word: &str) -> &str {
    if !is_plain_word(word) {
        return word;
    }
    let last = word.as_bytes().last();
    for (suffix, min) in RULES {
        // most rules end in another letter than the word: no comparison of the rest
        if suffix.as_bytes().last() != last {
            continue;
        }
        let Some(base) = word.strip_suffix(suffix) else {
            continue;
        };
        // `-tions`/`-sions` drop `ions` only: collections -> collect
        let base = match *suffix {
            "tions" | "sions" => &word[..word.len() - 4],
            _ => base,
        };
        if base.len() < *min || !has_vowel(base) {
            continue;
        }
        if *suffix == "ed" && base.ends_with('e') {
            // `need`, `seed`, `speed`: not a past tense
            return word;
        }
        return if matches!(*suffix, "ing" | "ings" | "ed" | "er" | "ers") {
            undouble(base)
        } else {
            base
        };
    }
    // `-tion`/`-sion`: drop the `ion` only (iteration -> iterat, collection -> collect)
    if let Some(base) = word
        .strip_suffix("tion")
        .or_else(|| word.strip_suffix("sion"))
    {
        let base = &word[..base.len() + 1];
        if base.len() >= MIN_STEM {
            return base;
        }
    }
    plural(word)
}

/// `-s` and `-es` plurals: `classes` -> `class`, `matches` -> `match`, `traces` -> `trace`;
/// `status`, `analysis`, `class` keep their `s`.
fn plural(word: &str) -> &str {
    if let Some(base) = word.strip_suffix("es") {
        if base.len() >= 3
            && (base.ends_with("ss")
                || base.ends_with('x')
                || base.ends_with('z')
                || base.ends_with("ch")
                || base.ends_with("sh"))
        {
            return base;
        }
    }
    match word.strip_suffix('s') {
        Some(base)
            if base.len() >= 3
                && !base.ends_with('s')
                && !base.ends_with('u')
                && !base.ends_with('i') =>
        {
            base
        }
        _ => word,
    }
}

/// `runn` -> `run`, `mapp` -> `map`; `ll`, `ss`, `zz` stay (`call`, `pass`).
fn undouble(base: &str) -> &str {
    let b = base.as_bytes();
    let n = b.len();
    if n >= 4 && b[n - 1] == b[n - 2] && !b"aeiouylsz".contains(&b[n - 1]) {
        &base[..n - 1]
    } else {
        base
    }
}

fn has_vowel(s: &str) -> bool {
    s.bytes().any(|b| b"aeiouy".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inflections_reduce_to_a_shared_prefix() {
        for (word, want) in [
            ("replayed", "replay"),
            ("launched", "launch"),
            ("loaded", "load"),
            ("rendered", "render"),
            ("enforced", "enforc"),
            ("normalised", "normalis"),
            ("traces", "trace"),
            ("classes", "class"),
            ("matches", "match"),
            ("boundaries", "boundar"),
            ("loading", "load"),
            ("running", "run"),
            ("planned", "plan"),
            ("loader", "load"),
            ("classifier", "classif"),
            ("classified", "classif"),
            ("classification", "classif"),
            ("configuration", "configur"),
            ("iteration", "iterat"),
            ("collections", "collect"),
        ] {
            assert_eq!(stem(word), want, "{word}");
        }
    }

    #[test]
    fn short_words_identifiers_and_non_plurals_stay() {
        for word in [
            "replay",
            "gating",
            "string",
            "used",
            "need",
            "speed",
            "status",
            "analysis",
            "class",
            "binary",
            "cursor",
            "bin",
            "CommandRouter",
            "extract_best_term",
            "v2",
            "",
        ] {
            assert_eq!(stem(word), word, "{word}");
        }
    }

    /// A word whose last letter ends no ending is stemmed as every rule tried in turn
    /// stems it: on every word of this crate's sources, folded and not.
    #[test]
    fn the_last_letter_tells_the_words_no_rule_cuts() {
        let mut words = std::collections::BTreeSet::new();
        for (_, bytes) in crate::own_sources::own_sources() {
            let text = String::from_utf8_lossy(&bytes);
            for w in text.split(|c: char| !c.is_alphanumeric() && c != '_') {
                words.insert(w.to_string());
                words.insert(w.to_ascii_lowercase());
            }
        }
        assert!(words.len() > 5_000, "{}", words.len());
        let mut cut = 0;
        for w in &words {
            let want = stem_by_rules(w);
            cut += usize::from(want != w);
            assert_eq!(stem(w), want, "{w}");
            assert!(w.starts_with(stem_prefix(w)), "{w}");
        }
        // the rules cut words here: the comparison holds stems, not only words kept whole
        assert!(cut > 500, "{cut}");
    }

    #[test]
    fn a_family_shares_its_stem() {
        for family in [
            &["classify", "classifier", "classification", "classified"][..],
            &["load", "loaded", "loading", "loader", "loads"],
            &["render", "rendered", "rendering", "renderer"],
        ] {
            let root = stem(family[0]);
            for w in family {
                assert!(
                    w.starts_with(&stem(w)) && stem(w).starts_with(&root[..root.len().min(4)]),
                    "{w}: {} vs {root}",
                    stem(w)
                );
            }
        }
    }
}
