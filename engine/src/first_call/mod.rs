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
//! of them only those a lookup of the keys can find ([`Scanned::for_keys`]). The cascade then
//! runs on a first call's tree (`TreeState::FirstCall`, what it knows besides its files:
//! [`state::FirstCallState`]) whose table holds those symbols and knows which keys it
//! answers in full ([`crate::tree::SymbolTable`]'s coverage), and whose grep candidates
//! are the files that hold the grep's words. A key the cascade looked up that the table could not answer in
//! full (one this list missed) sends the call round again with that key's files scanned
//! too (a word of the term alone, looked up when the whole term names nothing, comes so;
//! unless a file's name may answer the term, the first pass scans those words ahead until
//! a file is scanned for one of its keys, and when none is, the cascade first runs on them:
//! [`words_alone`]).
//! Everything else reads the files themselves (`read`, and the ranking statistics,
//! which count the files holding the question's terms: `FieldIndex::for_terms`).

use crate::error::Result;
use crate::modes::ask::{AskRequest, AskResponse};
use crate::modes::code::{self, CodeRequest, CodeResponse};
use crate::planner;
use crate::profile::Profile;
use crate::retrieval::bm25f::FieldIndex;
use crate::retrieval::tokens::question_terms;
use crate::text::term::Term;
use crate::text::term::SEPARATOR;
use crate::tree::name_bag_of;
use crate::tree::postings::pieces_of;
use crate::tree::symbol_table::{Coverage, SymbolTable};
use crate::tree::symbols::PackedSymbols;
use crate::tree::{Tree, TreeFile};
use pass::{key_joined, key_words, scan, Measures, Pass, PassKey};
use rayon::prelude::*;
use scanned::{covers, Scanned};
use state::{FirstCallState, HeldWords};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;
use word_search::{bit, Words, TRACKED};

mod pass;
mod scanned;
mod snake_key;
pub(crate) mod state;
mod word_search;

pub use scanned::key_scan_count;

/// Answers `request` on `tree`, a tree loaded without its kept index (any other tree is
/// answered as [`crate::modes::ask::ask`] answers it).
pub fn ask(tree: &Tree, request: &AskRequest, profile: &Profile) -> Result<AskResponse> {
    let clock = Instant::now();
    let first = tree.is_unindexed() && tree.built().is_none();
    // planned once, for the keys of the first round and the words looked up after them
    let plan = planner::plan(&request.question, &profile.planner);
    let (keys, grep_words) = looked_up(&request.question, plan.as_ref(), profile);
    // what a ranking may look up: a superset of what the cascade ranks by (its term is
    // made of the question's words), searched for too, to know whether any file holds them
    let rank_terms = question_terms(&request.question, &profile.task_ranking.stop_words);
    let lookups = Lookups {
        keys,
        grep_words,
        rank_terms,
        words_alone: words_alone(plan.as_ref(), profile),
        // a task is ranked unless its whole term names something (`modes/ask/task_search.rs`)
        ranks: plan
            .as_ref()
            .is_some_and(|plan| crate::modes::ask::task_search::is_task(plan, profile)),
    };
    let mut response = answered(tree, lookups, profile, |tree| {
        crate::modes::ask::ask(tree, request, profile)
    })?;
    if first {
        // the whole call's time, its passes over the files included
        response.duration_ms = (clock.elapsed().as_secs_f64() * 1e6).round() / 1e3;
    }
    Ok(response)
}

/// Finds `request`'s term on `tree` as [`code::find_code`] does, for a tree loaded without
/// its kept index without building the index first: the only keys the code cascade looks
/// up are its term's, and a qualified term's member's and owner's ([`code::lookup_keys`]),
/// so one pass scans the files that may declare a name they are part of.
pub fn find_code(tree: &Tree, request: &CodeRequest, profile: &Profile) -> Result<CodeResponse> {
    let weights = &profile.code;
    let keys = code::lookup_keys(&request.term, weights);
    // an empty term or limit is an error, told before any file is read; without the symbol
    // step the table is never asked
    let asks_the_table = !keys[0].is_empty() && request.limit > 0 && weights.symbol_scan;
    let lookups = Lookups {
        keys: if asks_the_table { keys } else { Vec::new() },
        ..Lookups::default()
    };
    answered(tree, lookups, profile, |tree| {
        code::find_code(tree, request, weights)
    })
}

/// What a mode answered on a first call's tree is known to look up first: the keys of the
/// symbol table, the words of its greps and the terms of its ranking.
#[derive(Default)]
struct Lookups {
    keys: Vec<String>,
    grep_words: Vec<Vec<u8>>,
    rank_terms: Vec<String>,
    /// The keys the cascade looks up next when none of `keys` names anything: each word
    /// of the term alone ([`words_alone`]).
    words_alone: Vec<String>,
    /// The mode will most likely rank files by their terms: the first pass measures the
    /// length sample's files as it reads them ([`Measures`]).
    ranks: bool,
}

