//! Java: classes, interfaces (annotation types included), enums and records, and the
//! methods and constructors of a class body, past annotations and modifiers.

use super::c_like::{member_head, strip_template};
use super::lexical::{declared_after, leading_ident, skip_type_parameters, strip_words};
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
        if let Some(decl) = s.strip_prefix("@interface") {
            // `public @interface Expose {`
            return leading_ident(decl.trim_start()).map(|n| (SymbolKind::Interface, n));
        }
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
        // a member: a method (its type parameters first: `<T> List<T> of(`), or a
        // constructor (no return type), whose parameters close before its body
        let s = skip_type_parameters(s);
        let (name, typed) = member_head(s)?;
        let after = s[name.as_ptr() as usize - s.as_ptr() as usize + name.len()..].trim_start();
        let parameters = after.strip_prefix('(')?;
        if !typed && !closes_before_body(parameters) {
            return None;
        }
        Some((SymbolKind::Method, name))
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

/// The rest of a line after a constructor's `(`: its parameters close and nothing but a body
/// or a `throws` clause follows (`init(a),` and `init(a));` are calls going on).
fn closes_before_body(rest: &str) -> bool {
    let mut depth = 1;
    for (i, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    let after = rest[i + 1..].trim_start();
                    return after.is_empty()
                        || after.starts_with('{')
                        || after.starts_with("throws");
                }
            }
            _ => {}
        }
    }
    // the parameters go on below
    !rest.trim_end().ends_with([';', ','])
}
