//! Term matching: a free-text query's folded terms against an item's folded fields, exact
//! (substring, weighted by where in a word it falls) or with one typo, every term required.

use crate::profile::TaskWeights;
use crate::store::{FoldedText, ItemRef, TaskField, WordIndex, COLUMNS};
use crate::text::char_bag::{char_bag, missing};
use crate::text::fold::{fold, fold_collapsed};
use crate::text::typo::{may_be_within_one_edit, within_one_edit};
use crate::text::words::{is_boundary_after, is_boundary_before, words};

/// A folded query term, kept both as a string (for substring search) and as chars (for
/// typo comparison).
struct Term {
    finder: memchr::memmem::Finder<'static>,
    text: String,
    chars: Vec<char>,
    ascii: bool,
    bag: u64,
    /// The term is one run of alphanumeric characters: each exact occurrence lies inside
    /// one word, and how it matched follows from that word alone.
    one_run: bool,
    /// Set by [`TermQuery::candidates`], per field column (`TaskField::column`): for each
    /// item, how the words of that field can match the term ([`HOLDS_RUN`] and the other
    /// flags below), so that scoring reads the field's text only when the flags cannot
    /// tell. An empty list: no item's field holds such a word.
    hits_in: [Option<Vec<u8>>; COLUMNS],
}

/// A word of the field holds the term's longest alphanumeric run.
const HOLDS_RUN: u8 = 1;
/// For a one-run term: a word of the field is the term.
const WHOLE: u8 = 2;
/// For a one-run term: a word of the field starts with it and is longer.
const PREFIX: u8 = 4;
/// For a one-run term: a word of the field holds it after its first character.
const MID: u8 = 8;
/// A word of the field is within one edit of the term ([`typo_kind`] gives `typo_word`).
const TYPO_WORD: u8 = 16;
/// A word of the field starts within one edit of the term, and no more.
const TYPO_PREFIX: u8 = 32;

impl Term {
    /// The flags of `item`'s `field`, when [`TermQuery::candidates`] set them.
    #[inline]
    fn flags(&self, field: TaskField, item: usize) -> Option<u8> {
        self.hits_in[field.column()]
            .as_ref()
            .map(|hits| hits.get(item).copied().unwrap_or(0))
    }
}

/// A free-text query prepared once for term matching: its folded terms, its collapsed form
/// (the exact-title comparison) and a finder for that phrase. `find task` and `find outline`
/// rank with it, so both modes agree on what a match is.
pub(crate) struct TermQuery {
    terms: Vec<Term>,
    exact_title: String,
    phrase: memchr::memmem::Finder<'static>,
    /// [`TermQuery::candidates`] ran: scoring may take the shortcuts it allows.
    narrowed: bool,
}

/// How one term matched one field.
#[derive(Clone, Copy)]
struct TermHit {
    weight: f64,
    typo: bool,
}

