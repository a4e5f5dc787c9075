//! `ask` and `find code` on a tree loaded without its kept index (the first call on a
//! root): answered from one more pass over the files, without building the index first,
//! and with the same answer the index gives.
//!
//! What their cascades need of the whole tree is every file's path (kept by the walk),
//! the files that may hold a grep's words, and the symbol table. A symbol's name is in its
//! file's text, so a file that does not hold every word of a key has no symbol the key can
//! find. The keys a cascade looks up first (for `ask` the planned term and the phrases of
//! the question around it, for `find code` its term's) and the words it greps for are
//! known before it runs; so one pass reads every text file, searches it for those words,
//! and scans the symbols of only the source files that hold every word of a key (and, for
//! a key of several words, its letters one after the other: `header_parsed` is declared
//! by a file holding `headerparsed` once its punctuation is dropped, [`PassKey`]), keeping
//! of them only those a lookup of the keys can find ([`Scanned::named`]). The cascade then
//! runs on a tree whose table holds those symbols and knows which keys it answers in full
//! ([`crate::tree::SymbolTable`]'s coverage), and whose grep candidates are the files that
//! hold the grep's words. A key the cascade looked up that the table could not answer in
//! full (one this list missed) sends the call round again with that key's files scanned
//! too (a word of the term alone, looked up when the whole term names nothing, comes so).
//! Everything else reads the files themselves (`read`, and the ranking statistics,
//! which count the files holding the question's terms: `FieldIndex::for_terms`).

use super::ask::{AskRequest, AskResponse};
use super::code::{self, CodeRequest, CodeResponse};
use crate::error::Result;
use crate::planner;
use crate::profile::Profile;
use crate::retrieval::bm25f::FieldIndex;
use crate::retrieval::tokens::{holds_term, question_terms};
use crate::text::camel::{find_ascii_letters, snake_letters};
use crate::text::decoded;
use crate::text::fold::{fold_into, may_fold_into_ascii};
use crate::text::term::Term;
use crate::text::term::SEPARATOR;
use crate::tree::postings::pieces_of;
use crate::tree::scanned::{covers, Scanned};
use crate::tree::source_tree::HeldWords;
use crate::tree::symbol_table::Coverage;
use crate::tree::symbols::{scan_file, PackedSymbols};
use crate::tree::{ContentKind, Tree};
use crate::worker_scratch::WorkerScratch;
use memchr::memmem;
use rayon::prelude::*;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// Answers `request` on `tree`, a tree loaded without its kept index (any other tree is
/// answered as [`super::ask::ask`] answers it).
pub fn first_ask(tree: &Tree, request: &AskRequest, profile: &Profile) -> Result<AskResponse> {
    let clock = Instant::now();
    let cold = tree.is_cold() && tree.built().is_none();
    let (keys, grep_words) = looked_up(&request.question, profile);
    // what a ranking may look up: a superset of what the cascade ranks by (its term is
    // made of the question's words), searched for too, to know whether any file holds them
    let rank_terms = question_terms(&request.question, &profile.task_ranking.stop_words);
    let lookups = Lookups {
        keys,
        grep_words,
        rank_terms,
    };
    let mut response = answered(tree, lookups, profile, |tree| {
        super::ask::ask(tree, request, profile)
    })?;
    if cold {
        // the whole call's time, its passes over the files included
        response.duration_ms = (clock.elapsed().as_secs_f64() * 1e6).round() / 1e3;
    }
    Ok(response)
}

/// Finds `request`'s term on `tree` as [`code::find_code`] does, for a tree loaded without
/// its kept index without building the index first: the only key the code cascade looks
/// up is its term's ([`code::lookup_key`]), so one pass scans the files that may declare
/// a name it is part of.
pub fn first_find_code(
    tree: &Tree,
    request: &CodeRequest,
    profile: &Profile,
) -> Result<CodeResponse> {
    let weights = &profile.code;
    let key = code::lookup_key(&request.term, weights);
    // an empty term or limit is an error, told before any file is read; without the symbol
    // step the table is never asked
    let asks_the_table = !key.is_empty() && request.limit > 0 && weights.symbol_scan;
    let lookups = Lookups {
        keys: asks_the_table.then_some(key).into_iter().collect(),
        ..Lookups::default()
    };
    answered(tree, lookups, profile, |tree| {
        code::find_code(tree, request, weights)
    })
}

/// What a mode answered on a partial tree is known to look up first: the keys of the
/// symbol table, the words of its greps and the terms of its ranking.
#[derive(Default)]
struct Lookups {
    keys: Vec<String>,
    grep_words: Vec<Vec<u8>>,
    rank_terms: Vec<String>,
}

