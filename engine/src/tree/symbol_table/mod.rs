//! Every symbol of a tree in one table, read in place from the kept index: what `find code`
//! and `ask` search without turning a million declarations into a million pairs of strings.
//!
//! The declared names' snake forms (and the snake forms of the qualifiers of qualified
//! names, `command_router` of `CommandRouter::route`) are interned in one sorted dictionary,
//! each string followed by `\n`. A term is looked up in the dictionary, not in the symbols:
//! the symbols named exactly by it by binary search, the ones whose name contains it by one
//! `memmem` pass over the dictionary's few megabytes, the members qualified by it through
//! the qualifier lists. Only the symbols found are then read, and a file's symbols become
//! [`Symbol`]s only when a mode asks for them ([`super::TreeFile::symbols`]).
//!
//! Layout (little-endian `u32` unless said): the counts `files`, `symbols`, `strings`,
//! `qualified`, `dictionary bytes`, `name bytes`; then the arrays
//! `file_start[files + 1]` (each file's symbols are a range, in file order),
//! `record[symbols]` (16 bytes each: the snake form's string id, the line, where the name
//! starts in the names, and one byte of kind, definition and test: a symbol found is one
//! read, and a file's symbols sit side by side), `string_start[strings + 1]`,
//! `snake_list_start[strings + 1]`, `snake_list[symbols]` (the symbols of each string, by
//! index), `qualifier_list_start[strings + 1]`, `qualifier_list[qualified]` (the symbols
//! each string qualifies), then the dictionary and the names.
//! Reading never panics on a damaged table (an entry out of bounds reads as empty); the
//! index file's checksum guards the values.

use super::blob::{self, Blob};
use super::symbols::{Symbol, SymbolKind, SymbolList};
use crate::encoding::fx_hash::FxBuild;
use crate::text::camel::snake;
use memchr::memmem::Finder;
use rayon::prelude::*;
use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::ops::Range;
use std::sync::{Arc, Mutex, RwLock};

/// No string: a symbol whose name is not qualified.
const NONE: u32 = u32::MAX;
pub(in crate::tree) const COUNTS: usize = 6;
pub(in crate::tree) const RECORD: usize = 16;
const DEFINITION: u8 = 0x40;
const TEST: u8 = 0x80;
const KINDS: [SymbolKind; 17] = [
    SymbolKind::Class,
    SymbolKind::Struct,
    SymbolKind::Enum,
    SymbolKind::Union,
    SymbolKind::Trait,
    SymbolKind::Interface,
    SymbolKind::Record,
    SymbolKind::Type,
    SymbolKind::Namespace,
    SymbolKind::Module,
    SymbolKind::Function,
    SymbolKind::Method,
    SymbolKind::Macro,
    SymbolKind::Const,
    SymbolKind::Object,
    SymbolKind::Extension,
    SymbolKind::Property,
];

fn kind_code(kind: SymbolKind) -> u8 {
    KINDS.iter().position(|&k| k == kind).unwrap_or(0) as u8
}

/// The snake form of the last segment of a qualified name's qualifier
/// (`command_router` of `app::CommandRouter::route`); `None` for a name that is not
/// qualified.
pub(crate) fn qualifier_of(name: &str) -> Option<String> {
    // most names are not qualified: one memchr
    if !name.contains(':') {
        return None;
    }
    let (qualifier, _) = name.rsplit_once("::")?;
    let last = qualifier.rsplit("::").next().unwrap_or(qualifier);
    Some(snake(last))
}

/// Where each array starts in the table's bytes.
#[derive(Debug, Clone, Default)]
pub(in crate::tree) struct Layout {
    pub files: usize,
    pub symbols: usize,
    pub strings: usize,
    pub qualified: usize,
    pub file_start: usize,
    pub record: usize,
    pub string_start: usize,
    pub snake_list_start: usize,
    pub snake_list: usize,
    pub qualifier_list_start: usize,
    pub qualifier_list: usize,
    pub dictionary: Range<usize>,
    pub names: Range<usize>,
}

