//! Term matching: a free-text query's folded terms against an item's folded fields, exact
//! (substring, weighted by where in a word it falls) or with one typo, every term required.

use super::field::TaskField;
use crate::profile::TaskWeights;
use crate::store::{FoldedText, ItemRef, WordIndex, COLUMNS};
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
    /// Set by [`TermQuery::candidates`], per field column (`TaskField::column`): the items
    /// holding a word the term matches with a typo, one bit each. A field whose set is
    /// known and lacks the item has no typo match, and its words are not walked.
    typo_in: [Option<Vec<u64>>; COLUMNS],
}

impl Term {
    /// False only when the field of item `item` is known to hold no word the term matches
    /// with a typo.
    #[inline]
    fn may_typo(&self, field: TaskField, item: usize) -> bool {
        self.typo_in[field.column()].as_ref().is_none_or(|bits| {
            bits.get(item / 64)
                .is_some_and(|b| b >> (item % 64) & 1 == 1)
        })
    }
}

/// A free-text query prepared once for term matching: its folded terms, its collapsed form
/// (the exact-title comparison) and a finder for that phrase. `find task` and `find outline`
/// rank with it, so both modes agree on what a match is.
pub(crate) struct TermQuery {
    terms: Vec<Term>,
    exact_title: String,
    phrase: memchr::memmem::Finder<'static>,
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
                typo_in: Default::default(),
            })
            .collect();
        let exact_title = fold_collapsed(query);
        let phrase = memchr::memmem::Finder::new(exact_title.as_bytes()).into_owned();
        TermQuery {
            terms,
            exact_title,
            phrase,
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
        if fields.contains(&TaskField::Title) && item.title_collapsed() == self.exact_title {
            return Some((w.exact_title, vec![TaskField::Title]));
        }
        // reject before searching: a term with two characters absent from every selected
        // field cannot match even with a typo, and one absent character rules out an exact
        // match
        let bag = fields.iter().fold(0, |bag, &f| bag | f.text(item).bag);
        for term in &self.terms {
            let absent = missing(term.bag, bag);
            if absent > 1 || (absent == 1 && term.chars.len() < w.min_typo_len) {
                return None;
            }
        }
        let mut total = 0.0;
        let mut any_typo = false;
        let mut matched: Vec<TaskField> = Vec::new();
        for term in &self.terms {
            let mut best: Option<TermHit> = None;
            for &field in fields {
                let text = field.text(item);
                let absent = missing(term.bag, text.bag);
                if text.is_empty() || absent > 1 {
                    continue;
                }
                let exact = if absent == 0 {
                    exact_hit(text, term, w)
                } else {
                    None
                };
                let hit = exact
                    .map(|k| TermHit {
                        weight: k * field.weight(w),
                        typo: false,
                    })
                    .or_else(|| {
                        if !term.may_typo(field, item.index()) {
                            return None;
                        }
                        typo_hit(text, term, w).map(|k| TermHit {
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
            total += hit.weight;
        }
        let raw = total / self.terms.len() as f64;
        let score = if any_typo {
            w.typo_floor + w.typo_span * raw
        } else {
            let phrase_hit = self.terms.len() > 1
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

impl TermQuery {
    /// The items [`TermQuery::score`] can score over `fields`, ascending, read off the
    /// store's word index (`store/word_index.rs`) instead of matching every item: for each
    /// term, the union of the posting lists of the words it can match, exactly or with a
    /// typo, intersected over the terms (every term must match). A superset of the items
    /// `score` scores, so scoring only these gives the same answer; also a superset of the
    /// items whose title equals the query when `fields` holds the title. `None` when no
    /// term narrows the search (each has no alphanumeric character): score every item.
    ///
    /// Also records, per term and field, the items holding a word the term matches with a
    /// typo, so that [`TermQuery::score`] walks the words of no other field for one.
    pub(crate) fn candidates(
        &mut self,
        index: &WordIndex,
        items: usize,
        fields: &[TaskField],
        w: &TaskWeights,
    ) -> Option<Vec<u32>> {
        let mut kept: Option<Vec<u64>> = None;
        let blocks = items.div_ceil(64);
        let set = |bits: &mut [u64], list: &[u32]| {
            for &i in list {
                bits[i as usize / 64] |= 1 << (i % 64);
            }
        };
        for term in &mut self.terms {
            let Some(matching) = matching_words(term, index, w) else {
                continue;
            };
            let mut bits = vec![0u64; blocks];
            for field in fields {
                let mut typo = Vec::new();
                for &(word, by_typo) in &matching {
                    let list = index.postings(word, field.column());
                    set(&mut bits, list);
                    if by_typo && !list.is_empty() {
                        typo.resize(blocks, 0);
                        set(&mut typo, list);
                    }
                }
                term.typo_in[field.column()] = Some(typo);
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
/// those [`word_typo`] accepts (the only words a typo match looks at), each with whether
/// it matches with a typo. `None` for a term without an alphanumeric character, which can
/// match between words.
fn matching_words(term: &Term, index: &WordIndex, w: &TaskWeights) -> Option<Vec<(usize, bool)>> {
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
        // a word within one edit of the term (or starting so) lacks at most one of its
        // characters
        let by_typo =
            typo && missing(term.bag, bag) <= 1 && word_typo(term, word, &mut chars, w).is_some();
        if exact || by_typo {
            matching.push((k, by_typo));
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
