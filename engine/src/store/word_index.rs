//! Word posting lists of the searchable fields: every distinct folded word (a maximal run of
//! alphanumeric characters, as [`words`] splits them) with, per field, the items whose
//! field holds it, in file order. Built once with the rest of the index and kept in the
//! store cache.
//!
//! A query term can match a field only through the words of that field: an exact
//! (substring) occurrence puts each of the term's alphanumeric runs inside one word, and a
//! typo match is against one word or its start. So the items a term can match are the
//! union of the posting lists of the words it can match, and a query's candidates are the
//! intersection of its terms' unions: `rank/term_query.rs` computes them, and the full
//! term matching then runs on those items only.
//!
//! Each list is kept as the gaps between its items, one varint each (a byte for most), so
//! the lists add about a quarter of what four bytes an item would to memory and to the
//! cache, and loading a kept store copies them in one piece: a list is decoded only when a
//! query reads it.

use super::codec::{Reader, Writer};
use super::texts::Texts;
use crate::encoding::fx_hash::FxBuild;
use crate::encoding::varint::put_varint;
use crate::text::char_bag::char_bag;
use crate::text::words::words;
use std::collections::HashMap;

/// Number of indexed fields: title, description, labels, notes (the columns of
/// `index.rs`, in that order).
pub(crate) const COLUMNS: usize = 4;

/// Distinct words and their posting lists.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct WordIndex {
    /// The distinct folded words, in order of first appearance.
    words: Texts,
    /// The characters of each word (see [`char_bag`]); derived, not cached.
    bags: Vec<u64>,
    /// The list of word `w` in column `c` is `lists[ends[k - 1]..ends[k]]`, with
    /// `k = w * COLUMNS + c`.
    ends: Vec<u32>,
    /// Each list's item positions, ascending, as varint gaps (the first from 0).
    lists: Vec<u8>,
}

impl WordIndex {
    /// Indexes the words of `columns`, each holding one text per item for `n` items; `None`
    /// past 4 billion postings.
    pub(crate) fn build<'a>(
        n: usize,
        columns: [&dyn Fn(usize) -> &'a str; COLUMNS],
    ) -> Option<Self> {
        let mut ids: HashMap<&'a str, u32, FxBuild> = HashMap::default();
        let mut index = WordIndex::default();
        // per list: its length, and the last item added plus one (a word is listed once
        // per item and field however often it occurs there)
        let mut counts: Vec<u32> = Vec::new();
        let mut last: Vec<u32> = Vec::new();
        // the lists each item enters, item after item; `item_ends[i]` closes item `i`'s run
        let mut entries: Vec<u32> = Vec::new();
        let mut item_ends: Vec<usize> = Vec::with_capacity(n);
        for i in 0..n {
            let mark = u32::try_from(i + 1).ok()?;
            for (c, column) in columns.iter().enumerate() {
                for word in words(column(i)) {
                    let next = u32::try_from(index.bags.len()).ok()?;
                    let id = *ids.entry(word).or_insert_with(|| next);
                    if id == next {
                        if !index.words.push(word) {
                            return None;
                        }
                        index.bags.push(char_bag(word));
                        counts.extend([0; COLUMNS]);
                        last.extend([0; COLUMNS]);
                    }
                    let list = id as usize * COLUMNS + c;
                    if last[list] != mark {
                        last[list] = mark;
                        counts[list] += 1;
                        entries.push(u32::try_from(list).ok()?);
                    }
                }
            }
            item_ends.push(entries.len());
        }
        let mut cursor: Vec<u32> = Vec::with_capacity(counts.len());
        let mut ends: Vec<u32> = Vec::with_capacity(counts.len());
        let mut end = 0u32;
        for &count in &counts {
            cursor.push(end);
            end = end.checked_add(count)?;
            ends.push(end);
        }
        let mut items = vec![0u32; end as usize];
        let mut start = 0;
        for (i, &stop) in item_ends.iter().enumerate() {
            for &list in &entries[start..stop] {
                let at = &mut cursor[list as usize];
                items[*at as usize] = i as u32;
                *at += 1;
            }
            start = stop;
        }
        drop(entries);
        let mut start = 0;
        for &end in &ends {
            let mut previous = 0;
            for &item in &items[start as usize..end as usize] {
                put_varint(&mut index.lists, item - previous);
                previous = item;
            }
            index.ends.push(u32::try_from(index.lists.len()).ok()?);
            start = end;
        }
        Some(index)
    }

    /// Number of distinct words.
    pub(crate) fn len(&self) -> usize {
        self.bags.len()
    }

    /// Word `w` and its characters.
    #[inline]
    pub(crate) fn word(&self, w: usize) -> (&str, u64) {
        (self.words.get(w), self.bags[w])
    }

