//! `ask` (`findbench ask`): the retrieval cascade for a question.

#[cfg(feature = "clap")]
use crate::cli_values::WholeNumber;
use crate::spec::{fields_of, input_schema_of, ToolArgs, ToolSpec};
use crate::values;
use findbench_engine::modes::ask::AskRequest;
use findbench_engine::{EngineError, Mode, Request};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub const SPEC: ToolSpec = ToolSpec {
    name: "ask",
    command: "ask",
    schema: "ask.schema.json",
    mode: Mode::Ask,
    description: "The whole retrieval cascade for a natural-language question (\"where is replay implemented\"): plan a term, find, fall back to grep, read the evidence; returns candidates, the selected file and the outcome.",
    query_field: "question",
    input: input_schema_of::<AskArgs>,
    fields: fields_of::<AskArgs>,
};

fn default_limit() -> usize {
    AskRequest::new("").limit
}

fixture_tool_args! {
    tree;
    /// `ask`: the retrieval cascade for a question (plan, find, grep, read, outcome).
    pub struct AskArgs {
        /// A question such as "where is replay implemented".
        pub question: String,
        /// Candidates to show.
        #[serde(default = "default_limit", deserialize_with = "values::limit")]
        #[schemars(with = "usize")]
        #[cfg_attr(feature = "clap", arg(long, short = 'n', default_value_t = default_limit(),
            value_parser = WholeNumber::one_or_more()))]
        pub limit: usize,
    }
}

impl ToolArgs for AskArgs {
    fn spec(&self) -> &'static ToolSpec {
        &SPEC
    }

    fn request(&self) -> Result<Request, EngineError> {
        Ok(Request::Ask(AskRequest {
            question: self.question.clone(),
            limit: self.limit,
        }))
    }

    fixture_methods!(tree);

    fn query(&self) -> String {
        self.question.clone()
    }
}
