//! `find_path` (`findbench find path`): fuzzy subsequence search over paths.

#[cfg(feature = "clap")]
use crate::cli_values::WholeNumber;
use crate::fixture::FixtureRef;
use crate::spec::{fields_of, input_schema_of, ToolArgs, ToolSpec};
use crate::values;
use findbench_engine::modes::path::PathRequest;
use findbench_engine::{EngineError, Mode, Request};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::PathBuf;

pub const SPEC: ToolSpec = ToolSpec {
    name: "find_path",
    command: "find path",
    schema: "find-path.schema.json",
    mode: Mode::Path,
    description: "Fuzzy subsequence search over file paths (authmw finds src/auth_middleware.py), typo-tolerant, with matched positions.",
    query_field: "query",
    input: input_schema_of::<FindPathArgs>,
    fields: fields_of::<FindPathArgs>,
};

fn default_limit() -> usize {
    PathRequest::new("").limit
}

/// `find_path`: fuzzy subsequence search over paths, typo-tolerant, with matched positions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(deny_unknown_fields)]
pub struct FindPathArgs {
    /// Characters of the path, in order (`authmw` finds src/auth_middleware.py).
    pub query: String,
    /// Maximum results to return.
    #[serde(default = "default_limit", deserialize_with = "values::limit")]
    #[schemars(with = "usize")]
    #[cfg_attr(feature = "clap", arg(long, short = 'n', default_value_t = default_limit(),
        value_parser = WholeNumber::one_or_more()))]
    pub limit: usize,
    /// The source tree whose paths to search; default: the server's start root or path
    /// list (the current directory on the command line).
    #[serde(default)]
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "DIR", conflicts_with = "paths_from")
    )]
    pub root: Option<PathBuf>,
    /// A file with one path per line (`-` reads stdin on the command line) instead of
    /// walking a tree.
    #[serde(default)]
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE"))]
    pub paths_from: Option<PathBuf>,
    /// Ranking profile: default, legacy, or a profile JSON file (default: `default`).
    #[serde(default)]
    #[cfg_attr(feature = "clap", arg(long, value_name = "NAME|FILE"))]
    pub profile: Option<String>,
}

impl ToolArgs for FindPathArgs {
    fn spec(&self) -> &'static ToolSpec {
        &SPEC
    }

    fn request(&self) -> Result<Request, EngineError> {
        Ok(Request::Path(PathRequest {
            query: self.query.clone(),
            limit: self.limit,
        }))
    }

    fn fixture(&self) -> FixtureRef {
        match &self.paths_from {
            Some(list) => FixtureRef::Paths(list.clone()),
            None => FixtureRef::Root(self.root.clone()),
        }
    }

    fn set_fixture_path(&mut self, path: PathBuf) {
        if self.paths_from.is_some() {
            self.paths_from = Some(path);
        } else {
            self.root = Some(path);
        }
    }

    fn profile(&self) -> Option<&str> {
        self.profile.as_deref()
    }

    fn query(&self) -> String {
        self.query.clone()
    }

    fn arguments(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}
