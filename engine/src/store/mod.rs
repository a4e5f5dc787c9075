//! Item stores: loading a todo.json or JSON Lines file once, the struct-of-arrays index every
//! query uses, and the cache that keeps both between calls.

mod cache;
mod codec;
mod fields;
mod hierarchy;
mod index;
mod item_ref;
mod json_place;
mod load;
mod load_error;
mod texts;
mod word_index;

pub use hierarchy::{
    Breadcrumb, BreadcrumbCut, Hierarchy, Lineage, Subtree, SubtreeNode, MAX_BREADCRUMB_DEPTH,
};
pub use index::FoldedText;
pub use item_ref::ItemRef;
pub use load::StoreFormat;
pub(crate) use word_index::{WordIndex, COLUMNS};

use crate::error::{EngineError, Result};
use crate::item::Item;
use fields::ItemFields;
use index::SearchIndex;
use std::path::{Path, PathBuf};

/// How [`Store::load_with`] loads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreOptions {
    /// Reuse (and keep) the parsed and indexed store in the cache directory; off, the file
    /// is parsed every time and nothing is written.
    pub cache: bool,
    /// The cache directory; `None` takes [`crate::cache_dir::cache_dir`].
    pub cache_dir: Option<PathBuf>,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            cache: true,
            cache_dir: None,
        }
    }
}

/// A loaded and indexed item store. Built once per file per process and shared (it is
/// `Send + Sync`); no query re-parses or re-folds anything. Items are stored column by
/// column (see `fields.rs` and `index.rs`); [`Store::item`] reads one.
#[derive(Debug)]
pub struct Store {
    source: PathBuf,
    format: StoreFormat,
    fields: ItemFields,
    index: SearchIndex,
    /// Item positions sorted by id: [`Store::position`] is a binary search.
    id_order: Vec<u32>,
    hierarchy: Hierarchy,
    dump_bytes: usize,
}

impl Store {
    /// Reads and indexes the store at `path` (todo.json shape or JSON Lines), through the
    /// cache (see [`StoreOptions`]).
    pub fn load(path: &Path) -> Result<Store> {
        Store::load_with(path, &StoreOptions::default())
    }

    /// [`Store::load`] with options. A cached store is used only when the file's canonical
    /// path, size and modification time are those it was built from; a cache that is
    /// missing, stale, corrupt or from another findbench version is rebuilt, and a cache
    /// that cannot be written is skipped: the cache never changes an answer or fails a
    /// load.
    pub fn load_with(path: &Path, options: &StoreOptions) -> Result<Store> {
        let cache = options
            .cache
            .then(|| {
                options
                    .cache_dir
                    .clone()
                    .or_else(crate::cache_dir::cache_dir)
            })
            .flatten()
            .and_then(|dir| cache::Entry::for_file(&dir, path));
        if let Some(store) = cache.as_ref().and_then(|c| c.read(path)) {
            return Ok(store);
        }
        let bytes = std::fs::read(path).map_err(|e| EngineError::File {
            path: path.to_path_buf(),
            message: format!("cannot read store: {e}"),
            hint: Some("pass an existing todo.json or .jsonl file with --store".into()),
        })?;
        let (format, items) = load::parse_store(path, &bytes)?;
        let store = Store::build(path.to_path_buf(), format, items)?;
        if let Some(cache) = cache {
            cache.write(&store);
        }
        Ok(store)
    }

    /// Indexes items already in memory; `name` stands in for the file in messages.
    pub fn from_items(name: &str, items: Vec<Item>) -> Result<Store> {
        Store::build(PathBuf::from(name), StoreFormat::InMemory, items)
    }

    fn build(source: PathBuf, format: StoreFormat, items: Vec<Item>) -> Result<Store> {
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

    /// The item at `index` (file order, archived ones included).
    #[inline]
    pub fn item(&self, index: usize) -> ItemRef<'_> {
        ItemRef::new(self, index)
    }

    /// Every item in file order (archived ones included).
    pub fn iter(&self) -> impl ExactSizeIterator<Item = ItemRef<'_>> + '_ {
        (0..self.len()).map(|i| self.item(i))
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
