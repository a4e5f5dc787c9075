//! Every tool, in the order `tools/list` gives them, and the look-ups by name and mode.
//!
//! Kept apart from [`crate::spec`] and [`crate::tool_call`]: the list names each tool's
//! module, which names the spec, so the list sits above them all.

use crate::decode::ArgsError;
use crate::spec::ToolSpec;
use crate::tool_call::ToolCall;
use crate::{ask, code, get, grep, name, outline, path, task};
use findbench_engine::{EngineError, Mode};
use serde_json::{Map, Value};

/// Every tool, in the order `tools/list` gives them.
pub const TOOLS: &[ToolSpec] = &[
    task::SPEC,
    name::SPEC,
    outline::SPEC,
    get::SPEC,
    code::SPEC,
    path::SPEC,
    grep::SPEC,
    ask::SPEC,
];

impl ToolSpec {
    /// The spec of a tool by its name.
    pub fn named(name: &str) -> Option<&'static ToolSpec> {
        TOOLS.iter().find(|t| t.name == name)
    }

    /// The spec of the tool of a mode.
    pub fn of_mode(mode: Mode) -> &'static ToolSpec {
        TOOLS
            .iter()
            .find(|t| t.mode == mode)
            .expect("every mode has a tool")
    }

    /// Deserialises the tool's arguments from a JSON object; a bad value names its argument.
    pub fn parse_object(&self, arguments: &Map<String, Value>) -> Result<ToolCall, ArgsError> {
        ToolCall::from_object(self.mode, arguments)
    }
}

impl ToolCall {
    /// Parses a tool call: the tool by name, its arguments (a JSON object; `null` is `{}`).
    pub fn parse(tool: &str, arguments: &Value) -> Result<ToolCall, EngineError> {
        let empty = serde_json::Map::new();
        let arguments = match arguments {
            Value::Null => &empty,
            Value::Object(map) => map,
            _ => {
                return Err(EngineError::invalid(format!(
                    "tool `{tool}`: arguments must be a JSON object"
                )))
            }
        };
        let spec = ToolSpec::named(tool).ok_or_else(|| {
            let names: Vec<&str> = TOOLS.iter().map(|t| t.name).collect();
            EngineError::invalid_with_hint(
                format!("unknown tool `{tool}`"),
                format!("tools are: {}", names.join(", ")),
            )
        })?;
        ToolCall::from_object(spec.mode, arguments).map_err(|e| {
            let message = match &e.field {
                Some(field) => e.said_of(&format!("tool `{tool}`: argument `{field}`")),
                None => format!("tool `{tool}`: bad arguments: {}", e.problem),
            };
            EngineError::invalid_with_hint(
                message,
                "the tool's input schema (tools/list) names every argument and its type",
            )
        })
    }
}
