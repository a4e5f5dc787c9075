//! The per-item index built at load time: folded fields and their word spans.

use crate::item::Item;
use crate::text::char_bag::char_bag;
use crate::text::fold::{fold, fold_collapsed};
use crate::text::words::word_spans;

/// One field, case-folded, with the byte spans of its words.
#[derive(Debug, Clone, Default)]
pub struct FoldedText {
    pub text: String,
    pub words: Vec<(u32, u32)>,
    /// The characters of `text` (see [`char_bag`]).
    pub bag: u64,
}

impl FoldedText {
    pub fn new(raw: &str) -> FoldedText {
        let text = fold(raw);
        let words = word_spans(&text);
        let bag = char_bag(&text);
        FoldedText { text, words, bag }
    }

    /// Several values (labels, notes) joined by newlines, so no match spans two values.
    pub fn joined(values: &[String]) -> FoldedText {
        FoldedText::new(&values.join("\n"))
    }

    pub fn word(&self, i: usize) -> &str {
        let (s, e) = self.words[i];
        &self.text[s as usize..e as usize]
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }
}

/// An item together with everything queries need, computed once.
#[derive(Debug, Clone)]
pub struct IndexedItem {
    pub item: Item,
    pub title: FoldedText,
    /// The folded title as characters when it is not ASCII (an ASCII title is scored on its
    /// bytes): what `find name` scores with partial_ratio, split once at load.
    pub title_wide: Option<Box<[char]>>,
    /// Title folded with whitespace collapsed: the form `--exact` compares.
    pub title_collapsed: String,
    pub description: FoldedText,
    pub labels: FoldedText,
    pub notes: FoldedText,
    pub comments: FoldedText,
    pub id_folded: String,
    pub status_folded: String,
}

impl IndexedItem {
    pub fn new(item: Item) -> IndexedItem {
        let title = FoldedText::new(&item.title);
        IndexedItem {
            title_wide: (!title.text.is_ascii()).then(|| title.text.chars().collect()),
            title,
            title_collapsed: fold_collapsed(&item.title),
            description: FoldedText::new(item.description.as_deref().unwrap_or("")),
            labels: FoldedText::joined(&item.labels),
            notes: FoldedText::joined(&item.notes),
            comments: FoldedText::joined(&item.comments),
            id_folded: fold(&item.id),
            status_folded: fold(item.status.as_deref().unwrap_or("").trim()),
            item,
        }
    }
}
