//! Java: classes, interfaces (annotation types included), enums and records, and the
//! methods and constructors of a class body, past annotations and modifiers.

use super::c_like::{c_like_function, strip_template};
use super::lexical::{declared_after, leading_ident, strip_words};
use super::scanner::Scanner;
use super::symbol::SymbolKind;

impl<'a> Scanner<'a> {
    pub(super) fn java(&mut self, s: &'a str) -> Option<(SymbolKind, &'a str)> {
        if s.starts_with("import ") || s.starts_with("package ") {
            return None;
        }
        let mut s = s;
        // annotations on the same line as the declaration: `@Override public void run() {`
        while let Some(rest) = s.strip_prefix('@') {
            if let Some(decl) = rest.strip_prefix("interface") {
                return leading_ident(decl).map(|n| (SymbolKind::Interface, n));
            }
            let name = leading_ident(rest)?;
            let mut r = &rest[name.len()..];
            if r.starts_with('(') {
                r = r.split_once(')')?.1;
            }
            s = r.trim_start();
        }
        let s = strip_words(s, JAVA_MODIFIERS);
        let s = strip_template(s)?;
        for (word, kind) in [
            ("class", SymbolKind::Class),
            ("interface", SymbolKind::Interface),
            ("enum", SymbolKind::Enum),
            ("record", SymbolKind::Record),
        ] {
            if let Some(name) = declared_after(s, word) {
                return Some((kind, name));
            }
        }
        if !self.in_class() {
            return None;
        }
        // a member: a method, or a constructor (no return type)
        c_like_function(s, false).map(|n| (SymbolKind::Method, n))
    }
}

pub(super) const JAVA_MODIFIERS: &[&str] = &[
    "public",
    "private",
    "protected",
    "static",
    "final",
    "abstract",
    "sealed",
    "non-sealed",
    "synchronized",
    "native",
    "default",
    "strictfp",
];
