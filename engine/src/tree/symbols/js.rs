//! TypeScript and JavaScript: functions (declared, or arrow functions and function
//! expressions assigned to a name or to a property: `exports.parse = function`,
//! `proto.handle = (req) =>`), classes, interfaces, enums, namespaces, modules, types and
//! constants; and the members of a class body or of an object literal (`name(args) {`,
//! `name: function`).

use super::lexical::{declared_after, is_ident_char, leading_ident, strip_word, strip_words};
use super::scanner::Scanner;
use super::symbol::SymbolKind;

impl<'a> Scanner<'a> {
    pub(super) fn script(&mut self, s: &'a str, indented: bool) -> Option<(SymbolKind, &'a str)> {
        self.opens_object = opens_object_literal(s);
        if self.in_class() {
            return member(s);
        }
        if indented && self.in_block() {
            // in a function's body: functions given a name where they stand, and functions
            // assigned to a property (`this.handle = function`)
            // and types, named functions and object literals declared there
            return declaration(s)
                .filter(|&(kind, _)| kind != SymbolKind::Const)
                // a named class expression binds its own name wherever it stands, so
                // `globalThis.Headers = class Headers {` defines the class `Headers`
                .or_else(|| named_class_expression(s).map(|n| (SymbolKind::Class, n)))
                .or_else(|| {
                    // a property set when the function runs (`this.handle = function`,
                    // `ky.create = (...) =>`) is weaker than a declaration: it declares
                    let found = assigned_function(s)
                        .filter(|_| assignment(s).is_some_and(|(target, _)| target.contains('.')));
                    self.declares_only = found.is_some();
                    found
                })
                .or_else(|| named_function_expression(s).map(|n| (SymbolKind::Function, n)))
                .or_else(|| object_variable(s).map(|n| (SymbolKind::Const, n)));
        }
        declaration(s)
            .or_else(|| assigned_function(s))
            .or_else(|| named_function_expression(s).map(|n| (SymbolKind::Function, n)))
            .or_else(|| named_class_expression(s).map(|n| (SymbolKind::Class, n)))
    }
}

/// A class expression given its own name where a value stands (`= class NAME`,
/// `(class NAME`, `, class NAME`, `return class NAME`), followed by its heritage or body
/// (`extends`, `implements`, `<`, `{`, or the line's end): the name.
fn named_class_expression(s: &str) -> Option<&str> {
    s.match_indices("class").find_map(|(at, _)| {
        let before = s[..at].trim_end();
        let is_value = (before.ends_with(['=', '(', ',']) && !before.ends_with("=="))
            || before
                .strip_suffix("return")
                .is_some_and(|b| !b.chars().next_back().is_some_and(is_ident_char));
        if !is_value {
            return None;
        }
        let name = declared_after(&s[at..], "class")?;
        let after = s[name.as_ptr() as usize - s.as_ptr() as usize + name.len()..].trim_start();
        let heads_class = after.is_empty()
            || after.starts_with(['{', '<'])
            || strip_word(after, "extends").is_some()
            || strip_word(after, "implements").is_some();
        (heads_class && !matches!(name, "extends" | "implements")).then_some(name)
    })
}

/// `var name = {` (`let`, `const`): an object literal named by a variable, whose
/// properties are its members.
fn object_variable(s: &str) -> Option<&str> {
    let rest = ["var", "let", "const"]
        .iter()
        .find_map(|w| strip_word(s, w))?;
    let name = leading_ident(rest)?;
    let value = rest[name.len()..].trim_start().strip_prefix('=')?;
    value.trim_start().starts_with('{').then_some(name)
}

/// A function expression given its own name anywhere in the line (`return function
/// generateETag(`, `on('end', function onEnd(`): the name.
fn named_function_expression(s: &str) -> Option<&str> {
    s.match_indices("function").find_map(|(at, _)| {
        let before = s[..at].chars().next_back();
        if before.is_some_and(is_ident_char) {
            return None;
        }
        let name = named_function(&s[at..])?;
        s[name.as_ptr() as usize - s.as_ptr() as usize + name.len()..]
            .trim_start()
            .starts_with(['(', '<'])
            .then_some(name)
    })
}

/// `function name` (a generator's `function* name` too): the name.
fn named_function(s: &str) -> Option<&str> {
    let rest = s.strip_prefix("function")?.trim_start_matches('*');
    rest.starts_with(char::is_whitespace)
        .then(|| leading_ident(rest))
        .flatten()
}

