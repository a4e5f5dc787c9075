//! The cascade of `find code` on one name: each file's best step for a [`Query`] (its
//! stem, the symbols it declares, its path), compact and without strings; `code.rs` ranks
//! and describes the candidates, `qualified.rs` reads a qualified term as two names.

use crate::profile::CodeWeights;
use crate::retrieval::kind::{secondary_kind, Secondary};
use crate::text::camel::snake;
use crate::text::char_bag::char_bag;
use crate::text::fold::fold;
use crate::text::term::Term;
use crate::tree::symbols::{SymbolClass, SymbolKind};
use crate::tree::{SymbolTable, Tree, TreeFile};
use memchr::memmem::Finder;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// The step of the cascade a candidate reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CodeStep {
    ExactStem,
    Symbol,
    AllWords,
    PartialStem,
    Directory,
}

/// Every file that reaches a step of the cascade for `query`, in the tree's order.
pub(super) fn cascade(
    tree: &Tree,
    query: &Query,
    impl_query: bool,
    weights: &CodeWeights,
    part: Part,
) -> Vec<Candidate> {
    let files = tree.files();
    // the symbols whose name holds the term, or that it qualifies, found in the dictionary
    // of names: a file's symbols are not walked one by one (in the tree's table, and for
    // the files read again since the index was written, in theirs: `tree/edits.rs`)
    let lookup = |table: &SymbolTable| {
        if weights.symbol_scan && !query.key.is_empty() {
            (
                table.containing(&query.key, &query.key_finder),
                table.members(&query.key),
            )
        } else {
            (Vec::new(), Vec::new())
        }
    };
    let symbols = tree.symbol_table();
    let found = lookup(symbols);
    let overlay = tree.overlay().map(|o| (o, lookup(&o.table)));
    files
        .par_iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let (table, slot) = tree.table_of(i);
            let (named, members) = match &overlay {
                Some((o, found)) if o.position(i).is_some() => found,
                _ => &found,
            };
            let range = table.file_range(slot);
            let from = named.partition_point(|&s| s < range.start);
            let to = named.partition_point(|&s| s < range.end);
            let found = FoundSymbols {
                table,
                first: range.start,
                named: &named[from..to],
                members,
            };
            let mut c = score_file(i, f, tree.name_bag(i), &found, query, impl_query, weights)?;
            c.part = part;
            Some(c)
        })
        .collect()
}

/// The forms of the term each step compares with.
pub(super) struct Query {
    pub(super) term: Term,
    /// What stems and directories are compared with: the snake form, or (legacy) the
    /// folded term with its separator pattern left in.
    pub(super) key: String,
    /// Finds `key` in stems, directories and symbol names.
    pub(super) key_finder: Finder<'static>,
    pub(super) words: Vec<String>,
    /// Characters every step needs (the bags of the literal term, the key and the words
    /// intersected): a file whose [`TreeFile::name_bag`] lacks one matches no step.
    pub(super) bag: u64,
    /// The folded path the term is written as, when it is one ([`path_tail`]).
    pub(super) path_tail: Option<String>,
}

impl Query {
    pub(super) fn new(raw: &str, w: &CodeWeights) -> Query {
        let term = Term::new(raw);
        let key = if w.camel_case {
            term.snake.clone()
        } else if w.separator_pattern {
            term.literal.replace(crate::text::term::SEPARATOR, "_")
        } else {
            term.literal.clone()
        };
        let words = if w.separator_pattern || w.camel_case {
            term.words.clone()
        } else {
            term.literal
                .split_whitespace()
                .map(str::to_string)
                .collect()
        };
        let path_tail = path_tail(raw);
        let bag = match &path_tail {
            // a path's file has the letters of its directories and stem, not of its
            // extension, nor a `/` when its directory is one name
            Some(tail) => {
                let (head, name) = tail.rsplit_once('/').unwrap_or(("", tail));
                let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
                char_bag(&format!("{}{stem}", head.replace('/', "")))
            }
            None => char_bag(&term.literal) & char_bag(&key) & char_bag(&words.concat()),
        };
        Query {
            key_finder: Finder::new(key.as_bytes()).into_owned(),
            term,
            key,
            words,
            bag,
            path_tail,
        }
    }

