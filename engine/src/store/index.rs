//! The search index built at load time, struct of arrays: folded fields with their
//! character bags, the forms `--exact` and `--id` compare, and priority ranks. Word
//! boundaries are not stored: a query that needs them (typo matching) walks the folded text,
//! which costs less than keeping eight bytes per word of every field in memory and cache.

use super::codec::{Reader, Writer};
use super::fields::ItemFields;
use super::texts::{Lists, OptTexts, Texts};
use super::word_index::WordIndex;
use crate::item::priority_rank;
use crate::text::char_bag::char_bag;
use crate::text::fold::{fold, fold_collapsed};
use std::borrow::Cow;

/// One field of one item, case-folded: a view into a [`FoldedColumn`].
#[derive(Debug, Clone, Copy)]
pub struct FoldedText<'a> {
    pub text: &'a str,
    /// The characters of `text` (see [`char_bag`]).
    pub bag: u64,
}

impl FoldedText<'_> {
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }
}

/// One searchable field of every item, folded.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct FoldedColumn {
    texts: Texts,
    bags: Vec<u64>,
}

impl FoldedColumn {
    /// Folds one value per item; `None` past 4 GiB of text.
    fn build<'a>(values: impl Iterator<Item = Cow<'a, str>>) -> Option<FoldedColumn> {
        let mut column = FoldedColumn::default();
        for raw in values {
            let text = fold(&raw);
            column.bags.push(char_bag(&text));
            if !column.texts.push(&text) {
                return None;
            }
        }
        Some(column)
    }

    #[inline]
    pub(crate) fn get(&self, i: usize) -> FoldedText<'_> {
        FoldedText {
            text: self.texts.get(i),
            bag: self.bags[i],
        }
    }

    /// The characters of item `i`'s text, without reading the text.
    #[inline]
    pub(crate) fn bag(&self, i: usize) -> u64 {
        self.bags[i]
    }

    fn len(&self) -> usize {
        self.texts.len()
    }

    fn encode(&self, w: &mut Writer) {
        self.texts.encode(w);
        w.u64s(&self.bags);
    }

    fn decode<R: std::io::Read>(r: &mut Reader<R>) -> Option<FoldedColumn> {
        let texts = Texts::decode(r)?;
        let bags = r.u64s()?;
        (bags.len() == texts.len()).then_some(FoldedColumn { texts, bags })
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
    /// Titles folded with whitespace collapsed (the form `--exact` compares), kept only
    /// where that differs from the folded title (absent otherwise).
    title_collapsed: OptTexts,
    pub(crate) id_folded: Texts,
    pub(crate) status_folded: Texts,
    /// [`priority_rank`] of each item: the first tie-break of `find task`.
    pub(crate) priority_rank: Vec<u32>,
    /// The words of title, description, labels and notes, with the items holding each.
    pub(crate) words: WordIndex,
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
            title_collapsed: OptTexts::default(),
            id_folded: Texts::with_capacity(n),
            status_folded: Texts::with_capacity(n),
            priority_rank: (0..n).map(|i| priority_rank(f.priorities.get(i))).collect(),
            ..SearchIndex::default()
        };
        for i in 0..n {
            let collapsed = fold_collapsed(f.titles.get(i));
            let differs = collapsed != index.title.texts.get(i);
            let fits = index
                .title_collapsed
                .push(differs.then_some(collapsed.as_str()))
                & index.id_folded.push(&fold(f.ids.get(i)))
                & index
                    .status_folded
                    .push(&fold(f.statuses.get(i).unwrap_or("").trim()));
            if !fits {
                return None;
            }
        }
        index.words = {
            let columns = [
                &index.title,
                &index.description,
                &index.labels,
                &index.notes,
            ];
            let text = |c: usize| move |i: usize| columns[c].get(i).text;
            let (t, d, l, o) = (text(0), text(1), text(2), text(3));
            WordIndex::build(n, [&t, &d, &l, &o])?
        };
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

    /// Item `i`'s title folded with whitespace collapsed.
    #[inline]
    pub(crate) fn title_collapsed(&self, i: usize) -> &str {
        self.title_collapsed
            .get(i)
            .unwrap_or_else(|| self.title.texts.get(i))
    }

    /// True when item `i`'s title folded with whitespace collapsed is `s`; compares lengths
    /// before reading the title.
    #[inline]
    pub(crate) fn title_collapsed_is(&self, i: usize, s: &str) -> bool {
        let (start, end) = match self.title_collapsed.range(i) {
            Some(range) => range,
            None => self.title.texts.range(i),
        };
        end - start == s.len() && self.title_collapsed(i) == s
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
        self.title_collapsed.encode(w);
        for texts in [&self.id_folded, &self.status_folded] {
            texts.encode(w);
        }
        w.u32s(&self.priority_rank);
        self.words.encode(w);
    }

    /// Reads the index back for `n` items; `None` unless every column holds `n`.
    pub(crate) fn decode<R: std::io::Read>(r: &mut Reader<R>, n: usize) -> Option<SearchIndex> {
        let mut index = SearchIndex {
            title: FoldedColumn::decode(r)?,
            description: FoldedColumn::decode(r)?,
            labels: FoldedColumn::decode(r)?,
            notes: FoldedColumn::decode(r)?,
            title_collapsed: OptTexts::decode(r)?,
            id_folded: Texts::decode(r)?,
            status_folded: Texts::decode(r)?,
            priority_rank: r.u32s()?,
            words: WordIndex::decode(r)?,
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
            && index.title_collapsed.len() == n
            && [&index.id_folded, &index.status_folded]
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
