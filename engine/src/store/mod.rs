//! Item stores: loading a todo.json or JSON Lines file once, and the index every query uses.

mod hierarchy;
mod index;
mod load;

pub use hierarchy::{
    Breadcrumb, BreadcrumbCut, Hierarchy, Lineage, Subtree, SubtreeNode, MAX_BREADCRUMB_DEPTH,
};
pub use index::{FoldedText, IndexedItem};
pub use load::StoreFormat;

use crate::error::{EngineError, Result};
use crate::item::Item;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A loaded and indexed item store. Built once per file per process and shared (it is
/// `Send + Sync`); no query re-parses or re-folds anything.
#[derive(Debug)]
pub struct Store {
    source: PathBuf,
    format: StoreFormat,
    items: Vec<IndexedItem>,
    by_id: HashMap<String, usize>,
    hierarchy: Hierarchy,
    dump_bytes: usize,
}

impl Store {
    /// Reads and indexes the store at `path` (todo.json shape or JSON Lines).
    pub fn load(path: &Path) -> Result<Store> {
        let bytes = std::fs::read(path).map_err(|e| EngineError::File {
            path: path.to_path_buf(),
            message: format!("cannot read store: {e}"),
            hint: Some("pass an existing todo.json or .jsonl file with --store".into()),
        })?;
        let (format, items) = load::parse_store(path, &bytes)?;
        Store::build(path.to_path_buf(), format, items)
    }

    /// Indexes items already in memory; `name` stands in for the file in messages.
    pub fn from_items(name: &str, items: Vec<Item>) -> Result<Store> {
        Store::build(PathBuf::from(name), StoreFormat::InMemory, items)
    }

    fn build(source: PathBuf, format: StoreFormat, items: Vec<Item>) -> Result<Store> {
        let mut by_id = HashMap::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            if let Some(first) = by_id.insert(item.id.clone(), i) {
                return Err(EngineError::Content {
                    path: source,
                    message: format!(
                        "duplicate id `{}` (items {} and {} in file order)",
                        item.id,
                        first + 1,
                        i + 1
                    ),
                });
            }
        }
        // The bytes an agent would pull into its context by listing the whole store as JSON.
        let dump_bytes = serde_json::to_vec(&items)
            .map_err(|e| EngineError::Internal(format!("serialising store: {e}")))?
            .len();
        let hierarchy = Hierarchy::build(&items, &by_id);
        let items = items.into_iter().map(IndexedItem::new).collect();
        Ok(Store {
            source,
            format,
            items,
            by_id,
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

    /// Every item in file order (archived ones included).
    pub fn items(&self) -> &[IndexedItem] {
        &self.items
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The position of the item with exactly this id.
    pub fn position(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }

    pub fn hierarchy(&self) -> &Hierarchy {
        &self.hierarchy
    }

    /// The breadcrumb (`Grandparent > Parent > Item`) of the item at `index`.
    pub fn breadcrumb(&self, index: usize) -> Breadcrumb {
        let Lineage { chain, cut } = self.hierarchy.lineage(index);
        let missing_parent = match cut {
            Some(BreadcrumbCut::MissingParent) => self.items[chain[0]].item.parent.clone(),
            _ => None,
        };
        Breadcrumb {
            titles: chain
                .iter()
                .map(|&i| self.items[i].item.title.clone())
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
