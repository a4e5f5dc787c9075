//! The server's work, without the protocol: one tool call in, the CLI's JSON document out
//! (or the error envelope), fixtures kept warm and loaded again when their files change
//! (`fresh.rs`), every call recorded.

use crate::fresh::Freshness;
use crate::git_pin::GitPins;
use crate::index_build;
use crate::record::{CallRecord, Recorder};
use crate::sandbox::Sandbox;
use findbench_engine::{EngineError, Fixture, Mode, Profile, Tree, TreeOptions};
use findbench_tools::call::{self, Answer};
use findbench_tools::envelope::Meta;
use findbench_tools::{FixtureKind, FixtureRef, ToolCall};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Instant, SystemTime};

/// What one call produced: the document, and whether it is an error.
#[derive(Debug, Clone, PartialEq)]
pub struct CallOutput {
    pub document: Value,
    pub is_error: bool,
}

/// A loaded fixture, how it learns that it changed, and how many times it was loaded again.
struct Loaded {
    fixture: Fixture,
    freshness: Freshness,
    generation: u64,
}

/// A fixture's key: its kind and canonical path.
type Key = (FixtureKind, PathBuf);

/// What the cache holds: the loaded fixtures, and the trees whose kept index is being built.
#[derive(Default)]
struct Fixtures {
    loaded: HashMap<Key, Loaded>,
    /// Trees with a build under way: one build at a time per tree.
    building: HashSet<Key>,
    /// The builds' threads, for [`Service::finish_index_builds`].
    threads: Vec<JoinHandle<()>>,
}

/// Fixtures keyed by kind and canonical path, loaded on first use and kept for the life of
/// the server; before each call a fixture whose files changed is loaded again (only what
/// changed is read: the kept index and the store cache do that). A tree loaded without its
/// kept index answers from passes over its files until the index it builds in the
/// background (`index_build.rs`) takes its place.
#[derive(Default)]
struct FixtureCache {
    fixtures: Arc<Mutex<Fixtures>>,
    /// `--no-cache`: trees are walked and stores parsed without the kept index.
    no_cache: bool,
    /// Where trees and stores are kept; `None` is the engine's default.
    cache_dir: Option<PathBuf>,
}

impl FixtureCache {
    fn tree_options(&self) -> TreeOptions {
        // A symbolic link inside a root may point anywhere: the server's walks do not
        // follow links, so nothing outside the root is ever read through one.
        TreeOptions {
            follow_links: false,
            no_cache: self.no_cache,
            cache_dir: self.cache_dir.clone(),
            ..TreeOptions::default()
        }
    }

