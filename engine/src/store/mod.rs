//! Item stores: loading a todo.json or JSON Lines file once, the struct-of-arrays index every
//! query uses, and the cache that keeps both between calls.

mod cache;
mod codec;
mod fields;
mod hierarchy;
mod index;
mod item_ref;
mod item_store;
pub mod json_place;
mod load;
mod load_error;
mod open;
mod task_field;
mod texts;
mod word_index;

pub use hierarchy::{
    Breadcrumb, BreadcrumbCut, Hierarchy, Lineage, Subtree, SubtreeNode, MAX_BREADCRUMB_DEPTH,
};
pub use index::FoldedText;
pub use item_ref::ItemRef;
pub use item_store::Store;
pub use load::StoreFormat;
pub use open::StoreOptions;
pub use task_field::TaskField;
pub(crate) use word_index::{WordIndex, COLUMNS};