/// `answer` run on `tree`: when the tree was loaded without its kept index, on partial
/// trees, round after round (see the module's documentation), until one answers every
/// key its table was asked and every term its ranking was asked in full; else on the tree.
fn answered<R>(
    tree: &Tree,
    lookups: Lookups,
    profile: &Profile,
    answer: impl Fn(&Tree) -> Result<R>,
) -> Result<R> {
    if !tree.is_cold() {
        return answer(tree);
    }
    if let Some(built) = tree.built() {
        return answer(built);
    }
    let Lookups {
        mut keys,
        grep_words,
        mut rank_terms,
    } = lookups;
    let files = tree.files();
    let mut symbols = unscanned(files);
    // how many scans the passes made (a file scanned again for more keys counts again)
    let mut scans = 0usize;
    let mut words = Words::default();
    let mut held = vec![0u128; files.len()];
    // which of the words that are ranking terms each file's text holds as a term
    let mut as_terms = vec![0u128; files.len()];
    let mut searched = 0usize;
    let mut last = None;
    // the letters of the keys of more than one word every file that may name them was
    // searched for (see `PassKey`): a file the table lacks names none of them
    let mut checked: HashSet<Vec<u8>> = HashSet::new();
    for w in &grep_words {
        words.id(w);
    }
    let mut term_ids = 0u128;
    for t in &rank_terms {
        term_ids |= bit(words.id(t.as_bytes()));
    }
    // the ranking statistics, computed only once the cascade ranks (for the terms it
    // looked up, and the question's own)
    let rank_missed = Arc::new(Mutex::new(Vec::new()));
    let mut statistics: Option<FieldIndex> = None;
    // the keys the cascade looked up that the table could not answer in full, each round
    let missed = Arc::new(Mutex::new(Vec::new()));
    // the last round's tree and what its table answers
    let mut last_tree: Option<(Tree, Arc<Coverage>)> = None;
    loop {
        let pass_keys: Vec<PassKey> = keys.iter().map(|k| PassKey::new(k, &mut words)).collect();
        let pass = Pass {
            words: &words,
            searched,
            keys: &pass_keys,
            term_ids,
        };
        let scanned = scan(tree, &pass, &mut held, &mut as_terms, &mut symbols);
        // no word searched for and no file scanned: the last round's tree holds what this
        // one's would (its coverage told what the new keys' letters add)
        let unchanged = searched == words.list.len() && scanned == 0;
        scans += scanned;
        searched = words.list.len();
        checked.extend(pass_keys.into_iter().filter_map(|k| k.letters));
        let lacking = Lacking {
            files: (0..files.len())
                .filter_map(|i| match &symbols[i] {
                    Scanned::Whole(_) => None,
                    Scanned::Not => Some((i, None)),
                    Scanned::Named { keys, .. } => Some((i, Some(keys.clone()))),
                })
                .collect(),
            held: held.clone(),
            ids: words.ids.clone(),
            checked: checked.clone(),
        };
        let lacks = move |key: &str| lacking.may_name(key);
        let (mut partial, coverage) = match last_tree.take() {
            Some((partial, coverage)) if unchanged => {
                coverage.update(lacks);
                (partial, coverage)
            }
            _ => {
                let coverage = Arc::new(Coverage::new(lacks, missed.clone()));
                let held_words = HeldWords {
                    ids: words.ids.as_ref().clone(),
                    files: held.clone(),
                    terms: as_terms.clone(),
                    term_ids,
                };
                let partial = tree.with_some_symbols(&symbols, coverage.clone(), held_words);
                (partial, coverage)
            }
        };
        let stats = statistics
            .take()
            .unwrap_or_else(|| FieldIndex::no_terms(tree, &[], rank_missed.clone()));
        partial.attach(Arc::new(OnceLock::from(stats)));
        let response = answer(&partial)?;
        let keys_missed = std::mem::take(&mut *missed.lock().unwrap_or_else(|e| e.into_inner()));
        let terms_missed =
            std::mem::take(&mut *rank_missed.lock().unwrap_or_else(|e| e.into_inner()));
        if keys_missed.is_empty() && terms_missed.is_empty() {
            return Ok(response);
        }
        if !terms_missed.is_empty() {
            for t in terms_missed {
                if !rank_terms.contains(&t) {
                    rank_terms.push(t);
                }
            }
            statistics = Some(if held_by_none(tree, &words, &held, &rank_terms) {
                // no file holds a word the ranking looks up: it ranks nothing, whatever
                // the lengths of the fields (which would need every file's symbols)
                FieldIndex::no_terms(tree, &rank_terms, rank_missed.clone())
            } else {
                // the table's symbols are those of the files it holds whole
                FieldIndex::for_terms(&partial, profile, &rank_terms, rank_missed.clone())
            });
        }
        let progress = Some((words.list.len(), scans, rank_terms.len()));
        if progress == last {
            // nothing more to scan for the keys missed: the whole table answers them
            return answer(tree.ready()?);
        }
        last = progress;
        keys = keys_missed;
        last_tree = Some((partial, coverage));
    }
}

