//! `findbench find <mode>`: one request, one response, printed in the chosen format.

use super::{OutputArgs, EXIT_NO_MATCH};
use crate::output::{text, Format};
use clap::{Args, Subcommand};
use findbench_engine::modes::code::CodeRequest;
use findbench_engine::modes::name::NameRequest;
use findbench_engine::modes::outline::OutlineRequest;
use findbench_engine::modes::path::PathRequest;
use findbench_engine::modes::task::{TaskField, TaskRequest};
use findbench_engine::{
    Domain, Engine, EngineError, Fixture, Outcome, PathList, Profile, Request, Response, Store,
    Tree, TreeOptions,
};
use findbench_eval::envelope::{self, Meta};
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Instant, SystemTime};

#[derive(Debug, Subcommand)]
pub enum FindCommand {
    /// Fuzzy search of tasks by title, description, labels or notes, or by id pattern.
    Task(TaskArgs),
    /// The item meant by an approximate name: partial_ratio scores 0-100, quality good or weak.
    Name(NameArgs),
    /// The map: matches placed in their outline, with breadcrumb and indicators
    /// ([N] notes, [C] comments, [F: n] children).
    Outline(OutlineArgs),
    /// Source files for a term: exact stem, symbol, all words, partial stem, directory.
    Code(CodeArgs),
    /// Fuzzy subsequence search over paths, typo-tolerant, with matched positions.
    Path(PathArgs),
}

#[derive(Debug, Args)]
pub struct RootArg {
    /// The source tree to search (walked once, honouring .gitignore).
    #[arg(long, default_value = ".", value_name = "DIR")]
    pub root: PathBuf,
}

#[derive(Debug, Args)]
pub struct ProfileArg {
    /// Ranking profile: a built-in name (default, legacy) or a profile JSON file.
    #[arg(long, default_value = "default", value_name = "NAME|FILE")]
    pub profile: String,
}

#[derive(Debug, Args)]
pub struct CodeArgs {
    /// The term: a stem, an identifier (CamelCase is normalised) or words joined by `[ _-]?`.
    pub term: String,
    /// Boost implementation files (.cpp, .rs, .py, ...) over headers and docs.
    #[arg(long = "impl")]
    pub impl_query: bool,
    #[command(flatten)]
    pub root: RootArg,
    /// Maximum results to return.
    #[arg(long, short = 'n', default_value_t = 10)]
    pub limit: usize,
    #[command(flatten)]
    pub profile: ProfileArg,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args)]
pub struct PathArgs {
    /// Characters of the path, in order (`authmw` finds src/auth_middleware.py).
    pub query: String,
    /// The source tree whose paths to search.
    #[arg(long, value_name = "DIR", conflicts_with = "paths_from")]
    pub root: Option<PathBuf>,
    /// A file with one path per line (`-` reads stdin) instead of walking a tree.
    #[arg(long, value_name = "FILE")]
    pub paths_from: Option<PathBuf>,
    /// Maximum results to return.
    #[arg(long, short = 'n', default_value_t = 10)]
    pub limit: usize,
    #[command(flatten)]
    pub profile: ProfileArg,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args)]
pub struct StoreArg {
    /// The item store: todo.json (`{"tasks": [...]}`) or JSON Lines.
    #[arg(long, env = "FINDBENCH_STORE", value_name = "PATH")]
    pub store: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct TaskArgs {
    /// Search query (terms are ANDed); optional when --id is given.
    pub query: Option<String>,
    #[command(flatten)]
    pub store: StoreArg,
    /// Id pattern: prefix by default, `*37` suffix, `*37*` contains.
    #[arg(long, short = 'i', value_name = "PATTERN")]
    pub id: Option<String>,
    /// Fields to search: title, description, labels, notes, all (comma-separated).
    #[arg(long, default_value = "title,description")]
    pub field: String,
    /// Keep only items with this status (repeat or comma-separate for several).
    #[arg(long, short = 's', value_delimiter = ',')]
    pub status: Vec<String>,
    /// Maximum results to return.
    #[arg(long, short = 'n', default_value_t = 10)]
    pub limit: usize,
    /// Minimum match score (0-1).
    #[arg(
        long,
        short = 't',
        default_value_t = 0.3,
        allow_negative_numbers = true
    )]
    pub threshold: f64,
    /// Exact title match instead of fuzzy (for duplicate checks).
    #[arg(long, short = 'e')]
    pub exact: bool,
    /// Search archived tasks too.
    #[arg(long)]
    pub include_archive: bool,
    /// Include labels and description in each match.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    #[command(flatten)]
    pub profile: ProfileArg,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args)]
