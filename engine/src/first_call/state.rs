//! What a first call's tree knows besides its files (`TreeState::FirstCall`): the name
//! bags its symbol table makes, the words every file was searched for and which each
//! holds, and its ranking statistics.

use crate::retrieval::field_index::FieldIndex;
use crate::tree::postings::pieces_of;
use std::sync::{Arc, OnceLock};

/// What a first call's tree knows besides its files and its table (`first_call/mod.rs`
/// makes it, round after round): what `Tree::name_bag`, `Tree::candidates` and the
/// ranking (`retrieval::index_for`) read of it.
#[derive(Debug)]
pub(crate) struct FirstCallState {
    /// The files' name bags, the names its table holds of each counted in (the files'
    /// own bags count the names of their own symbols, which a file of an unindexed tree
    /// has not scanned).
    pub(crate) name_bags: Vec<u64>,
    /// The words every file was searched for, and which each holds.
    pub(crate) held: HeldWords,
    /// The ranking statistics the first call computed for its question.
    pub(crate) statistics: Arc<OnceLock<FieldIndex>>,
}

/// Words every file was searched for (ASCII-folded, as the posting lists' pieces are), and
/// which of them each file holds: the candidates of a grep whose pieces are all among them.
#[derive(Debug, Default)]
pub(crate) struct HeldWords {
    /// Each word's bit.
    pub ids: std::collections::HashMap<Vec<u8>, usize>,
    /// Per file, the bits of the words it holds (at most 128 words).
    pub files: Vec<u128>,
    /// Per file, the bits of the words of `term_ids` its text holds as a term
    /// (`retrieval::tokens::holds_term`), not only as letters.
    pub terms: Vec<u128>,
    /// The words whose holding as a term was checked.
    pub term_ids: u128,
}

/// A word of [`HeldWords::word`]: its id when the pass searched every file for it, and
/// whether it also checked that it is held as a term.
#[derive(Debug, Clone, Copy)]
pub(crate) struct HeldWord {
    id: Option<usize>,
    as_term: bool,
}

impl HeldWords {
    /// `word` (ASCII-folded) as the pass knew it, looked up once for every file's
    /// [`HeldWords::may_hold`] and [`HeldWords::holds_as_term`].
    pub(crate) fn word(&self, word: &[u8]) -> HeldWord {
        let id = self.ids.get(word).copied().filter(|&id| id < 128);
        HeldWord {
            id,
            as_term: id.is_some_and(|id| self.term_ids & (1 << id) != 0),
        }
    }

    /// Whether file `file`'s text holds `word` as a term, when the pass checked that word.
    pub(crate) fn holds_as_term(&self, file: usize, word: HeldWord) -> Option<bool> {
        match word.id {
            Some(id) if word.as_term => {
                Some(self.terms.get(file).is_some_and(|t| t & (1 << id) != 0))
            }
            _ => None,
        }
    }

    /// False when file `file`'s text was searched for `word` and does not hold it; true
    /// otherwise (held, or not searched for).
    pub(crate) fn may_hold(&self, file: usize, word: HeldWord) -> bool {
        match (word.id, self.files.get(file)) {
            (Some(id), Some(held)) => held & (1 << id) != 0,
            _ => true,
        }
    }

    /// The files that hold every piece of `needles` that was searched for (every file
    /// when none was), ascending.
    pub(crate) fn candidates<S: AsRef<[u8]>>(&self, needles: &[S], files: usize) -> Vec<usize> {
        let mut wanted = 0u128;
        for needle in needles {
            for piece in pieces_of(needle.as_ref()) {
                match self.ids.get(&piece) {
                    Some(&id) if id < 128 => wanted |= 1 << id,
                    _ => {}
                }
            }
        }
        (0..files)
            .filter(|&i| self.files.get(i).is_none_or(|held| held & wanted == wanted))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A word the pass searched every file for says which files may hold it; whether a
    /// file holds it as a term is known only for a word it checked as one, and for no word
    /// past the tracked 128 or not searched for.
    #[test]
    fn a_word_is_known_as_the_pass_searched_for_it() {
        let held = HeldWords {
            ids: [
                (b"gzip".to_vec(), 0),
                (b"head".to_vec(), 1),
                (b"late".to_vec(), 200),
            ]
            .into_iter()
            .collect(),
            files: vec![0b11, 0b01],
            terms: vec![0b01, 0b00],
            term_ids: 0b01,
        };
        let (gzip, head) = (held.word(b"gzip"), held.word(b"head"));
        assert_eq!(held.holds_as_term(0, gzip), Some(true));
        assert_eq!(held.holds_as_term(1, gzip), Some(false));
        // searched for as letters only: whether it is a term is not known
        assert_eq!(held.holds_as_term(0, head), None);
        assert!(held.may_hold(0, head) && !held.may_hold(1, head));
        for unknown in [held.word(b"zzz"), held.word(b"late")] {
            assert_eq!(held.holds_as_term(0, unknown), None);
            assert!(held.may_hold(0, unknown) && held.may_hold(1, unknown));
        }
    }
}
