//! The search index built at load time, struct of arrays: folded fields with their word
//! spans and character bags, the forms `--exact` and `--id` compare, and priority ranks.

use super::codec::{Reader, Writer};
use super::fields::ItemFields;
use super::texts::{Lists, Texts};
use crate::item::priority_rank;
use crate::text::char_bag::char_bag;
use crate::text::fold::{fold, fold_collapsed};
use crate::text::words::word_spans;
use std::borrow::Cow;

/// One field of one item, case-folded, with the byte spans of its words: a view into a
/// [`FoldedColumn`].
#[derive(Debug, Clone, Copy)]
pub struct FoldedText<'a> {
    pub text: &'a str,
    pub words: &'a [(u32, u32)],
    /// The characters of `text` (see [`char_bag`]).
    pub bag: u64,
}

impl<'a> FoldedText<'a> {
    pub fn word(&self, i: usize) -> &'a str {
        let (s, e) = self.words[i];
        &self.text[s as usize..e as usize]
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }
}

/// One searchable field of every item, folded.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct FoldedColumn {
    texts: Texts,
    /// Word spans of every item, relative to the item's text, end to end.
    words: Vec<(u32, u32)>,
    /// Item `i` owns `words[word_ends[i - 1]..word_ends[i]]`.
    word_ends: Vec<u32>,
    bags: Vec<u64>,
}

impl FoldedColumn {
    /// Folds one value per item; `None` past 4 GiB of text or 4 billion words.
    fn build<'a>(values: impl Iterator<Item = Cow<'a, str>>) -> Option<FoldedColumn> {
        let mut column = FoldedColumn::default();
        for raw in values {
            let text = fold(&raw);
            column.words.extend(word_spans(&text));
            column
                .word_ends
                .push(u32::try_from(column.words.len()).ok()?);
            column.bags.push(char_bag(&text));
            if !column.texts.push(&text) {
                return None;
            }
        }
        Some(column)
    }

    #[inline]
    pub(crate) fn get(&self, i: usize) -> FoldedText<'_> {
        let ws = if i == 0 {
            0
        } else {
            self.word_ends[i - 1] as usize
        };
        FoldedText {
            text: self.texts.get(i),
            words: &self.words[ws..self.word_ends[i] as usize],
            bag: self.bags[i],
        }
    }

    fn len(&self) -> usize {
        self.texts.len()
    }

    fn encode(&self, w: &mut Writer) {
        self.texts.encode(w);
        let flat: Vec<u32> = self.words.iter().flat_map(|&(s, e)| [s, e]).collect();
        w.u32s(&flat);
        w.u32s(&self.word_ends);
        w.u64s(&self.bags);
    }

    /// Reads a column back, checking every word span against its own item's text.
    fn decode(r: &mut Reader) -> Option<FoldedColumn> {
        let texts = Texts::decode(r)?;
        let flat = r.u32s()?;
        let word_ends = r.u32s()?;
        let bags = r.u64s()?;
        if flat.len() % 2 != 0 || word_ends.len() != texts.len() || bags.len() != texts.len() {
            return None;
        }
        let words: Vec<(u32, u32)> = flat.chunks_exact(2).map(|p| (p[0], p[1])).collect();
        let mut start = 0usize;
        for (i, &end) in word_ends.iter().enumerate() {
            let end = end as usize;
            if end < start || end > words.len() {
                return None;
            }
            let text = texts.get(i);
            let fits = words[start..end].iter().all(|&(s, e)| {
                let (s, e) = (s as usize, e as usize);
                s <= e && e <= text.len() && text.is_char_boundary(s) && text.is_char_boundary(e)
            });
            if !fits {
                return None;
            }
            start = end;
        }
        Some(FoldedColumn {
            texts,
            words,
            word_ends,
            bags,
        })
    }
}

