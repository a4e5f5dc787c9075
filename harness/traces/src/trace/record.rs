//! The trace line model: what one recorded agent retrieval looks like.

use super::fixture::{FixtureField, FixtureSource};
use serde::{Deserialize, Serialize};
use std::time::SystemTime;

/// One agent retrieval as recorded in production.
///
/// Unknown fields are accepted and ignored: production emitters add fields freely, and a
/// replay only needs the documented ones. Read and written as a trace line whose `fixture` is
/// a name or an object ([`FixtureSource`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "TraceLine", into = "TraceLine")]
pub struct Trace {
    pub trace_id: String,
    /// RFC 3339 UTC, e.g. `2026-06-19T09:12:03Z`.
    pub timestamp: String,
    /// The agent's natural-language question.
    pub query: String,
    /// The fixture the question was asked against, resolved under `--fixtures DIR`; when the
    /// line names its tree itself (`fixture_source`), that tree's label.
    pub fixture: String,
    /// Set when the line's `fixture` is an object: the tree it names.
    pub fixture_source: Option<FixtureSource>,
    pub tools: Vec<ToolCall>,
    pub outcome: TraceOutcome,
    pub iterations: u32,
    pub duration_ms: f64,
    /// The files the agent read or edited after this retrieval, relative to the fixture
    /// (`findbench import` sets it from agent logs).
    pub expected: Option<Vec<String>>,
    /// The agent's calls after this search in its turn, in order, up to the first read of
    /// the last of `expected` (`findbench import` sets it): what the agent read to reach an
    /// expected file.
    pub later_calls: Option<Vec<LaterCall>>,
    /// Set on calls recorded by `findbench serve --record`: the tool and its arguments as
    /// the agent sent them. Replay re-runs this call rather than `ask` on the query.
    pub call: Option<RecordedCall>,
}

/// A trace line as written: [`Trace`] with its `fixture` a name or an object. The fields
/// added after the first format are skipped when absent, so older lines stay byte for byte.
#[derive(Serialize, Deserialize)]
struct TraceLine {
    trace_id: String,
    timestamp: String,
    query: String,
    fixture: FixtureField,
    #[serde(default)]
    tools: Vec<ToolCall>,
    outcome: TraceOutcome,
    #[serde(default)]
    iterations: u32,
    #[serde(default)]
    duration_ms: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    expected: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    later_calls: Option<Vec<LaterCall>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    call: Option<RecordedCall>,
}

impl From<TraceLine> for Trace {
    fn from(line: TraceLine) -> Trace {
        let (fixture, fixture_source) = match line.fixture {
            FixtureField::Name(name) => (name, None),
            FixtureField::Source(source) => (source.label(), Some(source)),
        };
        Trace {
            trace_id: line.trace_id,
            timestamp: line.timestamp,
            query: line.query,
            fixture,
            fixture_source,
            tools: line.tools,
            outcome: line.outcome,
            iterations: line.iterations,
            duration_ms: line.duration_ms,
            expected: line.expected,
            later_calls: line.later_calls,
            call: line.call,
        }
    }
}

impl From<Trace> for TraceLine {
    fn from(trace: Trace) -> TraceLine {
        TraceLine {
            trace_id: trace.trace_id,
            timestamp: trace.timestamp,
            query: trace.query,
            fixture: match trace.fixture_source {
                Some(source) => FixtureField::Source(source),
                None => FixtureField::Name(trace.fixture),
            },
            tools: trace.tools,
            outcome: trace.outcome,
            iterations: trace.iterations,
            duration_ms: trace.duration_ms,
            expected: trace.expected,
            later_calls: trace.later_calls,
            call: trace.call,
        }
    }
}

/// One MCP tool call as received (see [`Trace::call`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedCall {
    /// `find_task`, `find_code`, `ask`, ...
    pub tool: String,
    /// The arguments as sent (a JSON object, or whatever malformed value arrived).
    #[serde(default)]
    pub arguments: serde_json::Value,
    /// What `fixture` names: a `root` (tree), a `store` or a `paths` list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixture_kind: Option<FixtureKind>,
}

pub use findbench_eval::tools::FixtureKind;

