//! findbench-tools: the find modes as an agent or a command line calls them.
//!
//! One argument struct per tool (`find_task`, `find_name`, `find_outline`, `get_item`,
//! `find_code`, `find_path`, `grep`, `ask`), each in its own module: its fields and their
//! defaults, declared once, its JSON Schema (schemars), and its conversion into the
//! engine's one [`findbench_engine::Request`]. The MCP server deserialises these structs
//! from a tool call's arguments, a corpus case's `args` become one, and the command line
//! flattens them into its clap commands (cargo feature `clap`, which only the CLI crate
//! enables). All three then answer through [`call::answer`], so the same input gives the
//! same JSON document whichever door it came through.

pub mod call;
#[cfg(feature = "clap")]
pub mod cli_values;
pub mod coded_error;
pub mod decode;
pub mod envelope;
pub mod fixture;
pub mod history;
pub mod registry;
pub mod spec;
pub mod tool_call;
pub mod values;
pub mod work_tree_history;

// the argument declarations the tool modules below share, before them
#[macro_use]
mod fixture_args;

pub mod ask;
pub mod code;
pub mod get;
pub mod grep;
pub mod name;
pub mod outline;
pub mod path;
pub mod task;

pub use ask::AskArgs;
pub use code::FindCodeArgs;
pub use coded_error::CodedError;
pub use decode::ArgsError;
pub use fixture::{FixtureKind, FixtureRef};
pub use get::GetItemArgs;
pub use grep::GrepArgs;
pub use name::{parse_domain, FindNameArgs};
pub use outline::FindOutlineArgs;
pub use path::FindPathArgs;
pub use registry::TOOLS;
pub use spec::{ToolArgs, ToolSpec, CALL_FIELDS};
pub use task::FindTaskArgs;
pub use tool_call::{ToolCall, DEFAULT_PROFILE};
