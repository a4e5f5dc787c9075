//! A source tree loaded once: every file's path, folded stem, language, the symbols in its
//! first lines, and (read on first use) the text of the files `grep` and `ask` open.
//!
//! [`Tree::load`] is the only place code modes touch the filesystem. A process that answers
//! many queries on one root (the harness) loads it once and shares it (`Send + Sync`).
//!
//! Loading goes through the kept index ([`cache`]): paths, sizes, mtimes, symbols and word
//! posting lists on disk under the cache directory, refreshed from size and mtime. Then a
//! file's text is read only when a mode asks for it ([`TreeFile::text`]), and `grep` asks
//! only for the files [`Tree::candidates`] names. With [`TreeOptions::no_cache`] (or no
//! cache directory) every file is read and kept in memory, as a one-off walk needs.

mod blob;
pub(crate) mod cache;
mod content;
pub(crate) mod edits;
mod file;
mod found_runs;
mod head_records;
mod history;
mod index_build;
mod index_format;
mod index_read;
mod index_wanted;
mod kept_changes;
mod load;
mod options;
pub mod paths;
pub(crate) mod postings;
mod record_files;
mod report;
mod reused_records;
mod root;
mod segments;
pub(crate) mod source_tree;
mod stamp;
pub mod symbol_table;
pub mod symbols;
mod walk;

pub use cache::{IndexState, IndexStats, Indexed};
pub(crate) use content::GROWN_BUFFER;
pub use content::{Content, ContentKind};
pub(crate) use file::name_bag_of;
pub use file::TreeFile;
pub use history::{Changed, History, HistoryReader};
pub use index_wanted::{building_marker, BuildClaim, IndexWanted};
pub use options::TreeOptions;
pub use paths::PathList;
pub use record_files::RecordFiles;
pub use report::WalkReport;
pub use root::check_root;
pub(crate) use source_tree::TreeState;
pub use source_tree::{KeptStamp, Tree};
pub use symbol_table::SymbolTable;
pub use symbols::{Language, Symbol, SymbolKind};