/// What is known of each file's symbols before any pass: a file that cannot hold symbols
/// needs no scan (one that turns out to hold no text is marked by the pass, which learns
/// that by reading it: `scan`); any other is not scanned yet.
fn unscanned(files: &[crate::tree::TreeFile]) -> Vec<Scanned> {
    files
        .iter()
        .map(|f| match f.language {
            None => Scanned::Whole(PackedSymbols::default()),
            Some(_) => Scanned::Not,
        })
        .collect()
}

/// The keys the cascade looks up first in the symbol table for `question` (the planned
/// term, the phrases of the question around it, or without a term the phrases of the
/// question), and the word pieces of the terms it may grep for. The term's words alone are
/// left to a second round (looked up only when the whole term names nothing, and a word
/// such as `head` or `pars` is in thousands of files whose symbols would be scanned for
/// nothing).
fn looked_up(question: &str, profile: &Profile) -> (Vec<String>, Vec<Vec<u8>>) {
    let rules = &profile.planner;
    let tokens = planner::tokens(question, rules);
    let plan = planner::plan(question, rules);
    let mut keys = super::ask::plan::phrase_keys(plan.as_ref(), &tokens, rules);
    let mut grep = Vec::new();
    if let Some(plan) = &plan {
        keys.push(Term::new(&plan.term).snake);
        keys.push(Term::new(&plan.stemmed_term()).snake);
        let required = plan.required().join(SEPARATOR);
        for term in [plan.term.clone(), plan.stemmed_term(), required] {
            for segment in term.to_ascii_lowercase().split(SEPARATOR) {
                grep.extend(pieces_of(segment.as_bytes()));
            }
        }
    }
    keys.sort();
    keys.dedup();
    (keys, grep)
}

/// True when no file holds any of `terms` in its text (every one of them searched for in
/// every text file: `held`) or in its path.
fn held_by_none(tree: &Tree, words: &Words, held: &[u128], terms: &[String]) -> bool {
    terms.iter().all(|t| {
        let Some(&id) = words.ids.get(t.as_bytes()).filter(|&&id| id < TRACKED) else {
            return false;
        };
        held.iter().all(|mask| mask & bit(id) == 0)
            && tree
                .files()
                .iter()
                .all(|f| !f.path.to_ascii_lowercase().contains(t.as_str()))
    })
}

/// Words past this many are not searched for (a grep of them reads every file; a key of
/// them is scanned in every file that may hold it).
const TRACKED: usize = 128;

/// The words of the keys and of the greps, numbered: what each file is searched for once.
#[derive(Default)]
struct Words {
    list: Vec<Vec<u8>>,
    ids: Arc<HashMap<Vec<u8>, usize>>,
}

impl Words {
    fn id(&mut self, word: &[u8]) -> usize {
        let word = word.to_ascii_lowercase();
        if let Some(&id) = self.ids.get(&word) {
            return id;
        }
        let id = self.list.len();
        self.list.push(word.clone());
        Arc::make_mut(&mut self.ids).insert(word, id);
        id
    }
}

