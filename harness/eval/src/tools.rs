//! The find modes as an agent calls them: one argument struct per tool (`find_task`,
//! `find_name`, `find_outline`, `get_item`, `find_code`, `find_path`, `grep`, `ask`), its
//! JSON Schema (schemars), and its conversion into the engine's one [`Request`].
//!
//! The command line builds these structs from its flags and the MCP server deserialises them
//! from a tool call's arguments; both then answer through [`crate::call`], so the same input
//! gives the same JSON document whichever door it came through. Defaults are the CLI's.

use findbench_engine::modes::ask::AskRequest;
use findbench_engine::modes::code::CodeRequest;
use findbench_engine::modes::get::GetRequest;
use findbench_engine::modes::grep::GrepRequest;
use findbench_engine::modes::name::NameRequest;
use findbench_engine::modes::outline::OutlineRequest;
use findbench_engine::modes::path::PathRequest;
use findbench_engine::modes::task::{TaskField, TaskRequest};
use findbench_engine::{Domain, EngineError, Mode, Request};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::PathBuf;

/// `find task --limit`, `find code --limit`, `find path --limit` default.
pub const DEFAULT_LIMIT: usize = 10;
/// `grep --limit` default.
pub const DEFAULT_GREP_LIMIT: usize = 20;
/// `ask --limit` default.
pub const DEFAULT_ASK_LIMIT: usize = 5;
/// `find task --field` default.
pub const DEFAULT_TASK_FIELDS: &str = "title,description";
/// `--profile` default.
pub const DEFAULT_PROFILE: &str = "default";

fn default_limit() -> usize {
    DEFAULT_LIMIT
}
fn default_grep_limit() -> usize {
    DEFAULT_GREP_LIMIT
}
fn default_ask_limit() -> usize {
    DEFAULT_ASK_LIMIT
}
fn default_fields() -> String {
    DEFAULT_TASK_FIELDS.to_string()
}

/// `find_task`: fuzzy search of tasks by title, description, labels or notes, or by id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindTaskArgs {
    /// Search query (terms are ANDed); optional when `id` is given.
    #[serde(default)]
    pub query: Option<String>,
    /// Id pattern: prefix by default, `*37` suffix, `*37*` contains.
    #[serde(default)]
    pub id: Option<String>,
    /// Fields to search: title, description, labels, notes, all (comma-separated).
    #[serde(default = "default_fields")]
    pub field: String,
    /// Keep only items with these statuses.
    #[serde(default)]
    pub status: Vec<String>,
    /// Maximum results to return.
    #[serde(default = "default_limit")]
    pub limit: usize,
    /// Minimum match score (0-1); omitted, the profile's `task.threshold` (0.3 in the
    /// built-in profiles).
    #[serde(default)]
    pub threshold: Option<f64>,
    /// Exact title match instead of fuzzy (for duplicate checks).
    #[serde(default)]
    pub exact: bool,
    /// Search archived tasks too.
    #[serde(default)]
    pub include_archive: bool,
    /// Include labels and description in each match.
    #[serde(default)]
    pub verbose: bool,
    /// The item store (todo.json or JSON Lines); default: the one the server was started with.
    #[serde(default)]
    pub store: Option<PathBuf>,
    /// Ranking profile: default, legacy, or a profile JSON file.
    #[serde(default)]
    pub profile: Option<String>,
}

/// `find_name`: the item meant by an approximate name (partial_ratio 0-100, good or weak).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindNameArgs {
    /// The approximate name; omit it to list the domain's items unfiltered.
    #[serde(default)]
    pub query: Option<String>,
    /// Which items: tasks, goals or reading.
    #[serde(default)]
    pub domain: Option<String>,
    /// Keep finished items (tasks Done, goals Complete, reading Read) and archived ones.
    #[serde(default)]
    pub include_done: bool,
    /// Maximum results to return (default 5).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Score (0-100) a match needs for quality `good` (default 60).
    #[serde(default)]
    pub threshold: Option<f64>,
    /// The item store; default: the one the server was started with.
    #[serde(default)]
    pub store: Option<PathBuf>,
    /// Ranking profile: default, legacy, or a profile JSON file.
    #[serde(default)]
    pub profile: Option<String>,
}

