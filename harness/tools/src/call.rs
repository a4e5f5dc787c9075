//! One find call answered: profile, fixture, execute, and the JSON document. The command
//! line prints this document (`--format json`) and the MCP server returns it as the tool
//! result, so both doors give the same answer to the same input.

use crate::envelope::{self, Meta};
use crate::fixture::FixtureRef;
use crate::tool_call::ToolCall;
use findbench_engine::tree::WalkReport;
use findbench_engine::{
    Engine, EngineError, Fixture, Outcome, Profile, Request, Response, TreeOptions,
};
use serde_json::Value;
use std::time::{Instant, SystemTime};

/// A call's answer: the envelope's `_meta`, the schema file of the mode's document, and the
/// response or the error.
#[derive(Debug)]
pub struct Answer {
    pub meta: Meta,
    pub schema: &'static str,
    pub result: Result<Response, EngineError>,
    /// What the walk of a tree fixture indexed and skipped; `None` for stores and path lists.
    pub walk: Option<Walk>,
    /// The fixture the call was answered on (`None` when it failed before one loaded),
    /// for the caller to keep or let go: a process that exits once the answer is printed
    /// may leave its memory to the exit rather than free a large tree's records one by one.
    pub fixture: Option<Fixture>,
}

/// What a tree fixture's walk skipped, and how many file names are not UTF-8 (shown with
/// U+FFFD in place of the bytes that are not: such a path cannot be opened as printed, so
/// it is counted rather than passed off as a name).
#[derive(Debug, Clone)]
pub struct Walk {
    pub report: WalkReport,
    pub lossy_names: usize,
}

impl Walk {
    pub fn of(fixture: &Fixture) -> Option<Walk> {
        match fixture {
            Fixture::Tree(tree) => Some(Walk {
                report: tree.report().clone(),
                lossy_names: tree
                    .files()
                    .iter()
                    .filter(|f| f.path.contains(char::REPLACEMENT_CHARACTER))
                    .count(),
            }),
            _ => None,
        }
    }

    /// The `walk` field of a tree-mode answer: files indexed, and what was skipped and why
    /// (binary, over the size limit, unreadable, walk errors such as unreadable directories).
    pub fn value(&self) -> Value {
        let walk = &self.report;
        serde_json::json!({
            "files": walk.files,
            "lossy_names": self.lossy_names,
            "skipped": {
                "binary": walk.binary,
                "too_large": walk.too_large,
                "max_file_bytes": TreeOptions::default().max_file_bytes,
                "unreadable": walk.unreadable,
                "errors": walk.errors,
            },
            "messages": walk.messages,
        })
    }

    /// A one-line note for text output when the walk skipped a file it could not read or
    /// search in full; binary files are skipped by design and not mentioned.
    pub fn skipped_note(&self) -> Option<String> {
        let walk = &self.report;
        let files = |n: usize| if n == 1 { "file" } else { "files" };
        let mut parts = Vec::new();
        if walk.too_large > 0 {
            parts.push(format!(
                "{} {} over the {} KiB text limit (searched by name only)",
                walk.too_large,
                files(walk.too_large),
                TreeOptions::default().max_file_bytes / 1024
            ));
        }
        if walk.unreadable > 0 {
            parts.push(format!(
                "{} unreadable {} skipped",
                walk.unreadable,
                files(walk.unreadable)
            ));
        }
        if walk.errors > 0 {
            let first = walk.messages.first().map(String::as_str).unwrap_or("");
            parts.push(format!("{} walk errors (first: {first})", walk.errors));
        }
        if self.lossy_names > 0 {
            parts.push(format!(
                "{} {} whose name is not UTF-8 (shown with U+FFFD, not openable as printed)",
                self.lossy_names,
                files(self.lossy_names)
            ));
        }
        (!parts.is_empty()).then(|| format!("note: {}", parts.join("; ")))
    }
}

