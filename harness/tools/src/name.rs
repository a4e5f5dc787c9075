//! `find_name` (`findbench find name`): the item meant by an approximate name.

#[cfg(feature = "clap")]
use crate::cli_values::{domain_name, Number, WholeNumber};
use crate::spec::{fields_of, input_schema_of, ToolArgs, ToolSpec};
use crate::values;
use findbench_engine::modes::name::NameRequest;
use findbench_engine::{Domain, EngineError, Mode, Request};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub const SPEC: ToolSpec = ToolSpec {
    name: "find_name",
    command: "find name",
    schema: "find-name.schema.json",
    mode: Mode::Name,
    description: "The item meant by an approximate name: partial_ratio scores 0-100 and quality good or weak (weak is a guess, not a match); finished items are left out unless include_done.",
    query_field: "query",
    input: input_schema_of::<FindNameArgs>,
    fields: fields_of::<FindNameArgs>,
};

fixture_tool_args! {
    store;
    /// `find_name`: the item meant by an approximate name (partial_ratio 0-100, good or weak).
    pub struct FindNameArgs {
        /// The approximate name; omit it to list the domain's items unfiltered.
        #[serde(default)]
        pub query: Option<String>,
        /// Which items: tasks (the default), goals or reading.
        #[serde(default, deserialize_with = "values::text_opt")]
        #[schemars(with = "Option<String>")]
        #[cfg_attr(feature = "clap", arg(long, value_parser = domain_name))]
        pub domain: Option<String>,
        /// Keep finished items (tasks Done, goals Complete, reading Read) and archived ones.
        #[serde(default, deserialize_with = "values::flag")]
        #[schemars(with = "bool")]
        #[cfg_attr(feature = "clap", arg(long, visible_aliases = ["include-complete", "include-read"]))]
        pub include_done: bool,
        /// Maximum results to return (default 5).
        #[serde(default, deserialize_with = "values::limit_opt")]
        #[schemars(with = "Option<usize>")]
        #[cfg_attr(feature = "clap", arg(long, short = 'n', value_parser = WholeNumber::one_or_more()))]
        pub limit: Option<usize>,
        /// Score (0-100) a match needs for quality `good` (default 60).
        #[serde(default, deserialize_with = "values::number_opt")]
        #[schemars(with = "Option<f64>")]
        #[cfg_attr(feature = "clap", arg(long, short = 't', allow_negative_numbers = true,
            value_parser = Number))]
        pub threshold: Option<f64>,
    }
}

/// `tasks`, `goals` or `reading` (and their singular forms).
pub fn parse_domain(name: &str) -> Result<Domain, EngineError> {
    Domain::parse(name).ok_or_else(|| {
        EngineError::invalid_with_hint(
            format!("unknown domain `{name}`"),
            "domains are: tasks, goals, reading",
        )
    })
}

impl ToolArgs for FindNameArgs {
    fn spec(&self) -> &'static ToolSpec {
        &SPEC
    }

    fn request(&self) -> Result<Request, EngineError> {
        Ok(Request::Name(NameRequest {
            query: self.query.clone(),
            domain: match &self.domain {
                None => Domain::Task,
                Some(name) => parse_domain(name)?,
            },
            include_done: self.include_done,
            limit: self.limit,
            threshold: self.threshold,
        }))
    }

    fixture_methods!(store);

    fn query(&self) -> String {
        self.query.clone().unwrap_or_default()
    }
}