/// `find_outline`: matches placed in their outline, with breadcrumb and indicators.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindOutlineArgs {
    /// Words to look for in titles, descriptions and notes (all must match).
    pub query: String,
    /// Maximum matches to return (default 10).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Only items of this list (case-insensitive).
    #[serde(default)]
    pub list: Option<String>,
    /// Search archived items too.
    #[serde(default)]
    pub include_archive: bool,
    /// The item store; default: the one the server was started with.
    #[serde(default)]
    pub store: Option<PathBuf>,
    /// Ranking profile: default, legacy, or a profile JSON file.
    #[serde(default)]
    pub profile: Option<String>,
}

/// `get_item`: one item in full (breadcrumb, notes, comments), optionally with its subtree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetItemArgs {
    /// The item's id (exact; case is ignored when only one id matches).
    pub id: String,
    /// Add the item's subtree, each child with its indicators.
    #[serde(default)]
    pub children: bool,
    /// Levels of children with `children` (default 2, at most 32).
    #[serde(default)]
    pub depth: Option<usize>,
    /// The item (and the children shown) must be in this list.
    #[serde(default)]
    pub list: Option<String>,
    /// The item store; default: the one the server was started with.
    #[serde(default)]
    pub store: Option<PathBuf>,
    /// Ranking profile: default, legacy, or a profile JSON file.
    #[serde(default)]
    pub profile: Option<String>,
}

/// `find_code`: source files for a term (exact stem, symbol, words, partial stem, directory).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindCodeArgs {
    /// A stem, an identifier (CamelCase is normalised) or words joined by `[ _-]?`.
    pub term: String,
    /// Boost implementation files (.cpp, .rs, .py, ...) over headers and docs.
    #[serde(default, rename = "impl")]
    pub impl_query: bool,
    /// Maximum results to return.
    #[serde(default = "default_limit")]
    pub limit: usize,
    /// The source tree; default: the one the server was started with.
    #[serde(default)]
    pub root: Option<PathBuf>,
    /// Ranking profile: default, legacy, or a profile JSON file.
    #[serde(default)]
    pub profile: Option<String>,
}

/// `find_path`: fuzzy subsequence search over paths, typo-tolerant, with matched positions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindPathArgs {
    /// Characters of the path, in order (`authmw` finds src/auth_middleware.py).
    pub query: String,
    /// Maximum results to return.
    #[serde(default = "default_limit")]
    pub limit: usize,
    /// The source tree whose paths to search; default: the one the server was started with.
    #[serde(default)]
    pub root: Option<PathBuf>,
    /// A file with one path per line, instead of walking a tree.
    #[serde(default)]
    pub paths_from: Option<PathBuf>,
    /// Ranking profile: default, legacy, or a profile JSON file.
    #[serde(default)]
    pub profile: Option<String>,
}

/// `grep`: files whose contents hold a term (literal, case-insensitive, `[ _-]?` honoured).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GrepArgs {
    /// The term; `[ _-]?` between words matches a space, `_`, `-` or nothing.
    pub term: String,
    /// Maximum files to return.
    #[serde(default = "default_grep_limit")]
    pub limit: usize,
    /// The source tree; default: the one the server was started with.
    #[serde(default)]
    pub root: Option<PathBuf>,
    /// Ranking profile: default, legacy, or a profile JSON file.
    #[serde(default)]
    pub profile: Option<String>,
}

/// `ask`: the retrieval cascade for a question (plan, find, grep, read, outcome).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AskArgs {
    /// A question such as "where is replay implemented".
    pub question: String,
    /// Candidates to show.
    #[serde(default = "default_ask_limit")]
    pub limit: usize,
    /// The source tree; default: the one the server was started with.
    #[serde(default)]
    pub root: Option<PathBuf>,
    /// Ranking profile: default, legacy, or a profile JSON file.
    #[serde(default)]
    pub profile: Option<String>,
}

