//! What every tool is: its [`ToolSpec`] (name, the CLI command whose document it returns,
//! that document's schema, what it does) and [`ToolArgs`], what its argument struct answers.

use crate::decode;
use crate::fixture::FixtureRef;
use findbench_engine::{EngineError, Mode, Request};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::path::PathBuf;

/// One tool: its name, the CLI command whose document it returns, that document's schema
/// file, what it does, and its argument struct (through the functions below).
pub struct ToolSpec {
    pub name: &'static str,
    pub command: &'static str,
    pub schema: &'static str,
    pub mode: Mode,
    pub description: &'static str,
    /// The argument that holds what is asked (`query`, `term`, `id` or `question`): a
    /// corpus case's `query` fills it, and it is the command line's positional argument.
    pub query_field: &'static str,
    pub(crate) input: fn() -> schemars::Schema,
    pub(crate) fields: fn() -> &'static [&'static str],
}

/// The arguments of every tool that say what a call runs against and how it ranks. A
/// corpus names them once for all its cases (`fixture`, and `run --profile`), never in a
/// case's `args`.
pub const CALL_FIELDS: &[&str] = &["store", "root", "paths_from", "profile"];

impl ToolSpec {
    /// The JSON Schema of the tool's arguments (the MCP tool's input schema).
    pub fn input_schema(&self) -> Value {
        (self.input)().to_value()
    }

    /// The names of the tool's arguments as its argument struct reads them (`paths_from`,
    /// `impl`), in declaration order.
    pub fn fields(&self) -> &'static [&'static str] {
        (self.fields)()
    }
}

/// A tool's argument struct: its engine request, the fixture and profile it names, and what
/// it asks. One struct per tool is the single declaration of the tool's arguments.
pub trait ToolArgs: std::fmt::Debug {
    fn spec(&self) -> &'static ToolSpec;
    /// The engine request. Errors are invalid input (a bad field list, say).
    fn request(&self) -> Result<Request, EngineError>;
    /// The fixture the call names.
    fn fixture(&self) -> FixtureRef;
    /// Points the call at another fixture path of the same kind.
    fn set_fixture_path(&mut self, path: PathBuf);
    /// The ranking profile the call names, if it names one.
    fn profile(&self) -> Option<&str>;
    /// What the agent asked, in one string: the question, term, query or id.
    fn query(&self) -> String;
    /// The arguments as JSON (what a recorder writes).
    fn arguments(&self) -> Value;
}

/// [`ToolSpec::input_schema`] of the tool whose arguments are `T`.
pub(crate) fn input_schema_of<T: JsonSchema>() -> schemars::Schema {
    schemars::schema_for!(T)
}

/// [`ToolSpec::fields`] of the tool whose arguments are `T`.
pub(crate) fn fields_of<T: DeserializeOwned>() -> &'static [&'static str] {
    decode::field_names::<T>()
}
