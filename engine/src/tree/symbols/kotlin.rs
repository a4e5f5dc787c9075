//! Kotlin: `fun` (extension functions `fun T.name(` and `fun <T> List<T>.name(` by their
//! own name), `class` with its kinds (`data`, `sealed`, `enum`, `annotation`, `value`),
//! `interface` and `fun interface`, `object` and named companion objects, `typealias`, and
//! `const val`, past annotations and modifiers.

use super::lexical::{
    declared_after, last_segment, leading_ident, skip_type_parameters, strip_annotations,
    strip_word,
};
use super::scanner::Scanner;
use super::symbol::SymbolKind;

const MODIFIERS: &[&str] = &[
    "public",
    "private",
    "protected",
    "internal",
    "open",
    "abstract",
    "final",
    "override",
    "sealed",
    "data",
    "inner",
    "annotation",
    "value",
    "inline",
    "suspend",
    "operator",
    "infix",
    "tailrec",
    "external",
    "lateinit",
    "expect",
    "actual",
    "companion",
    "crossinline",
    "noinline",
];

impl<'a> Scanner<'a> {
    pub(super) fn kotlin(&mut self, s: &'a str, indented: bool) -> Option<(SymbolKind, &'a str)> {
        if s.starts_with("import ") || s.starts_with("package ") {
            return None;
        }
        let mut s = s;
        let mut is_enum = false;
        let mut is_const = false;
        loop {
            let before = s;
            s = strip_annotations(s);
            for word in MODIFIERS.iter().chain(&["enum", "const"]) {
                if let Some(rest) = strip_word(s, word) {
                    is_enum |= *word == "enum";
                    is_const |= *word == "const";
                    s = rest;
                }
            }
            if s == before {
                break;
            }
        }
        if let Some(rest) = strip_word(s, "fun") {
            if let Some(name) = declared_after(rest, "interface") {
                return Some((SymbolKind::Interface, name));
            }
            let name = last_segment(skip_type_parameters(rest))?;
            let kind = if indented {
                SymbolKind::Method
            } else {
                SymbolKind::Function
            };
            return Some((kind, name));
        }
        let class = if is_enum {
            SymbolKind::Enum
        } else {
            SymbolKind::Class
        };
        for (word, kind) in [
            ("class", class),
            ("interface", SymbolKind::Interface),
            ("object", SymbolKind::Object),
            ("typealias", SymbolKind::Type),
        ] {
            if let Some(name) = declared_after(s, word) {
                return Some((kind, name));
            }
        }
        if is_const {
            let rest = strip_word(s, "val")?;
            return leading_ident(rest).map(|n| (SymbolKind::Const, n));
        }
        None
    }
}
