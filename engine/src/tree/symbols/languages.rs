//! The languages whose declarations are scanned, one entry each in [`LANGUAGES`], as
//! ripgrep keeps its file types: how a file is known to be in it, how its comments and
//! strings are written (as the scanner, the comment finder and the field split read them),
//! how its declarations are read, and what the profiles take from it. Everything the engine
//! knows of a language is its entry or its recogniser's file.

use super::language::{
    Bodies, CommentSyntax, Heredocs, Language, Neither, SingleQuote, StringSyntax, TripleQuotes,
    HASH, PLAIN_STRINGS, SLASHES,
};
use super::scanner::Scanner;
use super::symbol::SymbolKind;

/// What the engine knows of one language.
pub(crate) struct LanguageSpec {
    pub(crate) language: Language,
    /// Its serde name.
    pub(crate) name: &'static str,
    /// Its extensions, folded, without the dot; no two languages share one.
    pub(crate) extensions: &'static [&'static str],
    /// Those of its extensions that name implementation files, not headers, stubs or build
    /// scripts (the default profile's `code.impl_extensions`).
    pub(crate) implementation_extensions: &'static [&'static str],
    /// File-name patterns of its tests beyond the ones every language shares (the default
    /// profile's `code.test_names`).
    pub(crate) test_names: &'static [&'static str],
    /// A file is the module its stem names (`find code`'s module-file step).
    pub(crate) module_files: bool,
    pub(crate) comments: CommentSyntax,
    pub(crate) strings: StringSyntax,
    /// TypeScript or JavaScript: `/` may open a regular expression, and a function may be
    /// an arrow assigned to a name.
    pub(crate) script: bool,
    /// A scan given the lines that may declare a kept name reads only those in full
    /// (`super::scan_lines_keeping`): a language whose recogniser reads a line alone and
    /// changes nothing the next lines are read with passes the others over, and C and C++
    /// keep following their braces, comments and open statements on them
    /// (`Scanner::passes_over_c_line`). A name is written on the line that declares it.
    pub(crate) skims_lines: bool,
    /// Its blocks are followed by their braces: a line in a class body declares a member,
    /// one in a block declares nothing.
    pub(super) braces: bool,
    /// A line opening with `#[` is an attribute of the item below, which `#[test]` makes a
    /// test.
    pub(super) attributes: bool,
    /// A code line ending with `,`, `(`, an operator leaves a statement open: the next
    /// line continues it and declares nothing (C, C++).
    pub(super) open_statements: bool,
    /// What says that a declaration defines its symbol rather than only declaring it.
    pub(super) bodies: Bodies,
    pub(super) recogniser: Recogniser,
}

/// A line of code as a [`Recogniser::Code`] reads it.
pub(super) struct CodeLine<'a> {
    /// The line without its comments, trimmed (`Scanner::code_of`).
    pub(super) code: &'a str,
    /// The whole line, without its line end.
    pub(super) line: &'a str,
    /// The line starts with a space or a tab.
    pub(super) indented: bool,
    pub(super) number: u32,
}

/// The declaration a recogniser found on a line: its kind and name.
pub(super) type Declared<'a> = Option<(SymbolKind, &'a str)>;

