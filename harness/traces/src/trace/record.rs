//! The trace line model: what one recorded agent retrieval looks like.

use serde::{Deserialize, Serialize};
use std::time::SystemTime;

/// One agent retrieval as recorded in production.
///
/// Unknown fields are accepted and ignored: production emitters add fields freely, and a
/// replay only needs the documented ones.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    pub trace_id: String,
    /// RFC 3339 UTC, e.g. `2026-06-19T09:12:03Z`.
    pub timestamp: String,
    /// The agent's natural-language question.
    pub query: String,
    /// The fixture the question was asked against, resolved under `--fixtures DIR`.
    pub fixture: String,
    #[serde(default)]
    pub tools: Vec<ToolCall>,
    pub outcome: TraceOutcome,
    #[serde(default)]
    pub iterations: u32,
    #[serde(default)]
    pub duration_ms: f64,
}

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
}

pub use findbench_eval::results::TraceOutcome;

impl Trace {
    /// Parses one JSON line and checks what serde cannot: non-empty ids, a readable time.
    pub fn parse_line(line: &str) -> Result<Trace, String> {
        let trace: Trace = serde_json::from_str(line).map_err(|e| e.to_string())?;
        if trace.trace_id.trim().is_empty() {
            return Err("empty `trace_id`".into());
        }
        if trace.fixture.trim().is_empty() {
            return Err("empty `fixture`".into());
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
            .contains("unknown variant"));
        let bad = LINE.replace("2026-06-19T09:00:00Z", "yesterday");
        assert!(Trace::parse_line(&bad).unwrap_err().contains("timestamp"));
        let bad = LINE.replace(r#""trace_id":"t1","#, "");
        assert!(Trace::parse_line(&bad).unwrap_err().contains("trace_id"));
    }

    #[test]
    fn accepts_fractional_seconds() {
        let line = LINE.replace("09:00:00Z", "09:00:00.250Z");
        assert!(Trace::parse_line(&line).is_ok());
    }
}
