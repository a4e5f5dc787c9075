//! The word search of the first call's pass over the files (`super::scan`): which of the
//! pass's words a file's bytes hold, an ASCII word found in the bytes whatever the case of
//! their letters, and any word in the Unicode folding of the runs outside ASCII that may
//! hold one.

use crate::text::caseless::CaselessFinder;
use crate::text::decoded;
use crate::text::fold::{fold_into, may_fold_into_ascii};
use crate::tree::GROWN_BUFFER;
use memchr::memmem;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

/// Words past this many are not searched for (a grep of them reads every file; a key of
/// them is scanned in every file that may hold it).
pub(super) const TRACKED: usize = 128;

/// The words of the keys and of the greps, numbered: what each file is searched for once.
#[derive(Default)]
pub(super) struct Words {
    pub(super) list: Vec<Vec<u8>>,
    pub(super) ids: Arc<HashMap<Vec<u8>, usize>>,
}

impl Words {
    pub(super) fn id(&mut self, word: &[u8]) -> usize {
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

/// The bit of word `id` in a mask of words (none past the tracked ones).
pub(super) fn bit(id: usize) -> u128 {
    if id < TRACKED {
        1 << id
    } else {
        0
    }
}

/// The ids whose bits `mask` holds, ascending (found from the bits set, not by trying each
/// of the tracked ids: that loop was a quarter of the pass's own work per file).
pub(super) fn ids_in(mut mask: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let id = (mask != 0).then(|| mask.trailing_zeros() as usize)?;
        mask &= mask - 1;
        Some(id)
    })
}

/// The words one pass searches files for, each with its id: an ASCII word in the file's
/// bytes whatever the case of their ASCII letters (what its decoded text folds to, as
/// invalid UTF-8 never holds an ASCII byte), any other in the folding of its decoded text.
pub(super) struct Finders<'w> {
    /// Shortest first, each with the bits of the shorter words it holds: a file that lacks
    /// one of them lacks it too, and is not searched for it (`implement` before
    /// `implemented`, `pars` before `parsed`: the rare word absent from most files is then
    /// searched for once, not once per form).
    ascii: Vec<(usize, CaselessFinder, u128)>,
    other: Vec<(usize, memmem::Finder<'w>)>,
    /// The bits of every word.
    all: u128,
}

impl<'w> Finders<'w> {
    pub(super) fn new(words: &'w Words, ids: std::ops::Range<usize>) -> Finders<'w> {
        let all = ids.clone().fold(0, |all, id| all | bit(id));
        // the words are in ASCII lower case (`Words::id`)
        let (mut ascii, other): (Vec<usize>, Vec<usize>) =
            ids.partition(|&id| words.list[id].is_ascii());
        ascii.sort_by_key(|&id| (words.list[id].len(), id));
        let ascii = ascii
            .iter()
            .enumerate()
            .map(|(k, &id)| {
                let inner = ascii[..k]
                    .iter()
                    .filter(|&&shorter| {
                        memmem::find(&words.list[id], &words.list[shorter]).is_some()
                    })
                    .fold(0, |inner, &shorter| inner | bit(shorter));
                (id, CaselessFinder::new(&words.list[id]), inner)
            })
            .collect();
        let other = other
            .into_iter()
            .map(|id| (id, memmem::Finder::new(&words.list[id])))
            .collect();
        Finders { ascii, other, all }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.all == 0
    }

    /// The bits of the words a text file holds, from its `bytes`: an ASCII word in them
    /// whatever their case, any other in the ASCII folding of the decoded text (`folded`,
    /// the file's, made only then) or in the Unicode folding of a run of letters and digits
    /// outside ASCII. `text` is the decoded text, decoded here when first needed.
    pub(super) fn held_by<'b>(
        &self,
        bytes: &'b [u8],
        folded: &mut Folding,
        text: &mut Option<Cow<'b, str>>,
    ) -> u128 {
        if self.is_empty() {
            return 0;
        }
        // each word found in the bytes as they are ([`CaselessFinder`]): a folded copy of
        // every file, made first, takes fresh pages and a write of every byte (and an ASCII
        // case-insensitive Aho-Corasick over the bytes is slower still: its prefilters do
        // not serve that mode)
        let mut mask = 0u128;
        for (id, finder, inner) in &self.ascii {
            if mask & inner == *inner && finder.find(bytes).is_some() {
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
            let text_folded = match &text_folded {
                Some(t) => t.as_bytes(),
                None => folded.of(bytes),
            };
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
            let run = run_folded.as_bytes();
            for (id, finder, _) in &self.ascii {
                if mask & 1 << id == 0 && finder.find(run).is_some() {
                    mask |= 1 << id;
                }
            }
            for (id, finder) in &self.other {
                if mask & 1 << id == 0 && finder.find(run).is_some() {
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

/// A file's bytes in ASCII lower case, made when first asked for, in a buffer kept from
/// file to file.
#[derive(Default)]
pub(super) struct Folding {
    folded: Vec<u8>,
    made: bool,
}

impl Folding {
    /// A new file: the folding made is no longer its.
    pub(super) fn forget(&mut self) {
        self.made = false;
    }

    /// The folding of `bytes`, the file's: made now unless it was since the last
    /// [`Folding::forget`].
    pub(super) fn of(&mut self, bytes: &[u8]) -> &[u8] {
        if !self.made {
            self.folded.clear();
            if self.folded.capacity() < bytes.len() {
                // at once, as the bytes' buffer grows ([`GROWN_BUFFER`])
                self.folded.reserve(bytes.len().max(GROWN_BUFFER));
            }
            self.folded.extend(bytes.iter().map(u8::to_ascii_lowercase));
            self.made = true;
        }
        &self.folded
    }
}

/// The runs of letters and digits of `text` that hold a non-ASCII character `wanted` says
/// yes to, found from those characters (a text that is mostly ASCII is not decoded whole).
pub(super) fn non_ascii_runs(
    text: &str,
    wanted: impl Fn(char) -> bool,
) -> impl Iterator<Item = &str> {
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