/// A key's words: what a file must hold to declare a name the key is part of.
fn key_words(key: &str) -> impl Iterator<Item = &str> {
    key.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// The letters of a key of more than one word, made only of letters, digits and `_` (what
/// the table's names are made of): the key without its `_`s. A file that declares a name
/// the key is part of has them in its [`snake_letters`] (a name's snake form is its
/// `snake_letters` cut by `_`), which are far fewer files than the ones that hold the key's
/// words anywhere (`header` and `parsed`, against `header_parsed` or `HeaderParsed`).
fn key_letters(key: &str) -> Option<Vec<u8>> {
    let letters = key.chars().all(|c| c.is_alphanumeric() || c == '_');
    (letters && key_words(key).nth(1).is_some()).then(|| key.replace('_', "").into_bytes())
}

/// A key one pass scans the symbols of the files that may declare: its words' ids (a file
/// holding them all may) and for a key of several words its letters (a file holding them
/// all may only when its `snake_letters` hold the key's letters).
struct PassKey {
    key: String,
    words: u128,
    letters: Option<Vec<u8>>,
}

impl PassKey {
    fn new(key: &str, words: &mut Words) -> PassKey {
        PassKey {
            key: key.to_string(),
            words: key_words(key).fold(0, |m, w| m | bit(words.id(w.as_bytes()))),
            letters: key_letters(key),
        }
    }

    /// True when a file holding the words of `mask` may hold all of this key's.
    fn held_in(&self, mask: u128) -> bool {
        mask & self.words == self.words
    }
}

fn bit(id: usize) -> u128 {
    if id < TRACKED {
        1 << id
    } else {
        0
    }
}

/// The files whose symbols a partial table lacks (all of them, or, for a file scanned for
/// some keys only, those no lookup of these keys finds: `tree/scanned.rs`), the words each
/// holds, and the letters of the keys the files not scanned were all searched for.
struct Lacking {
    files: Vec<(usize, Option<Vec<String>>)>,
    held: Vec<u128>,
    ids: Arc<HashMap<Vec<u8>, usize>>,
    checked: HashSet<Vec<u8>>,
}

impl Lacking {
    /// True when one of the files may declare a name `key` is part of, and the table does
    /// not hold it: none when every file that may was scanned for the key's letters (a
    /// file that holds them was scanned for the key, and is in the table for it), else a
    /// file not scanned, or scanned for keys that do not answer `key`
    /// ([`Scanned::answers`]), that may hold all the key's words (a word past the tracked
    /// ones may be held by any; a word not searched for yet too, and the next round
    /// searches for it).
    fn may_name(&self, key: &str) -> bool {
        if key_letters(key).is_some_and(|letters| self.checked.contains(&letters)) {
            return false;
        }
        let mut wanted = 0u128;
        let mut unknown = false;
        for w in key_words(key) {
            match self.ids.get(w.to_ascii_lowercase().as_bytes()) {
                Some(&id) => wanted |= bit(id),
                None => unknown = true,
            }
        }
        self.files.iter().any(|(i, named)| {
            named.as_ref().is_none_or(|keys| !covers(keys, key))
                && (unknown || self.held[*i] & wanted == wanted)
        })
    }
}

/// Reads every text file that has words not searched for yet (ids from `searched` on) and
/// searches it for them, and scans the symbols of every source file whose symbols the
/// table does not hold for a key ([`Scanned::answers`]) that may declare a name the key
/// is part of (it holds all the key's words, and for a key of several words its letters:
/// [`PassKey`]). The table is given only the symbols a lookup of those keys finds
/// ([`Scanned::named`]; the file's own symbols are scanned again from its text by a mode
/// that asks for them). A file whose kind is not known yet is read too, and learns it
/// from that read (so each file is opened once); a source file found to hold no text
/// needs no scan. Returns how many files it scanned.
fn scan(
    tree: &Tree,
    pass: &Pass<'_>,
    held: &mut [u128],
    as_terms: &mut [u128],
    symbols: &mut [Scanned],
) -> usize {
    let Pass {
        words,
        searched,
        keys,
        term_ids,
    } = *pass;
    let files = tree.files();
    let finders = Finders::new(words, searched..words.list.len().min(TRACKED));
    let wants = |i: usize| {
        keys.iter()
            .any(|key| key.held_in(held[i]) && !symbols[i].answers(&key.key))
    };
    // a file's symbols packed where they are scanned: half a million `Symbol`s held
    // until the table is built took three times the memory
    type Found = (usize, u128, u128, Option<Scanned>);
    // one buffer per worker for the bytes, one for their folding and one for the letters:
    // a pass over every file allocates nothing per file
    let buffers: WorkerScratch<(Vec<u8>, Vec<u8>, Vec<u8>)> = WorkerScratch::new();
    let found: Vec<Found> = (0..files.len())
        .into_par_iter()
        .filter(|&i| {
            files[i]
                .known_kind()
                .is_none_or(|kind| *kind == ContentKind::Text)
                && (!finders.is_empty() || (files[i].language.is_some() && wants(i)))
        })
        .map(|i| {
            buffers.with(|(bytes, folded, letters)| {
                let f = &files[i];
                if !f.read_into(bytes) {
                    return (i, held[i], as_terms[i], None);
                }
                // the text, decoded (invalid UTF-8 replaced) only for what needs it: a
                // word outside ASCII, a word missed in a file that is not ASCII, the scan
                let mut text: Option<Cow<'_, str>> = None;
                let found = finders.held_by(bytes, folded, &mut text);
                let mask = held[i] | found;
                // a ranking term's letters found: is it a term of the text? (`folded` is
                // the bytes' ASCII folding whenever something was found)
                let mut terms = as_terms[i];
                for id in (0..TRACKED).filter(|&id| found & term_ids & bit(id) != 0) {
                    if let Ok(term) = std::str::from_utf8(&words.list[id]) {
                        if holds_term(bytes, folded, term) {
                            terms |= bit(id);
                        }
                    }
                }
                // the file's `snake_letters`, made when a key of several words asks of a
                // text that is not ASCII (an ASCII one's bytes are searched for them)
                let mut lettered = false;
                let mut ascii = None;
                let mut may_name = |key: &PassKey| {
                    key.held_in(mask)
                        && key.letters.as_ref().is_none_or(|key_letters| {
                            if *ascii.get_or_insert_with(|| bytes.is_ascii()) {
                                return find_ascii_letters(bytes, 0, key_letters, false).is_some();
                            }
                            if !lettered {
                                // the text the scan reads too: decoded once
                                let text = text.get_or_insert_with(|| decoded(bytes));
                                letters.clear();
                                snake_letters(text, letters);
                                lettered = true;
                            }
                            memmem::find(letters, key_letters).is_some()
                        })
                };
                let known = &symbols[i];
                let mut wanted: Vec<&str> = Vec::new();
                if f.language.is_some() {
                    for key in keys {
                        if !known.answers(&key.key) && may_name(key) {
                            wanted.push(&key.key);
                        }
                    }
                }
                let scanned = match (wanted.is_empty(), f.language) {
                    (false, Some(language)) => {
                        let text = text.get_or_insert_with(|| decoded(bytes));
                        Some(if wanted.iter().any(|k| k.is_empty()) {
                            // an empty key is found in every name
                            Scanned::Whole(PackedSymbols::of(&scan_file(language, text)))
                        } else {
                            let mut named = known.keys().to_vec();
                            named.extend(wanted.iter().map(|k| k.to_string()));
                            named.sort();
                            named.dedup();
                            Scanned::named_in(language, text, named)
                        })
                    }
                    _ => None,
                };
                (i, mask, terms, scanned)
            })
        })
        .collect();
    let mut count = 0;
    for (i, mask, terms, scanned) in found {
        held[i] = mask;
        as_terms[i] = terms;
        if let Some(scanned) = scanned {
            symbols[i] = scanned;
            count += 1;
        }
    }
    // a file with no text holds no symbols: none lacking (its kind is known from the read
    // above, or probed now when the pass had no reason to read it)
    for (f, s) in files.iter().zip(symbols.iter_mut()) {
        if *s == Scanned::Not && *f.content_kind() != ContentKind::Text {
            *s = Scanned::Whole(PackedSymbols::default());
        }
    }
    count
}

/// What one pass searches for: the words from `searched` on, the keys whose files' symbols
/// are scanned, and which words are ranking terms (whose holding as a term is checked where
/// their letters are found).
#[derive(Clone, Copy)]
struct Pass<'p> {
    words: &'p Words,
    searched: usize,
    keys: &'p [PassKey],
    term_ids: u128,
}

