//! One item of a store, read from its columns.

use super::hierarchy::{Breadcrumb, BreadcrumbCut, Lineage};
use super::index::FoldedText;
use super::item_store::Store;
use crate::item::{Domain, Item};

/// An item of a [`Store`]: its fields as given and its folded forms, borrowed from the
/// store's columns (nothing is copied until [`ItemRef::to_item`]).
#[derive(Clone, Copy)]
pub struct ItemRef<'a> {
    store: &'a Store,
    index: usize,
}

impl<'a> ItemRef<'a> {
    pub(crate) fn new(store: &'a Store, index: usize) -> ItemRef<'a> {
        ItemRef { store, index }
    }

    /// The item's position in the store (file order).
    pub fn index(&self) -> usize {
        self.index
    }

    pub fn id(&self) -> &'a str {
        self.store.fields.ids.get(self.index)
    }

    pub fn title(&self) -> &'a str {
        self.store.fields.titles.get(self.index)
    }

    pub fn description(&self) -> Option<&'a str> {
        self.store.fields.descriptions.get(self.index)
    }

    pub fn status(&self) -> Option<&'a str> {
        self.store.fields.statuses.get(self.index)
    }

    pub fn priority(&self) -> Option<&'a str> {
        self.store.fields.priorities.get(self.index)
    }

    pub fn phase(&self) -> Option<&'a str> {
        self.store.fields.phases.get(self.index)
    }

    pub fn parent(&self) -> Option<&'a str> {
        self.store.fields.parents.get(self.index)
    }

    pub fn list(&self) -> Option<&'a str> {
        self.store.fields.lists.get(self.index)
    }

    pub fn labels(&self) -> Vec<String> {
        self.store.fields.labels.to_vec(self.index)
    }

    pub fn notes(&self) -> Vec<String> {
        self.store.fields.notes.to_vec(self.index)
    }

    pub fn comments(&self) -> Vec<String> {
        self.store.fields.comments.to_vec(self.index)
    }

    pub fn has_notes(&self) -> bool {
        self.store.fields.notes.count(self.index) > 0
    }

    pub fn has_comments(&self) -> bool {
        self.store.fields.comments.count(self.index) > 0
    }

    pub fn domain(&self) -> Domain {
        self.store.fields.domains[self.index]
    }

    pub fn archived(&self) -> bool {
        self.store.fields.archived[self.index]
    }

    /// See [`crate::item::priority_rank`].
    pub fn priority_rank(&self) -> u32 {
        self.store.index.priority_rank[self.index]
    }

    pub fn title_folded(&self) -> FoldedText<'a> {
        self.store.index.title.get(self.index)
    }

    pub fn description_folded(&self) -> FoldedText<'a> {
        self.store.index.description.get(self.index)
    }

    pub fn labels_folded(&self) -> FoldedText<'a> {
        self.store.index.labels.get(self.index)
    }

    pub fn notes_folded(&self) -> FoldedText<'a> {
        self.store.index.notes.get(self.index)
    }

    /// The characters of the folded field in index column `column` (title, description,
    /// labels, notes), without reading its text.
    #[inline]
    pub(crate) fn folded_bag(&self, column: usize) -> u64 {
        let index = &self.store.index;
        [
            &index.title,
            &index.description,
            &index.labels,
            &index.notes,
        ][column]
            .bag(self.index)
    }

    /// True when [`ItemRef::title_collapsed`] is `s`, reading the title only when the
    /// lengths agree.
    #[inline]
    pub(crate) fn title_collapsed_is(&self, s: &str) -> bool {
        self.store.index.title_collapsed_is(self.index, s)
    }

    /// Title folded with whitespace collapsed: the form `--exact` compares.
    pub fn title_collapsed(&self) -> &'a str {
        self.store.index.title_collapsed(self.index)
    }

    pub fn id_folded(&self) -> &'a str {
        self.store.index.id_folded.get(self.index)
    }

    /// Status folded and trimmed (empty when there is none).
    pub fn status_folded(&self) -> &'a str {
        self.store.index.status_folded.get(self.index)
    }

    /// The folded title as characters when it is not ASCII (an ASCII title is scored on
    /// its bytes).
    pub fn title_wide(&self) -> Option<&'a [char]> {
        self.store.index.title_wide(self.index)
    }

    /// The item as an owned [`Item`].
    pub fn to_item(&self) -> Item {
        self.store.fields.item(self.index)
    }
}

/// How a store hands out its items.
impl Store {
    /// The item at `index` (file order, archived ones included).
    #[inline]
    pub fn item(&self, index: usize) -> ItemRef<'_> {
        ItemRef::new(self, index)
    }

    /// Every item in file order (archived ones included).
    pub fn iter(&self) -> impl ExactSizeIterator<Item = ItemRef<'_>> + '_ {
        (0..self.len()).map(|i| self.item(i))
    }

    /// The breadcrumb (`Grandparent > Parent > Item`) of the item at `index`.
    pub fn breadcrumb(&self, index: usize) -> Breadcrumb {
        let Lineage { chain, cut } = self.hierarchy.lineage(index);
        let missing_parent = match cut {
            Some(BreadcrumbCut::MissingParent) => self.item(chain[0]).parent().map(String::from),
            _ => None,
        };
        Breadcrumb {
            titles: chain
                .iter()
                .map(|&i| self.item(i).title().to_string())
                .collect(),
            cut,
            missing_parent,
        }
    }
}