impl TermQuery {
    pub(crate) fn new(query: &str) -> TermQuery {
        let terms = fold(query)
            .split_whitespace()
            .map(|t| Term {
                finder: memchr::memmem::Finder::new(t.as_bytes()).into_owned(),
                text: t.to_string(),
                chars: t.chars().collect(),
                ascii: t.is_ascii(),
                bag: char_bag(t),
                one_run: t.chars().all(char::is_alphanumeric),
                hits_in: Default::default(),
            })
            .collect();
        let exact_title = fold_collapsed(query);
        let phrase = memchr::memmem::Finder::new(exact_title.as_bytes()).into_owned();
        TermQuery {
            terms,
            exact_title,
            phrase,
            narrowed: false,
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// The query folded with whitespace collapsed: equal to an item's `title_collapsed`
    /// when the query is its whole title.
    pub(crate) fn exact_title(&self) -> &str {
        &self.exact_title
    }

    /// Scores the item over `fields`; `None` unless every term matches one of them (AND).
    /// Also gives the fields that matched.
    pub(crate) fn score(
        &self,
        item: ItemRef<'_>,
        fields: &[TaskField],
        w: &TaskWeights,
    ) -> Option<(f64, Vec<TaskField>)> {
        if fields.contains(&TaskField::Title) && item.title_collapsed_is(&self.exact_title) {
            return Some((w.exact_title, vec![TaskField::Title]));
        }
        // reject before searching: a term with two characters absent from every selected
        // field cannot match even with a typo, and one absent character rules out an exact
        // match
        let bag = fields.iter().fold(0, |bag, &f| bag | f.bag(item));
        for term in &self.terms {
            let absent = missing(term.bag, bag);
            if absent > 1 || (absent == 1 && term.chars.len() < w.min_typo_len) {
                return None;
            }
        }
        // the flags give an exact hit's weight when the best occurrence is the best kind
        // of any word (every word is looked at before a whole word ends the search), and a
        // typo hit's when a whole-word typo outranks a prefix one (the walk stops at one)
        let exact_from_flags = w.whole_word >= w.word_prefix && w.whole_word >= w.mid_word;
        let typo_from_flags = w.typo_word >= w.typo_prefix;
        let mut total = 0.0;
        let mut any_typo = false;
        // every term matched the title exactly: only then can the query be in it verbatim
        // (looked at only when narrowed, so that scoring every item stays the reference the
        // narrowed answers are tested against)
        let mut all_in_title = true;
        let mut matched: Vec<TaskField> = Vec::new();
        for term in &self.terms {
            let mut best: Option<TermHit> = None;
            let mut in_title = false;
            for &field in fields {
                let absent = missing(term.bag, field.bag(item));
                if absent > 1 {
                    continue;
                }
                let flags = term.flags(field, item.index());
                let exact = match flags {
                    _ if absent != 0 => None,
                    Some(f) if f & HOLDS_RUN == 0 => None,
                    Some(f) if term.one_run && exact_from_flags => exact_from(f, w),
                    _ => exact_hit(field.text(item), term, w),
                };
                in_title |= exact.is_some() && field == TaskField::Title;
                let hit = exact
                    .map(|k| TermHit {
                        weight: k * field.weight(w),
                        typo: false,
                    })
                    .or_else(|| {
                        let kind = match flags {
                            Some(f) if f & (TYPO_WORD | TYPO_PREFIX) == 0 => None,
                            Some(f) if typo_from_flags => typo_from(f, w),
                            _ => typo_hit(field.text(item), term, w),
                        };
                        kind.map(|k| TermHit {
                            weight: k * field.weight(w),
                            typo: true,
                        })
                    });
                if let Some(hit) = hit {
                    if !matched.contains(&field) {
                        matched.push(field);
                    }
                    best = Some(match best {
                        None => hit,
                        // an exact hit anywhere beats a typo hit anywhere
                        Some(b) if (b.typo, -b.weight) > (hit.typo, -hit.weight) => hit,
                        Some(b) => b,
                    });
                }
            }
            let hit = best?;
            any_typo |= hit.typo;
            all_in_title &= in_title;
            total += hit.weight;
        }
        let raw = total / self.terms.len() as f64;
        let score = if any_typo {
            w.typo_floor + w.typo_span * raw
        } else {
            let phrase_hit = self.terms.len() > 1
                && (all_in_title || !self.narrowed)
                && fields.contains(&TaskField::Title)
                && self
                    .phrase
                    .find(item.title_collapsed().as_bytes())
                    .is_some();
            let bonus = if phrase_hit { w.phrase_bonus } else { 0.0 };
            (w.exact_floor + w.exact_span * raw + bonus).min(w.exact_ceiling)
        };
        matched.sort();
        Some((score, matched))
    }
}

/// The weight of a one-run term's best exact occurrence, from its flags.
fn exact_from(flags: u8, w: &TaskWeights) -> Option<f64> {
    [
        (WHOLE, w.whole_word),
        (PREFIX, w.word_prefix),
        (MID, w.mid_word),
    ]
    .into_iter()
    .filter(|&(flag, _)| flags & flag != 0)
    .map(|(_, kind)| kind)
    .reduce(f64::max)
}

/// The weight of a typo hit, from its flags.
fn typo_from(flags: u8, w: &TaskWeights) -> Option<f64> {
    if flags & TYPO_WORD != 0 {
        Some(w.typo_word)
    } else if flags & TYPO_PREFIX != 0 {
        Some(w.typo_prefix)
    } else {
        None
    }
}

impl TermQuery {
    /// The items [`TermQuery::score`] can score over `fields`, ascending, read off the
    /// store's word index (`store/word_index.rs`) instead of matching every item: for each
    /// term, the union of the posting lists of the words it can match, exactly or with a
    /// typo, intersected over the terms (every term must match). A superset of the items
    /// `score` scores, so scoring only these gives the same answer; also a superset of the
    /// items whose title equals the query when `fields` holds the title. `None` when no
    /// term narrows the search (each has no alphanumeric character): score every item.
    ///
    /// Also records, per term, field and item, how the field's words match the term (the
    /// flags above), so that [`TermQuery::score`] seldom reads a field's text.
    pub(crate) fn candidates(
        &mut self,
        index: &WordIndex,
        items: usize,
        fields: &[TaskField],
        w: &TaskWeights,
    ) -> Option<Vec<u32>> {
        self.narrowed = true;
        let mut kept: Option<Vec<u64>> = None;
        let blocks = items.div_ceil(64);
        for term in &mut self.terms {
            let Some(matching) = matching_words(term, index, w) else {
                continue;
            };
            let mut bits = vec![0u64; blocks];
            for field in fields {
                let mut hits = Vec::new();
                for &(word, flags) in &matching {
                    let list = index.postings(word, field.column());
                    if list.is_empty() {
                        continue;
                    }
                    hits.resize(items, 0);
                    // a list read from a damaged cache may name items past the store
                    for i in list.map(|i| i as usize).filter(|&i| i < items) {
                        bits[i / 64] |= 1 << (i % 64);
                        hits[i] |= flags;
                    }
                }
                term.hits_in[field.column()] = Some(hits);
            }
            let bits = match kept {
                None => bits,
                Some(mut kept) => {
                    kept.iter_mut().zip(&bits).for_each(|(k, b)| *k &= b);
                    kept
                }
            };
            let none_left = bits.iter().all(|&b| b == 0);
            kept = Some(bits);
            if none_left {
                break;
            }
        }
        let kept = kept?;
        let mut out = Vec::new();
        for (k, &block) in kept.iter().enumerate() {
            let mut block = block;
            while block != 0 {
                out.push((k * 64) as u32 + block.trailing_zeros());
                block &= block - 1;
            }
        }
        Some(out)
    }
}

/// The words of `index` that `term` can match: those holding its longest alphanumeric run
/// (an exact occurrence of the term in a field puts that run inside one word of it), and
/// those [`word_typo`] accepts (the only words a typo match looks at), each with its flags.
/// `None` for a term without an alphanumeric character, which can match between words.
fn matching_words(term: &Term, index: &WordIndex, w: &TaskWeights) -> Option<Vec<(usize, u8)>> {
    let run = term
        .text
        .split(|c: char| !c.is_alphanumeric())
        .max_by_key(|run| run.len())
        .filter(|run| !run.is_empty())?;
    let finder = memchr::memmem::Finder::new(run.as_bytes());
    let run_bag = char_bag(run);
    let typo = term.chars.len() >= w.min_typo_len;
    let mut chars: Vec<char> = Vec::new();
    let mut matching = Vec::new();
    for k in 0..index.len() {
        let (word, bag) = index.word(k);
        let exact = missing(run_bag, bag) == 0 && finder.find(word.as_bytes()).is_some();
        let mut flags = 0;
        if exact {
            flags |= HOLDS_RUN;
            if term.one_run {
                // an occurrence at the word's start is the whole word or a prefix of it;
                // any later one is inside the word
                if word == run {
                    flags |= WHOLE;
                } else if word.starts_with(run) {
                    flags |= PREFIX;
                }
                if finder.find(&word.as_bytes()[1..]).is_some() {
                    flags |= MID;
                }
            }
        }
        // a word within one edit of the term (or starting so) lacks at most one of its
        // characters
        if typo && missing(term.bag, bag) <= 1 {
            flags |= match word_typo(term, word, &mut chars, w) {
                Some(k) if k == w.typo_word => TYPO_WORD,
                Some(_) => TYPO_PREFIX,
                None => 0,
            };
        }
        if flags != 0 {
            matching.push((k, flags));
        }
    }
    Some(matching)
}

/// The best kind of exact (substring) occurrence of `term` in `text`, as a weight.
fn exact_hit(text: FoldedText<'_>, term: &Term, w: &TaskWeights) -> Option<f64> {
    let hay = text.text;
    let mut best: Option<f64> = None;
    for start in term.finder.find_iter(hay.as_bytes()) {
        let end = start + term.text.len();
        // the query is folded the same way, so occurrences start on char boundaries
        if !hay.is_char_boundary(start) || !hay.is_char_boundary(end) {
            continue;
        }
        let before = is_boundary_before(hay, start);
        let kind = if before && is_boundary_after(hay, end) {
            w.whole_word
        } else if before {
            w.word_prefix
        } else {
            w.mid_word
        };
        best = Some(best.map_or(kind, |b: f64| b.max(kind)));
        if kind >= w.whole_word {
            break;
        }
    }
    best
}

/// A one-edit match of `term` against a whole word, or against the start of a longer word.
fn typo_hit(text: FoldedText<'_>, term: &Term, w: &TaskWeights) -> Option<f64> {
    if term.chars.len() < w.min_typo_len {
        return None;
    }
    let mut best: Option<f64> = None;
    let mut chars: Vec<char> = Vec::new();
    for word in words(text.text) {
        match word_typo(term, word, &mut chars, w) {
            Some(k) if k >= w.typo_word => return Some(k),
            Some(k) => best = Some(k),
            None => {}
        }
    }
    best
}

/// How `term` matches one word with a typo ([`typo_kind`]); `chars` is scratch space.
#[inline]
fn word_typo(term: &Term, word: &str, chars: &mut Vec<char>, w: &TaskWeights) -> Option<f64> {
    // byte length bounds char length from above: skip words that are clearly too short
    if word.len() + 1 < term.chars.len() {
        return None;
    }
    if term.ascii && word.is_ascii() {
        typo_kind(term.text.as_bytes(), word.as_bytes(), w)
    } else {
        chars.clear();
        chars.extend(word.chars());
        typo_kind(&term.chars, chars, w)
    }
}

fn typo_kind<T: PartialEq>(term: &[T], word: &[T], w: &TaskWeights) -> Option<f64> {
    if !may_be_within_one_edit(term, word) {
        return None;
    }
    if within_one_edit(term, word) {
        return Some(w.typo_word);
    }
    let n = term.len();
    let prefix_hit =
        word.len() > n + 1 && (n - 1..=n + 1).any(|len| within_one_edit(term, &word[..len]));
    prefix_hit.then_some(w.typo_prefix)
}

#[cfg(test)]
#[path = "term_query_tests.rs"]
mod tests;
