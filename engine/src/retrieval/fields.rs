//! What each part of a file is to a reader: the path that names it, the names it declares,
//! its prose (comments, doc comments and string literals: the words people wrote for people,
//! such as help texts and error messages) and its code (the identifiers outside prose).
//!
//! The split is lexical, per family of comment syntax, not a parser: a string or comment the
//! lexer misreads costs one line at most (strings end at the end of their line, except the
//! multi-line forms a language has: Python's triple quotes, Go's and JavaScript's backticks).

use crate::profile::{FieldWeight, TaskRankingWeights};
use crate::text::byte_set::ByteSet;
use crate::tree::symbols::{LanguageSpec, SingleQuote, TripleQuotes};
use crate::tree::TreeFile;

/// A field of a file, in the order of [`FIELDS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Path,
    Symbols,
    Prose,
    Code,
}

pub const FIELDS: [Field; 4] = [Field::Path, Field::Symbols, Field::Prose, Field::Code];

impl Field {
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Field::Path => "path",
            Field::Symbols => "symbol",
            Field::Prose => "prose",
            Field::Code => "code",
        }
    }
}

/// How a file's comments and strings are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// `//` and `/* */` comments (C and its descendants).
    Slashes {
        /// `'...'` is a string or character literal (not in Rust, where `'a` is a lifetime).
        single_quote: bool,
        /// `` `...` `` is a string that may span lines (Go raw strings, JS templates).
        backtick: bool,
    },
    /// `#` comments (Python, shells, Ruby, Perl, R...).
    Hash {
        /// `"""` and `'''` strings span lines (Python).
        triple_quotes: bool,
    },
    /// Documentation, data and anything else: all prose.
    Prose,
}

/// Extensions of source files outside [`Language`] whose comments start with `#`.
const HASH_COMMENT_EXTENSIONS: &[&str] = &[
    "sh", "bash", "zsh", "fish", "ps1", "rb", "pl", "pm", "r", "jl", "ex", "exs", "cmake", "nim",
    "cr", "tcl", "awk",
];

impl Syntax {
    /// The syntax of a file: by its language, else by its extension when the profile calls
    /// it source (`source`), else prose.
    pub fn of(file: &TreeFile, source: bool) -> Syntax {
        match file.language {
            Some(language) => Syntax::of_language(language.spec()),
            None if source && HASH_COMMENT_EXTENSIONS.contains(&file.ext.as_str()) => {
                Syntax::Hash {
                    triple_quotes: false,
                }
            }
            None if source => Syntax::Slashes {
                single_quote: true,
                backtick: false,
            },
            None => Syntax::Prose,
        }
    }

