//! `find_code` (`findbench find code`): source files for a term.

#[cfg(feature = "clap")]
use crate::cli_values::WholeNumber;
use crate::spec::{fields_of, input_schema_of, ToolArgs, ToolSpec};
use crate::values;
use findbench_engine::modes::code::CodeRequest;
use findbench_engine::{EngineError, Mode, Request};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub const SPEC: ToolSpec = ToolSpec {
    name: "find_code",
    command: "find code",
    schema: "find-code.schema.json",
    mode: Mode::Code,
    description: "Source files for a term: exact stem, defining symbol (a member qualified by its owner in its owner's file), all words, partial stem, directory; each with its score and the reason (which step, which symbol at which line).",
    query_field: "term",
    input: input_schema_of::<FindCodeArgs>,
    fields: fields_of::<FindCodeArgs>,
};

fn default_limit() -> usize {
    CodeRequest::new("").limit
}

fixture_tool_args! {
    tree;
    /// `find_code`: source files for a term (exact stem, symbol, words, partial stem, directory).
    pub struct FindCodeArgs {
        /// A stem, an identifier (CamelCase is normalised), a member qualified by its owner
        /// (`JsonReader.peek`, `Walk::new`), a file name (`walk.rs`) or words joined by `[ _-]?`.
        pub term: String,
        /// Boost implementation files (.cpp, .rs, .py, ...) over headers and docs.
        #[serde(default, rename = "impl", deserialize_with = "values::flag")]
        #[schemars(with = "bool")]
        #[cfg_attr(feature = "clap", arg(long = "impl"))]
        pub impl_query: bool,
        /// Maximum results to return.
        #[serde(default = "default_limit", deserialize_with = "values::limit")]
        #[schemars(with = "usize")]
        #[cfg_attr(feature = "clap", arg(long, short = 'n', default_value_t = default_limit(),
            value_parser = WholeNumber::one_or_more()))]
        pub limit: usize,
    }
}

impl ToolArgs for FindCodeArgs {
    fn spec(&self) -> &'static ToolSpec {
        &SPEC
    }

    fn request(&self) -> Result<Request, EngineError> {
        Ok(Request::Code(CodeRequest {
            term: self.term.clone(),
            impl_query: self.impl_query,
            limit: self.limit,
        }))
    }

    fixture_methods!(tree);

    fn query(&self) -> String {
        self.term.clone()
    }
}