    #[inline]
    fn in_text(&self, hay: &str) -> bool {
        hay.len() >= self.key.len() && self.key_finder.find(hay.as_bytes()).is_some()
    }
}

/// Which step a candidate reached, on what: enough to format its reason later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Why {
    ExactStem,
    ExactStemCamel,
    /// A directory's module file (`mod.rs`, `index.ts`, `__init__.py`) whose directory is
    /// named the term: named after the term, as a file is by its stem.
    DirectoryModule,
    /// The term is written as a path or file name (`helpers/isAbsoluteURL`, `src/walk.rs`,
    /// `walk.rs`) that ends the file's path, with or without its extension.
    PathTail,
    /// `index` into the file's symbols, and how its name matched.
    Symbol {
        index: u32,
        how: SymbolMatch,
    },
    AllWords,
    PartialStem,
    Directory,
}

/// How a symbol's name matched the term.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SymbolMatch {
    /// The name is the term.
    Exact,
    /// A member qualified by the term (`CommandRouter::route` for `CommandRouter`).
    Member,
    /// The name is the term with an inflection (`fixtures` for `fixture`).
    Inflected,
    /// The name contains the term.
    Partial,
}

/// Endings that inflect a word without making it another name: a plural, a past, a
/// gerund (not `-er`: a `parser` is another thing than `parse`).
const INFLECTIONS: &[&str] = &["s", "es", "ed", "d", "ing"];

/// `name` is `key` with an inflection on its last word (`fixtures`, `load_files` for
/// `fixture`, `load_file`).
fn inflected(name: &str, key: &str) -> bool {
    name.strip_prefix(key)
        .is_some_and(|rest| INFLECTIONS.contains(&rest))
}

impl Why {
    pub(super) fn step(self) -> CodeStep {
        match self {
            Why::ExactStem | Why::ExactStemCamel | Why::DirectoryModule | Why::PathTail => {
                CodeStep::ExactStem
            }
            Why::Symbol { .. } => CodeStep::Symbol,
            Why::AllWords => CodeStep::AllWords,
            Why::PartialStem => CodeStep::PartialStem,
            Why::Directory => CodeStep::Directory,
        }
    }
}

/// A matching file while ranking: no strings, no allocation.
#[derive(Debug, Clone, Copy)]
pub(super) struct Candidate {
    pub(super) file: u32,
    pub(super) score: f64,
    pub(super) why: Why,
    /// The implementation boost added (0 when none).
    pub(super) boost: f64,
    /// The penalty of a file that is not the implementation was subtracted.
    pub(super) secondary: Option<Secondary>,
    /// Which name of the term `why` is about: the term, or the member or owner it
    /// qualifies.
    pub(super) part: Part,
    /// What the file is to a qualified term's two names.
    pub(super) qualified: Qualified,
}

/// What a file is to the member and the owner a qualified term names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Qualified {
    /// Not a qualified term's, or neither.
    No,
    /// It defines (or declares) the member and defines the owner: `symbol_qualified` added.
    MemberAndOwner,
    /// It defines the owner (or is its module).
    Owner,
}

/// A name a term is read as: the whole term, or the member and the owner of a qualified
/// one (`peek` and `JsonReader` of `JsonReader.peek`). Indexes the queries of `rank_top`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Part {
    Whole = 0,
    Member = 1,
    Owner = 2,
}

/// The highest step reached so far.
#[derive(Default)]
struct Best(Option<(f64, Why)>);

impl Best {
    #[inline]
    fn offer(&mut self, score: f64, why: Why) {
        if score > 0.0 && score > self.score() {
            self.0 = Some((score, why));
        }
    }

    #[inline]
    fn score(&self) -> f64 {
        self.0.map_or(0.0, |b| b.0)
    }
}

