//! Reading a source text's symbols, as the symbol reader tests ask it.

use findbench_engine::tree::symbols::{scan_file, Language, SymbolKind};

/// (kind, name, line, definition) of every symbol.
pub fn read(language: Language, src: &str) -> Vec<(SymbolKind, String, u32, bool)> {
    scan_file(language, src)
        .into_iter()
        .map(|s| (s.kind, s.name, s.line, s.definition))
        .collect()
}

/// (kind, name) of every symbol, in line order.
pub fn pairs(language: Language, src: &str) -> Vec<(SymbolKind, String)> {
    read(language, src)
        .into_iter()
        .map(|(k, n, _, _)| (k, n))
        .collect()
}

pub fn names(language: Language, src: &str) -> Vec<String> {
    read(language, src).into_iter().map(|s| s.1).collect()
}

pub fn expect(language: Language, src: &str, expected: &[(SymbolKind, &str)]) {
    let got = pairs(language, src);
    let want: Vec<(SymbolKind, String)> =
        expected.iter().map(|(k, n)| (*k, n.to_string())).collect();
    assert_eq!(got, want, "{src}");
}
