//! The find commands (`findbench find <mode>`, `get`, `grep`, `ask`): one tool call, its
//! answer printed in the chosen format. Each command's arguments are the tool's argument
//! struct of findbench-tools, flattened as it is declared there, plus the output options.

use super::shared_args::OutputArgs;
use crate::output::{text, Format};
use clap::{Args, Subcommand};
use findbench_engine::modes::path::Listing;
use findbench_engine::tree::paths::check_listing_size;
use findbench_engine::{EngineError, Fixture, Outcome, Response, TreeOptions};
use findbench_eval::error::exit;
use findbench_tools::{call, FixtureKind, FixtureRef, ToolCall};
use findbench_tools::{FindCodeArgs, FindNameArgs, FindOutlineArgs, FindPathArgs, FindTaskArgs};
use serde_json::Value;
use std::sync::Arc;
use std::time::{Instant, SystemTime};

#[derive(Debug, Subcommand)]
pub enum FindCommand {
    /// Fuzzy search of tasks by title, description, labels or notes, or by id pattern.
    Task(ToolCommand<FindTaskArgs>),
    /// The item meant by an approximate name: partial_ratio scores 0-100, quality good or weak.
    Name(ToolCommand<FindNameArgs>),
    /// The map: matches placed in their outline, with breadcrumb and indicators
    /// ([N] notes, [C] comments, [F: n] children).
    Outline(ToolCommand<FindOutlineArgs>),
    /// Source files for a term: exact stem, symbol (a member qualified by its owner too), all
    /// words, partial stem, directory.
    Code(ToolCommand<FindCodeArgs>),
    /// Fuzzy subsequence search over paths, typo-tolerant, with matched positions.
    Path(ToolCommand<FindPathArgs>),
}

/// A find command: the tool's arguments, then how to print the answer.
#[derive(Debug, Args)]
pub struct ToolCommand<A: Args> {
    #[command(flatten)]
    pub args: A,
    #[command(flatten)]
    pub output: OutputArgs,
}

impl<A: Args + Into<ToolCall>> ToolCommand<A> {
    /// Answers the call and prints it; returns the exit code.
    pub fn run(self, cache: &super::shared_args::CacheArgs) -> i32 {
        Call::start(cache).answer(self.args.into(), &self.output)
    }
}

/// `--profile` of a command that is not a tool call (`index`); a tool's own is its
/// argument struct's.
#[derive(Debug, Args)]
pub struct ProfileArg {
    /// Ranking profile: a built-in name (default, legacy) or a profile JSON file.
    #[arg(long, default_value = findbench_tools::DEFAULT_PROFILE, value_name = "NAME|FILE")]
    pub profile: String,
}

pub fn run(cmd: FindCommand, cache: &super::shared_args::CacheArgs) -> i32 {
    match cmd {
        FindCommand::Task(cmd) => cmd.run(cache),
        FindCommand::Name(cmd) => cmd.run(cache),
        FindCommand::Outline(cmd) => cmd.run(cache),
        FindCommand::Code(cmd) => cmd.run(cache),
        FindCommand::Path(cmd) => cmd.run(cache),
    }
}

/// One command's clock, from argument parsing to the printed answer.
pub(crate) struct Call {
    started: SystemTime,
    clock: Instant,
    /// How a tree is walked and whether trees and stores are cached.
    options: TreeOptions,
    /// Whether a first call starts the build of the index it wants
    /// ([`super::background_index`]).
    background_index: bool,
}

impl Call {
    pub(crate) fn start(cache: &super::shared_args::CacheArgs) -> Call {
        Call {
            started: SystemTime::now(),
            clock: Instant::now(),
            options: cache.tree_options(),
            background_index: !cache.no_background_index,
        }
    }

