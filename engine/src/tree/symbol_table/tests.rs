//! Tests of the symbol table: lookups, coverage and the same bytes whatever the workers.

use super::*;
use crate::tree::symbols::PackedSymbols;

fn sym(kind: SymbolKind, name: &str, line: u32, definition: bool, test: bool) -> Symbol {
    let last = name.rsplit("::").next().unwrap_or(name);
    Symbol {
        kind,
        name: name.to_string(),
        snake: snake(last),
        line,
        definition,
        test,
    }
}

fn files() -> Vec<Vec<Symbol>> {
    vec![
        vec![
            sym(SymbolKind::Struct, "CommandRouter", 2, true, false),
            sym(SymbolKind::Method, "CommandRouter::route", 5, true, false),
            sym(SymbolKind::Function, "route_test", 9, true, true),
        ],
        vec![],
        vec![
            sym(SymbolKind::Function, "route", 1, false, false),
            sym(SymbolKind::Const, "ROUTER_LIMIT_é", 3, true, false),
        ],
    ]
}

#[test]
fn every_file_reads_back_its_symbols() {
    let files = files();
    let table = SymbolTable::build(files.iter().map(Vec::as_slice));
    assert_eq!(table.len(), 5);
    for (i, f) in files.iter().enumerate() {
        assert_eq!(&table.symbols_of(i), f, "file {i}");
    }
    assert!(table.symbols_of(3).is_empty(), "no such file");
    let again = SymbolTable::from_bytes(Blob::owned(table.bytes().to_vec())).unwrap();
    assert_eq!(again.symbols_of(2), files[2]);
}

#[test]
fn a_key_finds_the_names_that_hold_it_and_the_members_it_qualifies() {
    let files = files();
    let table = SymbolTable::build(files.iter().map(Vec::as_slice));
    let find = |key: &str| table.containing(key, &Finder::new(key.as_bytes()));
    // every name holds `route` (command_router, router_limit_é too)
    assert_eq!(find("route"), vec![0, 1, 2, 3, 4]);
    assert_eq!(find("route_test"), vec![2]);
    // command_router, and the member it qualifies
    assert_eq!(find("command_router"), vec![0, 1]);
    assert_eq!(find("router"), vec![0, 4]);
    // a name with a non-ASCII letter: found by any piece of its snake form
    let non_ascii = snake("ROUTER_LIMIT_é");
    assert_eq!(find(&non_ascii[7..]), vec![4], "{non_ascii}");
    assert!(find("routes").is_empty());
    assert!(find("").is_empty());
    assert!(
        find("route\nroute").is_empty(),
        "a hit never spans two names"
    );
    assert!(table.names("route") && table.names("command_router"));
    assert!(!table.names("rout") && table.names(&non_ascii));
    assert_eq!(table.members("command_router"), vec![1]);
    assert!(table.members("route").is_empty() && table.members("nothing").is_empty());
    assert_eq!(table.snake(4), non_ascii);
    assert!(table.test(2) && !table.definition(3) && table.kind(1) == SymbolKind::Method);
}

#[test]
fn a_table_that_does_not_fit_its_counts_is_refused_and_damage_never_panics() {
    let files = files();
    let table = SymbolTable::build(files.iter().map(Vec::as_slice));
    let bytes = table.bytes().to_vec();
    assert!(SymbolTable::from_bytes(Blob::owned(bytes[..bytes.len() - 1].to_vec())).is_none());
    assert!(SymbolTable::from_bytes(Blob::owned(vec![0xff; 30])).is_none());
    // any byte flipped: reading may give other symbols, never a panic
    for at in 0..bytes.len() {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0xa5;
        if let Some(t) = SymbolTable::from_bytes(Blob::owned(damaged)) {
            for f in 0..4 {
                let _ = t.symbols_of(f);
            }
            let _ = t.containing("route", &Finder::new(b"route"));
            let _ = t.names("router_limit_é");
        }
    }
}

/// The table is the same bytes whatever the number of workers (one shard per worker
/// interns its share of the strings), and reads back every symbol: names that recur
/// within and across files, qualifiers that are also names, non-ASCII names.
#[test]
fn the_table_is_the_same_whatever_the_workers() {
    let words = [
        "route",
        "Router",
        "new",
        "fmt",
        "len",
        "Ünïcode",
        "x",
        "parse_header",
    ];
    let mut seed = 7u64;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    let files: Vec<Vec<Symbol>> = (0..300)
        .map(|f| {
            (0..next(40))
                .map(|i| {
                    let name = match next(4) {
                        0 => format!("{}::{}", words[next(words.len())], words[next(words.len())]),
                        1 => format!("{}{}", words[next(words.len())], f % 7),
                        _ => words[next(words.len())].to_string(),
                    };
                    sym(
                        KINDS[next(KINDS.len())],
                        &name,
                        i as u32 + 1,
                        next(2) == 0,
                        next(5) == 0,
                    )
                })
                .collect()
        })
        .collect();
    let built = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| SymbolTable::build(files.iter().map(Vec::as_slice)))
    };
    let one = built(1);
    for (i, f) in files.iter().enumerate() {
        assert_eq!(&one.symbols_of(i), f, "file {i}");
    }
    for threads in [2, 3, 8] {
        assert_eq!(built(threads).bytes(), one.bytes(), "{threads} workers");
    }
    let packed: Vec<PackedSymbols> = files.iter().map(|f| PackedSymbols::of(f)).collect();
    assert_eq!(
        SymbolTable::build(packed.iter()).bytes(),
        one.bytes(),
        "packed"
    );
}