/// A file's symbols that may match the term: indices into the tree's symbol table,
/// ascending, all of this file.
struct FoundSymbols<'t> {
    table: &'t SymbolTable,
    /// The table index of the file's first symbol.
    first: u32,
    named: &'t [u32],
    /// The symbols the term qualifies (of the whole tree), ascending.
    members: &'t [u32],
}

/// One file's best step, or `None` when it reaches none.
fn score_file(
    index: usize,
    f: &TreeFile,
    name_bag: u64,
    symbols: &FoundSymbols<'_>,
    q: &Query,
    impl_query: bool,
    w: &CodeWeights,
) -> Option<Candidate> {
    if q.key.is_empty() || q.bag & !name_bag != 0 {
        return None;
    }
    let mut best = Best::default();
    // in Rust, Python and TS/JS the file is the module its stem names: it defines it; a
    // directory's module file (`path/mod.rs`) is the module its directory names
    let module_language = f.language.is_some_and(|l| l.spec().module_files);
    let directory_module = module_language && matches!(f.stem(), "mod" | "index" | "__init__");
    let is_module = module_language && !directory_module && !matches!(f.stem(), "lib" | "main");
    // a test, example or generated file is not the module its stem names: `test/Route.js`
    // tests `route`, it is named after it (asked only when the stem matches: it reads the
    // file's first bytes)
    let stem_matches = f.stem() == q.term.literal || f.stem_snake() == q.key;
    let stem_kind = if stem_matches {
        secondary_kind(f, w)
    } else {
        None
    };
    let is_module = is_module && stem_kind.is_none();
    let (named, named_normalised) = if is_module {
        (w.module_file, w.module_file_normalised)
    } else {
        (w.exact_stem, w.exact_stem)
    };
    if w.symbol_scan {
        let table = symbols.table;
        // in line order, as the file declares them: of equal scores the first one counts
        for &sym in symbols.named {
            let (kind, definition) = (table.kind(sym), table.definition(sym));
            let snake = table.snake(sym);
            let (score, how) = if snake == q.key {
                let s = match kind.class() {
                    // a namespace is opened, not defined: the file mentions the name
                    _ if kind == SymbolKind::Namespace => w.symbol_namespace,
                    SymbolClass::Type => w.symbol_type,
                    SymbolClass::Function => w.symbol_function,
                    SymbolClass::Other => w.symbol_other,
                };
                let s = if definition {
                    s
                } else if kind == SymbolKind::Module {
                    // `mod name;` points at the file that defines the module
                    w.symbol_partial
                } else {
                    s - w.symbol_declaration_penalty
                };
                (s, SymbolMatch::Exact)
            } else if definition && symbols.members.binary_search(&sym).is_ok() {
                (w.symbol_member, SymbolMatch::Member)
            } else if definition && kind != SymbolKind::Namespace && inflected(snake, &q.key) {
                (w.symbol_inflected, SymbolMatch::Inflected)
            } else if q.in_text(snake) {
                (w.symbol_partial, SymbolMatch::Partial)
            } else {
                continue;
            };
            let index = sym - symbols.first;
            best.offer(score, Why::Symbol { index, how });
        }
    }
    // after the symbols: a file that both defines the term and is named for it shows the
    // definition's line
    if f.stem() == q.term.literal || (!w.camel_case && f.stem() == q.key) {
        best.offer(named, Why::ExactStem);
    } else if w.camel_case && f.stem_snake() == q.key {
        best.offer(named_normalised, Why::ExactStemCamel);
    }
    if q.path_tail
        .as_deref()
        .is_some_and(|tail| path_ends_with(f, tail))
    {
        best.offer(named, Why::PathTail);
    }
    if directory_module {
        let directory = f.dir().rsplit('/').next().unwrap_or("");
        // named by its directory, as a file is by its stem; its modules' implementations
        // are usually the files beside it
        let named = (directory == q.term.literal || (!w.camel_case && directory == q.key))
            || (w.camel_case && snake(directory) == q.key);
        if named {
            best.offer(w.exact_stem, Why::DirectoryModule);
        }
    }
    if w.word_match
        && q.words.len() >= 2
        && q.words.iter().all(|word| f.stem().contains(word.as_str()))
    {
        best.offer(w.all_words, Why::AllWords);
    }
    let stem = if w.camel_case {
        &f.stem_snake()
    } else {
        &f.stem()
    };
    if q.in_text(stem) {
        best.offer(w.partial_stem, Why::PartialStem);
    }
    if q.in_text(f.dir()) {
        best.offer(w.directory, Why::Directory);
    }
    let (mut score, why) = best.0?;
    let test_symbol =
        matches!(why, Why::Symbol { index, .. } if symbols.table.test(symbols.first + index));
    // a file's kind matters for a penalty, or for a boost it may forgo
    let kind_matters = w.test_penalty != 0.0 || (impl_query && !w.impl_boost_secondary);
    let secondary = if !kind_matters {
        None
    } else if test_symbol {
        Some(Secondary::Test)
    } else if stem_matches {
        // already asked above (it may read the file's first bytes)
        stem_kind
    } else {
        secondary_kind(f, w)
    };
    let boosted = impl_query
        && w.impl_boost != 0.0
        && w.impl_extensions.iter().any(|e| e == f.ext())
        && (secondary.is_none() || w.impl_boost_secondary);
    // a file whose path only holds the term, or that only mentions it, is lifted among its
    // equals but not above a file that defines or declares the term
    let boost = match boosted {
        false => 0.0,
        true if score < w.exact_stem => w.impl_boost_weak,
        true => w.impl_boost,
    };
    score += boost;
    if secondary.is_some() {
        score -= w.test_penalty;
    }
    Some(Candidate {
        file: index as u32,
        score,
        why,
        boost,
        secondary,
        part: Part::Whole,
        qualified: Qualified::No,
    })
}