    /// Answers the call through the path the MCP server shares ([`call::answer`]) and
    /// prints it in the requested format; returns the exit code.
    pub(crate) fn answer(&self, tool_call: ToolCall, output: &OutputArgs) -> i32 {
        // each call is a process: a work tree's history is kept in the cache between them
        let history_cache = self.options.kept_in();
        let mut answer = call::answer(
            &tool_call,
            self.started,
            self.clock,
            history_cache.as_deref(),
            |fixture| load(fixture, &self.options),
        );
        if self.background_index {
            let wanted = answer.fixture.as_ref().and_then(Fixture::index_wanted);
            if let (Some(wanted), Ok(exe)) = (wanted, std::env::current_exe()) {
                super::background_index::start(&wanted, &exe);
            }
        }
        // the process exits once the answer is printed: a tree's memory is left to the
        // exit, not freed file by file (a few ms of one core after a first `ask` on a tree
        // of 17,000 files, before anything was printed)
        std::mem::forget(answer.fixture.take());
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

/// Reads a path list from a file, or from stdin for `-`. A listing on stdin answers one
/// query, so it is not indexed first: it is matched where it lies ([`Listing`]).
fn load_path_list(path: &std::path::Path, options: &TreeOptions) -> Result<Fixture, EngineError> {
    if path.as_os_str() == "-" {
        let stdin_error = |e: std::io::Error| EngineError::File {
            path: path.to_path_buf(),
            message: format!("cannot read paths from stdin: {e}"),
            hint: None,
        };
        #[cfg(unix)]
        if let Some(mapped) = map_stdin().map_err(stdin_error)? {
            check_listing_size(path, mapped.as_ref().len() as u64)?;
            let listing = Listing::new("-", Arc::new(mapped));
            return Ok(Fixture::Listing(Arc::new(listing)));
        }
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)
            .map_err(stdin_error)?;
        check_listing_size(path, bytes.len() as u64)?;
        let listing = Listing::from_bytes("-", bytes);
        return Ok(Fixture::Listing(Arc::new(listing)));
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
    // Populated: the listing is read whole, so its pages are mapped in one call rather
    // than a fault every few pages.
    // SAFETY: the mapping is read-only and private. Like any reader of a mapped file
    // (ripgrep, for one), it assumes the file is not truncated while the command runs;
    // a file changed under it is a race a read would lose too.
    let map = unsafe { memmap2::MmapOptions::new().populate().map(&file)? };
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
            Outcome::NoMatch | Outcome::InsufficientEvidence => {
                findbench_eval::error::exit::NO_MATCH
            }
            Outcome::Failure => exit::FAILED,
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

#[cfg(test)]
mod tests {
    use super::super::Cli;
    use clap::CommandFactory;
    use findbench_tools::TOOLS;
    use std::collections::BTreeSet;

    /// Options of a find command that are not the tool's: how to print (`--format`,
    /// `--quiet`), the global `--no-cache`, and clap's own `--help` and `--version`.
    const CLI_ONLY: &[&str] = &[
        "format",
        "quiet",
        "no-cache",
        "no-background-index",
        "help",
        "version",
    ];

    fn kebab(names: impl IntoIterator<Item = String>) -> BTreeSet<String> {
        names.into_iter().map(|n| n.replace('_', "-")).collect()
    }

    /// A tool's arguments on the command line (`findbench find task`, `findbench get`),
    /// the names its struct deserialises (what corpora and MCP calls give), and the
    /// properties of the MCP tool's input schema are one set: an option added in one place
    /// reaches the other two, or this fails.
    #[test]
    fn cli_options_struct_fields_and_mcp_schema_properties_are_one_set() {
        let mut cli = Cli::command();
        cli.build();
        let served = findbench_mcp::server::tool_list();
        assert_eq!(served.len(), TOOLS.len());
        for spec in TOOLS {
            let mut command = &cli;
            for word in spec.command.split(' ') {
                command = command
                    .find_subcommand(word)
                    .unwrap_or_else(|| panic!("no `findbench {}`", spec.command));
            }
            let on_the_line = kebab(
                command
                    .get_arguments()
                    .map(|a| match a.get_long() {
                        Some(long) if !a.is_positional() => long.to_string(),
                        _ => a.get_id().to_string(),
                    })
                    .filter(|n| !CLI_ONLY.contains(&n.as_str())),
            );
            let positional: Vec<String> = command
                .get_positionals()
                .map(|a| a.get_id().to_string())
                .collect();
            assert_eq!(positional, [spec.query_field], "{}", spec.command);
            let fields = kebab(spec.fields().iter().map(|f| f.to_string()));
            let tool = served
                .iter()
                .find(|t| t.name == spec.name)
                .unwrap_or_else(|| panic!("the server lists no `{}`", spec.name));
            let properties = kebab(
                tool.input_schema["properties"]
                    .as_object()
                    .expect("properties")
                    .keys()
                    .cloned(),
            );
            assert_eq!(
                on_the_line, fields,
                "`findbench {}` against the struct",
                spec.command
            );
            assert_eq!(properties, fields, "MCP `{}` against the struct", spec.name);
            assert!(fields.len() >= 3, "{}: {fields:?}", spec.name);
        }
    }
}