/// How a language's declarations are found.
#[derive(Clone, Copy)]
pub(super) enum Recogniser {
    /// The code of each line, after what the brace languages share (comments, strings,
    /// continuations); its braces are counted after.
    Code(for<'a> fn(&mut Scanner<'a>, &CodeLine<'a>) -> Declared<'a>),
    /// Each whole line, the language's own comments, strings and blocks followed by it.
    Lines(for<'a> fn(&mut Scanner<'a>, &'a str, u32)),
    /// The whole text at once.
    Text(fn(&mut Scanner<'_>)),
}

/// What most entries hold; each names what it differs in.
const BRACE_LANGUAGE: LanguageSpec = LanguageSpec {
    language: Language::C,
    name: "",
    extensions: &[],
    implementation_extensions: &[],
    test_names: &[],
    module_files: false,
    comments: SLASHES,
    strings: PLAIN_STRINGS,
    script: false,
    skims_lines: false,
    braces: true,
    attributes: false,
    open_statements: false,
    bodies: Bodies::Braces {
        comma_ends: false,
        forward_types: false,
        neither: Neither::NoDeclaration,
    },
    recogniser: Recogniser::Code(|_, _| None),
};

/// The C family's recogniser, given only the lines that may declare a kept name: most
/// others are followed for what they leave open alone.
fn c_family<'a>(scanner: &mut Scanner<'a>, line: &CodeLine<'a>) -> Declared<'a> {
    if scanner.passes_over_c_line(line.code, line.number) {
        scanner.prev_type_line = false;
        None
    } else {
        scanner.c_family(line.code, line.indented)
    }
}

const C_BODIES: Bodies = Bodies::Braces {
    comma_ends: true,
    forward_types: true,
    neither: Neither::NoDeclaration,
};

const SCRIPT_STRINGS: StringSyntax = StringSyntax {
    single_quote: SingleQuote::String,
    backtick_spans_lines: true,
    ..PLAIN_STRINGS
};

const SCRIPT_BODIES: Bodies = Bodies::Braces {
    comma_ends: false,
    forward_types: false,
    neither: Neither::Defines,
};

/// Every language, in the order of [`Language`].
pub(crate) static LANGUAGES: &[LanguageSpec] = &[
    LanguageSpec {
        language: Language::C,
        name: "c",
        extensions: &["c"],
        implementation_extensions: &["c"],
        skims_lines: true,
        open_statements: true,
        bodies: C_BODIES,
        recogniser: Recogniser::Code(c_family),
        ..BRACE_LANGUAGE
    },
    LanguageSpec {
        language: Language::Cpp,
        name: "cpp",
        extensions: &[
            "h", "hh", "hpp", "hxx", "cc", "cpp", "cxx", "c++", "ipp", "inl",
        ],
        implementation_extensions: &["cc", "cpp", "cxx", "c++"],
        strings: StringSyntax {
            cpp_raw_strings: true,
            ..PLAIN_STRINGS
        },
        skims_lines: true,
        open_statements: true,
        bodies: C_BODIES,
        recogniser: Recogniser::Code(c_family),
        ..BRACE_LANGUAGE
    },
    LanguageSpec {
        language: Language::Rust,
        name: "rust",
        extensions: &["rs"],
        implementation_extensions: &["rs"],
        module_files: true,
        strings: StringSyntax {
            single_quote: SingleQuote::CharacterOrLifetime,
            quotes_span_lines: true,
            raw_strings: true,
            ..PLAIN_STRINGS
        },
        comments: CommentSyntax {
            nested: true,
            ..SLASHES
        },
        skims_lines: true,
        braces: false,
        attributes: true,
        bodies: Bodies::Rust,
        recogniser: Recogniser::Code(|scanner, line| {
            if scanner.passes_over(line.number) {
                None
            } else {
                super::rust::declaration(line.code)
            }
        }),
        ..BRACE_LANGUAGE
    },
    LanguageSpec {
        language: Language::Python,
        name: "python",
        extensions: &["py", "pyi"],
        implementation_extensions: &["py"],
        test_names: &["test_*.py"],
        module_files: true,
        comments: HASH,
        strings: StringSyntax {
            single_quote: SingleQuote::String,
            triple_quotes: TripleQuotes::DoubleAndSingle,
            backticks: false,
            ..PLAIN_STRINGS
        },
        braces: false,
        bodies: Bodies::Always,
        recogniser: Recogniser::Text(|scanner| scanner.python_text()),
        ..BRACE_LANGUAGE
    },
    LanguageSpec {
        language: Language::Go,
        name: "go",
        extensions: &["go"],
        implementation_extensions: &["go"],
        strings: StringSyntax {
            backtick_spans_lines: true,
            ..PLAIN_STRINGS
        },
        bodies: Bodies::Braces {
            comma_ends: true,
            forward_types: false,
            neither: Neither::InterfaceMethod,
        },
        recogniser: Recogniser::Code(|scanner, line| scanner.go(line.code, line.line)),
        ..BRACE_LANGUAGE
    },
    LanguageSpec {
        language: Language::TypeScript,
        name: "typescript",
        extensions: &["ts", "tsx", "mts", "cts"],
        implementation_extensions: &["ts", "tsx", "mts"],
        module_files: true,
        strings: SCRIPT_STRINGS,
        script: true,
        bodies: Bodies::Braces {
            comma_ends: false,
            forward_types: true,
            neither: Neither::Defines,
        },
        recogniser: Recogniser::Code(|scanner, line| scanner.script(line.code, line.indented)),
        ..BRACE_LANGUAGE
    },
    LanguageSpec {
        language: Language::JavaScript,
        name: "javascript",
        extensions: &["js", "jsx", "mjs", "cjs"],
        implementation_extensions: &["js", "jsx", "mjs", "cjs"],
        module_files: true,
        strings: SCRIPT_STRINGS,
        script: true,
        bodies: SCRIPT_BODIES,
        recogniser: Recogniser::Code(|scanner, line| scanner.script(line.code, line.indented)),
        ..BRACE_LANGUAGE
    },
    LanguageSpec {
        language: Language::Java,
        name: "java",
        extensions: &["java"],
        implementation_extensions: &["java"],
        test_names: &["*Test.java", "*Tests.java"],
        strings: StringSyntax {
            single_quote: SingleQuote::String,
            // text blocks
            triple_quotes: TripleQuotes::Double,
            ..PLAIN_STRINGS
        },
        bodies: Bodies::Braces {
            comma_ends: false,
            forward_types: true,
            neither: Neither::NoDeclaration,
        },
        recogniser: Recogniser::Code(|scanner, line| scanner.java(line.code)),
        ..BRACE_LANGUAGE
    },
    LanguageSpec {
        language: Language::Kotlin,
        name: "kotlin",
        extensions: &["kt", "kts"],
        implementation_extensions: &["kt"],
        test_names: &["*Test.kt", "*Tests.kt"],
        strings: StringSyntax {
            triple_quotes: TripleQuotes::Double,
            ..PLAIN_STRINGS
        },
        bodies: Bodies::BodyOnItsLine,
        recogniser: Recogniser::Code(|scanner, line| scanner.kotlin(line.code, line.indented)),
        ..BRACE_LANGUAGE
    },
    LanguageSpec {
        language: Language::CSharp,
        name: "csharp",
        extensions: &["cs"],
        implementation_extensions: &["cs"],
        test_names: &["*Tests.cs", "*Test.cs"],
        strings: StringSyntax {
            triple_quotes: TripleQuotes::Double,
            verbatim: true,
            ..PLAIN_STRINGS
        },
        bodies: Bodies::BodyBeforeSemicolon,
        recogniser: Recogniser::Code(|scanner, line| scanner.csharp(line.code)),
        ..BRACE_LANGUAGE
    },
    LanguageSpec {
        language: Language::Ruby,
        name: "ruby",
        extensions: &["rb", "rake"],
        implementation_extensions: &["rb"],
        test_names: &["*_spec.rb"],
        comments: CommentSyntax {
            block: Some(("=begin", "=end")),
            block_at_line_start: true,
            line_after_space: true,
            ..HASH
        },
        strings: StringSyntax {
            single_quote: SingleQuote::String,
            heredocs: Heredocs::DoubleAngle { spaced: false },
            ..PLAIN_STRINGS
        },
        skims_lines: true,
        braces: false,
        bodies: Bodies::Always,
        recogniser: Recogniser::Lines(|scanner, line, number| scanner.ruby_line(line, number)),
        ..BRACE_LANGUAGE
    },
    LanguageSpec {
        language: Language::Php,
        name: "php",
        extensions: &["php"],
        // PHPUnit's convention: the tests of `Config` are the class `ConfigTest`, in
        // `ConfigTest.php`, often beside it
        test_names: &["*Test.php"],
        strings: StringSyntax {
            single_quote: SingleQuote::String,
            quotes_span_lines: true,
            heredocs: Heredocs::TripleAngle,
            ..PLAIN_STRINGS
        },
        bodies: Bodies::BodyBeforeSemicolon,
        recogniser: Recogniser::Code(|scanner, line| scanner.php(line.code)),
        ..BRACE_LANGUAGE
    },
    LanguageSpec {
        language: Language::Swift,
        name: "swift",
        extensions: &["swift"],
        implementation_extensions: &["swift"],
        strings: StringSyntax {
            triple_quotes: TripleQuotes::Double,
            ..PLAIN_STRINGS
        },
        bodies: Bodies::BodyOnItsLine,
        recogniser: Recogniser::Code(|scanner, line| scanner.swift(line.code, line.indented)),
        ..BRACE_LANGUAGE
    },
    LanguageSpec {
        language: Language::Scala,
        name: "scala",
        extensions: &["scala", "sc"],
        implementation_extensions: &["scala"],
        strings: StringSyntax {
            triple_quotes: TripleQuotes::Double,
            ..PLAIN_STRINGS
        },
        bodies: Bodies::BodyOnItsLine,
        recogniser: Recogniser::Code(|scanner, line| scanner.scala(line.code, line.indented)),
        ..BRACE_LANGUAGE
    },
    LanguageSpec {
        language: Language::Shell,
        name: "shell",
        extensions: &["sh", "bash", "zsh", "ksh"],
        comments: CommentSyntax {
            line_after_space: true,
            ..HASH
        },
        strings: StringSyntax {
            single_quote: SingleQuote::String,
            heredocs: Heredocs::DoubleAngle { spaced: true },
            ..PLAIN_STRINGS
        },
        skims_lines: true,
        braces: false,
        bodies: Bodies::Always,
        recogniser: Recogniser::Lines(|scanner, line, number| scanner.shell_line(line, number)),
        ..BRACE_LANGUAGE
    },
];

impl Language {
    /// The language of a file by its (folded) extension.
    pub fn from_extension(ext: &str) -> Option<Language> {
        LANGUAGES
            .iter()
            .find(|spec| spec.extensions.contains(&ext))
            .map(|spec| spec.language)
    }

    /// Its entry in [`LANGUAGES`].
    pub(crate) fn spec(self) -> &'static LanguageSpec {
        &LANGUAGES[self as usize]
    }

    /// [`LanguageSpec::skims_lines`].
    pub(crate) fn skims_lines(self) -> bool {
        self.spec().skims_lines
    }

    /// [`LanguageSpec::open_statements`]: its passed-over lines are still followed for
    /// what they leave open (C, C++).
    pub(crate) fn leaves_statements_open(self) -> bool {
        self.spec().open_statements
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_has_one_entry_in_its_place() {
        for (i, spec) in LANGUAGES.iter().enumerate() {
            assert_eq!(spec.language as usize, i, "{}", spec.name);
            assert_eq!(spec.language.spec().name, spec.name);
            // the name is the index's and the output's
            assert_eq!(
                serde_json::to_string(&spec.language).unwrap(),
                format!("\"{}\"", spec.name)
            );
        }
        // the last variant is the last entry: no variant is left without one
        assert_eq!(Language::Shell as usize + 1, LANGUAGES.len());
    }

    #[test]
    fn every_extension_names_its_language_and_only_it() {
        let mut seen = std::collections::HashSet::new();
        for spec in LANGUAGES {
            assert!(!spec.extensions.is_empty(), "{}", spec.name);
            for ext in spec.extensions {
                assert!(seen.insert(*ext), "{ext} is given twice");
                assert_eq!(*ext, ext.to_lowercase(), "an extension is folded");
                assert!(!ext.starts_with('.'), "{ext}");
                assert_eq!(Language::from_extension(ext), Some(spec.language), "{ext}");
            }
            for ext in spec.implementation_extensions {
                assert!(spec.extensions.contains(ext), "{}: {ext}", spec.name);
            }
        }
        assert_eq!(Language::from_extension("md"), None);
    }

    #[test]
    fn every_language_is_read_as_its_recogniser_needs() {
        for spec in LANGUAGES {
            match spec.recogniser {
                // what `Scanner::code_of` cuts, and what the brace counting reads
                Recogniser::Code(_) => {
                    assert_eq!(spec.comments.line, SLASHES.line, "{}", spec.name);
                    assert_eq!(spec.comments.block, SLASHES.block, "{}", spec.name);
                    assert_ne!(spec.bodies, Bodies::Always, "{}", spec.name);
                }
                // its lines declare alone: nothing follows braces or looks past a name
                Recogniser::Lines(_) | Recogniser::Text(_) => {
                    assert!(!spec.braces && !spec.open_statements, "{}", spec.name);
                    assert_eq!(spec.bodies, Bodies::Always, "{}", spec.name);
                }
            }
            // a line is passed over only where a recogniser is told which lines to read
            assert!(
                !spec.skims_lines || !matches!(spec.recogniser, Recogniser::Text(_)),
                "{}",
                spec.name
            );
            assert!(
                !spec.script || spec.strings.backtick_spans_lines,
                "{}",
                spec.name
            );
        }
    }
}