pub struct NameArgs {
    /// The approximate name; omit it to list the domain's items unfiltered.
    pub query: Option<String>,
    #[command(flatten)]
    pub store: StoreArg,
    /// Which items: tasks, goals or reading.
    #[arg(long, default_value = "tasks", value_parser = parse_domain)]
    pub domain: Domain,
    /// Keep finished items (tasks Done, goals Complete, reading Read) and archived ones.
    #[arg(long, visible_aliases = ["include-complete", "include-read"])]
    pub include_done: bool,
    /// Maximum results to return [default: 5].
    #[arg(long, short = 'n')]
    pub limit: Option<usize>,
    /// Score (0-100) a match needs for quality `good` [default: 60].
    #[arg(long, short = 't', allow_negative_numbers = true)]
    pub threshold: Option<f64>,
    #[command(flatten)]
    pub profile: ProfileArg,
    #[command(flatten)]
    pub output: OutputArgs,
}

fn parse_domain(name: &str) -> Result<Domain, String> {
    Domain::parse(name)
        .ok_or_else(|| format!("unknown domain `{name}`; domains are: tasks, goals, reading"))
}

#[derive(Debug, Args)]
pub struct OutlineArgs {
    /// Words to look for in titles, descriptions and notes (all must match).
    pub query: String,
    #[command(flatten)]
    pub store: StoreArg,
    /// Maximum matches to return [default: 10].
    #[arg(long, short = 'n')]
    pub limit: Option<usize>,
    /// Only items of this list (case-insensitive).
    #[arg(long, value_name = "NAME")]
    pub list: Option<String>,
    /// Search archived items too.
    #[arg(long)]
    pub include_archive: bool,
    #[command(flatten)]
    pub profile: ProfileArg,
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(cmd: FindCommand) -> i32 {
    let call = Call::start();
    match cmd {
        FindCommand::Task(args) => call.answer(
            "find task",
            "find-task.schema.json",
            &args.output,
            &args.profile,
            task_request(&args),
            || load_store(&args.store),
        ),
        FindCommand::Name(args) => call.answer(
            "find name",
            "find-name.schema.json",
            &args.output,
            &args.profile,
            Ok(Request::Name(NameRequest {
                query: args.query.clone(),
                domain: args.domain,
                include_done: args.include_done,
                limit: args.limit,
                threshold: args.threshold,
            })),
            || load_store(&args.store),
        ),
        FindCommand::Outline(args) => call.answer(
            "find outline",
            "find-outline.schema.json",
            &args.output,
            &args.profile,
            Ok(Request::Outline(OutlineRequest {
                query: args.query.clone(),
                limit: args.limit,
                list: args.list.clone(),
                include_archive: args.include_archive,
            })),
            || load_store(&args.store),
        ),
        FindCommand::Code(args) => call.answer(
            "find code",
            "find-code.schema.json",
            &args.output,
            &args.profile,
            Ok(Request::Code(CodeRequest {
                term: args.term.clone(),
                impl_query: args.impl_query,
                limit: args.limit,
            })),
            || load_tree(&args.root),
        ),
        FindCommand::Path(args) => call.answer(
            "find path",
            "find-path.schema.json",
            &args.output,
            &args.profile,
            Ok(Request::Path(PathRequest {
                query: args.query.clone(),
                limit: args.limit,
            })),
            || match (&args.paths_from, &args.root) {
                (Some(list), _) => load_path_list(list),
                (None, root) => load_tree(&RootArg {
                    root: root.clone().unwrap_or_else(|| PathBuf::from(".")),
                }),
            },
        ),
    }
}

/// One command's clock, from argument parsing to the printed answer.
pub(crate) struct Call {
    started: SystemTime,
    clock: Instant,
}

impl Call {
    pub(crate) fn start() -> Call {
        Call {
            started: SystemTime::now(),
            clock: Instant::now(),
        }
    }