impl Answer {
    /// The JSON document: the success envelope with the mode's fields, or the error
    /// envelope (`error {code, message, exit_code, hint}`).
    pub fn document(&self) -> Value {
        match &self.result {
            Ok(response) => {
                let mut fields = response_value(response);
                if let (Some(walk), Value::Object(map)) = (&self.walk, &mut fields) {
                    map.insert("walk".into(), walk.value());
                }
                envelope::success(self.schema, &self.meta, fields)
            }
            Err(err) => envelope::engine_failure(&self.meta, err),
        }
    }

    /// The outcome of the call: the response's, or `failure` for an error.
    pub fn outcome(&self) -> Outcome {
        match &self.result {
            Ok(response) => response.outcome(),
            Err(_) => Outcome::Failure,
        }
    }
}

/// Answers `call`: the request is built first (a bad request is reported before a missing
/// file), then the profile resolved, then the fixture loaded by `load`, then the engine runs.
/// `started` and `clock` are when the caller began (the command's parse, the server's
/// receipt), so `_meta.duration_ms` covers the whole call. `history_cache` is where a git
/// work tree's history is kept between calls (`work_tree_history.rs`; `None` reads it afresh).
pub fn answer(
    call: &ToolCall,
    started: SystemTime,
    clock: Instant,
    history_cache: Option<&std::path::Path>,
    load: impl FnOnce(&FixtureRef) -> Result<Fixture, EngineError>,
) -> Answer {
    let spec = call.spec();
    let mut walk = None;
    let mut loaded = None;
    let result = call.request().and_then(|request| {
        let engine = Engine::new(Profile::resolve(call.profile())?);
        let fixture = loaded.insert(load(&call.fixture())?);
        // a task asked on a git work tree is weighed by its history, read once per tree
        if let Request::Ask(_) = request {
            crate::work_tree_history::attach_work_tree(fixture, engine.profile(), history_cache);
        }
        let result = engine.execute(fixture, &request);
        // after the call: a tree walked without the kept index learns what each file holds
        // when the call reads it, so counting the files by kind first would read them twice
        walk = Walk::of(fixture);
        result
    });
    Answer {
        meta: Meta::new(spec.command, started, clock.elapsed()),
        schema: spec.schema,
        result,
        walk,
        fixture: loaded,
    }
}

/// A response's fields as JSON.
pub fn response_value(response: &Response) -> Value {
    serde_json::to_value(response)
        .unwrap_or_else(|e| serde_json::json!({"error": format!("cannot serialise response: {e}")}))
}

/// Loads a fixture of `kind` from `path`: a tree walked with `options`, a store, or a path
/// list. `options.no_cache` and `options.cache_dir` also decide whether a store goes
/// through the store cache.
pub fn load_fixture(
    kind: crate::fixture::FixtureKind,
    path: &std::path::Path,
    options: &findbench_engine::TreeOptions,
) -> Result<Fixture, EngineError> {
    use crate::fixture::FixtureKind;
    use std::sync::Arc;
    Ok(match kind {
        FixtureKind::Root => {
            check_root(path, "pass a directory with --root")?;
            Fixture::Tree(Arc::new(findbench_engine::Tree::load(path, options)?))
        }
        FixtureKind::Store => Fixture::Store(Arc::new(findbench_engine::Store::load_with(
            path,
            &store_options(options),
        )?)),
        FixtureKind::Paths => Fixture::Paths(Arc::new(findbench_engine::PathList::load(path)?)),
    })
}

/// The checks a tree root must pass before it is walked (the engine's own, so that every
/// front end and the engine say the same).
pub use findbench_engine::tree::check_root;

/// The store cache settings that go with a tree's: off with `--no-cache`, in the same
/// cache directory otherwise.
pub fn store_options(options: &TreeOptions) -> findbench_engine::StoreOptions {
    findbench_engine::StoreOptions {
        cache: !options.no_cache,
        cache_dir: options.cache_dir.clone(),
    }
}
