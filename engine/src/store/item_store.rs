//! A loaded and indexed item store: the items' columns, their search index, the order of
//! their ids and their hierarchy. Loading it from a file is `open.rs`; reading one item is
//! `item_ref.rs`.

use super::fields::ItemFields;
use super::hierarchy::Hierarchy;
use super::index::SearchIndex;
use super::load::StoreFormat;
use super::word_index::WordIndex;
use crate::error::{EngineError, Result};
use crate::item::Item;
use std::path::{Path, PathBuf};

/// A loaded and indexed item store. Built once per file per process and shared (it is
/// `Send + Sync`); no query re-parses or re-folds anything. Items are stored column by
/// column (see `fields.rs` and `index.rs`); [`Store::item`] reads one.
#[derive(Debug)]
pub struct Store {
    pub(super) source: PathBuf,
    pub(super) format: StoreFormat,
    pub(super) fields: ItemFields,
    pub(super) index: SearchIndex,
    /// Item positions sorted by id: [`Store::position`] is a binary search.
    pub(super) id_order: Vec<u32>,
    pub(super) hierarchy: Hierarchy,
    pub(super) dump_bytes: usize,
}

impl Store {
    /// Indexes items already in memory; `name` stands in for the file in messages.
    pub fn from_items(name: &str, items: Vec<Item>) -> Result<Store> {
        Store::build(PathBuf::from(name), StoreFormat::InMemory, items)
    }

    pub(super) fn build(source: PathBuf, format: StoreFormat, items: Vec<Item>) -> Result<Store> {
        let too_large = |what: &str| EngineError::Content {
            path: source.clone(),
            message: format!("store is too large: {what} passes 4 GiB or 4 billion entries"),
        };
        if u32::try_from(items.len()).is_err() {
            return Err(too_large("the item count"));
        }
        let mut id_order: Vec<u32> = (0..items.len() as u32).collect();
        // stable: equal ids stay in file order, so the first pair of duplicates is found
        id_order.sort_by(|&a, &b| items[a as usize].id.cmp(&items[b as usize].id));
        let duplicate = id_order
            .windows(2)
            .filter(|w| items[w[0] as usize].id == items[w[1] as usize].id)
            .min_by_key(|w| w[1]);
        if let Some(w) = duplicate {
            return Err(EngineError::Content {
                path: source,
                message: format!(
                    "duplicate id `{}` (items {} and {} in file order)",
                    items[w[0] as usize].id,
                    w[0] + 1,
                    w[1] + 1
                ),
            });
        }
        // The bytes an agent would pull into its context by listing the whole store as JSON.
        let dump_bytes = serde_json::to_vec(&items)
            .map_err(|e| EngineError::Internal(format!("serialising store: {e}")))?
            .len();
        let fields = ItemFields::pack(&items).ok_or_else(|| too_large("one field's text"))?;
        drop(items);
        let index = SearchIndex::build(&fields).ok_or_else(|| too_large("one field's text"))?;
        let hierarchy = Hierarchy::build(
            fields.len(),
            |i| fields.parents.get(i),
            |id| position_in(&fields, &id_order, id),
        );
        Ok(Store {
            source,
            format,
            fields,
            index,
            id_order,
            hierarchy,
            dump_bytes,
        })
    }

    pub fn source(&self) -> &Path {
        &self.source
    }

    pub fn format(&self) -> StoreFormat {
        self.format
    }

    pub fn len(&self) -> usize {
        self.fields.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The position of the item with exactly this id.
    pub fn position(&self, id: &str) -> Option<usize> {
        position_in(&self.fields, &self.id_order, id)
    }

    /// The words of the searchable fields and the items holding each (`word_index.rs`).
    pub(crate) fn word_index(&self) -> &WordIndex {
        &self.index.words
    }

    pub fn hierarchy(&self) -> &Hierarchy {
        &self.hierarchy
    }

    /// Size in bytes of the whole store serialised as a JSON list: what an agent without a
    /// find tool would read (the spec's `list --format json`).
    pub fn dump_bytes(&self) -> usize {
        self.dump_bytes
    }
}

fn position_in(fields: &ItemFields, id_order: &[u32], id: &str) -> Option<usize> {
    id_order
        .binary_search_by(|&i| fields.ids.get(i as usize).cmp(id))
        .ok()
        .map(|k| id_order[k] as usize)
}
