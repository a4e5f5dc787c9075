//! Search terms as an agent's planner writes them: words joined by the grep-style separator
//! `[ _-]?` (`cursor[ _-]?binary`), or one CamelCase identifier (`CommandRouter`).

use super::camel::split_words;
use super::fold::fold;

/// The separator pattern `extract_best_term` puts between the words of a multi-word term.
pub const SEPARATOR: &str = "[ _-]?";

/// A term prepared once for every comparison a file mode makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    /// The term as given.
    pub raw: String,
    /// Folded, with the separator pattern kept literally: what a handler that does not know
    /// the pattern compares against (the legacy profile).
    pub literal: String,
    /// Folded words: split at separators, spaces, `_`, `-` and CamelCase.
    pub words: Vec<String>,
    /// The words joined by `_`: the normal form stems are compared in.
    pub snake: String,
    /// The words run together with no separator, for `commandrouter` ~ `command_router`.
    pub compact: String,
}

impl Term {
    pub fn new(raw: &str) -> Term {
        let spaced = raw.replace(SEPARATOR, " ");
        let words = split_words(&spaced);
        Term {
            raw: raw.to_string(),
            literal: fold(raw.trim()),
            snake: words.join("_"),
            compact: words.concat(),
            words,
        }
    }

    /// True when the term names more than one word.
    pub fn is_multi_word(&self) -> bool {
        self.words.len() >= 2
    }

    /// The segments between separator patterns, folded: `cursor[ _-]?binary` gives
    /// `cursor`, `binary`; a term without the pattern gives itself.
    pub fn segments(&self) -> Vec<String> {
        self.literal
            .split(SEPARATOR)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separator_pattern_becomes_words() {
        let t = Term::new("cursor[ _-]?binary");
        assert_eq!(t.words, ["cursor", "binary"]);
        assert_eq!(t.snake, "cursor_binary");
        assert_eq!(t.compact, "cursorbinary");
        assert_eq!(t.literal, "cursor[ _-]?binary");
        assert_eq!(t.segments(), ["cursor", "binary"]);
        assert!(t.is_multi_word());
    }

    #[test]
    fn camel_case_term() {
        let t = Term::new("CommandRouter");
        assert_eq!(t.snake, "command_router");
        assert_eq!(t.literal, "commandrouter");
        assert_eq!(t.segments(), ["commandrouter"]);
    }
}
