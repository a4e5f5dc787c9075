//! What each part of a file is to a reader: the path that names it, the names it declares,
//! its prose (comments, doc comments and string literals: the words people wrote for people,
//! such as help texts and error messages) and its code (the identifiers outside prose).
//!
//! The split is lexical, not a parser: a file's comments and strings are those the symbol
//! scanner reads, cut from the whole text by `tree/symbols/comments_and_strings.rs` from its
//! language's entry in the table (strings that span lines, raw strings, here-documents,
//! nested comments and template literals as the language writes them).

use crate::profile::{FieldWeight, TaskRankingWeights};
use crate::tree::symbols::{spans, Lexicon, Span};
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
pub(crate) enum Syntax {
    /// Source: its comments and strings are prose, the rest code.
    Source(Lexicon),
    /// Documentation, data and anything else: all prose.
    Prose,
}

/// Extensions of source files outside the language table whose comments start with `#`.
const HASH_COMMENT_EXTENSIONS: &[&str] = &[
    "fish", "ps1", "pl", "pm", "r", "jl", "ex", "exs", "cmake", "nim", "cr", "tcl", "awk",
];

impl Syntax {
    /// The syntax of a file: by its language, else by its extension when the profile calls
    /// it source (`source`), else prose.
    pub(crate) fn of(file: &TreeFile, source: bool) -> Syntax {
        match file.language {
            Some(language) => Syntax::Source(language.spec().lexicon()),
            None if source && HASH_COMMENT_EXTENSIONS.contains(&file.ext()) => {
                Syntax::Source(Lexicon::HASH_SOURCE)
            }
            None if source => Syntax::Source(Lexicon::SLASH_SOURCE),
            None => Syntax::Prose,
        }
    }
}