/// The words one pass searches files for, each with its id: an ASCII word in the file's
/// bytes folded to ASCII lower case (what its decoded text folds to, as invalid UTF-8
/// never holds an ASCII byte), any other in the folding of its decoded text.
struct Finders<'w> {
    /// Shortest first, each with the bits of the shorter words it holds: a file that lacks
    /// one of them lacks it too, and is not searched for it (`implement` before
    /// `implemented`, `pars` before `parsed`: the rare word absent from most files is then
    /// searched for once, not once per form).
    ascii: Vec<(usize, memmem::Finder<'w>, u128)>,
    other: Vec<(usize, memmem::Finder<'w>)>,
    /// The bits of every word.
    all: u128,
}

impl<'w> Finders<'w> {
    fn new(words: &'w Words, ids: std::ops::Range<usize>) -> Finders<'w> {
        let all = ids.clone().fold(0, |all, id| all | bit(id));
        let (mut ascii, other): (Vec<_>, Vec<_>) = ids
            .map(|id| (id, memmem::Finder::new(&words.list[id])))
            .partition(|(id, _)| words.list[*id].is_ascii());
        ascii.sort_by_key(|(id, _)| (words.list[*id].len(), *id));
        let ascii = ascii
            .iter()
            .enumerate()
            .map(|(k, (id, finder))| {
                let inner = ascii[..k]
                    .iter()
                    .filter(|(shorter, _)| {
                        memmem::find(&words.list[*id], &words.list[*shorter]).is_some()
                    })
                    .fold(0, |inner, (shorter, _)| inner | bit(*shorter));
                (*id, finder.clone(), inner)
            })
            .collect();
        Finders { ascii, other, all }
    }

    fn is_empty(&self) -> bool {
        self.all == 0
    }

    /// The bits of the words a text file holds, from its `bytes`: in their ASCII folding
    /// (into `folded`), or in the Unicode folding of a run of letters and digits outside
    /// ASCII. `text` is the decoded text, decoded here when first needed.
    fn held_by<'b>(
        &self,
        bytes: &'b [u8],
        folded: &mut Vec<u8>,
        text: &mut Option<Cow<'b, str>>,
    ) -> u128 {
        if self.is_empty() {
            return 0;
        }
        // measured on a registry of crates (341 MB of text): one folded copy and a
        // `memmem` per word is ten times faster than an ASCII case-insensitive
        // Aho-Corasick over the bytes, whose prefilters do not serve that mode
        folded.clear();
        folded.extend(bytes.iter().map(u8::to_ascii_lowercase));
        let mut mask = 0u128;
        for (id, finder, inner) in &self.ascii {
            if mask & inner == *inner && finder.find(folded).is_some() {
                mask |= 1 << id;
            }
        }
        // an ASCII file holds no other word, and no run outside ASCII
        if mask == self.all || bytes.is_ascii() {
            return mask;
        }
        let text = text.get_or_insert_with(|| decoded(bytes));
        if !self.other.is_empty() {
            // the folding of the decoded text: the bytes' own when they are valid UTF-8
            let text_folded = match text {
                Cow::Borrowed(_) => None,
                Cow::Owned(decoded) => Some(decoded.to_ascii_lowercase()),
            };
            let text_folded = text_folded.as_ref().map_or(&folded[..], |t| t.as_bytes());
            for (id, finder) in &self.other {
                if finder.find(text_folded).is_some() {
                    mask |= 1 << id;
                }
            }
        }
        if mask == self.all {
            return mask;
        }
        // the words left, in the folding of each run that may hold one: a word outside
        // ASCII in any run, an ASCII word only in a run with a character whose folding may
        // add an ASCII letter or digit or join two ([`may_fold_into_ascii`]); any other
        // run's folded ASCII letters and digits are its bytes' (searched above). Text in
        // other scripts is then not folded at all (a few files of Cyrillic or CJK prose were
        // the last files a pass over a registry read, one core idle)
        let others_left = self.other.iter().any(|(id, _)| mask & 1 << id == 0);
        let mut run_folded = String::new();
        for run in non_ascii_runs(text, |c| others_left || may_fold_into_ascii(c)) {
            run_folded.clear();
            fold_into(run, &mut run_folded);
            let ascii = self.ascii.iter().map(|(id, finder, _)| (id, finder));
            for (id, finder) in ascii.chain(self.other.iter().map(|(id, finder)| (id, finder))) {
                if mask & 1 << id == 0 && finder.find(run_folded.as_bytes()).is_some() {
                    mask |= 1 << id;
                }
            }
            if mask == self.all {
                break;
            }
        }
        mask
    }
}

/// The runs of letters and digits of `text` that hold a non-ASCII character `wanted` says
/// yes to, found from those characters (a text that is mostly ASCII is not decoded whole).
fn non_ascii_runs(text: &str, wanted: impl Fn(char) -> bool) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut from = 0;
    std::iter::from_fn(move || loop {
        let at = from + crate::text::first_non_ascii(&bytes[from..])?;
        // `at` starts a character: everything before it since `from` is ASCII
        let c = text[at..].chars().next()?;
        if !wanted(c) {
            from = at + c.len_utf8();
            continue;
        }
        let start = text[..at]
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_alphanumeric())
            .last()
            .map_or(at, |(j, _)| j);
        let end = text[at..]
            .char_indices()
            .find(|(_, c)| !c.is_alphanumeric())
            .map_or(text.len(), |(j, _)| at + j);
        if end > at {
            from = end;
            return Some(&text[start..end]);
        }
        // the character at `at` is no letter or digit: go past it
        from = at + text[at..].chars().next().map_or(1, char::len_utf8);
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::fold::fold;
    use crate::tree::symbols::SymbolList;

    #[test]
    fn runs_with_non_ascii_characters_are_found_from_them() {
        let text = "© 2024 Café crème, straße—ok naïve_x1 ascii";
        let runs: Vec<&str> = non_ascii_runs(text, |_| true).collect();
        assert_eq!(runs, ["Café", "crème", "straße", "naïve"]);
    }

    /// What a file held before the pass searched raw bytes: the lossily decoded text's
    /// ASCII-folded copy searched for every word, and the Unicode folding of its runs
    /// outside ASCII for a word missed in a text that is not ASCII.
    fn held_by_the_decoded_text(text: &str, words: &Words, ids: std::ops::Range<usize>) -> u128 {
        let folded = text.to_ascii_lowercase();
        let runs: Vec<String> = non_ascii_runs(text, |_| true).map(fold).collect();
        ids.filter(|&id| {
            let finder = memmem::Finder::new(&words.list[id]);
            finder.find(folded.as_bytes()).is_some()
                || (!text.is_ascii() && runs.iter().any(|r| finder.find(r.as_bytes()).is_some()))
        })
        .fold(0, |mask, id| mask | 1 << id)
    }

    /// A tree loaded cold (no kept index in `cache`) of files whose text searched as bytes
    /// could differ from their decoded text: mixed case, invalid UTF-8, letters outside
    /// ASCII, a binary file, a file over the size limit, an empty one; and the same tree
    /// read into memory (each file's kind and text as `read_content` gives them).
    fn cold_tree(root: &std::path::Path, cache: &std::path::Path) -> (Tree, Tree) {
        let files: [(&str, &[u8]); 11] = [
            (
                "mixed.rs",
                b"pub fn RePlay_Cursor() {}\n// IMPLEMENTED in REPLAY\n",
            ),
            (
                "invalid.rs",
                b"fn a\xffb() {}\n// re\xfeplay CURSOR \xc3 cut \xe2\x82 x\n",
            ),
            (
                "cafe.py",
                "def Café():\n    pass  # naïve STRAẞE \u{212A}elvin\n".as_bytes(),
            ),
            (
                "accents.md",
                "Crème brûlée: a café, not a cafe; execute".as_bytes(),
            ),
            (
                "replacement.txt",
                "a literal \u{FFFD} in valid text".as_bytes(),
            ),
            // other scripts (whose folding adds no ASCII letter) around Latin letters with
            // diacritics, which fold into ASCII words the bytes do not hold
            (
                "scripts.md",
                "Привет мир: cursor日本語 and дcafé; Ра\u{301}бота r\u{e9}play ΚΈΛΒΙΝ".as_bytes(),
            ),
            ("binary.rs", b"fn replay_cursor() {}\0"),
            ("big.rs", &[b'x'; 20_000]),
            ("empty.rs", b""),
            // both words of `replay_cursor`, in two names, never one after the other
            ("apart.rs", b"fn replay() {}\nfn x_cursor() {}\n"),
            (
                "late_nul.rs",
                &[b"fn replay_cursor() {}\n".as_slice(), &[b' '; 9000], b"\0"].concat(),
            ),
        ];
        for (name, bytes) in files {
            std::fs::write(root.join(name), bytes).unwrap();
        }
        let options = crate::tree::TreeOptions {
            max_file_bytes: 16 << 10,
            cache_dir: Some(cache.to_path_buf()),
            ..Default::default()
        };
        let tree = Tree::load(root, &options).unwrap();
        assert!(tree.is_cold());
        // every file read into memory as the walk without a cache reads it
        let no_cache = crate::tree::TreeOptions {
            no_cache: true,
            ..options
        };
        (tree, Tree::load(root, &no_cache).unwrap())
    }

    /// The pass over a file's bytes holds what the decoded text held, word for word, in
    /// every file and over two rounds (the second searching only words added since), scans
    /// the symbols of the files that hold a key's words, and learns every file's kind from
    /// its read (none is probed).
    #[test]
    fn the_pass_over_bytes_holds_what_the_decoded_text_held() {
        let dir = tempfile::tempdir().unwrap();
        let cache = tempfile::tempdir().unwrap();
        let (tree, read) = cold_tree(dir.path(), cache.path());
        let files = tree.files();
        let mut words = Words::default();
        let first = [
            "replay",
            "CURSOR",
            "implemented",
            "ab",
            "cut",
            "x",
            "cafe",
            "café",
            "naive",
        ];
        let second = [
            "strasse",
            "kelvin",
            "\u{FFFD}",
            "creme",
            "brûlée",
            "fn",
            "привет",
            "日本",
        ];
        let key_replay_cursor = PassKey::new("replay_cursor", &mut words);
        for w in first {
            words.id(w.as_bytes());
        }
        let mut held = vec![0u128; files.len()];
        let mut symbols = unscanned(files);
        // ranking terms among the words: `implement` (a stem, held by `implemented`) and
        // `cut` (whose letters `cutter` and `execute` hold, as a term or not)
        let term_ids = bit(words.id(b"implement")) | bit(words.ids[&b"cut"[..]]);
        let mut as_terms = vec![0u128; files.len()];
        let first_pass = Pass {
            words: &words,
            searched: 0,
            keys: &[],
            term_ids,
        };
        scan(&tree, &first_pass, &mut held, &mut as_terms, &mut symbols);
        let searched = words.list.len();
        let key_cafe = PassKey::new("cafe", &mut words);
        for w in second {
            words.id(w.as_bytes());
        }
        let keys = [key_replay_cursor, key_cafe];
        scan(
            &tree,
            &Pass {
                words: &words,
                searched,
                keys: &keys,
                term_ids,
            },
            &mut held,
            &mut as_terms,
            &mut symbols,
        );
        for (i, f) in files.iter().enumerate() {
            let content = &read.files()[i];
            assert_eq!(content.path, f.path);
            assert_eq!(f.known_kind(), Some(content.content_kind()), "{}", f.path);
            let want = content.text().map_or(0, |text| {
                held_by_the_decoded_text(text, &words, 0..words.list.len())
            });
            assert_eq!(held[i], want, "{}: {:b} != {want:b}", f.path, held[i]);
            // a ranking term is held as a term where the decoded text's terms hold it
            let text_terms = content
                .text()
                .map(crate::retrieval::tokens::terms)
                .unwrap_or_default();
            let want_terms = (0..TRACKED)
                .filter(|&id| term_ids & bit(id) != 0)
                .filter(|&id| text_terms.iter().any(|t| t.as_bytes() == words.list[id]))
                .fold(0u128, |m, id| m | bit(id));
            assert_eq!(as_terms[i], want_terms, "{}", f.path);
            // a key's words held, and for `replay_cursor` its letters one after the other:
            // the keys the file is scanned for, and what a lookup of them finds kept
            let wanted: Vec<String> = content.text().map_or(Vec::new(), |text| {
                let mut letters = Vec::new();
                snake_letters(text, &mut letters);
                let letters = String::from_utf8(letters).unwrap();
                let held = |w: &str| want & 1 << words.ids[w.as_bytes()] != 0;
                let replay_cursor =
                    held("replay") && held("cursor") && letters.contains("replaycursor");
                [("cafe", held("cafe")), ("replay_cursor", replay_cursor)]
                    .into_iter()
                    .filter(|(_, wanted)| *wanted)
                    .map(|(key, _)| key.to_string())
                    .collect()
            });
            let want_symbols = match (f.language, content.text()) {
                (None, _) | (_, None) => Scanned::Whole(PackedSymbols::default()),
                (Some(_), _) if wanted.is_empty() => Scanned::Not,
                (Some(language), Some(text)) => Scanned::named(&scan_file(language, text), wanted),
            };
            assert_eq!(symbols[i], want_symbols, "{}", f.path);
        }
        // the cases the comparison must meet, by name
        let holds = |path: &str, word: &str| {
            let i = files.iter().position(|f| f.path == path).unwrap();
            held[i] & 1 << words.ids[word.as_bytes()] != 0
        };
        assert!(holds("mixed.rs", "replay") && holds("mixed.rs", "implemented"));
        assert!(holds("invalid.rs", "replay") == holds("invalid.rs", "ab"));
        assert!(!holds("invalid.rs", "ab") && holds("invalid.rs", "cursor"));
        assert!(holds("invalid.rs", "\u{FFFD}") && holds("replacement.txt", "\u{FFFD}"));
        assert!(holds("cafe.py", "cafe") && holds("cafe.py", "café"));
        // `cut`'s letters in `execute` are no term; the word `cut` is
        let as_term = |path: &str, word: &str| {
            let i = files.iter().position(|f| f.path == path).unwrap();
            as_terms[i] & 1 << words.ids[word.as_bytes()] != 0
        };
        assert!(holds("accents.md", "cut") && !as_term("accents.md", "cut"));
        assert!(as_term("invalid.rs", "cut") && as_term("mixed.rs", "implement"));
        assert!(holds("cafe.py", "naive") && holds("cafe.py", "strasse"));
        assert!(holds("cafe.py", "kelvin") && holds("accents.md", "creme"));
        assert!(holds("late_nul.rs", "replay") && !holds("binary.rs", "replay"));
        assert!(!holds("big.rs", "x") && !holds("empty.rs", "x"));
        let scanned = |path: &str| &symbols[files.iter().position(|f| f.path == path).unwrap()];
        for path in ["mixed.rs", "cafe.py", "late_nul.rs"] {
            assert_ne!(*scanned(path), Scanned::Not, "{path}");
        }
        // a lookup of `replay_cursor` finds `replay_cursor`, kept, not `re_play_cursor`
        assert_eq!(scanned("late_nul.rs").symbols().count(), 1);
        assert_eq!(scanned("mixed.rs").symbols().count(), 0);
        assert_eq!(scanned("cafe.py").keys(), ["cafe"]);
        // its words held, its letters not: never scanned
        assert!(holds("apart.rs", "replay") && holds("apart.rs", "cursor"));
        assert_eq!(*scanned("apart.rs"), Scanned::Not);
        // the walk knew nothing of the content; the pass's reads told the tree all of it
        let report = tree.report();
        assert_eq!((report.binary, report.too_large), (1, 1), "{report:?}");
    }

    #[test]
    fn the_keys_and_grep_words_of_a_question() {
        let (keys, grep) = looked_up("where is the cursor binary", &Profile::default());
        assert!(keys.contains(&"cursor_binary".to_string()), "{keys:?}");
        // a word of the term alone waits for the cascade to look it up
        assert!(!keys.contains(&"binary".to_string()), "{keys:?}");
        assert!(grep.contains(&b"binary".to_vec()), "{grep:?}");
    }
}