impl Layout {
    /// The layout of a table with these counts; its length is `names.end`.
    pub(in crate::tree) fn of(counts: [usize; COUNTS]) -> Option<Layout> {
        let [files, symbols, strings, qualified, dictionary, names] = counts;
        let mut at = COUNTS * 4;
        let mut array_of = |n: usize, width: usize| -> Option<usize> {
            let start = at;
            at = at.checked_add(n.checked_mul(width)?)?;
            Some(start)
        };
        let file_start = array_of(files.checked_add(1)?, 4)?;
        let record = array_of(symbols, RECORD)?;
        let mut array = |n: usize| array_of(n, 4);
        let mut l = Layout {
            files,
            symbols,
            strings,
            qualified,
            file_start,
            record,
            string_start: array(strings.checked_add(1)?)?,
            snake_list_start: array(strings.checked_add(1)?)?,
            snake_list: array(symbols)?,
            qualifier_list_start: array(strings.checked_add(1)?)?,
            qualifier_list: array(qualified)?,
            ..Layout::default()
        };
        let dictionary_start = at;
        let names_start = dictionary_start.checked_add(dictionary)?;
        l.dictionary = dictionary_start..names_start;
        l.names = names_start..names_start.checked_add(names)?;
        Some(l)
    }
}

/// The symbols of a tree.
#[derive(Clone)]
pub struct SymbolTable {
    bytes: Blob,
    layout: Layout,
    /// For a table of only some files' symbols: which keys it answers in full.
    coverage: Option<Arc<Coverage>>,
}

/// What a table of only some files' symbols (the first call on a root, see
/// `first_call/mod.rs`) can answer: a key is answered in full when no file whose symbols
/// the table lacks may declare a name the key is part of (which the caller tells from the
/// files' texts, as a name is written in its file). A key asked that it cannot answer in
/// full is remembered, and the caller scans more files and asks again.
/// True when a file the table lacks may declare a name this key is part of.
type MayName = Box<dyn Fn(&str) -> bool + Send + Sync>;

pub(crate) struct Coverage {
    /// Replaced when the caller learns more without scanning another file
    /// ([`Coverage::update`]).
    lacks: RwLock<MayName>,
    missed: Arc<Mutex<Vec<String>>>,
}

impl Coverage {
    /// `lacks` says whether a file outside the table may declare a name the given key is
    /// part of; keys not answered in full are pushed to `missed`.
    pub(crate) fn new(
        lacks: impl Fn(&str) -> bool + Send + Sync + 'static,
        missed: Arc<Mutex<Vec<String>>>,
    ) -> Coverage {
        Coverage {
            lacks: RwLock::new(Box::new(lacks)),
            missed,
        }
    }

    /// Says from now on what `lacks` says: the same table answers more keys in full.
    pub(crate) fn update(&self, lacks: impl Fn(&str) -> bool + Send + Sync + 'static) {
        *self.lacks.write().unwrap_or_else(|e| e.into_inner()) = Box::new(lacks);
    }

    fn check(&self, key: &str) {
        let lacks = self.lacks.read().unwrap_or_else(|e| e.into_inner());
        if (*lacks)(key) {
            let mut missed = self.missed.lock().unwrap_or_else(|e| e.into_inner());
            if !missed.iter().any(|k| k == key) {
                missed.push(key.to_string());
            }
        }
    }
}

impl std::fmt::Debug for SymbolTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SymbolTable")
            .field("symbols", &self.layout.symbols)
            .field("strings", &self.layout.strings)
            .field("bytes", &self.bytes.len())
            .finish()
    }
}

impl Default for SymbolTable {
    fn default() -> Self {
        SymbolTable::build(std::iter::empty::<&[Symbol]>())
    }
}

