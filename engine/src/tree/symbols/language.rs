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
    /// The block comment's words open and close it only at a line's start, and the lines
    /// holding them are the comment's whole (Ruby's `=begin` ... `=end`).
    pub(crate) block_at_line_start: bool,
    /// The line comment opens only at a line's start or after whitespace (shell's `$#` and
    /// `${#a}` are code; Ruby and shell as `heredoc.rs` reads their lines).
    pub(crate) line_after_space: bool,
}

/// `//` and `/* */`: C and the languages after it.
pub(crate) const SLASHES: CommentSyntax = CommentSyntax {
    line: "//",
    block: Some(("/*", "*/")),
    nested: false,
    block_at_line_start: false,
    line_after_space: false,
};

/// `#` to the line's end.
pub(crate) const HASH: CommentSyntax = CommentSyntax {
    line: "#",
    block: None,
    nested: false,
    block_at_line_start: false,
    line_after_space: false,
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
    /// A backtick quotes a string (to its closing backtick, and to its line's end unless
    /// [`StringSyntax::backtick_spans_lines`]): in every language but Python.
    pub(crate) backticks: bool,
    pub(crate) heredocs: Heredocs,
}

/// Here-documents: strings whose lines go on to a line its label ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Heredocs {
    None,
    /// PHP's heredocs and nowdocs: `<<<EOT` ends a line, and the string goes on to the line
    /// that starts with `EOT` (`string_end.rs`).
    TripleAngle,
    /// `<<EOT` (Ruby, shell): the lines below it, up to one that holds `EOT` alone, are the
    /// string (`heredoc.rs`). `spaced`: a space may stand between `<<` and the label
    /// (shell); without it (Ruby, where `x << y` appends) the label follows at once.
    DoubleAngle {
        spaced: bool,
    },
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

pub(crate) const PLAIN_STRINGS: StringSyntax = StringSyntax {
    single_quote: SingleQuote::Character,
    triple_quotes: TripleQuotes::None,
    backtick_spans_lines: false,
    verbatim: false,
    quotes_span_lines: false,
    raw_strings: false,
    cpp_raw_strings: false,
    backticks: true,
    heredocs: Heredocs::None,
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
