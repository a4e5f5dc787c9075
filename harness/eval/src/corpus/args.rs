//! A corpus case's `mode`, `query` and `args` (named as on the command line) to the tool's
//! argument struct of findbench-tools, and so to the engine [`Request`], as the command line
//! and the MCP server build it.
//!
//! The args a mode takes are its struct's fields, less the one the case's `query` fills
//! and those a corpus names once for all its cases ([`CALL_FIELDS`]: the fixture, and the
//! profile of `run --profile`): no list is kept here, so an option added to a tool's struct
//! is a corpus arg too.

use findbench_engine::{EngineError, Mode, Profile, Request};
use findbench_tools::{ToolCall, ToolSpec, CALL_FIELDS};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The args a mode accepts, as on the command line (`include-archive`; `include_archive` is
/// accepted too), in the order its struct declares them.
pub fn allowed_args(mode: Mode) -> Vec<String> {
    let spec = ToolSpec::of_mode(mode);
    spec.fields()
        .iter()
        .filter(|f| **f != spec.query_field && !CALL_FIELDS.contains(f))
        .map(|f| f.replace('_', "-"))
        .collect()
}

/// How many results the request returns at most under `profile` (a name or outline
/// request without a limit takes the profile's): the default rank window of `contains`.
pub fn result_limit(request: &Request, profile: &Profile) -> usize {
    match request {
        Request::Task(r) => r.limit,
        Request::Name(r) => r.limit.unwrap_or(profile.name_filter.limit),
        Request::Outline(r) => r.limit.unwrap_or(profile.outline.limit),
        Request::Get(_) => 1,
        Request::Code(r) => r.limit,
        Request::Path(r) => r.limit,
        Request::Grep(r) => r.limit,
        Request::Ask(r) => r.limit,
    }
}

/// The request of one case. The error is a message for the person who wrote the corpus;
/// the caller adds file, line and case.
pub fn case_request(
    mode: Mode,
    query: &str,
    args: &BTreeMap<String, Value>,
) -> Result<Request, String> {
    case_call(mode, query, args)?
        .request()
        .map_err(|e| in_words(&e))
}

/// The tool call of one case: its `query` in the field the tool asks with, its `args` in
/// the others. A null arg is one not given.
pub fn case_call(
    mode: Mode,
    query: &str,
    args: &BTreeMap<String, Value>,
) -> Result<ToolCall, String> {
    let spec = ToolSpec::of_mode(mode);
    let allowed = allowed_args(mode);
    let mut object = Map::new();
    object.insert(
        spec.query_field.to_string(),
        Value::String(query.to_string()),
    );
    let mut given: Vec<String> = Vec::new();
    for (name, value) in args {
        let canonical = name.trim_start_matches("--").replace('_', "-");
        if !allowed.contains(&canonical) {
            return Err(format!(
                "unknown arg `{name}` for mode `{}`; allowed: {}",
                mode.as_str(),
                if allowed.is_empty() {
                    "none".to_string()
                } else {
                    allowed.join(", ")
                }
            ));
        }
        if given.contains(&canonical) {
            return Err(format!("arg `{canonical}` is given twice"));
        }
        given.push(canonical.clone());
        if !value.is_null() {
            object.insert(canonical.replace('-', "_"), value.clone());
        }
    }
    spec.parse_object(&object).map_err(|e| match &e.field {
        Some(field) => e.said_of(&format!(
            "arg `{}` of mode `{}`",
            field.replace('_', "-"),
            mode.as_str()
        )),
        None => e.problem,
    })
}

/// An engine's rejection of a case's args, with its hint: `unknown domain `films`;
/// domains are: tasks, goals, reading`.
fn in_words(err: &EngineError) -> String {
    match err.hint() {
        Some(hint) => format!("{err}; {hint}"),
        None => err.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use findbench_engine::modes::task::TaskField;
    use serde_json::json;

    fn args(v: Value) -> BTreeMap<String, Value> {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn task_args_become_a_request() {
        let r = case_request(
            Mode::Task,
            "auth",
            &args(
                json!({"status": ["pending", "active"], "limit": 3, "include_archive": true,
                          "field": "title,labels", "threshold": 0.5, "--exact": null}),
            ),
        )
        .unwrap();
        let Request::Task(r) = r else {
            panic!("not a task request")
        };
        assert_eq!(r.query, "auth");
        assert_eq!(r.status, ["pending", "active"]);
        assert_eq!(r.limit, 3);
        assert!(r.include_archive && !r.exact);
        assert_eq!(r.fields, [TaskField::Title, TaskField::Labels]);
        assert_eq!(r.threshold, Some(0.5));
        let r = case_request(
            Mode::Task,
            "",
            &args(json!({"id": 37, "status": "a, b", "field": ["title", "notes"]})),
        )
        .unwrap();
        let Request::Task(r) = r else {
            panic!("not a task request")
        };
        assert_eq!(r.id.as_deref(), Some("37"));
        assert_eq!(r.status, ["a", "b"]);
        assert_eq!(r.fields, [TaskField::Title, TaskField::Notes]);
    }

    #[test]
    fn file_mode_args() {
        let r = case_request(
            Mode::Code,
            "replay",
            &args(json!({"impl": true, "limit": 3})),
        )
        .unwrap();
        assert_eq!(result_limit(&r, &Profile::default()), 3);
        let Request::Code(r) = r else {
            panic!("not a code request")
        };
        assert!(r.impl_query);
        assert_eq!(r.term, "replay");
        let r = case_request(Mode::Ask, "where is replay implemented", &BTreeMap::new()).unwrap();
        assert_eq!(result_limit(&r, &Profile::default()), 5);
        let r = case_request(Mode::Get, "ENG-3", &args(json!({"depth": 0}))).unwrap();
        let Request::Get(r) = r else {
            panic!("not a get request")
        };
        assert_eq!((r.id.as_str(), r.depth), ("ENG-3", Some(0)));
    }

    #[test]
    fn the_allowed_args_are_the_struct_fields_less_query_fixture_and_profile() {
        assert_eq!(
            allowed_args(Mode::Task),
            [
                "id",
                "field",
                "status",
                "limit",
                "threshold",
                "exact",
                "include-archive",
                "verbose"
            ]
        );
        assert_eq!(
            allowed_args(Mode::Name),
            ["domain", "include-done", "limit", "threshold"]
        );
        assert_eq!(
            allowed_args(Mode::Outline),
            ["limit", "list", "include-archive"]
        );
        assert_eq!(allowed_args(Mode::Get), ["children", "depth", "list"]);
        assert_eq!(allowed_args(Mode::Code), ["impl", "limit"]);
        for mode in [Mode::Path, Mode::Grep, Mode::Ask] {
            assert_eq!(allowed_args(mode), ["limit"]);
        }
    }

    #[test]
    fn unknown_and_mistyped_args_are_named() {
        let e = case_request(Mode::Task, "x", &args(json!({"limt": 3}))).unwrap_err();
        assert!(e.contains("unknown arg `limt`"), "{e}");
        assert!(e.contains("limit"), "{e}");
        let e = case_request(Mode::Task, "x", &args(json!({"limit": "three"}))).unwrap_err();
        assert_eq!(
            e,
            "arg `limit` of mode `task` takes a whole number of 1 or more; got the string \"three\""
        );
        let e = case_request(Mode::Task, "x", &args(json!({"limit": -1}))).unwrap_err();
        assert_eq!(
            e,
            "arg `limit` of mode `task` takes a whole number of 1 or more; got `-1`"
        );
        let e = case_request(Mode::Get, "x", &args(json!({"depth": -3}))).unwrap_err();
        assert_eq!(
            e,
            "arg `depth` of mode `get` takes a whole number of 0 or more; got `-3`"
        );
        let e =
            case_request(Mode::Task, "x", &args(json!({"include_archive": "yes"}))).unwrap_err();
        assert_eq!(
            e,
            "arg `include-archive` of mode `task` takes true or false; got the string \"yes\""
        );
        let e = case_request(Mode::Ask, "x", &args(json!({"impl": true}))).unwrap_err();
        assert!(
            e.contains("unknown arg `impl` for mode `ask`; allowed: limit"),
            "{e}"
        );
        let e = case_request(Mode::Ask, "x", &args(json!({"root": "."}))).unwrap_err();
        assert!(e.contains("unknown arg `root`"), "{e}");
        let e = case_request(
            Mode::Task,
            "x",
            &args(json!({"include_archive": true, "include-archive": true})),
        )
        .unwrap_err();
        assert_eq!(e, "arg `include-archive` is given twice");
        let e = case_request(Mode::Name, "x", &args(json!({"domain": "films"}))).unwrap_err();
        assert_eq!(
            e,
            "unknown domain `films`; domains are: tasks, goals, reading"
        );
    }
}