/// Every symbol's snake form and qualifier interned and numbered in sorted order: the
/// sorted strings, then each symbol's snake number and qualifier number (`NONE` for a
/// name that is not qualified). A snake is borrowed from its symbol, a qualifier made once
/// (most names recur: `new`, `fmt`, `len`). The strings are split among shards by their
/// hash, one shard per worker, each interned by its own map in parallel (one map of the
/// half a million names a first call on a large tree may scan is a visible share of the
/// call); the numbers are the same whatever the shards.
fn interned<'a, L: SymbolList + Sync + ?Sized + 'a>(
    files: &[&'a L],
    count: usize,
) -> (Vec<Cow<'a, str>>, Vec<u32>, Vec<u32>) {
    let shards = rayon::current_num_threads().clamp(1, 64) as u64;
    let shard_of = |s: &str| (FxBuild::default().hash_one(s) % shards) as u32;
    // each symbol's shard for its snake and for its qualifier (`NONE`: not qualified)
    let homes: Vec<(u32, u32)> = files
        .par_iter()
        .flat_map_iter(|f| {
            f.views().map(|sym| {
                let qualifier = qualifier_of(sym.name).map_or(NONE, |q| shard_of(&q));
                (shard_of(sym.snake), qualifier)
            })
        })
        .collect();
    type Shard<'a> = (Vec<(Cow<'a, str>, u32)>, Vec<u32>, Vec<u32>);
    let per_shard: Vec<Shard<'a>> = (0..shards as u32)
        .into_par_iter()
        .map(|shard| {
            // most names recur: a third as many strings as symbols, without growing twice
            let mut ids: HashMap<Cow<'a, str>, u32, FxBuild> = HashMap::with_capacity_and_hasher(
                count / 3 / shards as usize + 16,
                FxBuild::default(),
            );
            let mut intern = |s: Cow<'a, str>| -> u32 {
                let next = ids.len() as u32;
                *ids.entry(s).or_insert(next)
            };
            let (mut snakes, mut qualifiers) = (Vec::new(), Vec::new());
            let views = files.iter().flat_map(|f| f.views());
            for (sym, &(snake_home, qualifier_home)) in views.zip(&homes) {
                if snake_home == shard {
                    snakes.push(intern(Cow::Borrowed(sym.snake)));
                }
                if qualifier_home == shard {
                    if let Some(q) = qualifier_of(sym.name) {
                        qualifiers.push(intern(Cow::Owned(q)));
                    }
                }
            }
            (ids.into_iter().collect(), snakes, qualifiers)
        })
        .collect();
    // every string is in one shard: sorted together, numbered by place
    let mut all: Vec<(Cow<'a, str>, u32, u32)> = Vec::new();
    let mut rank: Vec<Vec<u32>> = Vec::with_capacity(per_shard.len());
    let mut lists = Vec::with_capacity(per_shard.len());
    for (shard, (strings, snakes, qualifiers)) in per_shard.into_iter().enumerate() {
        rank.push(vec![0; strings.len()]);
        all.extend(strings.into_iter().map(|(s, id)| (s, shard as u32, id)));
        lists.push((snakes, qualifiers));
    }
    all.par_sort_unstable_by(|a, b| a.0.cmp(&b.0));
    for (place, (_, shard, id)) in all.iter().enumerate() {
        rank[*shard as usize][*id as usize] = place as u32;
    }
    // each symbol's numbers, taken in order from its shards' lists
    let mut next = vec![(0usize, 0usize); rank.len()];
    let (mut snakes, mut qualifiers) = (Vec::with_capacity(count), Vec::with_capacity(count));
    for &(snake_home, qualifier_home) in &homes {
        let (s, at) = (snake_home as usize, &mut next[snake_home as usize].0);
        snakes.push(rank[s][lists[s].0[*at] as usize]);
        *at += 1;
        qualifiers.push(if qualifier_home == NONE {
            NONE
        } else {
            let (q, at) = (
                qualifier_home as usize,
                &mut next[qualifier_home as usize].1,
            );
            let id = rank[q][lists[q].1[*at] as usize];
            *at += 1;
            id
        });
    }
    (
        all.into_iter().map(|(s, _, _)| s).collect(),
        snakes,
        qualifiers,
    )
}

