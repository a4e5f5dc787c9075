//! Scala (2 and 3): `def`, `class` and `case class`, `trait`, `object` (`case object`,
//! `package object`), `enum` and `type`, past annotations and modifiers
//! (`private[pkg]`, `implicit`, `sealed`, ...).

use super::lexical::{declared_after, leading_ident, strip_annotations, strip_word};
use super::scanner::Scanner;
use super::symbol::SymbolKind;

const MODIFIERS: &[&str] = &[
    "override",
    "private",
    "protected",
    "final",
    "implicit",
    "inline",
    "transparent",
    "abstract",
    "lazy",
    "sealed",
    "open",
    "infix",
    "opaque",
    "case",
    "package",
];

impl<'a> Scanner<'a> {
    pub(super) fn scala(&mut self, s: &'a str, indented: bool) -> Option<(SymbolKind, &'a str)> {
        if s.starts_with("import ") {
            return None;
        }
        let mut s = s;
        loop {
            let before = s;
            s = strip_annotations(s);
            for word in MODIFIERS {
                if let Some(rest) = strip_word(s, word).or_else(|| qualified(s, word)) {
                    s = rest;
                }
            }
            if s == before {
                break;
            }
        }
        if let Some(rest) = strip_word(s, "def") {
            // `def this(...)` is an auxiliary constructor
            let name = leading_ident(rest).filter(|&n| n != "this")?;
            let kind = if indented {
                SymbolKind::Method
            } else {
                SymbolKind::Function
            };
            return Some((kind, name));
        }
        for (word, kind) in [
            ("class", SymbolKind::Class),
            ("trait", SymbolKind::Trait),
            ("object", SymbolKind::Object),
            ("enum", SymbolKind::Enum),
            ("type", SymbolKind::Type),
        ] {
            if let Some(name) = declared_after(s, word) {
                return Some((kind, name));
            }
        }
        None
    }
}

/// `private[pkg] rest`: `rest`.
fn qualified<'a>(s: &'a str, word: &str) -> Option<&'a str> {
    let rest = s.strip_prefix(word)?.strip_prefix('[')?;
    let (_, after) = rest.split_once(']')?;
    after
        .starts_with(char::is_whitespace)
        .then(|| after.trim_start())
}