/// What a call runs against, as the caller named it (`None`: the default the door chooses:
/// `.` on the command line, the start root or store in the server).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FixtureRef {
    Root(Option<PathBuf>),
    Store(Option<PathBuf>),
    /// `find_path` over a path list file.
    Paths(PathBuf),
}

impl FixtureRef {
    /// `root`, `store` or `paths`: how a recorded call says which kind its fixture is.
    pub fn kind(&self) -> FixtureKind {
        match self {
            FixtureRef::Root(_) => FixtureKind::Root,
            FixtureRef::Store(_) => FixtureKind::Store,
            FixtureRef::Paths(_) => FixtureKind::Paths,
        }
    }
}

/// The kind of a fixture, without its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FixtureKind {
    Root,
    Store,
    Paths,
}

/// One tool call: which tool, with its arguments.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolCall {
    FindTask(FindTaskArgs),
    FindName(FindNameArgs),
    FindOutline(FindOutlineArgs),
    GetItem(GetItemArgs),
    FindCode(FindCodeArgs),
    FindPath(FindPathArgs),
    Grep(GrepArgs),
    Ask(AskArgs),
}

/// Every tool: its name, the CLI command whose document it returns, that document's schema
/// file, and what it does.
pub struct ToolSpec {
    pub name: &'static str,
    pub command: &'static str,
    pub schema: &'static str,
    pub mode: Mode,
    pub description: &'static str,
}

pub const TOOLS: &[ToolSpec] = &[
    ToolSpec {
        name: "find_task",
        command: "find task",
        schema: "find-task.schema.json",
        mode: Mode::Task,
        description: "Fuzzy search of tasks by title, description, labels or notes (typo-tolerant), or by id pattern; ranked, each match with its score and the fields it matched in.",
    },
    ToolSpec {
        name: "find_name",
        command: "find name",
        schema: "find-name.schema.json",
        mode: Mode::Name,
        description: "The item meant by an approximate name: partial_ratio scores 0-100 and quality good or weak (weak is a guess, not a match); finished items are left out unless include_done.",
    },
    ToolSpec {
        name: "find_outline",
        command: "find outline",
        schema: "find-outline.schema.json",
        mode: Mode::Outline,
        description: "The map: outline items matching all query words, each with its breadcrumb and indicators ([N] notes, [C] comments, [F: n] children).",
    },
    ToolSpec {
        name: "get_item",
        command: "get",
        schema: "get.schema.json",
        mode: Mode::Get,
        description: "The zoom: one item in full (breadcrumb, notes, comments), with children=true its subtree to depth; an unknown id gives suggestions.",
    },
    ToolSpec {
        name: "find_code",
        command: "find code",
        schema: "find-code.schema.json",
        mode: Mode::Code,
        description: "Source files for a term: exact stem, defining symbol, all words, partial stem, directory; each with its score and the reason (which step, which symbol at which line).",
    },
    ToolSpec {
        name: "find_path",
        command: "find path",
        schema: "find-path.schema.json",
        mode: Mode::Path,
        description: "Fuzzy subsequence search over file paths (authmw finds src/auth_middleware.py), typo-tolerant, with matched positions.",
    },
    ToolSpec {
        name: "grep",
        command: "grep",
        schema: "grep.schema.json",
        mode: Mode::Grep,
        description: "Files whose text holds a term (literal, case-insensitive, [ _-]? between words), ranked, each with its match count and first matching line.",
    },
    ToolSpec {
        name: "ask",
        command: "ask",
        schema: "ask.schema.json",
        mode: Mode::Ask,
        description: "The whole retrieval cascade for a natural-language question (\"where is replay implemented\"): plan a term, find, fall back to grep, read the evidence; returns candidates, the selected file and the outcome.",
    },
];