impl SymbolTable {
    /// The table of every file's symbols, files in order (kept as [`Symbol`]s or packed).
    pub(crate) fn build<'a, L: SymbolList + Sync + ?Sized + 'a>(
        files: impl IntoIterator<Item = &'a L>,
    ) -> SymbolTable {
        let files: Vec<&'a L> = files.into_iter().collect();
        let count: usize = files.iter().map(|f| f.count()).sum();
        let (strings, snakes, qualifiers) = interned(&files, count);
        let symbols = snakes.len();
        let dictionary_len: usize = strings.iter().map(|s| s.len() + 1).sum();
        let names_len: usize = files
            .iter()
            .flat_map(|f| f.views())
            .map(|s| s.name.len())
            .sum();
        let qualified = qualifiers.iter().filter(|&&id| id != NONE).count();
        let counts = [
            files.len(),
            symbols,
            strings.len(),
            qualified,
            dictionary_len,
            names_len,
        ];
        // every array written in place, in the layout's order, into one buffer of the
        // table's length
        let total = Layout::of(counts).map_or(0, |l| l.names.end);
        let mut out = Vec::with_capacity(total);
        let put = |out: &mut Vec<u8>, v: u32| out.extend_from_slice(&v.to_le_bytes());
        counts.iter().for_each(|&c| put(&mut out, c as u32));
        let mut at = 0u32;
        for f in &files {
            put(&mut out, at);
            at += f.count() as u32;
        }
        put(&mut out, at);
        // each string's symbols, ascending (counting sort)
        let lists = |of: &[u32]| {
            let mut start = vec![0u32; strings.len() + 1];
            for &id in of.iter().filter(|&&id| id != NONE) {
                start[id as usize + 1] += 1;
            }
            for i in 1..start.len() {
                start[i] += start[i - 1];
            }
            let mut fill = start.clone();
            let mut list = vec![0u32; start[strings.len()] as usize];
            for (sym, &id) in of.iter().enumerate().filter(|(_, &id)| id != NONE) {
                list[fill[id as usize] as usize] = sym as u32;
                fill[id as usize] += 1;
            }
            (start, list)
        };
        // the lists are counted while the records are written: a table of half a million
        // symbols is built while a first call waits
        let ((snake_list_start, snake_list), (qualifier_list_start, qualifier_list)) = {
            let write_records = || {
                let mut name_at = 0u32;
                for (sym, &snake_id) in files.iter().flat_map(|f| f.views()).zip(&snakes) {
                    put(&mut out, snake_id);
                    put(&mut out, sym.line);
                    put(&mut out, name_at);
                    let flags = kind_code(sym.kind)
                        | if sym.definition { DEFINITION } else { 0 }
                        | if sym.test { TEST } else { 0 };
                    out.extend_from_slice(&[flags, 0, 0, 0]);
                    name_at += sym.name.len() as u32;
                }
                let mut string_at = 0u32;
                for s in &strings {
                    put(&mut out, string_at);
                    string_at += s.len() as u32 + 1;
                }
                put(&mut out, string_at);
            };
            let (lists, ()) = rayon::join(
                || rayon::join(|| lists(&snakes), || lists(&qualifiers)),
                write_records,
            );
            lists
        };
        for array in [
            &snake_list_start,
            &snake_list,
            &qualifier_list_start,
            &qualifier_list,
        ] {
            array.iter().for_each(|&v| put(&mut out, v));
        }
        for s in &strings {
            out.extend_from_slice(s.as_bytes());
            out.push(b'\n');
        }
        for sym in files.iter().flat_map(|f| f.views()) {
            out.extend_from_slice(sym.name.as_bytes());
        }
        SymbolTable::from_bytes(Blob::owned(out)).unwrap_or_else(|| SymbolTable {
            bytes: Blob::default(),
            layout: Layout::default(),
            coverage: None,
        })
    }

