//! C#: classes, structs, interfaces, records (`record struct` included), enums and
//! delegates; and in a type's body its methods, constructors and properties (a body
//! `{ get; set; }` or an expression `=> value`), past attributes and modifiers.

use super::c_like::member_head;
use super::lexical::{
    declared_after, is_ident_char, leading_ident, skip_type_parameters, strip_annotations,
    strip_words,
};
use super::scanner::Scanner;
use super::symbol::SymbolKind;

const MODIFIERS: &[&str] = &[
    "public",
    "private",
    "protected",
    "internal",
    "static",
    "sealed",
    "abstract",
    "virtual",
    "override",
    "async",
    "partial",
    "readonly",
    "unsafe",
    "extern",
    "new",
    "volatile",
    "file",
    "required",
    "ref",
];

impl<'a> Scanner<'a> {
    pub(super) fn csharp(&mut self, s: &'a str) -> Option<(SymbolKind, &'a str)> {
        if s.starts_with('#') || s.starts_with("using ") || self.in_block() {
            return None;
        }
        let s = strip_annotations(s);
        let stripped = strip_words(s, MODIFIERS);
        let modified = stripped.len() != s.len();
        let s = stripped;
        for (word, kind) in [
            ("class", SymbolKind::Class),
            ("struct", SymbolKind::Struct),
            ("interface", SymbolKind::Interface),
            ("enum", SymbolKind::Enum),
            ("record", SymbolKind::Record),
            ("namespace", SymbolKind::Namespace),
        ] {
            if let Some(name) = declared_after(s, word) {
                return match name {
                    // `record struct Point`, `record class Point`
                    "struct" | "class" if kind == SymbolKind::Record => {
                        declared_after(s[word.len()..].trim_start(), name)
                            .map(|n| (SymbolKind::Record, n))
                    }
                    _ if kind == SymbolKind::Namespace => {
                        // `namespace A.B.C`: its last name
                        let rest = s[word.len()..].trim_start();
                        let end = rest
                            .find(|c: char| !(is_ident_char(c) || c == '.'))
                            .unwrap_or(rest.len());
                        let dotted = &rest[..end];
                        leading_ident(dotted.rsplit('.').next()?).map(|n| (kind, n))
                    }
                    _ => Some((kind, name)),
                };
            }
        }
        if let Some(rest) = s.strip_prefix("delegate ") {
            let (name, _) = member_head(rest)?;
            return Some((SymbolKind::Type, name));
        }
        if !self.in_class() {
            return None;
        }
        let (name, typed) = member_head(s)?;
        let after = s[name.as_ptr() as usize - s.as_ptr() as usize + name.len()..].trim_start();
        let after = skip_type_parameters(after);
        if after.starts_with('(') {
            // a constructor has no type, but a modifier
            return (typed || modified).then_some((SymbolKind::Method, name));
        }
        let property = after.is_empty() || after.starts_with('{') || after.starts_with("=>");
        (typed && property).then_some((SymbolKind::Property, name))
    }
}