impl ToolSpec {
    /// The spec of a tool by its name.
    pub fn named(name: &str) -> Option<&'static ToolSpec> {
        TOOLS.iter().find(|t| t.name == name)
    }

    /// The JSON Schema of the tool's arguments.
    pub fn input_schema(&self) -> Value {
        let schema = match self.mode {
            Mode::Task => schemars::schema_for!(FindTaskArgs),
            Mode::Name => schemars::schema_for!(FindNameArgs),
            Mode::Outline => schemars::schema_for!(FindOutlineArgs),
            Mode::Get => schemars::schema_for!(GetItemArgs),
            Mode::Code => schemars::schema_for!(FindCodeArgs),
            Mode::Path => schemars::schema_for!(FindPathArgs),
            Mode::Grep => schemars::schema_for!(GrepArgs),
            Mode::Ask => schemars::schema_for!(AskArgs),
        };
        schema.to_value()
    }
}

fn parse_args<T: serde::de::DeserializeOwned>(
    tool: &str,
    arguments: &Value,
) -> Result<T, EngineError> {
    T::deserialize(arguments).map_err(|e| {
        EngineError::invalid_with_hint(
            format!("tool `{tool}`: bad arguments: {e}"),
            "the tool's input schema (tools/list) names every argument and its type",
        )
    })
}

impl ToolCall {
    /// Parses a tool call: the tool by name, its arguments (a JSON object; `null` is `{}`).
    pub fn parse(tool: &str, arguments: &Value) -> Result<ToolCall, EngineError> {
        let empty = Value::Object(Default::default());
        let arguments = if arguments.is_null() {
            &empty
        } else {
            arguments
        };
        if !arguments.is_object() {
            return Err(EngineError::invalid(format!(
                "tool `{tool}`: arguments must be a JSON object"
            )));
        }
        let spec = ToolSpec::named(tool).ok_or_else(|| {
            let names: Vec<&str> = TOOLS.iter().map(|t| t.name).collect();
            EngineError::invalid_with_hint(
                format!("unknown tool `{tool}`"),
                format!("tools are: {}", names.join(", ")),
            )
        })?;
        Ok(match spec.mode {
            Mode::Task => ToolCall::FindTask(parse_args(tool, arguments)?),
            Mode::Name => ToolCall::FindName(parse_args(tool, arguments)?),
            Mode::Outline => ToolCall::FindOutline(parse_args(tool, arguments)?),
            Mode::Get => ToolCall::GetItem(parse_args(tool, arguments)?),
            Mode::Code => ToolCall::FindCode(parse_args(tool, arguments)?),
            Mode::Path => ToolCall::FindPath(parse_args(tool, arguments)?),
            Mode::Grep => ToolCall::Grep(parse_args(tool, arguments)?),
            Mode::Ask => ToolCall::Ask(parse_args(tool, arguments)?),
        })
    }

    pub fn mode(&self) -> Mode {
        match self {
            ToolCall::FindTask(_) => Mode::Task,
            ToolCall::FindName(_) => Mode::Name,
            ToolCall::FindOutline(_) => Mode::Outline,
            ToolCall::GetItem(_) => Mode::Get,
            ToolCall::FindCode(_) => Mode::Code,
            ToolCall::FindPath(_) => Mode::Path,
            ToolCall::Grep(_) => Mode::Grep,
            ToolCall::Ask(_) => Mode::Ask,
        }
    }