    /// This table, answering only the keys `coverage` says it holds in full.
    pub(crate) fn with_coverage(mut self, coverage: Arc<Coverage>) -> SymbolTable {
        self.coverage = Some(coverage);
        self
    }

    fn check(&self, key: &str) {
        if let Some(coverage) = &self.coverage {
            coverage.check(key);
        }
    }

    /// The table in `bytes`, or `None` when its counts do not fit its length.
    pub(crate) fn from_bytes(bytes: Blob) -> Option<SymbolTable> {
        if bytes.len() < COUNTS * 4 {
            return None;
        }
        let mut counts = [0usize; COUNTS];
        for (i, c) in counts.iter_mut().enumerate() {
            *c = u32_at(&bytes, i * 4) as usize;
        }
        let layout = Layout::of(counts)?;
        (layout.names.end == bytes.len()).then_some(SymbolTable {
            bytes,
            layout,
            coverage: None,
        })
    }

    /// The encoded table, as the index file keeps it.
    /// Takes the table's mapped pages out of the process's resident memory
    /// ([`Blob::release_pages`]).
    pub(crate) fn release_pages(&self) {
        self.bytes.release_pages();
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Number of symbols.
    pub fn len(&self) -> usize {
        self.layout.symbols
    }

    pub fn is_empty(&self) -> bool {
        self.layout.symbols == 0
    }

    fn at(&self, array: usize, i: usize) -> u32 {
        u32_at(&self.bytes, array + i * 4)
    }

    /// The symbols of file `file`, as indices into the table.
    pub fn file_range(&self, file: usize) -> Range<u32> {
        if file >= self.layout.files {
            return 0..0;
        }
        let l = &self.layout;
        let all = l.symbols as u32;
        let start = self.at(l.file_start, file).min(all);
        let end = self.at(l.file_start, file + 1).min(all);
        start..end.max(start)
    }

    fn string(&self, id: u32) -> &str {
        let l = &self.layout;
        if id as usize >= l.strings {
            return "";
        }
        let start = self.at(l.string_start, id as usize) as usize;
        let end = self.at(l.string_start, id as usize + 1) as usize;
        let dictionary = &self.bytes[l.dictionary.clone()];
        dictionary
            .get(start..end.saturating_sub(1).max(start))
            .and_then(|s| std::str::from_utf8(s).ok())
            .unwrap_or("")
    }

    /// The id of `s` in the dictionary.
    fn id_of(&self, s: &str) -> Option<u32> {
        let (mut lo, mut hi) = (0u32, self.layout.strings as u32);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.string(mid).cmp(s) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    fn list(&self, starts: usize, list: usize, len: usize, id: u32) -> Vec<u32> {
        if id as usize >= self.layout.strings {
            return Vec::new();
        }
        let (from, to) = (
            self.at(starts, id as usize) as usize,
            self.at(starts, id as usize + 1) as usize,
        );
        (from..to.min(len))
            .map(|i| self.at(list, i))
            .filter(|&sym| (sym as usize) < self.layout.symbols)
            .collect()
    }

    /// True when some symbol's snake form is `key`.
    pub fn names(&self, key: &str) -> bool {
        !self.named(key).is_empty()
    }

    /// The symbols whose snake form is `key`, ascending.
    pub fn named(&self, key: &str) -> Vec<u32> {
        self.check(key);
        let l = &self.layout;
        self.id_of(key).map_or_else(Vec::new, |id| {
            self.list(l.snake_list_start, l.snake_list, l.symbols, id)
        })
    }

    /// The file symbol `sym` belongs to (the number of files when it is out of the table).
    pub fn file_of(&self, sym: u32) -> usize {
        let l = &self.layout;
        // the first file whose symbols end after `sym`
        let (mut lo, mut hi) = (0usize, l.files);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.at(l.file_start, mid + 1) <= sym {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// The symbols whose snake form contains `key` (found by `finder`, built from `key`) and
    /// the members qualified by `key`: indices into the table, ascending. Each is a
    /// candidate for [`SymbolTable::matched`].
    pub fn containing(&self, key: &str, finder: &Finder<'_>) -> Vec<u32> {
        self.check(key);
        let l = &self.layout;
        if key.is_empty() || key.contains('\n') {
            return Vec::new();
        }
        let mut ids: Vec<u32> = Vec::new();
        self.bytes
            .slice(l.dictionary.clone())
            .find_in_lines(finder, |at| {
                let id = blob::entry_holding(&self.bytes[l.string_start..], l.strings, at) as u32;
                if ids.last() != Some(&id) {
                    ids.push(id);
                }
                true
            });
        let mut out: Vec<u32> = ids
            .iter()
            .flat_map(|&id| self.list(l.snake_list_start, l.snake_list, l.symbols, id))
            .collect();
        if let Some(id) = self.id_of(key) {
            out.extend(self.list(l.qualifier_list_start, l.qualifier_list, l.qualified, id));
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The symbols whose name `key` qualifies (`CommandRouter::route` for
    /// `command_router`), ascending.
    pub fn members(&self, key: &str) -> Vec<u32> {
        self.check(key);
        let l = &self.layout;
        self.id_of(key).map_or_else(Vec::new, |id| {
            self.list(l.qualifier_list_start, l.qualifier_list, l.qualified, id)
        })
    }

    /// The snake form of symbol `sym`'s name.
    pub fn snake(&self, sym: u32) -> &str {
        self.string(self.field(sym, 0))
    }

    /// Word `word` (0: snake id, 1: line, 2: name start, 3: flags) of `sym`'s record.
    fn field(&self, sym: u32, word: usize) -> u32 {
        if sym as usize >= self.layout.symbols {
            return NONE;
        }
        u32_at(
            &self.bytes,
            self.layout.record + sym as usize * RECORD + word * 4,
        )
    }

    fn flags(&self, sym: u32) -> u8 {
        if sym as usize >= self.layout.symbols {
            return 0;
        }
        self.bytes[self.layout.record + sym as usize * RECORD + 12]
    }

    pub fn kind(&self, sym: u32) -> SymbolKind {
        KINDS
            .get((self.flags(sym) & 0x3f) as usize)
            .copied()
            .unwrap_or(SymbolKind::Const)
    }

    pub fn definition(&self, sym: u32) -> bool {
        self.flags(sym) & DEFINITION != 0
    }

    pub fn test(&self, sym: u32) -> bool {
        self.flags(sym) & TEST != 0
    }

    /// Symbol `sym`'s name as written.
    pub fn name(&self, sym: u32) -> &str {
        let l = &self.layout;
        let start = self.field(sym, 2) as usize;
        let end = if sym as usize + 1 < l.symbols {
            self.field(sym + 1, 2) as usize
        } else {
            l.names.len()
        };
        self.bytes[l.names.clone()]
            .get(start..end.max(start))
            .and_then(|s| std::str::from_utf8(s).ok())
            .unwrap_or("")
    }

    /// Symbol `sym`, decoded.
    pub fn symbol(&self, sym: u32) -> Symbol {
        Symbol {
            kind: self.kind(sym),
            name: self.name(sym).to_string(),
            snake: self.snake(sym).to_string(),
            line: self.field(sym, 1),
            definition: self.definition(sym),
            test: self.test(sym),
        }
    }

    /// The symbols of file `file`, in line order.
    pub fn symbols_of(&self, file: usize) -> Vec<Symbol> {
        self.file_range(file).map(|sym| self.symbol(sym)).collect()
    }
}

/// The `u32` at byte `at` of `bytes` (0 past the end).
fn u32_at(bytes: &[u8], at: usize) -> u32 {
    blob::u32_at(&bytes[at.min(bytes.len())..], 0)
}

#[cfg(test)]
mod tests;