/// Calls `emit(start, end, field)` for consecutive byte ranges of `text` that are prose or
/// code, in order: a field changes next to a delimiter or a line end, never inside a word.
pub(crate) fn split(text: &str, syntax: Syntax, mut emit: impl FnMut(usize, usize, Field)) {
    let lexicon = match syntax {
        Syntax::Prose => {
            if !text.is_empty() {
                emit(0, text.len(), Field::Prose);
            }
            return;
        }
        Syntax::Source(lexicon) => lexicon,
    };
    // a comment next to a string is one range of prose
    let mut open: Option<(usize, usize, Field)> = None;
    spans(text, &lexicon, |start, end, span| {
        let field = match span {
            Span::Code => Field::Code,
            Span::Comment | Span::String => Field::Prose,
        };
        match open {
            Some((from, _, f)) if f == field => open = Some((from, end, field)),
            _ => {
                if let Some((from, to, f)) = open {
                    emit(from, to, f);
                }
                open = Some((start, end, field));
            }
        }
    });
    if let Some((from, to, f)) = open {
        emit(from, to, f);
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

/// Every kind of [`Syntax`]: each language's, the two of source files of no language, and
/// prose; what the tests of the split and of the parts cut from it run.
#[cfg(test)]
pub(crate) fn every_syntax() -> Vec<Syntax> {
    crate::tree::symbols::LANGUAGES
        .iter()
        .map(|spec| Syntax::Source(spec.lexicon()))
        .chain([
            Syntax::Source(Lexicon::HASH_SOURCE),
            Syntax::Source(Lexicon::SLASH_SOURCE),
            Syntax::Prose,
        ])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::Language;

    fn parts(text: &str, syntax: Syntax) -> Vec<(&str, &'static str)> {
        let mut out = Vec::new();
        split(text, syntax, |s, e, f| out.push((&text[s..e], f.as_str())));
        out
    }

    fn of(language: Language) -> Syntax {
        Syntax::Source(language.spec().lexicon())
    }

    #[test]
    fn comments_and_strings_are_prose() {
        assert_eq!(
            parts(
                "let a = \"no \\\"x\"; // why\nfn f<'a>() {}",
                of(Language::Rust)
            ),
            [
                ("let a = ", "code"),
                ("\"no \\\"x\"", "prose"),
                ("; ", "code"),
                ("// why", "prose"),
                ("\nfn f<'a>() {}", "code"),
            ]
        );
        assert_eq!(
            parts("x /* a\nb */ y", of(Language::C)),
            [("x ", "code"), ("/* a\nb */", "prose"), (" y", "code")]
        );
    }

    #[test]
    fn python_docstrings_span_lines_and_hash_starts_a_comment() {
        assert_eq!(
            parts(
                "def f():\n    \"\"\"Say\n  hi\"\"\"\n    x = 1  # one\n",
                of(Language::Python)
            ),
            [
                ("def f():\n    ", "code"),
                ("\"\"\"Say\n  hi\"\"\"", "prose"),
                ("\n    x = 1  ", "code"),
                ("# one", "prose"),
                ("\n", "code"),
            ]
        );
    }

    /// The forms only some languages have: what the field split reads as the scanner does.
    #[test]
    fn every_language_splits_as_its_strings_and_comments_are_written() {
        // a Rust string spans lines, and a comment opener in it opens none
        assert_eq!(
            parts(
                "let s = \"a\n// b\";\nlet t = r#\"c \"// d\"#;",
                of(Language::Rust)
            ),
            [
                ("let s = ", "code"),
                ("\"a\n// b\"", "prose"),
                (";\nlet t = r#", "code"),
                ("\"c \"// d\"#", "prose"),
                (";", "code"),
            ]
        );
        // nested comments close with their outermost `*/`
        assert_eq!(
            parts("a /* b /* c */ d */ e", of(Language::Rust)),
            [
                ("a ", "code"),
                ("/* b /* c */ d */", "prose"),
                (" e", "code")
            ]
        );
        // a C++ raw string goes on to its delimiter
        assert_eq!(
            parts("auto s = R\"x(/* \")x\"; int k;", of(Language::Cpp)),
            [
                ("auto s = R", "code"),
                ("\"x(/* \")x\"", "prose"),
                ("; int k;", "code"),
            ]
        );
        // a template literal's expression holds a template
        assert_eq!(
            parts("t = `a ${ `b` } // c`; // d", of(Language::TypeScript)),
            [
                ("t = ", "code"),
                ("`a ${ `b` } // c`", "prose"),
                ("; ", "code"),
                ("// d", "prose"),
            ]
        );
        // a PHP heredoc goes on to its label
        assert_eq!(
            parts("$a = <<<EOT\n/* x\nEOT;\n$b;", of(Language::Php)),
            [
                ("$a = ", "code"),
                ("<<<EOT\n/* x\nEOT", "prose"),
                (";\n$b;", "code"),
            ]
        );
        // a shell here-document from the line below its `<<EOF` to its label; `$#` is code
        assert_eq!(
            parts("cat <<EOF # c\n# x\nEOF\necho $# # n", of(Language::Shell)),
            [
                ("cat <<EOF ", "code"),
                ("# c\n# x\nEOF", "prose"),
                ("\necho $# ", "code"),
                ("# n", "prose"),
            ]
        );
        // Ruby's `=begin` ... `=end`
        assert_eq!(
            parts("a\n=begin\nb # c\n=end\nd", of(Language::Ruby)),
            [
                ("a\n", "code"),
                ("=begin\nb # c\n=end", "prose"),
                ("\nd", "code")
            ]
        );
        // a C# verbatim string: `\` escapes nothing, `""` is a quote
        assert_eq!(
            parts("p = @\"C:\\d\n\"\"q\"\"\"; // x", of(Language::CSharp)),
            [
                ("p = ", "code"),
                ("@\"C:\\d\n\"\"q\"\"\"", "prose"),
                ("; ", "code"),
                ("// x", "prose"),
            ]
        );
        // a C character literal and a digit separator are code
        assert_eq!(
            parts("c = '\"'; n = 1'000; // x", of(Language::Cpp)),
            [("c = '\"'; n = 1'000; ", "code"), ("// x", "prose")]
        );
    }

    #[test]
    fn an_unclosed_string_ends_with_its_line() {
        assert_eq!(
            parts("a = \"open\nb = c;", of(Language::C)),
            [("a = ", "code"), ("\"open", "prose"), ("\nb = c;", "code")]
        );
    }

    /// A file of no language is read by its extension when the profile calls it source:
    /// `#` comments for the extensions written so (`.pl`), `//` and `/* */` for the others
    /// (`.zig`); a file that is not source is all prose, whatever its extension.
    #[test]
    fn a_file_of_no_language_is_split_by_its_extension_when_it_is_source() {
        let tree = crate::tree::Tree::from_memory("t", [("a.pl", ""), ("a.zig", "")]);
        let file = |path: &str| tree.files().iter().find(|f| f.path == path).unwrap();
        let (pl, zig) = (file("a.pl"), file("a.zig"));
        assert!(pl.language.is_none() && zig.language.is_none());
        let text = "x # h\ny // s";
        assert_eq!(
            parts(text, Syntax::of(pl, true)),
            [("x ", "code"), ("# h", "prose"), ("\ny // s", "code")]
        );
        assert_eq!(
            parts(text, Syntax::of(zig, true)),
            [("x # h\ny ", "code"), ("// s", "prose")]
        );
        for f in [pl, zig] {
            assert_eq!(parts(text, Syntax::of(f, false)), [(text, "prose")]);
        }
    }

    #[test]
    fn prose_is_one_range() {
        assert_eq!(parts("a // b", Syntax::Prose), [("a // b", "prose")]);
        assert!(parts("", Syntax::Prose).is_empty());
    }
}
