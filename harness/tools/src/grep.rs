//! `grep` (`findbench grep`): files whose contents hold a term.

#[cfg(feature = "clap")]
use crate::cli_values::WholeNumber;
use crate::fixture::FixtureRef;
use crate::spec::{fields_of, input_schema_of, ToolArgs, ToolSpec};
use crate::values;
use findbench_engine::modes::grep::GrepRequest;
use findbench_engine::{EngineError, Mode, Request};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::PathBuf;

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

/// `grep`: files whose contents hold a term (literal, case-insensitive, `[ _-]?` honoured).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(deny_unknown_fields)]
pub struct GrepArgs {
    /// The term; `[ _-]?` between words matches a space, `_`, `-` or nothing.
    pub term: String,
    /// Maximum files to return.
    #[serde(default = "default_limit", deserialize_with = "values::limit")]
    #[schemars(with = "usize")]
    #[cfg_attr(feature = "clap", arg(long, short = 'n', default_value_t = default_limit(),
        value_parser = WholeNumber::one_or_more()))]
    pub limit: usize,
    /// The source tree (walked once, honouring .gitignore); default: the server's start
    /// root (the current directory on the command line).
    #[serde(default)]
    #[cfg_attr(feature = "clap", arg(long, value_name = "DIR"))]
    pub root: Option<PathBuf>,
    /// Ranking profile: default, legacy, or a profile JSON file (default: `default`).
    #[serde(default)]
    #[cfg_attr(feature = "clap", arg(long, value_name = "NAME|FILE"))]
    pub profile: Option<String>,
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

    fn fixture(&self) -> FixtureRef {
        FixtureRef::Root(self.root.clone())
    }

    fn set_fixture_path(&mut self, path: PathBuf) {
        self.root = Some(path);
    }

    fn profile(&self) -> Option<&str> {
        self.profile.as_deref()
    }

    fn query(&self) -> String {
        self.term.clone()
    }

    fn arguments(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}
