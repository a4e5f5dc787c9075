//! One find call answered: profile, fixture, execute, and the JSON document. The command
//! line prints this document (`--format json`) and the MCP server returns it as the tool
//! result, so both doors give the same answer to the same input.

use crate::envelope::{self, Meta};
use crate::tools::{FixtureRef, ToolCall};
use findbench_engine::{Engine, EngineError, Fixture, Outcome, Profile, Response};
use serde_json::Value;
use std::time::{Instant, SystemTime};

/// A call's answer: the envelope's `_meta`, the schema file of the mode's document, and the
/// response or the error.
#[derive(Debug)]
pub struct Answer {
    pub meta: Meta,
    pub schema: &'static str,
    pub result: Result<Response, EngineError>,
}

impl Answer {
    /// The JSON document: the success envelope with the mode's fields, or the error
    /// envelope (`error {code, message, exit_code, hint}`).
    pub fn document(&self) -> Value {
        match &self.result {
            Ok(response) => envelope::success(self.schema, &self.meta, response_value(response)),
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
/// receipt), so `_meta.duration_ms` covers the whole call.
pub fn answer(
    call: &ToolCall,
    started: SystemTime,
    clock: Instant,
    load: impl FnOnce(&FixtureRef) -> Result<Fixture, EngineError>,
) -> Answer {
    let spec = call.spec();
    let result = call.request().and_then(|request| {
        let engine = Engine::new(Profile::resolve(call.profile())?);
        let fixture = load(&call.fixture())?;
        engine.execute(&fixture, &request)
    });
    Answer {
        meta: Meta::new(spec.command, started, clock.elapsed()),
        schema: spec.schema,
        result,
    }
}

/// A response's fields as JSON.
pub fn response_value(response: &Response) -> Value {
    serde_json::to_value(response)
        .unwrap_or_else(|e| serde_json::json!({"error": format!("cannot serialise response: {e}")}))
}

/// Loads a fixture of `kind` from `path`: a tree walked with `options`, a store, or a path
/// list.
pub fn load_fixture(
    kind: crate::tools::FixtureKind,
    path: &std::path::Path,
    options: &findbench_engine::TreeOptions,
) -> Result<Fixture, EngineError> {
    use crate::tools::FixtureKind;
    use std::sync::Arc;
    Ok(match kind {
        FixtureKind::Root => Fixture::Tree(Arc::new(findbench_engine::Tree::load(path, options)?)),
        FixtureKind::Store => Fixture::Store(Arc::new(findbench_engine::Store::load(path)?)),
        FixtureKind::Paths => Fixture::Paths(Arc::new(findbench_engine::PathList::load(path)?)),
    })
}