/// `answer` run on `tree`: when the tree was loaded without its kept index, on first
/// call's trees ([`first_call_tree`]), round after round (see the module's documentation), until one answers every
/// key its table was asked and every term its ranking was asked in full; else on the tree.
fn answered<R>(
    tree: &Tree,
    lookups: Lookups,
    profile: &Profile,
    answer: impl Fn(&Tree) -> Result<R>,
) -> Result<R> {
    if !tree.is_unindexed() {
        return answer(tree);
    }
    if let Some(built) = tree.built() {
        return answer(built);
    }
    let Lookups {
        mut keys,
        grep_words,
        mut rank_terms,
        mut words_alone,
        ranks,
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
    // the keys of more than one word (their words joined by `_`) every file that may name
    // them was searched for (see `PassKey`): a file the table lacks names none of them
    let mut checked: HashSet<String> = HashSet::new();
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
    // the term's words alone, looked up when no file names the term: scanned ahead in the
    // first round's pass, until a file is scanned for one of its keys (see `scan`), unless
    // a file's name may answer the term
    if !words_alone.is_empty() && named_by_a_file(files, &keys, &words_alone) {
        words_alone.clear();
    }
    let mut measures = ranks.then(|| Measures::new(tree, profile, &rank_terms));
    // the sample's lengths, once the first pass measured them
    let mut sampled = None;
    loop {
        let pass_keys: Vec<PassKey> = keys.iter().map(|k| PassKey::new(k, &mut words)).collect();
        let ahead: Vec<PassKey> = words_alone
            .iter()
            .map(|k| PassKey::new(k, &mut words))
            .collect();
        let pass = Pass {
            words: &words,
            searched,
            keys: &pass_keys,
            ahead: &ahead,
            term_ids,
            measures: measures.as_ref(),
        };
        let (scanned_for_keys, scanned) = scan(tree, &pass, &mut held, &mut as_terms, &mut symbols);
        if let Some(measured) = measures.take() {
            sampled = measured.into_sample();
        }
        // no word searched for and no file scanned: the last round's tree holds what this
        // one's would (its coverage told what the new keys' words add)
        let unchanged = searched == words.list.len() && scanned == 0;
        scans += scanned;
        searched = words.list.len();
        checked.extend(pass_keys.into_iter().filter_map(|k| k.joined));
        // no file may declare a name any key of the first round is part of, and no file's
        // name is one of them or holds every word of the term: the cascade will look up
        // each word alone, so the files that may declare them are scanned before it runs
        // rather than after a round thrown away (a wrong guess only scans more files); the
        // pass scanned them all ahead then, and this round reads none of them again. Taken
        // in the first round whatever it found
        let words_next = std::mem::take(&mut words_alone);
        if scanned_for_keys == 0 && !words_next.is_empty() {
            keys = words_next;
            continue;
        }
        let lacking = Lacking {
            files: (0..files.len())
                .filter_map(|i| match &symbols[i] {
                    Scanned::Whole(_) => None,
                    Scanned::Not => Some((i, None)),
                    Scanned::ForKeys { keys, .. } => Some((i, Some(keys.clone()))),
                })
                .collect(),
            held: held.clone(),
            ids: words.ids.clone(),
            checked: checked.clone(),
        };
        let lacks = move |key: &str| lacking.may_name(key);
        let (mut first_tree, coverage) = match last_tree.take() {
            Some((first_tree, coverage)) if unchanged => {
                coverage.update(lacks);
                (first_tree, coverage)
            }
            _ => {
                let coverage = Arc::new(Coverage::new(lacks, missed.clone()));
                let held_words = HeldWords {
                    ids: words.ids.as_ref().clone(),
                    files: held.clone(),
                    terms: as_terms.clone(),
                    term_ids,
                };
                let first_tree = first_call_tree(tree, &symbols, coverage.clone(), held_words);
                (first_tree, coverage)
            }
        };
        let stats = statistics
            .take()
            .unwrap_or_else(|| FieldIndex::no_terms(tree, &[], rank_missed.clone()));
        if let Some(state) = first_tree.first_call_mut() {
            state.statistics = Arc::new(OnceLock::from(stats));
        }
        let response = answer(&first_tree)?;
        let keys_missed = std::mem::take(&mut *missed.lock().unwrap_or_else(|e| e.into_inner()));
        let terms_missed =
            std::mem::take(&mut *rank_missed.lock().unwrap_or_else(|e| e.into_inner()));
        if keys_missed.is_empty() && terms_missed.is_empty() {
            // the first call's tree and the pass's lists are freed off the answer's way (about
            // a millisecond of one core on a tree of 17,000 files, before the answer is
            // printed)
            let leftovers = (first_tree, symbols, held, as_terms, last_tree, statistics);
            rayon::spawn(move || drop(leftovers));
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
                let (sampled, counted) = sampled.take().unzip();
                FieldIndex::for_terms(
                    &first_tree,
                    profile,
                    &rank_terms,
                    rank_missed.clone(),
                    sampled,
                    counted.unwrap_or_default(),
                )
            });
        }
        let progress = Some((words.list.len(), scans, rank_terms.len()));
        if progress == last {
            // nothing more to scan for the keys missed: the whole table answers them
            return answer(tree.ready()?);
        }
        last = progress;
        keys = keys_missed;
        last_tree = Some((first_tree, coverage));
    }
}

