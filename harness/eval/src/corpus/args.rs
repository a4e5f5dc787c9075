//! Corpus `args` (named as on the command line) to an engine [`Request`], for every mode.
//!
//! This is the one place that knows how a case's `mode`, `query` and `args` become a request;
//! a new mode adds one arm to [`build_request`] and its entry in [`allowed_args`].

use findbench_engine::modes::ask::AskRequest;
use findbench_engine::modes::code::CodeRequest;
use findbench_engine::modes::get::GetRequest;
use findbench_engine::modes::grep::GrepRequest;
use findbench_engine::modes::name::NameRequest;
use findbench_engine::modes::outline::OutlineRequest;
use findbench_engine::modes::path::PathRequest;
use findbench_engine::modes::task::{TaskField, TaskRequest};
use findbench_engine::{Domain, Mode, Profile, Request};
use serde_json::Value;
use std::collections::BTreeMap;

/// The args a mode accepts, as on the command line (`include-archive`; `include_archive` is
/// accepted too).
pub fn allowed_args(mode: Mode) -> &'static [&'static str] {
    match mode {
        Mode::Task => &[
            "id",
            "field",
            "status",
            "limit",
            "threshold",
            "exact",
            "include-archive",
            "verbose",
        ],
        Mode::Name => &["domain", "include-done", "limit", "threshold"],
        Mode::Outline => &["limit", "list", "include-archive"],
        Mode::Get => &["children", "depth", "list"],
        Mode::Code => &["impl", "limit"],
        Mode::Path | Mode::Grep | Mode::Ask => &["limit"],
    }
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

/// Builds the request of one case. The error is a message for the person who wrote the
/// corpus; the caller adds file, line and case.
pub fn build_request(
    mode: Mode,
    query: &str,
    args: &BTreeMap<String, Value>,
) -> Result<Request, String> {
    let mut args = Args::new(mode, args)?;
    let request = match mode {
        Mode::Task => {
            let mut r = TaskRequest::new(query);
            r.id = args.string("id")?;
            if let Some(fields) = args.list("field")? {
                r.fields = TaskField::parse_list(&fields.join(",")).map_err(|e| e.to_string())?;
            }
            if let Some(status) = args.list("status")? {
                r.status = status;
            }
            if let Some(limit) = args.count("limit")? {
                r.limit = limit;
            }
            if let Some(threshold) = args.number("threshold")? {
                r.threshold = Some(threshold);
            }
            r.exact = args.flag("exact")?;
            r.include_archive = args.flag("include-archive")?;
            r.verbose = args.flag("verbose")?;
            Request::Task(r)
        }
        Mode::Name => {
            let mut r = NameRequest::new(query);
            if let Some(d) = args.string("domain")? {
                r.domain = Domain::parse(&d).ok_or_else(|| {
                    format!(
                        "unknown domain `{d}` in arg `domain`; domains are: tasks, goals, reading"
                    )
                })?;
            }
            r.include_done = args.flag("include-done")?;
            r.limit = args.count("limit")?;
            r.threshold = args.number("threshold")?;
            Request::Name(r)
        }
        Mode::Outline => {
            let mut r = OutlineRequest::new(query);
            r.limit = args.count("limit")?;
            r.list = args.string("list")?;
            r.include_archive = args.flag("include-archive")?;
            Request::Outline(r)
        }
        Mode::Get => {
            // the case's query is the id to get
            let mut r = GetRequest::new(query);
            r.children = args.flag("children")?;
            r.depth = args.count("depth")?;
            r.list = args.string("list")?;
            Request::Get(r)
        }
        Mode::Code => {
            let mut r = CodeRequest::new(query);
            r.impl_query = args.flag("impl")?;
            if let Some(limit) = args.count("limit")? {
                r.limit = limit;
            }
            Request::Code(r)
        }
        Mode::Path => {
            let mut r = PathRequest::new(query);
            if let Some(limit) = args.count("limit")? {
                r.limit = limit;
            }
            Request::Path(r)
        }
        Mode::Grep => {
            let mut r = GrepRequest::new(query);
            if let Some(limit) = args.count("limit")? {
                r.limit = limit;
            }
            Request::Grep(r)
        }
        Mode::Ask => {
            let mut r = AskRequest::new(query);
            if let Some(limit) = args.count("limit")? {
                r.limit = limit;
            }
            Request::Ask(r)
        }
    };
    Ok(request)
}

/// Typed access to one case's args; rejects names the mode does not take.
struct Args {
    mode: Mode,
    values: BTreeMap<String, Value>,
}

impl Args {
    fn new(mode: Mode, raw: &BTreeMap<String, Value>) -> Result<Args, String> {
        let allowed = allowed_args(mode);
        let mut values = BTreeMap::new();
        for (name, value) in raw {
            let canonical = name.trim_start_matches("--").replace('_', "-");
            if !allowed.contains(&canonical.as_str()) {
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
            if values.insert(canonical.clone(), value.clone()).is_some() {
                return Err(format!("arg `{canonical}` is given twice"));
            }
        }
        Ok(Args { mode, values })
    }

    fn wrong_type(&self, name: &str, want: &str, got: &Value) -> String {
        format!(
            "arg `{name}` of mode `{}` must be {want}, got {}",
            self.mode.as_str(),
            describe(got)
        )
    }

    fn string(&mut self, name: &str) -> Result<Option<String>, String> {
        match self.values.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            Some(other) => Err(self.wrong_type(name, "a string", other)),
        }
    }

    /// A string, a comma-separated string, or a list of strings.
    fn list(&mut self, name: &str) -> Result<Option<Vec<String>>, String> {
        let split = |s: &str| -> Vec<String> {
            s.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        };
        match self.values.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(split(s))),
            Some(Value::Array(items)) => {
                let mut out = Vec::new();
                for item in items {
                    match item {
                        Value::String(s) => out.extend(split(s)),
                        other => {
                            return Err(self.wrong_type(name, "a list of strings", other));
                        }
                    }
                }
                Ok(Some(out))
            }
            Some(other) => Err(self.wrong_type(name, "a string or a list of strings", other)),
        }
    }

    fn count(&mut self, name: &str) -> Result<Option<usize>, String> {
        match self.values.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) if n.as_u64().is_some() => {
                Ok(n.as_u64().and_then(|n| usize::try_from(n).ok()))
            }
            Some(other) => Err(self.wrong_type(name, "a whole number", other)),
        }
    }

    fn number(&mut self, name: &str) -> Result<Option<f64>, String> {
        match self.values.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => Ok(n.as_f64()),
            Some(other) => Err(self.wrong_type(name, "a number", other)),
        }
    }

    fn flag(&mut self, name: &str) -> Result<bool, String> {
        match self.values.get(name) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(self.wrong_type(name, "true or false", other)),
        }
    }
}

fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("`{b}`"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "a mapping".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(v: Value) -> BTreeMap<String, Value> {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn task_args_become_a_request() {
        let r = build_request(
            Mode::Task,
            "auth",
            &args(
                json!({"status": ["pending", "active"], "limit": 3, "include_archive": true,
                          "field": "title,labels", "threshold": 0.5}),
            ),
        )
        .unwrap();
        let Request::Task(r) = r else {
            panic!("not a task request")
        };
        assert_eq!(r.status, ["pending", "active"]);
        assert_eq!(r.limit, 3);
        assert!(r.include_archive);
        assert_eq!(r.fields, [TaskField::Title, TaskField::Labels]);
        assert_eq!(r.threshold, Some(0.5));
    }

    #[test]
    fn file_mode_args() {
        let r = build_request(
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
        let r = build_request(Mode::Ask, "where is replay implemented", &BTreeMap::new()).unwrap();
        assert_eq!(result_limit(&r, &Profile::default()), 5);
    }

    #[test]
    fn unknown_and_mistyped_args_are_named() {
        let e = build_request(Mode::Task, "x", &args(json!({"limt": 3}))).unwrap_err();
        assert!(e.contains("unknown arg `limt`"), "{e}");
        assert!(e.contains("limit"), "{e}");
        let e = build_request(Mode::Task, "x", &args(json!({"limit": "three"}))).unwrap_err();
        assert!(e.contains("`limit`") && e.contains("whole number"), "{e}");
        let e = build_request(Mode::Task, "x", &args(json!({"exact": "yes"}))).unwrap_err();
        assert!(e.contains("true or false"), "{e}");
        let e = build_request(Mode::Ask, "x", &args(json!({"impl": true}))).unwrap_err();
        assert!(
            e.contains("unknown arg `impl` for mode `ask`; allowed: limit"),
            "{e}"
        );
    }
}
