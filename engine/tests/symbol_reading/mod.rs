//! Reading a source text's symbols, as the symbol reader tests ask it.

use findbench_engine::retrieval::tokens::terms;
use findbench_engine::text::camel::{snake, snake_letters};
use findbench_engine::tree::symbols::{scan_file, scan_file_keeping, Language, SymbolKind};

/// (kind, name, line, definition) of every symbol; and every reading holds that a symbol's
/// name is made of words of the text (the terms of its name are terms of the text), which
/// the first `ask` on a root relies on to know which files hold a term without scanning
/// their symbols (`engine/src/retrieval/file_counts.rs`, `held_terms`); and that each
/// segment of a qualified name is written in the text, its snake form's letters one after
/// the other in the text's (`snake_letters`), which it relies on to leave unscanned the
/// files that cannot declare a name a key is part of (`engine/src/first_call/mod.rs`). And a
/// scan that asks its caller which names to keep (`scan_file_keeping`: a first call's
/// scans, the ranking's counting) is asked the same names and keeps the same symbols as the
/// whole scan, although it looks past no name refused.
pub fn read(language: Language, src: &str) -> Vec<(SymbolKind, String, u32, bool)> {
    let symbols = scan_file(language, src);
    let mut asked = Vec::new();
    let none = scan_file_keeping(language, src, &mut |name| {
        asked.push(name.to_string());
        false
    });
    let names: Vec<&str> = symbols.iter().map(|s| s.name.as_str()).collect();
    assert!(none.is_empty());
    assert_eq!(
        asked, names,
        "{language:?}: the names a counting scan is asked: {src}"
    );
    // every other name kept: a refused one between two kept ones changes nothing of theirs
    let mut k = 0;
    let every_other = scan_file_keeping(language, src, &mut |_| {
        k += 1;
        k % 2 == 1
    });
    let wanted: Vec<_> = symbols.iter().step_by(2).cloned().collect();
    assert_eq!(
        every_other, wanted,
        "{language:?}: every other name kept: {src}"
    );
    let words: std::collections::HashSet<String> = terms(src).into_iter().collect();
    let mut letters = Vec::new();
    snake_letters(src, &mut letters);
    let letters = String::from_utf8(letters).expect("folded letters are UTF-8");
    for s in &symbols {
        for segment in s.name.split("::") {
            let segment_letters = snake(segment).replace('_', "");
            assert!(
                letters.contains(&segment_letters),
                "{language:?}: {segment:?} of the name {:?} is not written in the text: {src}",
                s.name
            );
        }
        for t in terms(&s.name) {
            assert!(
                words.contains(&t),
                "{language:?}: the name {:?} holds the term {t:?}, which the text does not: {src}",
                s.name
            );
        }
    }
    symbols
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