/// The folded path a term is written as (`helpers/isAbsoluteURL`: it holds a `/` between
/// two names; `walk.rs`: a file name with its extension, of up to 10 letters and digits
/// after a letter), without a leading `./` or `/`; `None` for any other term.
pub(super) fn path_tail(term: &str) -> Option<String> {
    let tail = term.trim_start_matches("./").trim_start_matches('/');
    let one_word =
        !tail.contains(crate::text::term::SEPARATOR) && !tail.contains(char::is_whitespace);
    let file_name = tail.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && ext.len() <= 10
            && ext.starts_with(|c: char| c.is_ascii_alphabetic())
            && ext.bytes().all(|b| b.is_ascii_alphanumeric())
    });
    (one_word && (tail.contains('/') || file_name) && !tail.ends_with('/')).then(|| fold(tail))
}

/// True when `f`'s path ends with `tail` at a directory boundary, with or without its
/// extension: the file a term written as a path names.
pub(super) fn path_ends_with(f: &TreeFile, tail: &str) -> bool {
    let (dir, stem, ext) = (f.dir(), f.stem(), f.ext());
    let mut path = String::with_capacity(dir.len() + stem.len() + ext.len() + 2);
    if !dir.is_empty() {
        path.push_str(dir);
        path.push('/');
    }
    path.push_str(stem);
    let ends = |p: &str| {
        p.strip_suffix(tail)
            .is_some_and(|head| head.is_empty() || head.ends_with('/'))
    };
    if ends(&path) {
        return true;
    }
    path.push('.');
    path.push_str(ext);
    !ext.is_empty() && ends(&path)
}

/// The exact-stem step scored as a module file.
pub(super) fn is_module_score(c: &Candidate, w: &CodeWeights) -> bool {
    let base = c.score - c.boost
        + if c.secondary.is_some() {
            w.test_penalty
        } else {
            0.0
        };
    let module = match c.why {
        Why::ExactStemCamel => w.module_file_normalised,
        _ => w.module_file,
    };
    base == module && module != w.exact_stem
}
