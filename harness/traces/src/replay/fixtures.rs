//! The fixtures of a replay, each loaded once, on the thread that reads the traces, and
//! shared by every trace that names it.

use crate::error::TracesError;
use crate::replay::call::{self, NO_FIXTURE};
use crate::replay::options::{ReplayFixture, ReplayOptions};
use crate::trace::Trace;
use findbench_engine::{Fixture, Tree};
use findbench_eval::tools::FixtureKind;
use std::collections::HashMap;
use std::sync::Arc;

/// Loaded fixtures, each loaded once and shared by every trace that names it.
#[derive(Default)]
pub struct Fixtures {
    loaded: HashMap<String, Result<ReplayFixture, String>>,
    /// What the traces were replayed against: each tree (a directory, or a repository's
    /// commit for a trace pinned to one) and the directory of recorded stores, in order.
    pub(crate) against: std::collections::BTreeSet<String>,
}

impl Fixtures {
    pub fn new() -> Fixtures {
        Fixtures {
            loaded: HashMap::new(),
            against: Default::default(),
        }
    }

    /// The fixture `name` of `kind`: a tree (or `--root`), or for a recorded MCP call a
    /// store or path list, each under `--fixtures`. A tree that is missing, cannot be listed
    /// or does not load is a file error (exit 3) naming the directory: replaying every trace
    /// as a `failure` would read as a ranking regression. A recorded call's store or path
    /// list that does not load fails that call alone, as the server refused it.
    pub fn resolve(
        &mut self,
        options: &ReplayOptions,
        trace: &Trace,
        kind: FixtureKind,
    ) -> Result<Result<ReplayFixture, String>, TracesError> {
        let name = trace.fixture.as_str();
        let key = if options.root.is_some() && kind == FixtureKind::Root && name != NO_FIXTURE {
            String::new()
        } else {
            format!("{kind:?}:{name}")
        };
        if let Some(f) = self.loaded.get(&key) {
            return Ok(f.clone());
        }
        if kind != FixtureKind::Root || name == NO_FIXTURE {
            if name != NO_FIXTURE {
                self.against
                    .insert(options.fixtures_dir.display().to_string());
            }
            let loaded = call::load(options, trace, kind);
            self.loaded.insert(key, loaded.clone());
            return Ok(loaded);
        }
        let against = match (&options.root, &trace.fixture_source) {
            (Some(root), _) => root.display().to_string(),
            (None, Some(source)) => source.mapped(&options.map).label(),
            (None, None) => options.fixtures_dir.display().to_string(),
        };
        self.against.insert(against);
        let dir = match (&options.root, &trace.fixture_source) {
            (Some(root), _) => root.clone(),
            // a line that names its tree (`findbench import`, `serve --record`): the root, or
            // the commit's tree, moved by --map
            (None, Some(source)) => source.mapped(&options.map).tree_dir().map_err(|m| {
                TracesError::file_with_hint(
                    name,
                    format!("fixture `{name}`: {m}"),
                    "pass the tree to replay against with --root, or where its recorded \
                     directory is now with --map OLD=NEW",
                )
            })?,
            (None, None) => options.fixtures_dir.join(name),
        };
        let file_error = |message: String| {
            let hint = match &options.root {
                Some(_) => "pass a readable directory with --root".to_string(),
                None => format!(
                    "trace `{}` names fixture `{name}`: pass the directory holding it with \
                     --fixtures (now {})",
                    trace.trace_id,
                    options.fixtures_dir.display()
                ),
            };
            TracesError::file_with_hint(&dir, message, hint)
        };
        if !dir.is_dir() {
            return Err(file_error(format!(
                "fixture `{name}` not found: not a directory"
            )));
        }
        std::fs::read_dir(&dir)
            .map_err(|e| file_error(format!("fixture `{name}` cannot be read: {e}")))?;
        let tree = Tree::load(&dir, &options.tree)
            .map_err(|e| file_error(format!("fixture `{name}` does not load: {e}")))?;
        let loaded = Ok(ReplayFixture::new(Fixture::Tree(Arc::new(tree))));
        self.loaded.insert(key, loaded.clone());
        Ok(loaded)
    }
}