/// Everything queries need of the items, computed once per store.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct SearchIndex {
    pub(crate) title: FoldedColumn,
    pub(crate) description: FoldedColumn,
    /// Labels and notes, each item's values joined by newlines so no match spans two.
    pub(crate) labels: FoldedColumn,
    pub(crate) notes: FoldedColumn,
    /// Titles folded with whitespace collapsed: the form `--exact` compares.
    pub(crate) title_collapsed: Texts,
    pub(crate) id_folded: Texts,
    pub(crate) status_folded: Texts,
    /// [`priority_rank`] of each item: the first tie-break of `find task`.
    pub(crate) priority_rank: Vec<u32>,
    /// The folded titles that are not ASCII, as characters (an ASCII title is scored on its
    /// bytes): what `find name` scores with partial_ratio. Derived at load, not cached.
    wide: Vec<char>,
    /// Item `i`'s characters are `wide[wide_ends[i - 1]..wide_ends[i]]`, empty when ASCII.
    wide_ends: Vec<u32>,
}

impl SearchIndex {
    pub(crate) fn build(f: &ItemFields) -> Option<SearchIndex> {
        let n = f.len();
        fn joined(lists: &Lists, i: usize) -> Cow<'_, str> {
            let mut values = lists.get(i);
            match values.len() {
                0 => "".into(),
                1 => values.next().unwrap_or_default().into(),
                _ => values.collect::<Vec<_>>().join("\n").into(),
            }
        }
        let mut index = SearchIndex {
            title: FoldedColumn::build((0..n).map(|i| f.titles.get(i).into()))?,
            description: FoldedColumn::build(
                (0..n).map(|i| f.descriptions.get(i).unwrap_or("").into()),
            )?,
            labels: FoldedColumn::build((0..n).map(|i| joined(&f.labels, i)))?,
            notes: FoldedColumn::build((0..n).map(|i| joined(&f.notes, i)))?,
            title_collapsed: Texts::with_capacity(n),
            id_folded: Texts::with_capacity(n),
            status_folded: Texts::with_capacity(n),
            priority_rank: (0..n).map(|i| priority_rank(f.priorities.get(i))).collect(),
            ..SearchIndex::default()
        };
        for i in 0..n {
            let fits = index.title_collapsed.push(&fold_collapsed(f.titles.get(i)))
                & index.id_folded.push(&fold(f.ids.get(i)))
                & index
                    .status_folded
                    .push(&fold(f.statuses.get(i).unwrap_or("").trim()));
            if !fits {
                return None;
            }
        }
        index.derive_wide()?;
        Some(index)
    }

    fn derive_wide(&mut self) -> Option<()> {
        let n = self.title.len();
        self.wide.clear();
        self.wide_ends.clear();
        self.wide_ends.reserve(n);
        for i in 0..n {
            let text = self.title.texts.get(i);
            if !text.is_ascii() {
                self.wide.extend(text.chars());
            }
            self.wide_ends.push(u32::try_from(self.wide.len()).ok()?);
        }
        Some(())
    }

    /// The folded title of item `i` as characters when it is not ASCII.
    #[inline]
    pub(crate) fn title_wide(&self, i: usize) -> Option<&[char]> {
        let start = if i == 0 {
            0
        } else {
            self.wide_ends[i - 1] as usize
        };
        let end = self.wide_ends[i] as usize;
        (end > start).then(|| &self.wide[start..end])
    }

    pub(crate) fn encode(&self, w: &mut Writer) {
        for column in [&self.title, &self.description, &self.labels, &self.notes] {
            column.encode(w);
        }
        for texts in [&self.title_collapsed, &self.id_folded, &self.status_folded] {
            texts.encode(w);
        }
        w.u32s(&self.priority_rank);
    }

    /// Reads the index back for `n` items; `None` unless every column holds `n`.
    pub(crate) fn decode(r: &mut Reader, n: usize) -> Option<SearchIndex> {
        let mut index = SearchIndex {
            title: FoldedColumn::decode(r)?,
            description: FoldedColumn::decode(r)?,
            labels: FoldedColumn::decode(r)?,
            notes: FoldedColumn::decode(r)?,
            title_collapsed: Texts::decode(r)?,
            id_folded: Texts::decode(r)?,
            status_folded: Texts::decode(r)?,
            priority_rank: r.u32s()?,
            ..SearchIndex::default()
        };
        let same = [
            &index.title,
            &index.description,
            &index.labels,
            &index.notes,
        ]
        .iter()
        .all(|c| c.len() == n)
            && [
                &index.title_collapsed,
                &index.id_folded,
                &index.status_folded,
            ]
            .iter()
            .all(|t| t.len() == n)
            && index.priority_rank.len() == n;
        if !same {
            return None;
        }
        index.derive_wide()?;
        Some(index)
    }
}
