//! `find_task` (`findbench find task`): fuzzy search of tasks by title, description, labels
//! or notes, or by id.

#[cfg(feature = "clap")]
use crate::cli_values::{Number, WholeNumber};
use crate::spec::{fields_of, input_schema_of, ToolArgs, ToolSpec};
use crate::values;
use findbench_engine::modes::task::{TaskField, TaskRequest};
use findbench_engine::{EngineError, Mode, Request};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub const SPEC: ToolSpec = ToolSpec {
    name: "find_task",
    command: "find task",
    schema: "find-task.schema.json",
    mode: Mode::Task,
    description: "Fuzzy search of tasks by title, description, labels or notes (typo-tolerant), or by id pattern; ranked, each match with its score and the fields it matched in.",
    query_field: "query",
    input: input_schema_of::<FindTaskArgs>,
    fields: fields_of::<FindTaskArgs>,
};

fn default_limit() -> usize {
    TaskRequest::new("").limit
}

fn default_fields() -> String {
    let fields: Vec<&str> = TaskRequest::new("")
        .fields
        .iter()
        .map(|f| f.as_str())
        .collect();
    fields.join(",")
}

fixture_tool_args! {
    store;
    /// `find_task`: fuzzy search of tasks by title, description, labels or notes, or by id.
    pub struct FindTaskArgs {
        /// Search query (terms are ANDed); optional when an id pattern is given.
        #[serde(default)]
        pub query: Option<String>,
        /// Id pattern: prefix by default, `*37` suffix, `*37*` contains.
        #[serde(default, deserialize_with = "values::text_opt")]
        #[schemars(with = "Option<String>")]
        #[cfg_attr(feature = "clap", arg(long, short = 'i', value_name = "PATTERN"))]
        pub id: Option<String>,
        /// Fields to search: title, description, labels, notes, all (comma-separated).
        #[serde(default = "default_fields", deserialize_with = "values::comma_joined")]
        #[schemars(with = "String")]
        #[cfg_attr(feature = "clap", arg(long, default_value_t = default_fields()))]
        pub field: String,
        /// Keep only items with these statuses (a list, or comma-separated).
        #[serde(default, deserialize_with = "values::comma_list")]
        #[schemars(with = "Vec<String>")]
        #[cfg_attr(feature = "clap", arg(long, short = 's', value_delimiter = ','))]
        pub status: Vec<String>,
        /// Maximum results to return.
        #[serde(default = "default_limit", deserialize_with = "values::limit")]
        #[schemars(with = "usize")]
        #[cfg_attr(feature = "clap", arg(long, short = 'n', default_value_t = default_limit(),
            value_parser = WholeNumber::one_or_more()))]
        pub limit: usize,
        /// Minimum match score (0-1); omitted, the profile's `task.threshold` (0.3 in the
        /// built-in profiles).
        #[serde(default, deserialize_with = "values::number_opt")]
        #[schemars(with = "Option<f64>")]
        #[cfg_attr(feature = "clap", arg(long, short = 't', allow_negative_numbers = true,
            value_parser = Number))]
        pub threshold: Option<f64>,
        /// Exact title match instead of fuzzy (for duplicate checks).
        #[serde(default, deserialize_with = "values::flag")]
        #[schemars(with = "bool")]
        #[cfg_attr(feature = "clap", arg(long, short = 'e'))]
        pub exact: bool,
        /// Search archived tasks too.
        #[serde(default, deserialize_with = "values::flag")]
        #[schemars(with = "bool")]
        #[cfg_attr(feature = "clap", arg(long))]
        pub include_archive: bool,
        /// Include labels and description in each match.
        #[serde(default, deserialize_with = "values::flag")]
        #[schemars(with = "bool")]
        #[cfg_attr(feature = "clap", arg(long, short = 'v'))]
        pub verbose: bool,
    }
}

impl ToolArgs for FindTaskArgs {
    fn spec(&self) -> &'static ToolSpec {
        &SPEC
    }

    fn request(&self) -> Result<Request, EngineError> {
        let mut request = TaskRequest::new(self.query.clone().unwrap_or_default());
        request.id = self.id.clone();
        request.fields = TaskField::parse_list(&self.field)?;
        request.status = self
            .status
            .iter()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        request.limit = self.limit;
        request.threshold = self.threshold;
        request.exact = self.exact;
        request.include_archive = self.include_archive;
        request.verbose = self.verbose;
        Ok(Request::Task(request))
    }

    fixture_methods!(store);

    fn query(&self) -> String {
        match (&self.query, &self.id) {
            (Some(q), _) if !q.trim().is_empty() => q.clone(),
            (_, Some(id)) => format!("id:{id}"),
            _ => String::new(),
        }
    }
}
