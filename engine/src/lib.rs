//! findbench-engine: every find mode an agent's retrieval tools use, fast, ranked, explained.
//!
//! The entry point is [`Engine::execute`]: one [`Request`] in, one [`Response`] out, against a
//! [`Fixture`] loaded and indexed once. The engine never touches the filesystem after a
//! fixture is loaded, except to read a tree file's text when a mode first asks for it.

pub mod cache_dir;
mod encoding;
pub mod error;
pub mod first_call;
pub mod item;
pub mod modes;
#[cfg(test)]
mod own_sources;
pub mod planner;
pub mod profile;
pub mod rank;
pub mod request;
pub mod retrieval;
mod sources_fingerprint;
pub mod store;
pub mod text;
pub mod tree;
mod version;
mod worker_scratch;

pub use error::{EngineError, Result};
pub use item::{Domain, Item};
pub use profile::Profile;
pub use request::{Mode, Outcome, Request, Response};
pub use store::{Store, StoreOptions};
pub use tree::{IndexStats, PathList, Tree, TreeOptions};
pub use version::VERSION;

use std::sync::Arc;

/// What a request runs against, loaded and indexed once and shared between queries.
#[derive(Debug, Clone)]
pub enum Fixture {
    Store(Arc<Store>),
    /// A source tree walked once (`--root`).
    Tree(Arc<Tree>),
    /// A list of paths (`--paths-from`): `find path` only.
    Paths(Arc<PathList>),
    /// A list of paths read for one query (`--paths-from -` on the command line), matched
    /// where it lies rather than indexed first: `find path` only.
    Listing(Arc<modes::path::Listing>),
}

impl Fixture {
    /// The kept index a tree answered without one wants built (see
    /// [`tree::IndexWanted`]); the engine starts no process, its caller decides.
    pub fn index_wanted(&self) -> Option<tree::IndexWanted> {
        match self {
            Fixture::Tree(tree) => tree.index_wanted(),
            _ => None,
        }
    }

    /// Number of items (or files, or paths) a query searches: the unit of the
    /// per-1000-items latency budget.
    pub fn item_count(&self) -> usize {
        match self {
            Fixture::Store(s) => s.len(),
            Fixture::Tree(t) => t.len(),
            Fixture::Paths(p) => p.len(),
            Fixture::Listing(l) => l.len(),
        }
    }

    /// Bytes of dumping the whole fixture into an agent's context: a store as JSON; a tree
    /// as its listing (one path per line) plus the text of every text file in it (what an
    /// agent without find tools would `ls -R` and `cat`); a path list as its listing.
    pub fn dump_bytes(&self) -> usize {
        match self {
            Fixture::Store(s) => s.dump_bytes(),
            Fixture::Tree(t) => t.dump_bytes(),
            Fixture::Paths(p) => p.listing_bytes(),
            Fixture::Listing(l) => l.listing_bytes(),
        }
    }

    fn store(&self, mode: Mode) -> Result<&Store> {
        match self {
            Fixture::Store(s) => Ok(s),
            _ => Err(EngineError::invalid(format!(
                "mode `{}` needs a store fixture (--store)",
                mode.as_str()
            ))),
        }
    }

    fn tree(&self, mode: Mode) -> Result<&Tree> {
        match self {
            Fixture::Tree(t) => Ok(t),
            _ => Err(EngineError::invalid(format!(
                "mode `{}` needs a source tree fixture (--root)",
                mode.as_str()
            ))),
        }
    }

    fn paths(&self, mode: Mode) -> Result<&PathList> {
        match self {
            Fixture::Tree(t) => Ok(t.paths()),
            Fixture::Paths(p) => Ok(p),
            Fixture::Store(_) | Fixture::Listing(_) => Err(EngineError::invalid(format!(
                "mode `{}` needs a source tree (--root) or a path list (--paths-from)",
                mode.as_str()
            ))),
        }
    }
}

/// Runs requests with one ranking profile.
#[derive(Debug, Clone, Default)]
pub struct Engine {
    profile: Profile,
}

impl Engine {
    pub fn new(profile: Profile) -> Engine {
        Engine { profile }
    }

    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// Answers one request against one fixture.
    pub fn execute(&self, fixture: &Fixture, request: &Request) -> Result<Response> {
        match request {
            Request::Task(r) => {
                let store = fixture.store(Mode::Task)?;
                modes::task::find_task(store, r, &self.profile.task).map(Response::Task)
            }
            Request::Name(r) => {
                let store = fixture.store(Mode::Name)?;
                modes::name::find_name(store, r, &self.profile.name_filter).map(Response::Name)
            }
            Request::Outline(r) => {
                let store = fixture.store(Mode::Outline)?;
                modes::outline::find_outline(store, r, &self.profile.outline).map(Response::Outline)
            }
            Request::Get(r) => {
                let store = fixture.store(Mode::Get)?;
                modes::get::get_item(store, r, &self.profile.outline).map(Response::Get)
            }
            Request::Code(r) => {
                let tree = fixture.tree(Mode::Code)?;
                first_call::find_code(tree, r, &self.profile).map(Response::Code)
            }
            Request::Path(r) => match fixture {
                Fixture::Listing(listing) => {
                    modes::path::find_path_in_listing(listing, r, &self.profile.path)
                }
                _ => fixture
                    .paths(Mode::Path)
                    .and_then(|paths| modes::path::find_path(paths, r, &self.profile.path)),
            }
            .map(Response::Path),
            Request::Grep(r) => {
                let tree = fixture.tree(Mode::Grep)?;
                modes::grep::grep(tree, r, &self.profile.code, &self.profile.grep)
                    .map(Response::Grep)
            }
            Request::Ask(r) => {
                let tree = fixture.tree(Mode::Ask)?;
                first_call::ask(tree, r, &self.profile).map(Response::Ask)
            }
        }
    }
}