/// One tool call of a recorded retrieval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub name: String,
    #[serde(default)]
    pub input: String,
    #[serde(default)]
    pub candidates: u64,
    #[serde(default)]
    pub duration_ms: f64,
    /// The bytes the tool gave back to the agent (`findbench import` keeps only this size,
    /// never the output).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_bytes: Option<u64>,
}

/// One call the agent made after a search, in the same turn: another search, or a file
/// read or edited. Only its size is kept, never its output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaterCall {
    pub kind: LaterCallKind,
    /// A read or edit that succeeded: the file, relative to the fixture. Absent for a
    /// search, a call that failed and a file outside the fixture (none can reach an
    /// expected file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The bytes the call gave back to the agent; 0 for a later step of one shell command
    /// whose output an earlier step already counts.
    #[serde(default)]
    pub output_bytes: u64,
}

/// What a [`LaterCall`] was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LaterCallKind {
    Search,
    /// A file read or edited.
    Read,
}

pub use findbench_eval::results::TraceOutcome;

impl Trace {
    /// Parses one JSON line and checks what serde cannot: non-empty ids, a readable time.
    pub fn parse_line(line: &str) -> Result<Trace, String> {
        // a UTF-8 byte order mark some editors write at the start of a file
        let line = line.strip_prefix('\u{feff}').unwrap_or(line);
        let trace: Trace =
            serde_json::from_str(line).map_err(|e| super::line_error::describe(line, &e))?;
        if trace.trace_id.trim().is_empty() {
            return Err("empty `trace_id`".into());
        }
        if let Some(problem) = trace
            .fixture_source
            .as_ref()
            .and_then(FixtureSource::problem)
        {
            return Err(problem);
        }
        if trace.fixture.trim().is_empty() {
            return Err("empty `fixture`".into());
        }
        // a fixture name is a directory under --fixtures: `../x` or `/etc` would replay a
        // tree outside it (an object fixture names its tree outright, as --root does)
        let fixture = std::path::Path::new(&trace.fixture);
        if trace.fixture_source.is_none()
            && !fixture
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)))
        {
            return Err(format!(
                "`fixture` `{}` must name a directory inside --fixtures (no `..`, no absolute \
                 path)",
                trace.fixture
            ));
        }
        let durations = std::iter::once(("duration_ms", trace.duration_ms)).chain(
            trace
                .tools
                .iter()
                .map(|t| ("tools[].duration_ms", t.duration_ms)),
        );
        for (field, value) in durations {
            if !(value >= 0.0 && value.is_finite()) {
                return Err(format!(
                    "`{field}` is {value}: a duration is 0 or more milliseconds"
                ));
            }
        }
        trace.time()?;
        Ok(trace)
    }

    /// The timestamp as a point in time.
    pub fn time(&self) -> Result<SystemTime, String> {
        humantime::parse_rfc3339_weak(&self.timestamp)
            .map_err(|e| format!("`timestamp` `{}` is not RFC 3339 UTC ({e})", self.timestamp))
    }

    /// The recorded tool names in order, e.g. `find → grep`.
    pub fn tool_sequence(&self) -> String {
        tool_sequence(self.tools.iter().map(|t| t.name.as_str()))
    }
}

