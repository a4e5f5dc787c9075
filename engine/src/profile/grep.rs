//! The section of `grep`: how the term matched, what the file is, and its extensions.

use super::range::{real, NotTunable, Tunable};
use serde::{Deserialize, Serialize};

/// Weights of `grep`: files are ranked by the evidence their matches give.
///
/// A file's score is `tier x kind + declaration + path words + density x (matching lines /
/// lines)`: the
/// tier says how the term matched (the whole term, every word of it on one line, every word
/// somewhere in the file), the kind what the file is (source, docs, data such as corpora and
/// fixtures that quote questions), `declaration` is added when a matching line declares a
/// symbol named by the term, and path words when the file's stem or directory holds words
/// of the term. Ties: shorter path, then byte order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GrepWeights {
    /// Rank by evidence; off, by the number of matching lines alone (the spec's grep).
    pub evidence: bool,
    /// For a term of several words, also match files holding every word apart: on one
    /// line, or anywhere in the file (each word at the start of a word of the text).
    pub scattered_words: bool,
    /// A word of the term may end a longer word of the text before the next word
    /// (`trace[ _-]?replay` matches `traces replayed`), so planner stems match.
    pub word_continuation: bool,
    /// Tier weights.
    pub phrase: f64,
    pub same_line: f64,
    pub same_file: f64,
    /// Kind weights.
    pub source: f64,
    pub docs: f64,
    pub data: f64,
    pub other: f64,
    /// Added when a matching line is a declaration of a symbol named by the term.
    pub declaration: f64,
    /// Added to `declaration` when that line defines the symbol rather than only declaring
    /// it (no `;` at its end: a body follows, not a prototype or `mod x;`).
    pub definition: f64,
    /// Added to `declaration` when the symbol's name is the term itself, not a longer
    /// name holding its words.
    pub exact_name: f64,
    /// Added for each word of the term the file's stem holds, and for each word its
    /// directory holds: a hit in `profile.rs` for `ranking profile` is better evidence than
    /// the same hit elsewhere.
    pub stem_word: f64,
    pub directory_word: f64,
    /// Weight of the share of the file's lines that match.
    pub density: f64,
    /// Extensions (folded, no dot) of source files beyond the languages the tree scans.
    pub source_extensions: Vec<String>,
    pub docs_extensions: Vec<String>,
    pub data_extensions: Vec<String>,
}

impl GrepWeights {
    /// The numbers `findbench tune` searches, with their ranges (`profile/tunable.rs`).
    pub const TUNABLE: &'static [Tunable] = &[
        real("phrase", 0.0, 8.0),
        real("same_line", 0.0, 8.0),
        real("same_file", 0.0, 8.0),
        real("source", 0.0, 8.0),
        real("docs", 0.0, 8.0),
        real("data", 0.0, 8.0),
        real("other", 0.0, 8.0),
        real("declaration", 0.0, 8.0),
        real("definition", 0.0, 4.0),
        real("exact_name", 0.0, 4.0),
        real("stem_word", 0.0, 8.0),
        real("directory_word", 0.0, 4.0),
        real("density", 0.0, 2.0),
    ];
    /// The numbers it leaves as they are, and why.
    pub const NOT_TUNABLE: &'static [NotTunable] = &[];
}

impl Default for GrepWeights {
    fn default() -> Self {
        let list = |l: &[&str]| l.iter().map(|x| x.to_string()).collect();
        GrepWeights {
            evidence: true,
            scattered_words: true,
            word_continuation: true,
            phrase: 3.0,
            same_line: 2.0,
            same_file: 1.0,
            source: 3.0,
            docs: 1.5,
            data: 0.5,
            other: 1.0,
            declaration: 2.0,
            definition: 0.5,
            exact_name: 1.0,
            stem_word: 2.0,
            directory_word: 0.5,
            density: 0.25,
            // the scanned languages' own extensions are in their table entries
            // (`tree/symbols/languages.rs`), never here
            source_extensions: list(&[
                "fish", "ps1", "zig", "lua", "pl", "pm", "r", "jl", "ex", "exs", "erl", "hs", "ml",
                "clj", "dart", "m", "mm", "sql", "cmake", "vue", "svelte",
            ]),
            docs_extensions: list(&["md", "markdown", "rst", "txt", "adoc", "org", "tex", "html"]),
            data_extensions: list(&[
                "json", "jsonl", "ndjson", "yaml", "yml", "toml", "csv", "tsv", "xml", "lock",
                "ini", "cfg", "conf", "snap", "svg",
            ]),
        }
    }
}

impl GrepWeights {
    /// The spec's grep: the whole term only, ranked by matching lines.
    pub fn legacy() -> GrepWeights {
        GrepWeights {
            evidence: false,
            scattered_words: false,
            word_continuation: false,
            ..GrepWeights::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::symbols::LANGUAGES;

    #[test]
    fn source_extensions_name_no_scanned_language() {
        // a scanned language's extension listed here would be a second place its facts live
        let source = GrepWeights::default().source_extensions;
        for spec in LANGUAGES.iter() {
            for ext in spec.extensions {
                assert!(
                    !source.iter().any(|s| s == ext),
                    "`{ext}` of {} is in grep.source_extensions",
                    spec.name
                );
            }
        }
        assert!(source.iter().any(|s| s == "lua"));
    }
}