    /// What the split reads of a language's comments and strings. Its rules are its own,
    /// not the symbol scanner's (`Scanner::code_of`): every `'` but Rust's opens a string,
    /// and a `"""` spans lines only in Python; a change to them changes the fields ranked.
    fn of_language(spec: &LanguageSpec) -> Syntax {
        if spec.comments.line == "#" {
            Syntax::Hash {
                triple_quotes: spec.strings.triple_quotes != TripleQuotes::None,
            }
        } else {
            Syntax::Slashes {
                single_quote: spec.strings.single_quote != SingleQuote::CharacterOrLifetime,
                backtick: spec.strings.backtick_spans_lines,
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Code,
    LineComment,
    BlockComment,
    /// delimiter, spans lines, tripled
    Str(u8, bool, bool),
}

/// Calls `emit(start, end, field)` for consecutive byte ranges of `text` that are prose or
/// code, in order.
pub fn split(text: &str, syntax: Syntax, mut emit: impl FnMut(usize, usize, Field)) {
    let (slashes, single_quote, backtick, hash, triple) = match syntax {
        Syntax::Prose => {
            emit(0, text.len(), Field::Prose);
            return;
        }
        Syntax::Slashes {
            single_quote,
            backtick,
        } => (true, single_quote, backtick, false, false),
        Syntax::Hash { triple_quotes } => (false, true, false, true, triple_quotes),
    };
    // the bytes that may open prose in code; every other byte of code is passed over at
    // once, sixteen at a compare
    let mut opening = [0u8; 5];
    let mut len = 0;
    for (byte, on) in [
        (b'/', slashes),
        (b'#', hash),
        (b'"', true),
        (b'\'', single_quote),
        (b'`', backtick),
    ] {
        if on {
            opening[len] = byte;
            len += 1;
        }
    }
    let opens = ByteSet::new(&opening[..len]);
    let b = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    // each state finds the next byte that may change it, then reads it as the byte loop of
    // `tests::split_byte_by_byte` does (held equal by a test)
    let mut state = State::Code;
    while i < b.len() {
        let found = match state {
            State::Code => opens.find(&b[i..]),
            State::LineComment => memchr::memchr(b'\n', &b[i..]),
            State::BlockComment => memchr::memchr(b'*', &b[i..]),
            State::Str(d, _, _) => memchr::memchr3(b'\\', d, b'\n', &b[i..]),
        };
        let Some(k) = found else {
            break;
        };
        i += k;
        let c = b[i];
        let next = b.get(i + 1).copied();
        let (new_state, skip, starts_here) = match state {
            State::Code => {
                if slashes && c == b'/' && next == Some(b'/') {
                    (State::LineComment, 2, true)
                } else if slashes && c == b'/' && next == Some(b'*') {
                    (State::BlockComment, 2, true)
                } else if hash && c == b'#' {
                    (State::LineComment, 1, true)
                } else if triple && (c == b'"' || c == b'\'') && b[i..].starts_with(&[c, c, c]) {
                    (State::Str(c, true, true), 3, true)
                } else if c == b'"' || (single_quote && c == b'\'') {
                    (State::Str(c, false, false), 1, true)
                } else if backtick && c == b'`' {
                    (State::Str(c, true, false), 1, true)
                } else {
                    (State::Code, 1, false)
                }
            }
            State::LineComment => (State::Code, 1, false),
            State::BlockComment if next == Some(b'/') => (State::Code, 2, false),
            State::Str(d, _, false) if c == b'\\' && d != b'`' => (state, 2, false),
            State::Str(_, _, true) if c == b'\\' => (state, 2, false),
            State::Str(d, _, true) if c == d && b[i..].starts_with(&[d, d, d]) => {
                (State::Code, 3, false)
            }
            State::Str(d, _, false) if c == d => (State::Code, 1, false),
            State::Str(_, false, _) if c == b'\n' => (State::Code, 1, false),
            _ => (state, 1, false),
        };
        if new_state != state {
            // a change into prose starts at its delimiter; a change back ends after it
            let cut = if starts_here {
                i
            } else {
                (i + skip).min(b.len())
            };
            if cut > start {
                emit(start, cut, field_of(state));
            }
            start = cut;
            state = new_state;
        }
        i += skip;
    }
    if start < b.len() {
        emit(start, b.len(), field_of(state));
    }
}

fn field_of(state: State) -> Field {
    match state {
        State::Code => Field::Code,
        _ => Field::Prose,
    }
}

impl TaskRankingWeights {
    /// The weights of one field.
    pub fn field(&self, field: Field) -> &FieldWeight {
        match field {
            Field::Path => &self.path,
            Field::Symbols => &self.symbols,
            Field::Prose => &self.prose,
            Field::Code => &self.code,
        }
    }
}

/// Every kind of [`Syntax`]: what the tests of the split and of the parts cut from it run.
#[cfg(test)]
pub(crate) const EVERY_SYNTAX: [Syntax; 6] = [
    Syntax::Prose,
    Syntax::Slashes {
        single_quote: false,
        backtick: false,
    },
    Syntax::Slashes {
        single_quote: true,
        backtick: true,
    },
    Syntax::Slashes {
        single_quote: true,
        backtick: false,
    },
    Syntax::Hash {
        triple_quotes: true,
    },
    Syntax::Hash {
        triple_quotes: false,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The split as one byte loop, every byte read in turn: what [`split`] must give.
    pub(super) fn split_byte_by_byte(
        text: &str,
        syntax: Syntax,
        mut emit: impl FnMut(usize, usize, Field),
    ) {
        let (slashes, single_quote, backtick, hash, triple) = match syntax {
            Syntax::Prose => {
                emit(0, text.len(), Field::Prose);
                return;
            }
            Syntax::Slashes {
                single_quote,
                backtick,
            } => (true, single_quote, backtick, false, false),
            Syntax::Hash { triple_quotes } => (false, true, false, true, triple_quotes),
        };
        let b = text.as_bytes();
        let mut state = State::Code;
        let mut start = 0;
        let mut i = 0;
        let field = |s: State| match s {
            State::Code => Field::Code,
            _ => Field::Prose,
        };
        while i < b.len() {
            let c = b[i];
            let next = b.get(i + 1).copied();
            let (new_state, skip, starts_here) = match state {
                State::Code => {
                    if slashes && c == b'/' && next == Some(b'/') {
                        (State::LineComment, 2, true)
                    } else if slashes && c == b'/' && next == Some(b'*') {
                        (State::BlockComment, 2, true)
                    } else if hash && c == b'#' {
                        (State::LineComment, 1, true)
                    } else if triple && (c == b'"' || c == b'\'') && b[i..].starts_with(&[c, c, c])
                    {
                        (State::Str(c, true, true), 3, true)
                    } else if c == b'"' || (single_quote && c == b'\'') {
                        (State::Str(c, false, false), 1, true)
                    } else if backtick && c == b'`' {
                        (State::Str(c, true, false), 1, true)
                    } else {
                        (State::Code, 1, false)
                    }
                }
                State::LineComment if c == b'\n' => (State::Code, 1, false),
                State::BlockComment if c == b'*' && next == Some(b'/') => (State::Code, 2, false),
                State::Str(d, _, false) if c == b'\\' && d != b'`' => (state, 2, false),
                State::Str(d, _, true) if c == b'\\' => (State::Str(d, true, true), 2, false),
                State::Str(d, _, true) if c == d && b[i..].starts_with(&[d, d, d]) => {
                    (State::Code, 3, false)
                }
                State::Str(d, _, false) if c == d => (State::Code, 1, false),
                State::Str(_, false, _) if c == b'\n' => (State::Code, 1, false),
                _ => (state, 1, false),
            };
            if new_state != state {
                // a change into prose starts at its delimiter; a change back ends after it
                let cut = if starts_here {
                    i
                } else {
                    (i + skip).min(b.len())
                };
                if cut > start {
                    emit(start, cut, field(state));
                }
                start = cut;
                state = new_state;
            }
            i += skip;
        }
        if start < b.len() {
            emit(start, b.len(), field(state));
        }
    }

    /// On texts made of every delimiter, escape and line end in every order, for every
    /// syntax, the split that jumps to the next byte that matters is the byte loop's.
    #[test]
    fn the_split_is_the_byte_loops() {
        let pieces = [
            "a", " x_y ", "/", "//", "/*", "*/", "*", "#", "\"", "\"\"\"", "'", "'''", "`", "\\",
            "\n", "é", "fn", "\\\"",
        ];
        for text in crate::text::pieced_texts(&pieces, 20000, 12, 3) {
            for syntax in EVERY_SYNTAX {
                let (mut fast, mut slow) = (Vec::new(), Vec::new());
                split(&text, syntax, |s, e, f| fast.push((s, e, f)));
                split_byte_by_byte(&text, syntax, |s, e, f| slow.push((s, e, f)));
                assert_eq!(fast, slow, "{syntax:?} {text:?}");
            }
        }
    }

    fn parts(text: &str, syntax: Syntax) -> Vec<(&str, &'static str)> {
        let mut out = Vec::new();
        split(text, syntax, |s, e, f| out.push((&text[s..e], f.as_str())));
        out
    }

    const RUST: Syntax = Syntax::Slashes {
        single_quote: false,
        backtick: false,
    };

    #[test]
    fn comments_and_strings_are_prose() {
        assert_eq!(
            parts("let a = \"no \\\"x\"; // why\nfn f<'a>() {}", RUST),
            [
                ("let a = ", "code"),
                ("\"no \\\"x\"", "prose"),
                ("; ", "code"),
                ("// why\n", "prose"),
                ("fn f<'a>() {}", "code"),
            ]
        );
        assert_eq!(
            parts("x /* a\nb */ y", RUST),
            [("x ", "code"), ("/* a\nb */", "prose"), (" y", "code")]
        );
    }

    #[test]
    fn python_docstrings_span_lines_and_hash_starts_a_comment() {
        let py = Syntax::Hash {
            triple_quotes: true,
        };
        assert_eq!(
            parts(
                "def f():\n    \"\"\"Say\n  hi\"\"\"\n    x = 1  # one\n",
                py
            ),
            [
                ("def f():\n    ", "code"),
                ("\"\"\"Say\n  hi\"\"\"", "prose"),
                ("\n    x = 1  ", "code"),
                ("# one\n", "prose"),
            ]
        );
    }

    /// The syntax each language's entry gives is the one the split was written for.
    #[test]
    fn every_language_splits_as_its_comments_and_strings_are_written() {
        use crate::tree::symbols::LANGUAGES;
        use crate::tree::Language;
        for spec in LANGUAGES {
            let want = match spec.language {
                Language::Python => Syntax::Hash {
                    triple_quotes: true,
                },
                Language::Ruby | Language::Shell => Syntax::Hash {
                    triple_quotes: false,
                },
                Language::Rust => RUST,
                Language::Go | Language::JavaScript | Language::TypeScript => Syntax::Slashes {
                    single_quote: true,
                    backtick: true,
                },
                _ => Syntax::Slashes {
                    single_quote: true,
                    backtick: false,
                },
            };
            assert_eq!(Syntax::of_language(spec), want, "{}", spec.name);
        }
    }

    #[test]
    fn an_unclosed_string_ends_with_its_line() {
        let c = Syntax::Slashes {
            single_quote: true,
            backtick: false,
        };
        assert_eq!(
            parts("a = \"open\nb = c;", c),
            [("a = ", "code"), ("\"open\n", "prose"), ("b = c;", "code")]
        );
    }
}
