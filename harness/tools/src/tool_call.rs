//! One tool call: which tool, with its arguments, parsed from a JSON object (an MCP call, a
//! recorded call) or built by the command line from its flags.

use crate::decode::{self, ArgsError};
use crate::fixture::FixtureRef;
use crate::spec::{ToolArgs, ToolSpec};
use crate::{AskArgs, FindCodeArgs, FindNameArgs, FindOutlineArgs, FindPathArgs, FindTaskArgs};
use crate::{GetItemArgs, GrepArgs};
use findbench_engine::{EngineError, Mode, Request};
use serde_json::{Map, Value};
use std::path::PathBuf;

/// The profile a call ranks with when it names none.
pub const DEFAULT_PROFILE: &str = "default";

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

/// The variants, once: `From` each argument struct, and the one match that hands out the
/// arguments as [`ToolArgs`].
macro_rules! tool_variants {
    ($($variant:ident($args:ty) = $mode:ident),* $(,)?) => {
        $(impl From<$args> for ToolCall {
            fn from(args: $args) -> ToolCall {
                ToolCall::$variant(args)
            }
        })*

        impl ToolCall {
            /// The call's arguments as the tool's [`ToolArgs`].
            pub fn args(&self) -> &dyn ToolArgs {
                match self {
                    $(ToolCall::$variant(args) => args,)*
                }
            }

            fn args_mut(&mut self) -> &mut dyn ToolArgs {
                match self {
                    $(ToolCall::$variant(args) => args,)*
                }
            }

            /// Deserialises the arguments of the tool of `mode` from a JSON object; a bad
            /// value names its argument.
            pub fn from_object(mode: Mode, arguments: &Map<String, Value>) -> Result<ToolCall, ArgsError> {
                match mode {
                    $(Mode::$mode => decode::from_object::<$args>(arguments).map(ToolCall::$variant),)*
                }
            }
        }
    };
}

tool_variants! {
    FindTask(FindTaskArgs) = Task,
    FindName(FindNameArgs) = Name,
    FindOutline(FindOutlineArgs) = Outline,
    GetItem(GetItemArgs) = Get,
    FindCode(FindCodeArgs) = Code,
    FindPath(FindPathArgs) = Path,
    Grep(GrepArgs) = Grep,
    Ask(AskArgs) = Ask,
}

impl ToolCall {
    pub fn spec(&self) -> &'static ToolSpec {
        self.args().spec()
    }

    pub fn mode(&self) -> Mode {
        self.spec().mode
    }

    /// The arguments as JSON (what a recorder writes).
    pub fn arguments(&self) -> Value {
        self.args().arguments()
    }

    /// The ranking profile of the call: the one it names, else [`DEFAULT_PROFILE`]. The
    /// one place the default applies, whichever door the call came through.
    pub fn profile(&self) -> &str {
        self.args().profile().unwrap_or(DEFAULT_PROFILE)
    }

    /// What the agent asked, in one string: the question, term, query or id.
    pub fn query(&self) -> String {
        self.args().query()
    }

    /// The fixture the call names.
    pub fn fixture(&self) -> FixtureRef {
        self.args().fixture()
    }

    /// The engine request. Errors are invalid input (a bad field list, say).
    pub fn request(&self) -> Result<Request, EngineError> {
        self.args().request()
    }

    /// The same call against another fixture path (replay points a recorded call at the
    /// fixture it resolved, wherever the recording named it).
    pub fn with_fixture_path(mut self, path: PathBuf) -> ToolCall {
        self.args_mut().set_fixture_path(path);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TOOLS;
    use findbench_engine::modes::ask::AskRequest;
    use findbench_engine::modes::grep::GrepRequest;
    use findbench_engine::modes::task::TaskField;
    use serde_json::json;

    #[test]
    fn defaults_are_the_engine_request_defaults() {
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
        assert_eq!(
            err.to_string(),
            "tool `find_code`: argument `term` takes a string; got integer `3`"
        );
        let err = ToolCall::parse("find_code", &json!({"term": "x", "rooot": "."})).unwrap_err();
        assert!(err.to_string().contains("rooot"), "{err}");
        let err = ToolCall::parse("find_everything", &json!({})).unwrap_err();
        assert!(err.hint().unwrap().contains("find_task"));
        let err = ToolCall::parse("ask", &json!(["q"])).unwrap_err();
        assert!(err.to_string().contains("JSON object"));
        let err = ToolCall::parse("find_path", &json!({"query": "x", "limit": -1})).unwrap_err();
        assert_eq!(
            err.to_string(),
            "tool `find_path`: argument `limit` takes a whole number of 1 or more; got `-1`"
        );
        let err = ToolCall::parse("find_code", &json!({})).unwrap_err();
        assert_eq!(
            err.to_string(),
            "tool `find_code`: bad arguments: missing field `term`"
        );
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
            assert!(
                spec.fields().contains(&spec.query_field),
                "{}: {:?}",
                spec.name,
                spec.fields()
            );
            assert_eq!(ToolSpec::of_mode(spec.mode).name, spec.name);
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
        assert_eq!(call.spec().name, "find_path");
        let moved = call.with_fixture_path(PathBuf::from("/x/list.txt"));
        assert_eq!(
            moved.fixture(),
            FixtureRef::Paths(PathBuf::from("/x/list.txt"))
        );
    }
}
