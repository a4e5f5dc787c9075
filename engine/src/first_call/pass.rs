//! The first call's pass over the files (`super`'s module documentation): each text file
//! read once per round, searched for the round's new words, and the symbols of the source
//! files that may declare a name a key is part of scanned.

use super::scanned::Scanned;
use super::snake_key::SnakeKey;
use super::word_search::{bit, ids_in, Finders, Folding, Words, TRACKED};
use crate::profile::Profile;
use crate::retrieval::tokens::holds_term;
use crate::retrieval::{counted_of_read, Counted, CountsAndLines};
use crate::retrieval::{length_sample, lengths_of_read, sampled_lengths, Sampled, WHOLE};
use crate::text::camel::snake_letters;
use crate::text::decoded;
use crate::tree::symbols::{scan_file, PackedSymbols};
use crate::tree::{ContentKind, Tree, TreeFile};
use crate::worker_scratch::{WorkerScratch, FILES_PER_JOB};
use memchr::memmem;
use rayon::prelude::*;
use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// A key's words: what a file must hold to declare a name the key is part of.
pub(super) fn key_words(key: &str) -> impl Iterator<Item = &str> {
    key.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// The words of a key of more than one word, made only of letters, digits and `_` (what
/// the table's names are made of), joined by `_`. A file that declares a name the key is
/// part of writes them one after the other with nothing but bytes that are no letter or
/// digit between them ([`SnakeKey`], for an ASCII text), and has the key's letters (the
/// words without their `_`s) in its [`snake_letters`] (a name's snake form is its
/// `snake_letters` cut by `_`): far fewer files than the ones that hold the key's words
/// anywhere (`header` and `parsed`, against `header_parsed` or `HeaderParsed`).
pub(super) fn key_joined(key: &str) -> Option<String> {
    let letters = key.chars().all(|c| c.is_alphanumeric() || c == '_');
    (letters && key_words(key).nth(1).is_some())
        .then(|| key_words(key).collect::<Vec<_>>().join("_"))
}

/// A key one pass scans the symbols of the files that may declare: its words' ids (a file
/// holding them all may) and for a key of several words those words joined (a file holding
/// them all may only when it writes them as a name does: [`key_joined`]) and its letters
/// (what a text that is not ASCII is searched for, in its `snake_letters`).
pub(super) struct PassKey {
    pub(super) key: String,
    pub(super) words: u128,
    pub(super) joined: Option<String>,
    pub(super) letters: Option<Vec<u8>>,
}

impl PassKey {
    pub(super) fn new(key: &str, words: &mut Words) -> PassKey {
        let joined = key_joined(key);
        PassKey {
            key: key.to_string(),
            words: key_words(key).fold(0, |m, w| m | bit(words.id(w.as_bytes()))),
            letters: joined.as_ref().map(|j| j.replace('_', "").into_bytes()),
            joined,
        }
    }

    /// True when a file holding the words of `mask` may hold all of this key's.
    pub(super) fn held_in(&self, mask: u128) -> bool {
        mask & self.words == self.words
    }
}

/// Reads every text file that has words not searched for yet (ids from `searched` on) and
/// searches it for them, and scans the symbols of every source file whose symbols the
/// table does not hold for a key ([`Scanned::answers`]) that may declare a name the key
/// is part of (it holds all the key's words, and for a key of several words writes them
/// as a name does: [`PassKey`]). The table is given only the symbols a lookup of those keys finds
/// ([`Scanned::for_keys`]; the file's own symbols are scanned again from its text by a mode
/// that asks for them). A file whose kind is not known yet is read too, and learns it
/// from that read (so each file is opened once); a source file found to hold no text
/// needs no scan. The keys `ahead` (the term's words alone, which the cascade looks up
/// when no file may declare a name any of `keys` is part of) are scanned for too in every
/// file read before a file is scanned for one of `keys`: when none is, every file that may
/// declare them is scanned by the time the pass ends, and the next round reads none of
/// them again (a file scanned for keys a lookup does not ask changes no answer: the table
/// answers a key in full or says so, `first_call/scanned.rs`). Returns how many files it scanned
/// for one of `keys`, and how many in all.
pub(super) fn scan(
    tree: &Tree,
    pass: &Pass<'_>,
    held: &mut [u128],
    as_terms: &mut [u128],
    symbols: &mut [Scanned],
) -> (usize, usize) {
    let Pass {
        words,
        searched,
        keys,
        ahead,
        term_ids,
        measures,
    } = *pass;
    let files = tree.files();
    let finders = Finders::new(words, searched..words.list.len().min(TRACKED));
    // the keys, then the keys scanned ahead
    let all_keys: Vec<&PassKey> = keys.iter().chain(ahead).collect();
    let snake_keys: Vec<Option<SnakeKey<'_>>> = all_keys
        .iter()
        .map(|k| k.joined.as_deref().and_then(SnakeKey::new))
        .collect();
    let wants = |held: u128, known: &Scanned| {
        all_keys
            .iter()
            .any(|key| key.held_in(held) && !known.answers(&key.key))
    };
    // a file was scanned for one of `keys`: the keys ahead are scanned for no more
    let scanned_for_keys = AtomicBool::new(false);
    // a file's symbols packed where they are scanned: half a million `Symbol`s held
    // until the table is built took three times the memory
    // one buffer per worker for the bytes, one for their folding and one for the letters:
    // a pass over every file allocates nothing per file
    let buffers: WorkerScratch<(Vec<u8>, Folding, Vec<u8>)> = WorkerScratch::new();
    // each file's entries written in place: a list of what every file found, collected
    // and then copied into them, was a fifth of a first call's page faults
    let (for_keys, count) = held
        .par_iter_mut()
        .zip(as_terms.par_iter_mut())
        .zip(symbols.par_iter_mut())
        .enumerate()
        .with_max_len(FILES_PER_JOB)
        .map(|(i, ((held, as_terms), symbols))| {
            let f = &files[i];
            let measured = measures.filter(|m| m.in_sample[i]);
            let read = f.known_kind().is_none_or(|kind| *kind == ContentKind::Text)
                && (!finders.is_empty() || (f.language.is_some() && wants(*held, symbols)));
            if !read {
                if let Some(m) = measured {
                    buffers.with(|(bytes, _, _)| {
                        m.add(i, sampled_lengths(f, m.profile, WHOLE, bytes), None);
                    });
                }
                return (0, 0);
            }
            buffers.with(|(bytes, folded, letters)| {
                if !f.read_into(bytes) {
                    if let Some(m) = measured {
                        // no text: its path's lengths alone
                        m.add(i, sampled_lengths(f, m.profile, WHOLE, bytes), None);
                    }
                    return (0, 0);
                }
                if let Some(m) = measured {
                    m.add_read(i, f, bytes);
                }
                // the text, decoded (invalid UTF-8 replaced) only for what needs it: a
                // word outside ASCII, a word missed in a file that is not ASCII, the scan
                let mut text: Option<Cow<'_, str>> = None;
                // a new file: its folding is made when first asked for
                folded.forget();
                let found = finders.held_by(bytes, folded, &mut text);
                let mask = *held | found;
                // a ranking term's letters found: is it a term of the text?
                let mut terms = *as_terms;
                for id in ids_in(found & term_ids) {
                    if let Ok(term) = std::str::from_utf8(&words.list[id]) {
                        if holds_term(bytes, term) {
                            terms |= bit(id);
                        }
                    }
                }
                // the file's `snake_letters`, made when a key of several words asks of a
                // text that is not ASCII (an ASCII one's folding is searched for its words)
                let mut lettered = false;
                let mut ascii = None;
                let mut may_name = |k: usize| {
                    let key = all_keys[k];
                    key.held_in(mask)
                        && key.letters.as_ref().is_none_or(|key_letters| {
                            if *ascii.get_or_insert_with(|| bytes.is_ascii()) {
                                let folded = folded.of(bytes);
                                return snake_keys[k]
                                    .as_ref()
                                    .is_some_and(|sk| sk.find(folded, 0, false).is_some());
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
                let known = &*symbols;
                let mut wanted: Vec<&str> = Vec::new();
                let mut for_keys = false;
                if f.language.is_some() {
                    for (k, key) in keys.iter().enumerate() {
                        if !known.answers(&key.key) && may_name(k) {
                            wanted.push(&key.key);
                        }
                    }
                    for_keys = !wanted.is_empty();
                    if for_keys {
                        scanned_for_keys.store(true, Ordering::Relaxed);
                    } else if !ahead.is_empty() && !scanned_for_keys.load(Ordering::Relaxed) {
                        for (k, key) in ahead.iter().enumerate() {
                            if !known.answers(&key.key) && may_name(keys.len() + k) {
                                wanted.push(&key.key);
                            }
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
                            // the bytes' folding, made once for the words and the lines, when
                            // they are the text's (valid UTF-8)
                            let same = matches!(text, Cow::Borrowed(_));
                            let folded = same.then(|| folded.of(bytes));
                            Scanned::for_keys_in(language, text, folded, named)
                        })
                    }
                    _ => None,
                };
                *held = mask;
                *as_terms = terms;
                match scanned {
                    Some(scanned) => {
                        *symbols = scanned;
                        (usize::from(for_keys), 1)
                    }
                    None => (0, 0),
                }
            })
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    // a file with no text holds no symbols: none lacking (its kind is known from the read
    // above, or probed now when the pass had no reason to read it)
    for (f, s) in files.iter().zip(symbols.iter_mut()) {
        if *s == Scanned::Not && *f.content_kind() != ContentKind::Text {
            *s = Scanned::Whole(PackedSymbols::default());
        }
    }
    (for_keys, count)
}

/// What one pass searches for: the words from `searched` on, the keys whose files' symbols
/// are scanned, the keys scanned ahead until a file is scanned for one of them, and which
/// words are ranking terms (whose holding as a term is checked where their letters are
/// found).
#[derive(Clone, Copy)]
pub(super) struct Pass<'p> {
    pub(super) words: &'p Words,
    pub(super) searched: usize,
    pub(super) keys: &'p [PassKey],
    pub(super) ahead: &'p [PassKey],
    pub(super) term_ids: u128,
    /// The sampled files whose field lengths this pass measures as it reads them.
    pub(super) measures: Option<&'p Measures<'p>>,
}

/// The files of the length sample ([`length_sample`]) whose field lengths a pass measures
/// from the bytes it read (what [`crate::retrieval::sampled_lengths`] gives): the first
/// pass of a question that ranks, whose statistics would read them again after it. A
/// sampled file it reads is counted for the question's ranking terms in the same scan
/// (its lengths are those numbers' lengths: `file_counts::counted_of_read`), so that the
/// ranking does not read and scan it again if it scores it.
pub(super) struct Measures<'m> {
    profile: &'m Profile,
    /// Whether each file (by its index in the tree) is in the sample.
    in_sample: Vec<bool>,
    /// The question's ranking terms the sampled files are counted for (none: not counted).
    terms: Vec<String>,
    found: Mutex<Vec<(usize, Sampled, Option<CountsAndLines>)>>,
}

impl<'m> Measures<'m> {
    /// The sample of `tree`, its files counted for `terms` as they are read.
    pub(super) fn new(tree: &Tree, profile: &'m Profile, terms: &[String]) -> Measures<'m> {
        let mut in_sample = vec![false; tree.len()];
        for i in length_sample(tree, profile.task_ranking.length_sample) {
            in_sample[i] = true;
        }
        Measures {
            profile,
            in_sample,
            terms: terms.to_vec(),
            found: Mutex::new(Vec::new()),
        }
    }

    fn add(&self, file: usize, sampled: Sampled, counts: Option<CountsAndLines>) {
        self.found
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((file, sampled, counts));
    }

    /// Measures sampled `file` (index `i`) from its text `bytes`, read whole, and counts it
    /// for the terms in the same scan.
    fn add_read(&self, i: usize, file: &TreeFile, bytes: &[u8]) {
        if self.terms.is_empty() {
            return self.add(i, lengths_of_read(file, self.profile, WHOLE, bytes), None);
        }
        let counts = counted_of_read(file, self.profile, &self.terms, Some(bytes));
        self.add(i, (counts.0 .0, bytes.len() as u64), Some(counts));
    }

    /// The sample measured, in the order of its files (as
    /// `retrieval::length_sample::measured_sample` gives it), and the files counted;
    /// `None` when the pass did not reach every sampled file.
    pub(super) fn into_sample(self) -> Option<(Vec<Sampled>, Counted)> {
        let mut found = self.found.into_inner().unwrap_or_else(|e| e.into_inner());
        found.sort_unstable_by_key(|(file, _, _)| *file);
        let wanted = self.in_sample.iter().filter(|&&s| s).count();
        if found.len() != wanted {
            return None;
        }
        let mut counted = Counted::new(self.terms);
        let sample = found
            .into_iter()
            .map(|(file, sampled, counts)| {
                if let Some(counts) = counts {
                    counted.insert(file as u32, counts);
                }
                sampled
            })
            .collect();
        Some((sample, counted))
    }
}
