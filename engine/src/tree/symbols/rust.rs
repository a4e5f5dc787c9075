//! Rust: items by their keyword after visibility, `extern`, `const`/`async`/`unsafe`
//! qualifiers and same-line attributes; `macro_rules!` macros. (Test attributes on the lines
//! above an item are followed by the scan itself.)

use super::lexical::{declared_after, leading_ident, strip_word, strip_words, trim_start};
use super::symbol::SymbolKind;

/// The item a line of Rust declares, and its name.
pub(super) fn declaration(s: &str) -> Option<(SymbolKind, &str)> {
    // every form below starts with one of these bytes (`#[`, `macro_rules!`, `mod`, `pub`,
    // `default`, `async`, `auto`, `unsafe`, `union`, `extern`, `enum`, `const`, `static`,
    // `struct`, `fn`, `trait`, `type`): most lines of code start otherwise
    if !matches!(
        s.as_bytes().first(),
        Some(b'#' | b'm' | b'p' | b'd' | b'a' | b'u' | b'e' | b'c' | b's' | b'f' | b't')
    ) {
        return None;
    }
    let mut s = s;
    // attributes on the declaration's line: `#[inline] pub fn f()`
    while let Some(rest) = s.strip_prefix("#[") {
        s = trim_start(rest.split_once(']')?.1);
    }
    if let Some(rest) = s.strip_prefix("macro_rules!") {
        return leading_ident(rest).map(|n| (SymbolKind::Macro, n));
    }
    if let Some(rest) = s.strip_prefix("pub(") {
        s = trim_start(rest.split_once(')')?.1);
    }
    let mut s = strip_words(s, &["pub", "default", "async", "unsafe", "auto"]);
    if let Some(rest) = strip_word(s, "extern") {
        // `extern "C" fn`, `extern "system" fn`
        s = match rest.strip_prefix('"') {
            Some(abi) => trim_start(abi.split_once('"')?.1),
            None => rest,
        };
        s = strip_words(s, &["unsafe"]);
    }
    // `const fn` is a function, `const NAME` a constant
    let s = strip_word(s, "const")
        .filter(|r| r.starts_with("fn ") || r.starts_with("unsafe ") || r.starts_with("async "))
        .map_or(s, |r| strip_words(r, &["unsafe", "async"]));
    let s = strip_words(s, &["async", "unsafe"]);
    if let Some(rest) = strip_word(s, "static") {
        let rest = strip_words(rest, &["mut"]);
        return leading_ident(rest).map(|n| (SymbolKind::Const, n));
    }
    for (word, kind) in [
        ("fn", SymbolKind::Function),
        ("struct", SymbolKind::Struct),
        ("enum", SymbolKind::Enum),
        ("union", SymbolKind::Union),
        ("trait", SymbolKind::Trait),
        ("type", SymbolKind::Type),
        ("mod", SymbolKind::Module),
        ("const", SymbolKind::Const),
    ] {
        if let Some(name) = declared_after(s, word) {
            if name == "_" {
                return None;
            }
            return Some((kind, name.strip_prefix("r#").unwrap_or(name)));
        }
    }
    None
}