    /// Resolves the profile, loads the fixture, runs the request and prints the answer in
    /// the envelope of `schema`; returns the exit code. The first error wins, in that order
    /// (a bad request is reported before a missing file).
    pub(crate) fn answer(
        &self,
        command: &str,
        schema: &str,
        output: &OutputArgs,
        profile: &ProfileArg,
        request: Result<Request, EngineError>,
        load: impl FnOnce() -> Result<Fixture, EngineError>,
    ) -> i32 {
        let result = request.and_then(|request| {
            let engine = engine(profile)?;
            let fixture = load()?;
            engine.execute(&fixture, &request)
        });
        let meta = Meta::new(command, self.started, self.clock.elapsed());
        emit(&meta, schema, result, output)
    }
}

/// An engine with the named (or file) profile.
pub(crate) fn engine(arg: &ProfileArg) -> Result<Engine, EngineError> {
    Ok(Engine::new(Profile::resolve(&arg.profile)?))
}

/// Walks and indexes the root.
pub(crate) fn load_tree(arg: &RootArg) -> Result<Fixture, EngineError> {
    let tree = Tree::load(&arg.root, &TreeOptions::default())?;
    Ok(Fixture::Tree(Arc::new(tree)))
}

/// Reads a path list from a file, or from stdin for `-`.
fn load_path_list(path: &std::path::Path) -> Result<Fixture, EngineError> {
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes).map_err(|e| {
            EngineError::File {
                path: path.to_path_buf(),
                message: format!("cannot read paths from stdin: {e}"),
                hint: None,
            }
        })?;
        let list = PathList::from_bytes("-", bytes);
        return Ok(Fixture::Paths(Arc::new(list)));
    }
    Ok(Fixture::Paths(Arc::new(PathList::load(path)?)))
}

fn task_request(args: &TaskArgs) -> Result<Request, EngineError> {
    let mut request = TaskRequest::new(args.query.clone().unwrap_or_default());
    request.id = args.id.clone();
    request.fields = TaskField::parse_list(&args.field)?;
    request.status = args
        .status
        .iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    request.limit = args.limit;
    request.threshold = args.threshold;
    request.exact = args.exact;
    request.include_archive = args.include_archive;
    request.verbose = args.verbose;
    Ok(Request::Task(request))
}

pub(crate) fn load_store(arg: &StoreArg) -> Result<Fixture, EngineError> {
    let path = arg.store.as_ref().ok_or_else(|| {
        EngineError::invalid_with_hint(
            "no store given",
            "pass --store PATH (todo.json or .jsonl), or set FINDBENCH_STORE",
        )
    })?;
    Ok(Fixture::Store(Arc::new(Store::load(path)?)))
}

/// Prints a response (or an error) in the requested format and returns the exit code.
pub(crate) fn emit(
    meta: &Meta,
    schema: &str,
    result: Result<Response, EngineError>,
    output: &OutputArgs,
) -> i32 {
    let format = output.format.resolve();
    let mut stdout = std::io::stdout().lock();
    let (text, code) = match result {
        Ok(response) => {
            let code = match response.outcome() {
                Outcome::Success => 0,
                Outcome::NoMatch | Outcome::InsufficientEvidence => EXIT_NO_MATCH,
                Outcome::Failure => 1,
            };
            let text = match format {
                Format::Text | Format::Auto => text::render(&response, output.quiet),
                Format::Json => json_line(&envelope::success(schema, meta, to_value(&response))),
                Format::Jsonl => jsonl_lines(&response),
            };
            (text, code)
        }
        Err(err) => {
            let code = err.exit_code();
            let text = match format {
                Format::Text | Format::Auto => {
                    let mut msg = format!("error: {err}\n");
                    if let Some(hint) = err.hint() {
                        msg.push_str(&format!("hint: {hint}\n"));
                    }
                    eprint!("{msg}");
                    String::new()
                }
                Format::Json | Format::Jsonl => json_line(&envelope::engine_failure(meta, &err)),
            };
            (text, code)
        }
    };
    // a closed pipe (`| head`) is not an error worth reporting
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
    code
}

fn to_value(response: &Response) -> Value {
    serde_json::to_value(response)
        .unwrap_or_else(|e| serde_json::json!({"error": format!("cannot serialise response: {e}")}))
}

fn json_line(value: &Value) -> String {
    let mut s = value.to_string();
    s.push('\n');
    s
}

/// JSON Lines: one ranked result per line.
fn jsonl_lines(response: &Response) -> String {
    let value = to_value(response);
    let list = ["matches", "results"]
        .iter()
        .find_map(|k| value.get(*k).and_then(Value::as_array).cloned())
        .unwrap_or_else(|| vec![value.clone()]);
    list.iter().map(json_line).collect()
}
