//! `get_item` (`findbench get`): the zoom, one item in full, optionally with its subtree.

#[cfg(feature = "clap")]
use crate::cli_values::WholeNumber;
use crate::fixture::FixtureRef;
use crate::spec::{fields_of, input_schema_of, ToolArgs, ToolSpec};
use crate::values;
use findbench_engine::modes::get::GetRequest;
use findbench_engine::{EngineError, Mode, Request};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::PathBuf;

pub const SPEC: ToolSpec = ToolSpec {
    name: "get_item",
    command: "get",
    schema: "get.schema.json",
    mode: Mode::Get,
    description: "The zoom: one item in full (breadcrumb, notes, comments), with children=true its subtree to depth; an unknown id gives suggestions.",
    query_field: "id",
    input: input_schema_of::<GetItemArgs>,
    fields: fields_of::<GetItemArgs>,
};

/// `get_item`: one item in full (breadcrumb, notes, comments), optionally with its subtree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(deny_unknown_fields)]
pub struct GetItemArgs {
    /// The item's id (exact; case is ignored when only one id matches).
    pub id: String,
    /// Add the item's subtree, each child with its indicators.
    #[serde(default, deserialize_with = "values::flag")]
    #[schemars(with = "bool")]
    #[cfg_attr(feature = "clap", arg(long))]
    pub children: bool,
    /// Levels of the subtree to show (default 2, at most 32).
    #[serde(default, deserialize_with = "values::levels_opt")]
    #[schemars(with = "Option<usize>")]
    #[cfg_attr(feature = "clap", arg(long, short = 'd', value_parser = WholeNumber::zero_or_more()))]
    pub depth: Option<usize>,
    /// The item (and the children shown) must be in this list (case-insensitive).
    #[serde(default, deserialize_with = "values::text_opt")]
    #[schemars(with = "Option<String>")]
    #[cfg_attr(feature = "clap", arg(long, value_name = "NAME"))]
    pub list: Option<String>,
    /// The item store: todo.json (`{"tasks": [...]}`) or JSON Lines; default: the
    /// server's start store ($FINDBENCH_STORE on the command line).
    #[serde(default)]
    #[cfg_attr(
        feature = "clap",
        arg(long, env = "FINDBENCH_STORE", value_name = "PATH")
    )]
    pub store: Option<PathBuf>,
    /// Ranking profile: default, legacy, or a profile JSON file (default: `default`).
    #[serde(default)]
    #[cfg_attr(feature = "clap", arg(long, value_name = "NAME|FILE"))]
    pub profile: Option<String>,
}

impl ToolArgs for GetItemArgs {
    fn spec(&self) -> &'static ToolSpec {
        &SPEC
    }

    fn request(&self) -> Result<Request, EngineError> {
        Ok(Request::Get(GetRequest {
            id: self.id.clone(),
            children: self.children,
            depth: self.depth,
            list: self.list.clone(),
        }))
    }

    fn fixture(&self) -> FixtureRef {
        FixtureRef::Store(self.store.clone())
    }

    fn set_fixture_path(&mut self, path: PathBuf) {
        self.store = Some(path);
    }

    fn profile(&self) -> Option<&str> {
        self.profile.as_deref()
    }

    fn query(&self) -> String {
        self.id.clone()
    }

    fn arguments(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}
