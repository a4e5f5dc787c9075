//! What a language is to the lexers and the scanner: the [`Language`]s, how their comments
//! and strings are written, and what says a declaration defines its symbol. The table that
//! gives each language these is `languages.rs`.

use serde::{Deserialize, Serialize};

/// Source languages whose declarations are scanned. The serde names are the index's and
/// the output's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    C,
    Cpp,
    Rust,
    Python,
    Go,
    TypeScript,
    JavaScript,
    Java,
    Kotlin,
    CSharp,
    Ruby,
    Php,
    Swift,
    Scala,
    Shell,
}

/// How comments are written, as the engine's lexers read them (the symbol scanner nests
/// block comments where the language does: [`CommentSyntax::nested`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CommentSyntax {
    /// Comments out the rest of its line.
    pub(crate) line: &'static str,
    /// Opens and closes a comment that may span lines.
    pub(crate) block: Option<(&'static str, &'static str)>,
    /// A block comment opened inside a block comment needs its own close (Rust).
    pub(crate) nested: bool,
}

/// `//` and `/* */`: C and the languages after it.
pub(super) const SLASHES: CommentSyntax = CommentSyntax {
    line: "//",
    block: Some(("/*", "*/")),
    nested: false,
};

/// `#` to the line's end.
pub(super) const HASH: CommentSyntax = CommentSyntax {
    line: "#",
    block: None,
    nested: false,
};

/// How strings are written, beyond `"..."` (in every language, ending at its line's end
/// when not closed) as the engine's lexers read them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StringSyntax {
    pub(crate) single_quote: SingleQuote,
    pub(crate) triple_quotes: TripleQuotes,
    /// A backtick string (a template, a raw string) may span lines.
    pub(crate) backtick_spans_lines: bool,
    /// C#'s verbatim strings (`@"..."`, `$@"..."`): `\` escapes nothing, `""` is a quote,
    /// and they may span lines.
    pub(crate) verbatim: bool,
    /// A `"..."` string (and a `'...'` one where `'` opens a string) goes on past its
    /// line's end until its closing quote (Rust, PHP), rather than ending there.
    pub(crate) quotes_span_lines: bool,
    /// Rust's raw strings: `r"..."`, `r#"..."#` (as many `#` as opened them), `br"..."`;
    /// `\` escapes nothing and they may span lines.
    pub(crate) raw_strings: bool,
    /// C++'s raw strings: `R"delim(...)delim"` (with an encoding prefix or none); `\`
    /// escapes nothing and they may span lines.
    pub(crate) cpp_raw_strings: bool,
    /// PHP's heredocs and nowdocs: `<<<EOT` ends a line, and the string goes on to the line
    /// that starts with `EOT`.
    pub(crate) heredocs: bool,
}

/// What `'` opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SingleQuote {
    /// A string like `"..."`.
    String,
    /// A character literal (`'a'`, `'\n'`); a lone `'` is passed over.
    Character,
    /// A character literal or a lifetime (`'a`): the field split reads no string there.
    CharacterOrLifetime,
}

/// Strings opened by three quotes, which may span lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TripleQuotes {
    None,
    /// `"""` (Kotlin, Swift, Scala, C# raw strings).
    Double,
    /// `"""` and `'''` (Python).
    DoubleAndSingle,
}

pub(super) const PLAIN_STRINGS: StringSyntax = StringSyntax {
    single_quote: SingleQuote::Character,
    triple_quotes: TripleQuotes::None,
    backtick_spans_lines: false,
    verbatim: false,
    quotes_span_lines: false,
    raw_strings: false,
    cpp_raw_strings: false,
    heredocs: false,
};

/// What follows a declaration's name says whether it defines its symbol
/// (`Scanner::defines`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Bodies {
    /// The first `{` (a body) or `;` outside parentheses.
    Braces {
        /// A `,` ends a declarator list (`int a(1), b(2);`) rather than standing in
        /// generics or a `throws` list.
        comma_ends: bool,
        /// A class, struct, union or enum followed by `;` is a forward declaration.
        forward_types: bool,
        /// What a function followed by neither is.
        neither: Neither,
    },
    /// A function's body opens before its line ends (`= expr` or `{`).
    BodyOnItsLine,
    /// A function's, method's or property's body opens before a `;` ends it.
    BodyBeforeSemicolon,
    /// Rust's: a module, function or method with a body, a type or constant given a value.
    Rust,
    /// Every declaration defines its symbol.
    Always,
}

/// A function whose name neither a body nor a `;` follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Neither {
    /// No declaration after all (a call, a macro use): C, C++, Java.
    NoDeclaration,
    /// An arrow function's expression: it defines.
    Defines,
    /// A Go interface method (declares) or a function (defines).
    InterfaceMethod,
}
