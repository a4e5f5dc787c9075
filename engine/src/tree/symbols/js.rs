//! TypeScript and JavaScript: functions (declared, or arrow functions and function
//! expressions assigned to a name), classes, interfaces, enums, namespaces, modules, types and
//! constants; and the members of a class body.

use super::lexical::{declared_after, leading_ident, strip_word, strip_words, STATEMENT_WORDS};
use super::scanner::Scanner;
use super::symbol::SymbolKind;

impl<'a> Scanner<'a> {
    pub(super) fn script(&mut self, s: &'a str, indented: bool) -> Option<(SymbolKind, &'a str)> {
        if self.in_class() {
            return member(s);
        }
        if indented && self.in_block() {
            return None;
        }
        declaration(s)
    }
}

/// A top-level (or namespace-level) declaration of TypeScript or JavaScript.
fn declaration(s: &str) -> Option<(SymbolKind, &str)> {
    let s = strip_words(s, &["export", "default", "declare", "abstract", "async"]);
    if let Some(rest) = s.strip_prefix("function") {
        let rest = rest.trim_start_matches('*');
        if rest.starts_with(|c: char| c.is_whitespace()) {
            return leading_ident(rest).map(|n| (SymbolKind::Function, n));
        }
    }
    for (word, kind) in [
        ("class", SymbolKind::Class),
        ("interface", SymbolKind::Interface),
        ("enum", SymbolKind::Enum),
        ("namespace", SymbolKind::Namespace),
        ("module", SymbolKind::Module),
        ("type", SymbolKind::Type),
    ] {
        if let Some(name) = declared_after(s, word) {
            return Some((kind, name));
        }
    }
    for word in ["const", "let", "var"] {
        if let Some(rest) = strip_word(s, word) {
            let name = leading_ident(rest)?;
            let value = rest[name.len()..].trim_start();
            // a type annotation before the value: `const f: Handler = (req) => ...`
            let value = value.split_once('=').map(|(_, v)| v.trim_start())?;
            let is_function = value.starts_with("function")
                || value.starts_with("async")
                || (value.starts_with('(') && (value.contains("=>") || value.ends_with('(')))
                || value.split_once("=>").is_some_and(|(p, _)| {
                    leading_ident(p).is_some_and(|i| i.len() == p.trim().len())
                });
            if is_function {
                return Some((SymbolKind::Function, name));
            }
            return (word == "const").then_some((SymbolKind::Const, name));
        }
    }
    None
}

/// A member of a TypeScript or JavaScript class (or interface): `name(args) {`,
/// `static async name<T>(args): T {`, `name = (args) => {`, `name(args): T;`.
fn member(s: &str) -> Option<(SymbolKind, &str)> {
    let s = strip_words(
        s,
        &[
            "public",
            "private",
            "protected",
            "static",
            "readonly",
            "override",
            "abstract",
            "declare",
            "async",
            "get",
            "set",
        ],
    );
    let s = s.trim_start_matches(['*', '#']);
    let name = leading_ident(s)?;
    if STATEMENT_WORDS.contains(&name) || name == "constructor" {
        return None;
    }
    let after = s[name.len()..].trim_start();
    let after = after.strip_prefix('?').unwrap_or(after);
    let is_method = after.starts_with('(') || after.starts_with('<') || {
        // an arrow function assigned to a field
        after
            .strip_prefix('=')
            .filter(|v| !v.starts_with(['=', '>']))
            .is_some_and(|v| {
                let v = v.trim_start();
                v.starts_with("async") || (v.starts_with('(') && v.contains("=>"))
            })
    };
    is_method.then_some((SymbolKind::Method, name))
}