/// Joins tool names the way reports show a cascade.
pub fn tool_sequence<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.into_iter().collect();
    if names.is_empty() {
        "(none)".into()
    } else {
        names.join(" → ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = r#"{"trace_id":"t1","timestamp":"2026-06-19T09:00:00Z","query":"find cursor binary","fixture":"agent-cpp","tools":[{"name":"find","input":"cursor[ _-]?binary","candidates":0,"duration_ms":80.5}],"outcome":"insufficient_evidence","iterations":3,"duration_ms":200,"agent":"x"}"#;

    #[test]
    fn parses_documented_fields_and_ignores_extra_ones() {
        let t = Trace::parse_line(LINE).unwrap();
        assert_eq!(t.trace_id, "t1");
        assert_eq!(t.outcome, TraceOutcome::InsufficientEvidence);
        assert_eq!(t.tools[0].input, "cursor[ _-]?binary");
        assert_eq!(t.tool_sequence(), "find");
        assert_eq!(t.iterations, 3);
    }

    #[test]
    fn rejects_unknown_outcome_and_bad_time() {
        let bad = LINE.replace("insufficient_evidence", "maybe");
        assert!(Trace::parse_line(&bad)
            .unwrap_err()
            .starts_with("field `outcome`: expected one of"));
        let bad = LINE.replace("2026-06-19T09:00:00Z", "yesterday");
        assert!(Trace::parse_line(&bad).unwrap_err().contains("timestamp"));
        let bad = LINE.replace(r#""trace_id":"t1","#, "");
        assert!(Trace::parse_line(&bad).unwrap_err().contains("trace_id"));
    }

    #[test]
    fn rejects_negative_durations_escaping_fixtures_and_names_the_field() {
        let bad = LINE.replace(r#""duration_ms":200"#, r#""duration_ms":-5"#);
        let e = Trace::parse_line(&bad).unwrap_err();
        assert!(e.contains("`duration_ms` is -5"), "{e}");
        let bad = LINE.replace(r#""duration_ms":80.5"#, r#""duration_ms":-1"#);
        let e = Trace::parse_line(&bad).unwrap_err();
        assert!(e.contains("`tools[].duration_ms` is -1"), "{e}");
        for fixture in ["../../../../etc", "/etc", "a/../../b"] {
            let bad = LINE.replace("agent-cpp", fixture);
            let e = Trace::parse_line(&bad).unwrap_err();
            assert!(e.contains("inside --fixtures"), "{fixture}: {e}");
        }
        let bad = LINE.replace(r#""iterations":3"#, r#""iterations":tree"#);
        let e = Trace::parse_line(&bad).unwrap_err();
        assert!(e.starts_with("not valid JSON at column "), "{e}");
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let t = Trace::parse_line(&format!("\u{feff}{LINE}")).unwrap();
        assert_eq!(t.trace_id, "t1");
    }

    #[test]
    fn a_line_without_the_added_fields_is_written_back_byte_for_byte() {
        // f64 durations print with a fraction, as every writer gives them
        let plain = LINE
            .replace(r#":200,"#, ":200.5,")
            .replace(r#","agent":"x""#, "");
        let t = Trace::parse_line(&plain).unwrap();
        assert_eq!(
            (t.expected.as_ref(), t.fixture_source.as_ref()),
            (None, None)
        );
        assert_eq!(t.tools[0].output_bytes, None);
        assert_eq!(serde_json::to_string(&t).unwrap(), plain);
    }

    #[test]
    fn an_imported_line_names_its_tree_and_what_the_agent_read() {
        let line = LINE
            .replace(r#":200,"#, ":200.5,")
            .replace(r#""agent-cpp""#, r#"{"root":"/home/dev/agent-cpp"}"#)
            .replace(
                r#""duration_ms":80.5}"#,
                r#""duration_ms":80.5,"output_bytes":412}"#,
            )
            .replace(
                r#","agent":"x""#,
                r#","expected":["src/cursor/cursor_binary.cpp"]"#,
            );
        let t = Trace::parse_line(&line).unwrap();
        assert_eq!(t.fixture, "/home/dev/agent-cpp");
        assert_eq!(
            t.fixture_source,
            Some(FixtureSource::Root("/home/dev/agent-cpp".into()))
        );
        assert_eq!(t.tools[0].output_bytes, Some(412));
        assert_eq!(
            t.expected.as_deref(),
            Some(&["src/cursor/cursor_binary.cpp".to_string()][..])
        );
        assert_eq!(serde_json::to_string(&t).unwrap(), line);
        let empty = line.replace("/home/dev/agent-cpp", "");
        assert_eq!(
            Trace::parse_line(&empty).unwrap_err(),
            "empty `fixture.root`"
        );
        let git = LINE.replace(r#""agent-cpp""#, r#"{"git":"/r","rev":"4f2c"}"#);
        let t = Trace::parse_line(&git).unwrap();
        assert_eq!(t.fixture, "/r@4f2c");
    }

    #[test]
    fn accepts_fractional_seconds() {
        let line = LINE.replace("09:00:00Z", "09:00:00.250Z");
        assert!(Trace::parse_line(&line).is_ok());
    }
}