    fn lock(&self) -> Result<MutexGuard<'_, Fixtures>, EngineError> {
        self.fixtures
            .lock()
            .map_err(|_| EngineError::Internal("fixture cache lock poisoned".into()))
    }

    /// The fixture at `path`, fresh, and its generation (how many times it was reloaded).
    fn get(&self, kind: FixtureKind, path: &Path) -> Result<(Fixture, u64), EngineError> {
        let key = (kind, path.to_path_buf());
        // Loading happens under the lock: two first calls on one tree load it once.
        let mut fixtures = self.lock()?;
        let (generation, before) = match fixtures.loaded.get_mut(&key) {
            Some(l) => {
                if !l.freshness.changed() {
                    return Ok((l.fixture.clone(), l.generation));
                }
                let generation = l.generation + 1;
                (
                    generation,
                    fixtures.loaded.remove(&key).map(|l| l.freshness),
                )
            }
            None => (0, None),
        };
        let loaded_at = SystemTime::now();
        let options = self.tree_options();
        // a fixture that no longer loads is not kept (removed above): the next call tries again
        let fixture = call::load_fixture(kind, path, &options)?;
        let tree = match &fixture {
            Fixture::Tree(tree) => Some(tree.as_ref()),
            _ => None,
        };
        let freshness = match (before, tree) {
            (Some(before), _) => before.reloaded(tree, path, loaded_at),
            (None, Some(tree)) => Freshness::for_tree(tree, loaded_at),
            (None, None) => Freshness::for_file(path, loaded_at),
        };
        let unindexed = tree.is_some_and(Tree::is_unindexed);
        if unindexed && !fixtures.building.contains(&key) {
            self.build_index(&mut fixtures, key.clone(), options, generation);
        }
        fixtures.loaded.insert(
            key,
            Loaded {
                fixture: fixture.clone(),
                freshness,
                generation,
            },
        );
        Ok((fixture, generation))
    }

    /// Starts the build of the kept index of the tree at `key`, loaded as `generation`.
    /// When it is done the indexed tree takes the unindexed one's place, if that is still
    /// the tree loaded and nothing changed meanwhile; else the next call loads the tree
    /// again, from the index now on disk.
    fn build_index(
        &self,
        fixtures: &mut Fixtures,
        key: Key,
        options: TreeOptions,
        generation: u64,
    ) {
        let cache = Arc::downgrade(&self.fixtures);
        let done_key = key.clone();
        let swap = move |built: Result<Arc<Tree>, EngineError>| {
            let Some(cache) = cache.upgrade() else {
                return false; // the server is gone
            };
            let Ok(mut fixtures) = cache.lock() else {
                return false;
            };
            fixtures.building.remove(&done_key);
            let tree = match built {
                Ok(tree) => tree,
                Err(e) => {
                    // the tree goes on answering without the index; a reload tries again
                    eprintln!(
                        "findbench serve: cannot index {}: {e}",
                        done_key.1.display()
                    );
                    return false;
                }
            };
            let Some(loaded) = fixtures.loaded.get_mut(&done_key) else {
                return false;
            };
            if !matches!(&loaded.fixture, Fixture::Tree(t) if t.is_unindexed()) {
                return false;
            }
            if loaded.generation != generation || loaded.freshness.changed() {
                loaded.freshness.doubt();
                return false;
            }
            loaded.fixture = Fixture::Tree(tree);
            true
        };
        let root = key.1.clone();
        if let Some(thread) = index_build::start(root, options, swap) {
            fixtures.threads.retain(|t| !t.is_finished());
            fixtures.threads.push(thread);
            fixtures.building.insert(key);
        }
    }

    /// Waits for the index builds under way.
    fn finish_index_builds(&self) {
        let threads = match self.lock() {
            Ok(mut fixtures) => std::mem::take(&mut fixtures.threads),
            Err(_) => return,
        };
        for thread in threads {
            let _ = thread.join();
        }
    }

    /// Whether the tree loaded at `root` answers from its kept index (or, with
    /// `--no-cache`, from its files read into memory); `None` when none is loaded there.
    fn indexed(&self, root: &Path) -> Option<bool> {
        let fixtures = self.lock().ok()?;
        match &fixtures
            .loaded
            .get(&(FixtureKind::Root, root.to_path_buf()))?
            .fixture
        {
            Fixture::Tree(tree) => Some(!tree.is_unindexed()),
            _ => None,
        }
    }

    fn len(&self) -> usize {
        self.lock().map_or(0, |f| f.loaded.len())
    }
}

/// The find tools behind the sandbox, with a warm fixture cache and an optional recorder.
pub struct Service {
    sandbox: Sandbox,
    fixtures: FixtureCache,
    recorder: Option<Recorder>,
    /// The repository and commit of each recorded fixture outside `--fixtures`.
    pins: GitPins,
}

impl Service {
    pub fn new(sandbox: Sandbox, recorder: Option<Recorder>) -> Service {
        Service {
            sandbox,
            fixtures: FixtureCache::default(),
            recorder,
            pins: GitPins::default(),
        }
    }

    /// Loads trees and stores without the kept index and store cache (`--no-cache`).
    pub fn without_cache(mut self) -> Service {
        self.fixtures.no_cache = true;
        self
    }

    /// Keeps tree indexes and stores in `dir` instead of the engine's cache directory.
    pub fn cache_in(mut self, dir: PathBuf) -> Service {
        self.fixtures.cache_dir = Some(dir);
        self
    }

    /// Waits until every index build under way is done and its tree swapped in.
    pub fn finish_index_builds(&self) {
        self.fixtures.finish_index_builds();
    }

    /// Whether the tree loaded at the canonical `root` answers from an index (kept, or its
    /// files in memory with `--no-cache`) rather than from passes over its files; `None`
    /// when no tree is loaded there.
    pub fn answers_from_index(&self, root: &Path) -> Option<bool> {
        self.fixtures.indexed(root)
    }

    pub fn sandbox(&self) -> &Sandbox {
        &self.sandbox
    }

    /// Fixtures loaded so far.
    pub fn warm_fixtures(&self) -> usize {
        self.fixtures.len()
    }

    /// Loads the start fixtures now, so the first call is as fast as the rest.
    pub fn warm_up(&self, roots: &[PathBuf], stores: &[PathBuf], paths: &[PathBuf]) {
        let kinds = [
            (FixtureKind::Root, roots),
            (FixtureKind::Store, stores),
            (FixtureKind::Paths, paths),
        ];
        for (kind, list) in kinds {
            for p in list {
                if let Ok(canonical) = p.canonicalize() {
                    if let Err(e) = self.fixtures.get(kind, &canonical) {
                        eprintln!("findbench serve: {e}");
                    }
                }
            }
        }
    }

