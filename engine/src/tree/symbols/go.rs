//! Go: functions and methods (by receiver), types (structs and interfaces named as such),
//! constants and variables, grouped `type (...)` / `const (...)` declarations, and the
//! method sets of interfaces.

use super::lexical::{declared_after, leading_ident, strip_word};
use super::scanner::{GoGroup, Scanner};
use super::symbol::SymbolKind;

impl<'a> Scanner<'a> {
    pub(super) fn go(&mut self, s: &'a str, line: &str) -> Option<(SymbolKind, &'a str)> {
        let depth = self.scopes.len();
        if self.in_class() && line.starts_with([' ', '\t']) {
            // an interface's method set: `Read(p []byte) (n int, err error)`
            let name = leading_ident(s)?;
            return s[name.len()..]
                .starts_with('(')
                .then_some((SymbolKind::Method, name));
        }
        if let Some(group) = self.go_group {
            if s.starts_with(')') && depth <= group.depth {
                self.go_group = None;
                return None;
            }
            if depth == group.depth {
                let name = leading_ident(s)?;
                let after = s[name.len()..].trim_start();
                let kind = if group.kind != SymbolKind::Type {
                    group.kind
                } else if after.starts_with("struct") {
                    SymbolKind::Struct
                } else if after.starts_with("interface") {
                    SymbolKind::Interface
                } else {
                    SymbolKind::Type
                };
                return (!after.is_empty() || group.kind == SymbolKind::Const)
                    .then_some((kind, name));
            }
            return None;
        }
        if self.in_block() {
            return None;
        }
        if let Some(rest) = strip_word(s, "func") {
            if let Some(receiver) = rest.strip_prefix('(') {
                let after = receiver.split_once(')')?.1;
                return leading_ident(after).map(|n| (SymbolKind::Method, n));
            }
            return leading_ident(rest).map(|n| (SymbolKind::Function, n));
        }
        for (word, kind) in [
            ("type", SymbolKind::Type),
            ("const", SymbolKind::Const),
            ("var", SymbolKind::Const),
        ] {
            let Some(rest) = strip_word(s, word).or_else(|| s.strip_prefix(word)) else {
                continue;
            };
            if rest.starts_with('(') {
                self.go_group = Some(GoGroup { kind, depth });
                return None;
            }
            if word != "type" {
                return declared_after(s, word).map(|n| (kind, n));
            }
            let name = leading_ident(rest)?;
            let after = rest[name.len()..].trim_start();
            let after = after.strip_prefix('[').map_or(after, |g| {
                g.split_once(']').map_or(g, |(_, r)| r.trim_start())
            });
            let kind = if after.starts_with("struct") {
                SymbolKind::Struct
            } else if after.starts_with("interface") {
                SymbolKind::Interface
            } else {
                SymbolKind::Type
            };
            return Some((kind, name));
        }
        None
    }
}
