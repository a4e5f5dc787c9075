//! `find_outline` (`findbench find outline`): the map, matches placed in their outline.

#[cfg(feature = "clap")]
use crate::cli_values::WholeNumber;
use crate::spec::{fields_of, input_schema_of, ToolArgs, ToolSpec};
use crate::values;
use findbench_engine::modes::outline::OutlineRequest;
use findbench_engine::{EngineError, Mode, Request};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub const SPEC: ToolSpec = ToolSpec {
    name: "find_outline",
    command: "find outline",
    schema: "find-outline.schema.json",
    mode: Mode::Outline,
    description: "The map: outline items matching all query words, each with its breadcrumb and indicators ([N] notes, [C] comments, [F: n] children).",
    query_field: "query",
    input: input_schema_of::<FindOutlineArgs>,
    fields: fields_of::<FindOutlineArgs>,
};

fixture_tool_args! {
    store;
    /// `find_outline`: matches placed in their outline, with breadcrumb and indicators.
    pub struct FindOutlineArgs {
        /// Words to look for in titles, descriptions and notes (all must match).
        pub query: String,
        /// Maximum matches to return (default 10).
        #[serde(default, deserialize_with = "values::limit_opt")]
        #[schemars(with = "Option<usize>")]
        #[cfg_attr(feature = "clap", arg(long, short = 'n', value_parser = WholeNumber::one_or_more()))]
        pub limit: Option<usize>,
        /// Only items of this list (case-insensitive).
        #[serde(default, deserialize_with = "values::text_opt")]
        #[schemars(with = "Option<String>")]
        #[cfg_attr(feature = "clap", arg(long, value_name = "NAME"))]
        pub list: Option<String>,
        /// Search archived items too.
        #[serde(default, deserialize_with = "values::flag")]
        #[schemars(with = "bool")]
        #[cfg_attr(feature = "clap", arg(long))]
        pub include_archive: bool,
    }
}

impl ToolArgs for FindOutlineArgs {
    fn spec(&self) -> &'static ToolSpec {
        &SPEC
    }

    fn request(&self) -> Result<Request, EngineError> {
        Ok(Request::Outline(OutlineRequest {
            query: self.query.clone(),
            limit: self.limit,
            list: self.list.clone(),
            include_archive: self.include_archive,
        }))
    }

    fixture_methods!(store);

    fn query(&self) -> String {
        self.query.clone()
    }
}
