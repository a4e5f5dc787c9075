//! A file's symbols in the forms the symbol table builds from: [`Symbol`]s, or packed
//! ([`PackedSymbols`]: what the first call on a root keeps of the files it scans).

use super::symbol::{Symbol, SymbolKind};

/// One symbol as the symbol table reads it, whichever form its file's symbols are kept in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SymbolView<'a> {
    pub kind: SymbolKind,
    pub name: &'a str,
    pub snake: &'a str,
    pub line: u32,
    pub definition: bool,
    pub test: bool,
}

/// A file's symbols, in order.
pub(crate) trait SymbolList {
    fn count(&self) -> usize;
    fn views(&self) -> impl Iterator<Item = SymbolView<'_>>;
}

impl SymbolList for [Symbol] {
    fn count(&self) -> usize {
        self.len()
    }

    fn views(&self) -> impl Iterator<Item = SymbolView<'_>> {
        self.iter().map(|s| SymbolView {
            kind: s.kind,
            name: &s.name,
            snake: &s.snake,
            line: s.line,
            definition: s.definition,
            test: s.test,
        })
    }
}

/// A file's symbols packed: every name and snake form in one string, and 16 bytes a
/// symbol beside it. A [`Symbol`] holds two strings of its own, about 110 bytes a symbol
/// with their allocations against about 40 here: the first call on a root that scans a
/// thousand files (half a million symbols) keeps them this way until its table is built.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct PackedSymbols {
    /// Each symbol's name then its snake form, one after the other.
    text: String,
    records: Vec<Packed>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Packed {
    /// Where the name ends in `text` (it starts where the last symbol's snake ended).
    name_end: u32,
    snake_end: u32,
    line: u32,
    kind: SymbolKind,
    definition: bool,
    test: bool,
}

impl PackedSymbols {
    /// No symbols (a file that holds none, or cannot).
    pub(crate) const EMPTY: PackedSymbols = PackedSymbols {
        text: String::new(),
        records: Vec::new(),
    };

    /// `symbols`, packed.
    pub(crate) fn of(symbols: &[Symbol]) -> PackedSymbols {
        let mut text =
            String::with_capacity(symbols.iter().map(|s| s.name.len() + s.snake.len()).sum());
        let records = symbols
            .iter()
            .map(|s| {
                text.push_str(&s.name);
                let name_end = text.len() as u32;
                text.push_str(&s.snake);
                Packed {
                    name_end,
                    snake_end: text.len() as u32,
                    line: s.line,
                    kind: s.kind,
                    definition: s.definition,
                    test: s.test,
                }
            })
            .collect();
        PackedSymbols { text, records }
    }
}

impl SymbolList for PackedSymbols {
    fn count(&self) -> usize {
        self.records.len()
    }

    fn views(&self) -> impl Iterator<Item = SymbolView<'_>> {
        self.records.iter().scan(0usize, |start, r| {
            let view = SymbolView {
                kind: r.kind,
                name: &self.text[*start..r.name_end as usize],
                snake: &self.text[r.name_end as usize..r.snake_end as usize],
                line: r.line,
                definition: r.definition,
                test: r.test,
            };
            *start = r.snake_end as usize;
            Some(view)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::symbols::{scan_file, Language};

    /// Packed symbols read back as the symbols they were packed from, in order.
    #[test]
    fn packed_symbols_read_as_the_symbols() {
        let text = "/// doc\npub struct ReplayCursor;\nimpl ReplayCursor {\n    #[test]\n    fn \
                    café_naïve() {}\n    pub fn new() -> Self { Self }\n}\nmod x;\n";
        let symbols = scan_file(Language::Rust, text);
        assert!(symbols.len() >= 4, "{symbols:?}");
        let packed = PackedSymbols::of(&symbols);
        assert_eq!(packed.count(), symbols.count());
        assert_eq!(
            packed.views().collect::<Vec<_>>(),
            symbols.views().collect::<Vec<_>>()
        );
        assert_eq!(PackedSymbols::of(&[]).count(), 0);
        assert_eq!(PackedSymbols::of(&[]), PackedSymbols::EMPTY);
    }
}