    /// The items whose column `c` holds word `w`, ascending. Read from a kept store, a
    /// damaged list may name items past the store: callers skip those.
    #[inline]
    pub(crate) fn postings(&self, w: usize, c: usize) -> Postings<'_> {
        let k = w * COLUMNS + c;
        let start = if k == 0 { 0 } else { self.ends[k - 1] as usize };
        Postings {
            bytes: &self.lists[start..self.ends[k] as usize],
            previous: 0,
        }
    }

    pub(crate) fn encode(&self, w: &mut Writer) {
        self.words.encode(w);
        w.u32s(&self.ends);
        w.bytes(&self.lists);
    }

    /// Reads the lists back; `None` unless the lists' bounds rise and stay inside them, and
    /// every word is one word. The lists themselves are decoded as queries read them.
    pub(crate) fn decode<R: std::io::Read>(r: &mut Reader<R>) -> Option<WordIndex> {
        let vocab = Texts::decode(r)?;
        let ends = r.u32s()?;
        let lists = r.bytes()?;
        if ends.len() != vocab.len().checked_mul(COLUMNS)? {
            return None;
        }
        let mut start = 0;
        for &end in &ends {
            if end < start {
                return None;
            }
            start = end;
        }
        if start as usize != lists.len() {
            return None;
        }
        let mut bags = Vec::with_capacity(vocab.len());
        for w in 0..vocab.len() {
            let word = vocab.get(w);
            if words(word).next() != Some(word) {
                return None;
            }
            bags.push(char_bag(word));
        }
        Some(WordIndex {
            words: vocab,
            bags,
            ends,
            lists,
        })
    }
}

/// The items of one posting list, decoded as read. A damaged list ends at its first
/// malformed varint or overflow instead of failing.
pub(crate) struct Postings<'a> {
    bytes: &'a [u8],
    previous: u32,
}

impl Postings<'_> {
    pub(crate) fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

impl Iterator for Postings<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        let mut gap = 0u32;
        for (k, &b) in self.bytes.iter().enumerate().take(5) {
            gap |= u32::from(b & 0x7f).checked_shl(7 * k as u32)?;
            if b < 0x80 {
                self.bytes = &self.bytes[k + 1..];
                self.previous = self.previous.checked_add(gap)?;
                return Some(self.previous);
            }
        }
        self.bytes = &[];
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(rows: &[[&'static str; COLUMNS]]) -> WordIndex {
        let col = |c: usize| move |i: usize| rows[i][c];
        let (a, b, x, d) = (col(0), col(1), col(2), col(3));
        WordIndex::build(rows.len(), [&a, &b, &x, &d]).unwrap()
    }

    fn find(index: &WordIndex, word: &str) -> usize {
        (0..index.len()).find(|&w| index.word(w).0 == word).unwrap()
    }

    #[test]
    fn lists_hold_each_item_once_in_order() {
        let index = build(&[
            ["fix auth auth", "the auth-bug", "", ""],
            ["", "", "auth\nux", "straße ok"],
            ["auth", "", "", "ok"],
        ]);
        let list = |word: &str, c: usize| index.postings(find(&index, word), c).collect::<Vec<_>>();
        assert_eq!(list("auth", 0), [0, 2]);
        assert_eq!(list("auth", 1), [0]);
        assert_eq!(list("auth", 2), [1]);
        assert!(index.postings(find(&index, "auth"), 3).is_empty());
        assert_eq!(list("ok", 3), [1, 2]);
        assert_eq!(list("straße", 3), [1]);
        assert_eq!(index.len(), 7);

        let mut w = Writer::default();
        index.encode(&mut w);
        let back = WordIndex::decode(&mut Reader::new(&w.buf)).unwrap();
        assert_eq!(back, index);
        // bounds that fall, or a word that is two, are refused
        let mut bad = index.clone();
        bad.ends.swap(4, 5);
        let mut w = Writer::default();
        bad.encode(&mut w);
        assert_eq!(WordIndex::decode(&mut Reader::new(&w.buf)), None);
        let mut bad = index.clone();
        bad.words = Texts::default();
        assert!(["auth bug", "x"].iter().all(|word| bad.words.push(word)));
        bad.ends.truncate(2 * COLUMNS);
        bad.lists.truncate(bad.ends[2 * COLUMNS - 1] as usize);
        let mut w = Writer::default();
        bad.encode(&mut w);
        assert_eq!(WordIndex::decode(&mut Reader::new(&w.buf)), None);
    }

    #[test]
    fn gaps_round_trip_and_damage_ends_a_list() {
        let items = [0u32, 1, 127, 128, 300, 16_384, 2_000_000, u32::MAX];
        let mut bytes = Vec::new();
        let mut previous = 0;
        for &i in &items {
            put_varint(&mut bytes, i - previous);
            previous = i;
        }
        let read = |bytes: &[u8]| Postings { bytes, previous: 0 }.collect::<Vec<_>>();
        assert_eq!(read(&bytes), items);
        // a varint cut short, one of six bytes, or a sum past u32 ends the list
        assert_eq!(read(&bytes[..bytes.len() - 1]), items[..items.len() - 1]);
        assert_eq!(
            read(&[0x85, 0x80, 0x80, 0x80, 0x80, 0x01]),
            Vec::<u32>::new()
        );
        assert_eq!(read(&[0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]), [u32::MAX]);
    }
}