/// A value that is a function: `function`, `async`, an arrow function (`(a) =>`, `a =>`,
/// `<T>(a: T) =>`), or parameters going on to the next line.
fn is_function_value(value: &str) -> bool {
    value.starts_with("function")
        || value.starts_with("async")
        || ((value.starts_with('(') || value.starts_with('<'))
            && (value.contains("=>") || value.ends_with('(')))
        || value
            .split_once("=>")
            .is_some_and(|(p, _)| leading_ident(p).is_some_and(|i| i.len() == p.trim().len()))
}

/// A function assigned to a property (`exports.parse = function`, `app.listen = function
/// listen(`, `proto.handle = (req) =>`, `a.b = a.c = function`) or to a bare name: its name,
/// the property's. A method unless the object is the module's exports.
fn assigned_function(s: &str) -> Option<(SymbolKind, &str)> {
    let (target, mut value) = assignment(s)?;
    // a chain of assignments names the first
    while let Some((_, v)) = assignment(value) {
        value = v;
    }
    if let Some(name) = declared_after(value, "class") {
        // `module.exports = class Application extends Emitter {`
        return Some((SymbolKind::Class, name));
    }
    if !is_function_value(value) {
        return None;
    }
    let (object, name) = match target.rsplit_once('.') {
        Some((object, name)) => (object, name),
        None => ("", target),
    };
    if name == "exports" {
        // `module.exports = function name(`: the function's own name; an anonymous one is
        // the module's `exports`
        let own = named_function(strip_words(value, &["async"]));
        return Some((SymbolKind::Function, own.unwrap_or(name)));
    }
    let name = leading_ident(name).filter(|n| n.len() == name.len())?;
    // a function expression's own name is the one it is known by (`app.listen = function
    // listen(`, `res.type = function contentType(`)
    let name = named_function(strip_words(value, &["async"])).unwrap_or(name);
    let kind = match object {
        "" | "exports" | "module.exports" => SymbolKind::Function,
        _ => SymbolKind::Method,
    };
    Some((kind, name))
}

/// `a.b.c = value`: the target and the value (`==`, `=>` and compound operators are not
/// assignments).
fn assignment(s: &str) -> Option<(&str, &str)> {
    let end = s
        .find(|c: char| !(is_ident_char(c) || c == '.'))
        .unwrap_or(s.len());
    let target = &s[..end];
    if target.is_empty() || target.starts_with('.') || target.ends_with('.') {
        return None;
    }
    let value = s[end..].trim_start().strip_prefix('=')?;
    (!value.starts_with(['=', '>'])).then(|| (target, value.trim_start()))
}

/// The line ends by opening an object literal whose members follow on the next lines:
/// `= {`, `({`, `, {`, `: {`, `return {`, `export default {`.
fn opens_object_literal(s: &str) -> bool {
    let Some(before) = s.strip_suffix('{') else {
        return false;
    };
    let before = before.trim_end();
    if s.starts_with("case ") || s.starts_with("default:") {
        return false;
    }
    before.ends_with(['=', '(', ',', ':', '[', '?'])
        && !before.ends_with("=>")
        && !before.ends_with("==")
        || before.ends_with("return")
        || before.ends_with("default")
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
            if is_function_value(value) {
                return Some((SymbolKind::Function, name));
            }
            if let Some(class) = declared_after(value, "class") {
                // `const Foo = class Foo {`
                return Some((SymbolKind::Class, class));
            }
            return (word == "const" || value.starts_with('{'))
                .then_some((SymbolKind::Const, name));
        }
    }
    None
}

/// Words that start a statement in a body: never a member's name.
const CONTROL_WORDS: &[&str] = &[
    "if", "else", "for", "while", "switch", "case", "do", "return", "throw", "try", "yield",
    "await", "typeof", "void", "super", "this",
];

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
    // a member may be named like a keyword (`catch(`, `delete(`), not like control flow;
    // `constructor(` is the class's constructor, a method as C# and Java ones are
    if CONTROL_WORDS.contains(&name) {
        return None;
    }
    let after = s[name.len()..].trim_start();
    let after = after.strip_prefix('?').unwrap_or(after);
    // an object literal's `name: function (`, `name: async (`, `name: (a) =>`
    let is_property_function = after
        .strip_prefix(':')
        .is_some_and(|v| is_function_value(v.trim_start()) && !v.trim_start().starts_with('('))
        || after.strip_prefix(':').is_some_and(|v| {
            let v = v.trim_start();
            v.starts_with('(') && v.contains("=>") && !v.ends_with(';')
        });
    let is_method = is_property_function || after.starts_with('(') || after.starts_with('<') || {
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