    /// Answers one tool call. Never panics on bad input: a bad call is an error document.
    pub fn call(&self, tool: &str, arguments: &Value) -> CallOutput {
        let started = SystemTime::now();
        let clock = Instant::now();
        let parsed = ToolCall::parse(tool, arguments);
        let mut fixture: Option<(FixtureKind, PathBuf)> = None;
        let mut generation = 0;
        let mut answer = match &parsed {
            Err(err) => refused(tool, started, clock, clone_error(err)),
            Ok(call) => match self.resolve(call) {
                Err(err) => refused(tool, started, clock, err),
                Ok((kind, path)) => {
                    fixture = Some((kind, path.clone()));
                    let call = call.clone().with_fixture_path(path.clone());
                    // a tree is kept between calls and reads its history once a load; a
                    // commit loads it again (`fresh.rs`)
                    call::answer(&call, started, clock, None, |_| {
                        let (loaded, g) = self.fixtures.get(kind, &path)?;
                        generation = g;
                        Ok(loaded)
                    })
                }
            },
        };
        // the engine words its checks for the command line; a client gave arguments
        if let Err(EngineError::InvalidInput { message, hint }) = &mut answer.result {
            *message = findbench_tools::decode::flags_as_arguments(message);
            if let Some(hint) = hint {
                *hint = findbench_tools::decode::flags_as_arguments(hint);
            }
        }
        if let Some(recorder) = &self.recorder {
            // a fixture outside --fixtures is pinned, so the call replays anywhere
            let pin = fixture.as_ref().and_then(|(_, path)| {
                recorder
                    .relative_name(path)
                    .is_none()
                    .then(|| self.pins.source(path, generation))
            });
            let record = CallRecord {
                started,
                elapsed: clock.elapsed(),
                tool,
                arguments,
                call: parsed.as_ref().ok(),
                fixture: fixture.as_ref().map(|(k, p)| (*k, p.as_path())),
                pin,
                answer: &answer,
            };
            if let Err(e) = recorder.record(&record) {
                eprintln!("findbench serve: cannot record the call: {e}");
            }
        }
        CallOutput {
            is_error: answer.result.is_err(),
            document: answer.document(),
        }
    }

    /// The fixture (kind, canonical path) a call runs against, checked against the sandbox;
    /// a profile file is checked too.
    fn resolve(&self, call: &ToolCall) -> Result<(FixtureKind, PathBuf), EngineError> {
        let profile = call.profile();
        if Profile::builtin(profile).is_none() {
            self.sandbox.check(FixtureKind::Root, Path::new(profile))?;
        }
        match call.fixture() {
            FixtureRef::Root(Some(p)) => Ok((
                FixtureKind::Root,
                self.sandbox.check(FixtureKind::Root, &p)?,
            )),
            FixtureRef::Store(Some(p)) => Ok((
                FixtureKind::Store,
                self.sandbox.check(FixtureKind::Store, &p)?,
            )),
            FixtureRef::Paths(p) => Ok((
                FixtureKind::Paths,
                self.sandbox.check(FixtureKind::Paths, &p)?,
            )),
            FixtureRef::Store(None) => Ok((
                FixtureKind::Store,
                self.sandbox.default_for(FixtureKind::Store)?,
            )),
            FixtureRef::Root(None) => match self.sandbox.default_for(FixtureKind::Root) {
                Ok(root) => Ok((FixtureKind::Root, root)),
                // `find_path` without a root falls back on the start path list
                Err(e) if call.mode() == Mode::Path => self
                    .sandbox
                    .default_for(FixtureKind::Paths)
                    .map(|p| (FixtureKind::Paths, p))
                    .map_err(|_| e),
                Err(e) => Err(e),
            },
        }
    }
}

/// The answer of a call refused before it ran.
fn refused(tool: &str, started: SystemTime, clock: Instant, err: EngineError) -> Answer {
    let (command, schema) = match findbench_tools::ToolSpec::named(tool) {
        Some(spec) => (spec.command, spec.schema),
        None => (tool, "error.schema.json"),
    };
    Answer {
        meta: Meta::new(command, started, clock.elapsed()),
        schema,
        result: Err(err),
        walk: None,
        fixture: None,
    }
}

/// `EngineError` is not `Clone`; its invalid-input case (the only one parsing makes) is.
fn clone_error(err: &EngineError) -> EngineError {
    match err {
        EngineError::InvalidInput { message, hint } => EngineError::InvalidInput {
            message: message.clone(),
            hint: hint.clone(),
        },
        other => EngineError::Internal(other.to_string()),
    }
}
