//! `grep` (`findbench grep`): files whose contents hold a term.

#[cfg(feature = "clap")]
use crate::cli_values::WholeNumber;
use crate::spec::{fields_of, input_schema_of, ToolArgs, ToolSpec};
use crate::values;
use findbench_engine::modes::grep::GrepRequest;
use findbench_engine::{EngineError, Mode, Request};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub const SPEC: ToolSpec = ToolSpec {
    name: "grep",
    command: "grep",
    schema: "grep.schema.json",
    mode: Mode::Grep,
    description: "Files whose text holds a term (literal, case-insensitive, [ _-]? between words), ranked, each with its match count and first matching line.",
    query_field: "term",
    input: input_schema_of::<GrepArgs>,
    fields: fields_of::<GrepArgs>,
};

fn default_limit() -> usize {
    GrepRequest::new("").limit
}

fixture_tool_args! {
    tree;
    /// `grep`: files whose contents hold a term (literal, case-insensitive, `[ _-]?` honoured).
    pub struct GrepArgs {
        /// The term; `[ _-]?` between words matches a space, `_`, `-` or nothing.
        pub term: String,
        /// Maximum files to return.
        #[serde(default = "default_limit", deserialize_with = "values::limit")]
        #[schemars(with = "usize")]
        #[cfg_attr(feature = "clap", arg(long, short = 'n', default_value_t = default_limit(),
            value_parser = WholeNumber::one_or_more()))]
        pub limit: usize,
    }
}

impl ToolArgs for GrepArgs {
    fn spec(&self) -> &'static ToolSpec {
        &SPEC
    }

    fn request(&self) -> Result<Request, EngineError> {
        Ok(Request::Grep(GrepRequest {
            term: self.term.clone(),
            limit: self.limit,
        }))
    }

    fixture_methods!(tree);

    fn query(&self) -> String {
        self.term.clone()
    }
}
