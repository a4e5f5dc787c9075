//! `get_item` (`findbench get`): the zoom, one item in full, optionally with its subtree.

#[cfg(feature = "clap")]
use crate::cli_values::WholeNumber;
use crate::spec::{fields_of, input_schema_of, ToolArgs, ToolSpec};
use crate::values;
use findbench_engine::modes::get::GetRequest;
use findbench_engine::{EngineError, Mode, Request};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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

fixture_tool_args! {
    store;
    /// `get_item`: one item in full (breadcrumb, notes, comments), optionally with its subtree.
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
    }
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

    fixture_methods!(store);

    fn query(&self) -> String {
        self.id.clone()
    }
}
