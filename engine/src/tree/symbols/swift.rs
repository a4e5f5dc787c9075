//! Swift: `func`, `class` and `actor`, `struct`, `enum`, `protocol`, `typealias`, and
//! `extension T` (which declares members of a type defined elsewhere), past attributes
//! (`@objc(name)`, `@available(...)`) and modifiers (`class func` is a method).

use super::lexical::{
    declared_after, last_segment, leading_ident, strip_annotations, strip_word, strip_words,
};
use super::scanner::Scanner;
use super::symbol::SymbolKind;

const MODIFIERS: &[&str] = &[
    "public",
    "private",
    "fileprivate",
    "internal",
    "package",
    "open",
    "final",
    "static",
    "override",
    "mutating",
    "nonmutating",
    "convenience",
    "required",
    "dynamic",
    "optional",
    "lazy",
    "weak",
    "unowned",
    "indirect",
    "nonisolated",
    "distributed",
    "prefix",
    "postfix",
    "infix",
];

/// What may follow `class` when it is a modifier (`class func`, `class var`), not a type.
const AFTER_CLASS_MODIFIER: &[&str] = &["func", "var", "let", "subscript", "override", "final"];

impl<'a> Scanner<'a> {
    pub(super) fn swift(&mut self, s: &'a str, indented: bool) -> Option<(SymbolKind, &'a str)> {
        if s.starts_with("import ") {
            return None;
        }
        let mut s = s;
        loop {
            let before = s;
            s = strip_annotations(s);
            s = strip_words(s, MODIFIERS);
            // access with a setter's scope: `private(set)`, `public(set)`
            if let Some((word, rest)) = s.split_once("(set)") {
                if MODIFIERS.contains(&word) {
                    s = rest.trim_start();
                }
            }
            if let Some(rest) = strip_word(s, "class") {
                if leading_ident(rest).is_some_and(|w| AFTER_CLASS_MODIFIER.contains(&w)) {
                    s = rest;
                }
            }
            if s == before {
                break;
            }
        }
        if let Some(rest) = strip_word(s, "func") {
            let name = leading_ident(rest)?;
            let kind = if indented {
                SymbolKind::Method
            } else {
                SymbolKind::Function
            };
            return Some((kind, name));
        }
        if let Some(rest) = strip_word(s, "extension") {
            return last_segment(rest).map(|n| (SymbolKind::Extension, n));
        }
        for (word, kind) in [
            ("class", SymbolKind::Class),
            ("actor", SymbolKind::Class),
            ("struct", SymbolKind::Struct),
            ("enum", SymbolKind::Enum),
            ("protocol", SymbolKind::Interface),
            ("typealias", SymbolKind::Type),
        ] {
            if let Some(name) = declared_after(s, word) {
                return Some((kind, name));
            }
        }
        None
    }
}