/// A first call's tree of `tree`'s files whose table holds the symbols `symbols` holds
/// (`symbols[i]` what is known of file `i`'s) and knows which keys it answers in full
/// (`coverage`), with the words the pass found (`held`). A file's name bag counts the names
/// the table holds of it.
fn first_call_tree(
    tree: &Tree,
    symbols: &[Scanned],
    coverage: Arc<Coverage>,
    held: HeldWords,
) -> Tree {
    let table = SymbolTable::build(symbols.iter().map(Scanned::symbols)).with_coverage(coverage);
    let name_bags: Vec<u64> = tree
        .files()
        .par_iter()
        .zip(symbols)
        .enumerate()
        .map(|(i, (f, s))| match s {
            Scanned::Not => tree.name_bag(i),
            s => tree.name_bag(i) | name_bag_of(f.stem(), f.stem_snake(), f.dir(), s.symbols()),
        })
        .collect();
    let state = FirstCallState {
        name_bags,
        held,
        statistics: Arc::default(),
    };
    tree.for_first_call(table, state)
}

/// The keys of the term's words alone, which the cascade of `ask` looks up when the whole
/// term (and every phrase around it) names nothing: a question that is not a task, whose
/// term has several words, under a profile that falls back on them (`modes/ask/search.rs`).
fn words_alone(plan: Option<&planner::Plan>, profile: &Profile) -> Vec<String> {
    plan.filter(|plan| {
        profile.planner.word_fallback
            && plan.words.len() > 1
            && !crate::modes::ask::task_search::is_task(plan, profile)
    })
    .map(|plan| {
        plan.words
            .iter()
            .map(|w| code::lookup_key(w, &profile.code))
            .collect()
    })
    .unwrap_or_default()
}

/// True when a file's name is one of `keys`, or holds every one of `words`: a `find` of
/// the term may then find that file by its name, with no symbol.
fn named_by_a_file(files: &[TreeFile], keys: &[String], words: &[String]) -> bool {
    files.par_iter().any(|f| {
        keys.iter().any(|e| e == f.stem_snake())
            || words.iter().all(|w| f.stem_snake().contains(w.as_str()))
    })
}

/// What is known of each file's symbols before any pass: a file that cannot hold symbols
/// needs no scan (one that turns out to hold no text is marked by the pass, which learns
/// that by reading it: `scan`); any other is not scanned yet.
fn unscanned(files: &[TreeFile]) -> Vec<Scanned> {
    files
        .iter()
        .map(|f| match f.language {
            None => Scanned::Whole(PackedSymbols::default()),
            Some(_) => Scanned::Not,
        })
        .collect()
}

/// The keys the cascade looks up first in the symbol table for `question` planned as
/// `plan` (the planned term, the phrases of the question around it, or without a term the
/// phrases of the question), and the word pieces of the terms it may grep for. The term's words alone are
/// left to a second round (looked up only when the whole term names nothing, and a word
/// such as `head` or `pars` is in thousands of files whose symbols would be scanned for
/// nothing).
fn looked_up(
    question: &str,
    plan: Option<&planner::Plan>,
    profile: &Profile,
) -> (Vec<String>, Vec<Vec<u8>>) {
    let rules = &profile.planner;
    let tokens = planner::tokens(question, rules);
    let mut keys = crate::modes::ask::plan::phrase_keys(plan, &tokens, rules);
    let mut grep = Vec::new();
    if let Some(plan) = plan {
        keys.push(Term::new(&plan.term).snake);
        keys.push(Term::new(&plan.stemmed_term()).snake);
        // a qualified term's member and owner (`modes/code/qualified.rs`)
        keys.extend(
            code::lookup_keys(&plan.term, &profile.code)
                .into_iter()
                .skip(1),
        );
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

/// The files whose symbols a first call's table lacks (all of them, or, for a file scanned for
/// some keys only, those no lookup of these keys finds: `first_call/scanned.rs`), the words each
/// holds, and the keys of several words (joined by `_`) the files not scanned were all
/// searched for.
struct Lacking {
    files: Vec<(usize, Option<Vec<String>>)>,
    held: Vec<u128>,
    ids: Arc<HashMap<Vec<u8>, usize>>,
    checked: HashSet<String>,
}

impl Lacking {
    /// True when one of the files may declare a name `key` is part of, and the table does
    /// not hold it: none when every file that may was searched for the key's words written
    /// as a name writes them (a file that writes them was scanned for the key, and is in
    /// the table for it), else a
    /// file not scanned, or scanned for keys that do not answer `key`
    /// ([`Scanned::answers`]), that may hold all the key's words (a word past the tracked
    /// ones may be held by any; a word not searched for yet too, and the next round
    /// searches for it).
    fn may_name(&self, key: &str) -> bool {
        if key_joined(key).is_some_and(|joined| self.checked.contains(&joined)) {
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

#[cfg(test)]
mod tests;
