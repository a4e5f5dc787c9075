//! `findbench find <mode>`: one request, one response, printed in the chosen format.

use super::{OutputArgs, EXIT_NO_MATCH};
use crate::output::{text, Format};
use clap::{Args, Subcommand};
use findbench_engine::{Domain, EngineError, Fixture, Outcome, PathList, Response, TreeOptions};
use findbench_eval::call;

use findbench_eval::tools::{self, FixtureKind, FixtureRef, ToolCall};
use serde_json::Value;
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
    #[arg(long, default_value = tools::DEFAULT_PROFILE, value_name = "NAME|FILE")]
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
    #[arg(long, short = 'n', default_value_t = tools::DEFAULT_LIMIT)]
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
    #[arg(long, short = 'n', default_value_t = tools::DEFAULT_LIMIT)]
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
    #[arg(long, default_value = tools::DEFAULT_TASK_FIELDS)]
    pub field: String,
    /// Keep only items with this status (repeat or comma-separate for several).
    #[arg(long, short = 's', value_delimiter = ',')]
    pub status: Vec<String>,
    /// Maximum results to return.
    #[arg(long, short = 'n', default_value_t = tools::DEFAULT_LIMIT)]
    pub limit: usize,
    /// Minimum match score (0-1) [default: the profile's task.threshold, 0.3 in the
    /// built-in profiles].
    #[arg(long, short = 't', allow_negative_numbers = true)]
    pub threshold: Option<f64>,
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

pub fn run(cmd: FindCommand, cache: &super::CacheArgs) -> i32 {
    let call = Call::start(cache);
    match cmd {
        FindCommand::Task(args) => call.answer(
            ToolCall::FindTask(tools::FindTaskArgs {
                query: args.query,
                id: args.id,
                field: args.field,
                status: args.status,
                limit: args.limit,
                threshold: args.threshold,
                exact: args.exact,
                include_archive: args.include_archive,
                verbose: args.verbose,
                store: args.store.store,
                profile: Some(args.profile.profile),
            }),
            &args.output,
        ),
        FindCommand::Name(args) => call.answer(
            ToolCall::FindName(tools::FindNameArgs {
                query: args.query,
                domain: Some(args.domain.as_str().to_string()),
                include_done: args.include_done,
                limit: args.limit,
                threshold: args.threshold,
                store: args.store.store,
                profile: Some(args.profile.profile),
            }),
            &args.output,
        ),
        FindCommand::Outline(args) => call.answer(
            ToolCall::FindOutline(tools::FindOutlineArgs {
                query: args.query,
                limit: args.limit,
                list: args.list,
                include_archive: args.include_archive,
                store: args.store.store,
                profile: Some(args.profile.profile),
            }),
            &args.output,
        ),
        FindCommand::Code(args) => call.answer(
            ToolCall::FindCode(tools::FindCodeArgs {
                term: args.term,
                impl_query: args.impl_query,
                limit: args.limit,
                root: Some(args.root.root),
                profile: Some(args.profile.profile),
            }),
            &args.output,
        ),
        FindCommand::Path(args) => call.answer(
            ToolCall::FindPath(tools::FindPathArgs {
                query: args.query,
                limit: args.limit,
                root: args.root,
                paths_from: args.paths_from,
                profile: Some(args.profile.profile),
            }),
            &args.output,
        ),
    }
}

/// One command's clock, from argument parsing to the printed answer.
pub(crate) struct Call {
    started: SystemTime,
    clock: Instant,
    /// How a tree is walked and whether trees and stores are cached.
    options: TreeOptions,
}

impl Call {
    pub(crate) fn start(cache: &super::CacheArgs) -> Call {
        Call {
            started: SystemTime::now(),
            clock: Instant::now(),
            options: cache.tree_options(),
        }
    }

    /// Answers the call through the path the MCP server shares ([`call::answer`]) and
    /// prints it in the requested format; returns the exit code.
    pub(crate) fn answer(&self, tool_call: ToolCall, output: &OutputArgs) -> i32 {
        let answer = call::answer(&tool_call, self.started, self.clock, |fixture| {
            load(fixture, &self.options)
        });
        emit(answer, output)
    }
}

/// The command line's fixtures: the tree at `--root` (default `.`), the store at `--store`
/// or `FINDBENCH_STORE`, or the path list at `--paths-from` (`-` reads stdin).
fn load(fixture: &FixtureRef, options: &TreeOptions) -> Result<Fixture, EngineError> {
    match fixture {
        FixtureRef::Root(root) => call::load_fixture(
            FixtureKind::Root,
            root.as_deref().unwrap_or(std::path::Path::new(".")),
            options,
        ),
        FixtureRef::Store(Some(store)) => call::load_fixture(FixtureKind::Store, store, options),
        FixtureRef::Store(None) => Err(EngineError::invalid_with_hint(
            "no store given",
            "pass --store PATH (todo.json or .jsonl), or set FINDBENCH_STORE",
        )),
        FixtureRef::Paths(list) => load_path_list(list, options),
    }
}