    pub fn spec(&self) -> &'static ToolSpec {
        let mode = self.mode();
        TOOLS
            .iter()
            .find(|t| t.mode == mode)
            .expect("every mode has a tool")
    }

    /// The arguments as JSON (what a recorder writes).
    pub fn arguments(&self) -> Value {
        let value = match self {
            ToolCall::FindTask(a) => serde_json::to_value(a),
            ToolCall::FindName(a) => serde_json::to_value(a),
            ToolCall::FindOutline(a) => serde_json::to_value(a),
            ToolCall::GetItem(a) => serde_json::to_value(a),
            ToolCall::FindCode(a) => serde_json::to_value(a),
            ToolCall::FindPath(a) => serde_json::to_value(a),
            ToolCall::Grep(a) => serde_json::to_value(a),
            ToolCall::Ask(a) => serde_json::to_value(a),
        };
        value.unwrap_or(Value::Null)
    }

    /// The ranking profile named by the call.
    pub fn profile(&self) -> &str {
        let p = match self {
            ToolCall::FindTask(a) => &a.profile,
            ToolCall::FindName(a) => &a.profile,
            ToolCall::FindOutline(a) => &a.profile,
            ToolCall::GetItem(a) => &a.profile,
            ToolCall::FindCode(a) => &a.profile,
            ToolCall::FindPath(a) => &a.profile,
            ToolCall::Grep(a) => &a.profile,
            ToolCall::Ask(a) => &a.profile,
        };
        p.as_deref().unwrap_or(DEFAULT_PROFILE)
    }

    /// What the agent asked, in one string: the question, term, query or id.
    pub fn query(&self) -> String {
        match self {
            ToolCall::FindTask(a) => match (&a.query, &a.id) {
                (Some(q), _) if !q.trim().is_empty() => q.clone(),
                (_, Some(id)) => format!("id:{id}"),
                _ => String::new(),
            },
            ToolCall::FindName(a) => a.query.clone().unwrap_or_default(),
            ToolCall::FindOutline(a) => a.query.clone(),
            ToolCall::GetItem(a) => a.id.clone(),
            ToolCall::FindCode(a) => a.term.clone(),
            ToolCall::FindPath(a) => a.query.clone(),
            ToolCall::Grep(a) => a.term.clone(),
            ToolCall::Ask(a) => a.question.clone(),
        }
    }

    /// The fixture the call names.
    pub fn fixture(&self) -> FixtureRef {
        match self {
            ToolCall::FindTask(a) => FixtureRef::Store(a.store.clone()),
            ToolCall::FindName(a) => FixtureRef::Store(a.store.clone()),
            ToolCall::FindOutline(a) => FixtureRef::Store(a.store.clone()),
            ToolCall::GetItem(a) => FixtureRef::Store(a.store.clone()),
            ToolCall::FindCode(a) => FixtureRef::Root(a.root.clone()),
            ToolCall::FindPath(a) => match &a.paths_from {
                Some(list) => FixtureRef::Paths(list.clone()),
                None => FixtureRef::Root(a.root.clone()),
            },
            ToolCall::Grep(a) => FixtureRef::Root(a.root.clone()),
            ToolCall::Ask(a) => FixtureRef::Root(a.root.clone()),
        }
    }

    /// The engine request. Errors are invalid input (a bad field list, say).
    pub fn request(&self) -> Result<Request, EngineError> {
        Ok(match self {
            ToolCall::FindTask(a) => {
                let mut request = TaskRequest::new(a.query.clone().unwrap_or_default());
                request.id = a.id.clone();
                request.fields = TaskField::parse_list(&a.field)?;
                request.status = a
                    .status
                    .iter()
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect();
                request.limit = a.limit;
                request.threshold = a.threshold;
                request.exact = a.exact;
                request.include_archive = a.include_archive;
                request.verbose = a.verbose;
                Request::Task(request)
            }
            ToolCall::FindName(a) => Request::Name(NameRequest {
                query: a.query.clone(),
                domain: match &a.domain {
                    None => Domain::Task,
                    Some(name) => parse_domain(name)?,
                },
                include_done: a.include_done,
                limit: a.limit,
                threshold: a.threshold,
            }),
            ToolCall::FindOutline(a) => Request::Outline(OutlineRequest {
                query: a.query.clone(),
                limit: a.limit,
                list: a.list.clone(),
                include_archive: a.include_archive,
            }),
            ToolCall::GetItem(a) => Request::Get(GetRequest {
                id: a.id.clone(),
                children: a.children,
                depth: a.depth,
                list: a.list.clone(),
            }),
            ToolCall::FindCode(a) => Request::Code(CodeRequest {
                term: a.term.clone(),
                impl_query: a.impl_query,
                limit: a.limit,
            }),
            ToolCall::FindPath(a) => Request::Path(PathRequest {
                query: a.query.clone(),
                limit: a.limit,
            }),
            ToolCall::Grep(a) => Request::Grep(GrepRequest {
                term: a.term.clone(),
                limit: a.limit,
            }),
            ToolCall::Ask(a) => Request::Ask(AskRequest {
                question: a.question.clone(),
                limit: a.limit,
            }),
        })
    }

    /// The same call against another fixture path (replay points a recorded call at the
    /// fixture it resolved, wherever the recording named it).
    pub fn with_fixture_path(mut self, path: PathBuf) -> ToolCall {
        match &mut self {
            ToolCall::FindTask(a) => a.store = Some(path),
            ToolCall::FindName(a) => a.store = Some(path),
            ToolCall::FindOutline(a) => a.store = Some(path),
            ToolCall::GetItem(a) => a.store = Some(path),
            ToolCall::FindCode(a) => a.root = Some(path),
            ToolCall::FindPath(a) => {
                if a.paths_from.is_some() {
                    a.paths_from = Some(path);
                } else {
                    a.root = Some(path);
                }
            }
            ToolCall::Grep(a) => a.root = Some(path),
            ToolCall::Ask(a) => a.root = Some(path),
        }
        self
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_are_the_cli_defaults() {
        let call = ToolCall::parse("find_task", &json!({"query": "auth"})).unwrap();
        let Request::Task(r) = call.request().unwrap() else {
            panic!("not a task request")
        };
        assert_eq!((r.limit, r.threshold), (10, None));
        assert_eq!(
            r.fields,
            TaskField::parse_list("title,description").unwrap()
        );
        let call = ToolCall::parse("grep", &json!({"term": "x"})).unwrap();
        assert_eq!(
            call.request().unwrap(),
            Request::Grep(GrepRequest::new("x"))
        );
        let call = ToolCall::parse("ask", &json!({"question": "q"})).unwrap();
        assert_eq!(call.request().unwrap(), Request::Ask(AskRequest::new("q")));
        assert_eq!(call.profile(), "default");
        assert_eq!(call.fixture(), FixtureRef::Root(None));
    }

    #[test]
    fn bad_calls_are_invalid_input_naming_the_tool() {
        let err = ToolCall::parse("find_code", &json!({"term": 3})).unwrap_err();
        assert_eq!(err.code(), "E_INVALID_INPUT");
        assert!(err.to_string().contains("find_code"), "{err}");
        let err = ToolCall::parse("find_code", &json!({"term": "x", "rooot": "."})).unwrap_err();
        assert!(err.to_string().contains("rooot"), "{err}");
        let err = ToolCall::parse("find_everything", &json!({})).unwrap_err();
        assert!(err.hint().unwrap().contains("find_task"));
        let err = ToolCall::parse("ask", &json!(["q"])).unwrap_err();
        assert!(err.to_string().contains("JSON object"));
        let call = ToolCall::parse("find_name", &json!({"domain": "films"})).unwrap();
        assert!(call.request().unwrap_err().to_string().contains("films"));
    }

    #[test]
    fn every_tool_has_an_object_schema_naming_its_arguments() {
        assert_eq!(TOOLS.len(), 8);
        for spec in TOOLS {
            let schema = spec.input_schema();
            assert_eq!(schema["type"], "object", "{}", spec.name);
            assert!(schema["properties"]["profile"].is_object(), "{}", spec.name);
        }
        let code = ToolSpec::named("find_code").unwrap().input_schema();
        assert_eq!(code["required"], json!(["term"]));
        assert!(code["properties"]["impl"].is_object());
    }

    #[test]
    fn arguments_round_trip_and_fixture_can_be_replaced() {
        let call =
            ToolCall::parse("find_path", &json!({"query": "mw", "paths_from": "a.txt"})).unwrap();
        let again = ToolCall::parse("find_path", &call.arguments()).unwrap();
        assert_eq!(call, again);
        let moved = call.with_fixture_path(PathBuf::from("/x/list.txt"));
        assert_eq!(
            moved.fixture(),
            FixtureRef::Paths(PathBuf::from("/x/list.txt"))
        );
    }
}
