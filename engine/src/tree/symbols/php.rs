//! PHP: `function` (methods in a class body), `class` (`abstract`, `final`, `readonly`),
//! `interface`, `trait` and `enum`, past attributes `#[...]` and modifiers; `#` comments.

use super::lexical::{declared_after, leading_ident, strip_annotations, strip_word, strip_words};
use super::scanner::Scanner;
use super::symbol::SymbolKind;

const MODIFIERS: &[&str] = &[
    "abstract",
    "final",
    "readonly",
    "public",
    "private",
    "protected",
    "static",
];

impl<'a> Scanner<'a> {
    pub(super) fn php(&mut self, s: &'a str) -> Option<(SymbolKind, &'a str)> {
        if s.starts_with('#') && !s.starts_with("#[") {
            return None;
        }
        let s = strip_words(strip_annotations(s), MODIFIERS);
        if let Some(rest) = strip_word(s, "function") {
            let name = leading_ident(rest.trim_start_matches('&'))?;
            let kind = if self.in_class() {
                SymbolKind::Method
            } else {
                SymbolKind::Function
            };
            return Some((kind, name));
        }
        if self.in_block() {
            return None;
        }
        for (word, kind) in [
            ("class", SymbolKind::Class),
            ("interface", SymbolKind::Interface),
            ("trait", SymbolKind::Trait),
            ("enum", SymbolKind::Enum),
        ] {
            if let Some(name) = declared_after(s, word) {
                return Some((kind, name));
            }
        }
        None
    }
}