/// Reads a path list from a file, or from stdin for `-`.
fn load_path_list(path: &std::path::Path, options: &TreeOptions) -> Result<Fixture, EngineError> {
    if path.as_os_str() == "-" {
        let stdin_error = |e: std::io::Error| EngineError::File {
            path: path.to_path_buf(),
            message: format!("cannot read paths from stdin: {e}"),
            hint: None,
        };
        #[cfg(unix)]
        if let Some(mapped) = map_stdin().map_err(stdin_error)? {
            let list = PathList::from_shared("-", Arc::new(mapped));
            return Ok(Fixture::Paths(Arc::new(list)));
        }
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)
            .map_err(stdin_error)?;
        let list = PathList::from_bytes("-", bytes);
        return Ok(Fixture::Paths(Arc::new(list)));
    }
    call::load_fixture(FixtureKind::Paths, path, options)
}

/// Stdin redirected from a non-empty file, mapped from where stdin stands to its end
/// (`None` for a pipe, a terminal or an empty file: those are read). Mapping indexes the
/// listing where the page cache holds it: no copy into a buffer of fresh pages, which is
/// most of the cost of reading a large listing. Stdin is left at the file's end, as
/// reading it would.
#[cfg(unix)]
fn map_stdin() -> std::io::Result<Option<MappedTail>> {
    use std::io::{Seek, SeekFrom};
    use std::os::fd::AsFd;
    let mut file = std::fs::File::from(std::io::stdin().as_fd().try_clone_to_owned()?);
    let meta = file.metadata()?;
    if !meta.is_file() || meta.len() == 0 {
        return Ok(None);
    }
    let start = file.stream_position()?;
    // SAFETY: the mapping is read-only and private. Like any reader of a mapped file
    // (ripgrep, for one), it assumes the file is not truncated while the command runs;
    // a file changed under it is a race a read would lose too.
    let map = unsafe { memmap2::Mmap::map(&file)? };
    file.seek(SeekFrom::End(0))?;
    let start = usize::try_from(start).map_or(map.len(), |s| s.min(map.len()));
    Ok(Some(MappedTail { map, start }))
}

/// A mapped file from an offset on.
#[cfg(unix)]
struct MappedTail {
    map: memmap2::Mmap,
    start: usize,
}

#[cfg(unix)]
impl AsRef<[u8]> for MappedTail {
    fn as_ref(&self) -> &[u8] {
        &self.map[self.start..]
    }
}

/// Prints an answer (or its error) in the requested format and returns the exit code.
pub(crate) fn emit(answer: call::Answer, output: &OutputArgs) -> i32 {
    let format = output.format.resolve();
    let text = match (&answer.result, format) {
        (Ok(response), Format::Text | Format::Auto) => {
            if let Some(note) = answer.walk.as_ref().and_then(call::Walk::skipped_note) {
                eprintln!("{note}");
            }
            text::render(response, output.quiet)
        }
        (Ok(response), Format::Jsonl) => jsonl_lines(response),
        (Err(err), Format::Text | Format::Auto) => {
            let mut msg = format!("error: {err}\n");
            if let Some(hint) = err.hint() {
                msg.push_str(&format!("hint: {hint}\n"));
            }
            eprint!("{msg}");
            String::new()
        }
        (_, Format::Json) | (Err(_), Format::Jsonl) => json_line(&answer.document()),
    };
    let code = match &answer.result {
        Ok(response) => match response.outcome() {
            Outcome::Success => 0,
            Outcome::NoMatch | Outcome::InsufficientEvidence => EXIT_NO_MATCH,
            Outcome::Failure => 1,
        },
        Err(err) => err.exit_code(),
    };
    crate::output::print(&text);
    code
}

fn json_line(value: &Value) -> String {
    let mut s = value.to_string();
    s.push('\n');
    s
}

/// JSON Lines: one ranked result per line.
fn jsonl_lines(response: &Response) -> String {
    let value = call::response_value(response);
    let list = ["matches", "results"]
        .iter()
        .find_map(|k| value.get(*k).and_then(Value::as_array).cloned())
        .unwrap_or_else(|| vec![value.clone()]);
    list.iter().map(json_line).collect()
}
