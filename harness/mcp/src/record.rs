//! `--record DIR`: every tool call as one trace line, in findbench's JSONL (what `replay`
//! and `clusters` read) or as OTLP/JSON (one `ExportTraceServiceRequest` per line, the
//! collector file exporter's shape, with a GenAI `execute_tool` span).
//!
//! Files rotate daily, named by the UTC date of the call (`findbench-2026-11-23.jsonl`,
//! `otlp-2026-11-23.jsonl`). Each line is built whole in memory and handed to the kernel in
//! one `write` on a file opened for appending, so a killed server loses at most the line in
//! flight and never leaves half of one line glued to the next. Nothing is written outside
//! DIR.

use findbench_engine::modes::ask::AskResponse;
use findbench_engine::{Outcome, Response};
use findbench_tools::call::Answer;
use findbench_tools::{FixtureKind, ToolCall};
use findbench_traces::trace::{
    FixtureSource, RecordedCall, ToolCall as TraceTool, Trace, TraceOutcome,
};
use serde_json::{json, Value};
use std::fs::{File, OpenOptions};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The format of recorded lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordFormat {
    /// findbench's trace JSONL (`schemas/trace.schema.json`).
    Findbench,
    /// OTLP/JSON, one `ExportTraceServiceRequest` per line.
    Otlp,
}

impl RecordFormat {
    fn prefix(self) -> &'static str {
        match self {
            RecordFormat::Findbench => "findbench",
            RecordFormat::Otlp => "otlp",
        }
    }
}

/// Everything known of one call once it is answered (or refused).
pub struct CallRecord<'a> {
    pub started: SystemTime,
    pub elapsed: Duration,
    /// The tool name as called.
    pub tool: &'a str,
    /// The arguments as received.
    pub arguments: &'a Value,
    /// The parsed call, when the arguments parsed.
    pub call: Option<&'a ToolCall>,
    /// The fixture the call ran against (kind and canonical path), when it got that far.
    pub fixture: Option<(FixtureKind, &'a Path)>,
    /// The fixture pinned for a later replay (`service.rs` asks `git_pin.rs`), for a
    /// fixture outside `--fixtures`; recorded instead of its path.
    pub pin: Option<FixtureSource>,
    pub answer: &'a Answer,
}

/// Writes call records under one directory.
pub struct Recorder {
    dir: PathBuf,
    format: RecordFormat,
    /// Fixtures under this directory are recorded by their path relative to it (what
    /// `replay --fixtures` resolves); others by their canonical path.
    fixtures_base: Option<PathBuf>,
    session: String,
    seed: u64,
    seq: AtomicU64,
    open: Mutex<Option<(String, File)>>,
}

/// The UTC date `YYYY-MM-DD` of a time.
fn utc_date(t: SystemTime) -> String {
    humantime::format_rfc3339_seconds(t).to_string()[..10].to_string()
}

fn nanos(t: SystemTime) -> u128 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos())
}

fn mix(seed: u64, n: u64) -> u64 {
    let mut h = DefaultHasher::new();
    (seed, n).hash(&mut h);
    h.finish()
}

impl Recorder {
    /// Creates DIR if needed. `fixtures_base` is canonicalised when it exists.
    pub fn create(
        dir: &Path,
        format: RecordFormat,
        fixtures_base: Option<&Path>,
    ) -> std::io::Result<Recorder> {
        std::fs::create_dir_all(dir)?;
        let now = SystemTime::now();
        let stamp = humantime::format_rfc3339_seconds(now)
            .to_string()
            .replace([':', '-'], "");
        let session = format!("mcp-{}-{}", &stamp[..15], std::process::id());
        Ok(Recorder {
            dir: dir.to_path_buf(),
            format,
            fixtures_base: fixtures_base.and_then(|b| b.canonicalize().ok()),
            seed: mix(nanos(now) as u64, u64::from(std::process::id())),
            session,
            seq: AtomicU64::new(0),
            open: Mutex::new(None),
        })
    }

    /// The name a fixture is recorded under: its path relative to `--fixtures` when it lies
    /// there, else its canonical path.
    pub fn fixture_name(&self, path: &Path) -> String {
        self.relative_name(path)
            .unwrap_or_else(|| path.display().to_string())
    }

    /// A fixture's path relative to `--fixtures`, when it lies there (what `replay
    /// --fixtures` resolves); `None` for a fixture to pin.
    pub fn relative_name(&self, path: &Path) -> Option<String> {
        let rel = path.strip_prefix(self.fixtures_base.as_ref()?).ok()?;
        (!rel.as_os_str().is_empty()).then(|| rel.to_string_lossy().replace('\\', "/"))
    }

    /// The label and object a fixture is recorded under.
    fn fixture_of(&self, rec: &CallRecord<'_>) -> (String, Option<FixtureSource>) {
        match (rec.fixture, &rec.pin) {
            (Some(_), Some(pin)) => (pin.label(), Some(pin.clone())),
            (Some((_, path)), None) => (self.fixture_name(path), None),
            // refused before a fixture was resolved: nothing to replay against
            (None, _) => (NO_FIXTURE.to_string(), None),
        }
    }

    /// Appends one call's line (to the file of the call's UTC date).
    pub fn record(&self, rec: &CallRecord<'_>) -> std::io::Result<()> {
        let n = self.seq.fetch_add(1, Ordering::Relaxed) + 1;
        let mut line = match self.format {
            RecordFormat::Findbench => serde_json::to_string(&self.trace(rec, n))?,
            RecordFormat::Otlp => self.otlp(rec, n).to_string(),
        };
        line.push('\n');
        let date = utc_date(rec.started);
        let mut guard = self
            .open
            .lock()
            .map_err(|_| std::io::Error::other("recorder lock poisoned"))?;
        if guard.as_ref().is_none_or(|(d, _)| *d != date) {
            let path = self
                .dir
                .join(format!("{}-{date}.jsonl", self.format.prefix()));
            let file = OpenOptions::new().create(true).append(true).open(path)?;
            *guard = Some((date, file));
        }
        let (_, file) = guard.as_mut().expect("opened above");
        // one write of the whole line: O_APPEND keeps concurrent lines apart
        file.write_all(line.as_bytes())?;
        file.flush()
    }

    fn trace(&self, rec: &CallRecord<'_>, n: u64) -> Trace {
        let duration_ms = findbench_tools::envelope::round_ms(rec.elapsed);
        let outcome = trace_outcome(rec.answer.outcome());
        let query = rec.call.map(ToolCall::query).unwrap_or_default();
        let (tools, iterations) = match &rec.answer.result {
            Ok(Response::Ask(ask)) => ask_tools(ask),
            Ok(response) => (
                vec![TraceTool {
                    name: rec.tool.to_string(),
                    input: query.clone(),
                    candidates: response.candidates() as u64,
                    duration_ms,
                    output_bytes: None,
                }],
                1,
            ),
            Err(_) => (
                vec![TraceTool {
                    name: rec.tool.to_string(),
                    input: query.clone(),
                    candidates: 0,
                    duration_ms,
                    output_bytes: None,
                }],
                1,
            ),
        };
        let (fixture, fixture_source) = self.fixture_of(rec);
        Trace {
            trace_id: format!("{}-{n:06}", self.session),
            timestamp: humantime::format_rfc3339_millis(rec.started).to_string(),
            query,
            fixture,
            fixture_source,
            tools,
            outcome,
            iterations,
            duration_ms,
            expected: None,
            later_calls: None,
            call: Some(RecordedCall {
                tool: rec.tool.to_string(),
                arguments: rec.arguments.clone(),
                fixture_kind: rec.fixture.map(|(k, _)| k),
            }),
        }
    }

    fn otlp(&self, rec: &CallRecord<'_>, n: u64) -> Value {
        let start = nanos(rec.started);
        let end = start + rec.elapsed.as_nanos();
        let trace_id = format!("{:016x}{:016x}", mix(self.seed, n), mix(self.seed ^ 1, n));
        let span_id = format!("{:016x}", mix(self.seed ^ 2, n));
        let document = rec.answer.document();
        let mut attributes = vec![
            string_attr("gen_ai.operation.name", "execute_tool"),
            string_attr("gen_ai.tool.name", rec.tool),
            string_attr("gen_ai.tool.call.id", &format!("{}-{n:06}", self.session)),
            string_attr("gen_ai.tool.type", "function"),
            string_attr("gen_ai.tool.call.arguments", &rec.arguments.to_string()),
            string_attr("gen_ai.tool.call.result", &document.to_string()),
        ];
        if let Some((kind, _)) = rec.fixture {
            attributes.push(string_attr("findbench.fixture", &self.fixture_of(rec).0));
            attributes.push(string_attr(
                "findbench.fixture_kind",
                match kind {
                    FixtureKind::Root => "root",
                    FixtureKind::Store => "store",
                    FixtureKind::Paths => "paths",
                },
            ));
        }
        let status = match &rec.answer.result {
            Ok(_) => json!({"code": 1}),
            Err(e) => json!({"code": 2, "message": e.to_string()}),
        };
        json!({"resourceSpans": [{
            "resource": {"attributes": [
                string_attr("service.name", "findbench"),
                string_attr("service.version", findbench_engine::VERSION),
            ]},
            "scopeSpans": [{
                "scope": {"name": "findbench-mcp", "version": findbench_engine::VERSION},
                "spans": [{
                    "traceId": trace_id,
                    "spanId": span_id,
                    "name": format!("execute_tool {}", rec.tool),
                    "kind": 1,
                    "startTimeUnixNano": start.to_string(),
                    "endTimeUnixNano": end.to_string(),
                    "attributes": attributes,
                    "status": status,
                }]
            }]
        }]})
    }
}

/// The `fixture` of a call refused before it named a readable fixture.
pub const NO_FIXTURE: &str = "-";

fn string_attr(key: &str, value: &str) -> Value {
    json!({"key": key, "value": {"stringValue": value}})
}

/// A mode's outcome as a trace outcome: nothing found is `insufficient_evidence`.
pub fn trace_outcome(o: Outcome) -> TraceOutcome {
    match o {
        Outcome::Success => TraceOutcome::Success,
        Outcome::NoMatch | Outcome::InsufficientEvidence => TraceOutcome::InsufficientEvidence,
        Outcome::Failure => TraceOutcome::Failure,
    }
}

/// `ask`'s own cascade as the trace's tools, as production traces record it.
fn ask_tools(ask: &AskResponse) -> (Vec<TraceTool>, u32) {
    let tools = ask
        .calls
        .iter()
        .map(|c| TraceTool {
            name: c.tool.as_str().to_string(),
            input: c.input.clone(),
            candidates: c.candidates as u64,
            duration_ms: 0.0,
            output_bytes: None,
        })
        .collect();
    (tools, u32::try_from(ask.iterations).unwrap_or(u32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use findbench_engine::EngineError;
    use findbench_tools::envelope::Meta;

    fn refused(at: SystemTime) -> Answer {
        Answer {
            meta: Meta::new("grep", at, Duration::from_millis(1)),
            schema: "grep.schema.json",
            result: Err(EngineError::invalid("bad")),
            walk: None,
            fixture: None,
        }
    }

    #[test]
    fn lines_rotate_by_utc_date_and_stay_under_the_directory() {
        let dir = tempfile::tempdir().unwrap();
        let record = dir.path().join("rec");
        let recorder = Recorder::create(&record, RecordFormat::Findbench, None).unwrap();
        let day = |s: &str| humantime::parse_rfc3339(s).unwrap();
        let args = json!({"term": 1});
        for at in [
            day("2026-11-23T23:59:59Z"),
            day("2026-11-24T00:00:01Z"),
            day("2026-11-24T10:00:00Z"),
        ] {
            let answer = refused(at);
            let rec = CallRecord {
                started: at,
                elapsed: Duration::from_millis(1),
                tool: "grep",
                arguments: &args,
                call: None,
                fixture: None,
                pin: None,
                answer: &answer,
            };
            recorder.record(&rec).unwrap();
        }
        let mut files: Vec<String> = std::fs::read_dir(&record)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        files.sort();
        assert_eq!(
            files,
            ["findbench-2026-11-23.jsonl", "findbench-2026-11-24.jsonl"]
        );
        let second = std::fs::read_to_string(record.join("findbench-2026-11-24.jsonl")).unwrap();
        let lines: Vec<Trace> = second
            .lines()
            .map(|l| Trace::parse_line(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].fixture, NO_FIXTURE);
        assert_eq!(lines[0].outcome, TraceOutcome::Failure);
        assert_eq!(lines[0].call.as_ref().unwrap().arguments, args);
        // nothing but the record directory was written
        let top: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(top.len(), 1);
    }

    #[test]
    fn otlp_lines_carry_a_genai_execute_tool_span() {
        let dir = tempfile::tempdir().unwrap();
        let recorder = Recorder::create(dir.path(), RecordFormat::Otlp, None).unwrap();
        let at = humantime::parse_rfc3339("2026-11-23T12:00:00Z").unwrap();
        let answer = refused(at);
        let args = json!({"term": "x"});
        let line = recorder.otlp(
            &CallRecord {
                started: at,
                elapsed: Duration::from_millis(3),
                tool: "grep",
                arguments: &args,
                call: None,
                fixture: None,
                pin: None,
                answer: &answer,
            },
            1,
        );
        let span = &line["resourceSpans"][0]["scopeSpans"][0]["spans"][0];
        assert_eq!(span["name"], "execute_tool grep");
        assert_eq!(span["status"]["code"], 2);
        assert_eq!(span["traceId"].as_str().unwrap().len(), 32);
        assert_eq!(span["spanId"].as_str().unwrap().len(), 16);
        let end: u128 = span["endTimeUnixNano"].as_str().unwrap().parse().unwrap();
        let start: u128 = span["startTimeUnixNano"].as_str().unwrap().parse().unwrap();
        assert_eq!(end - start, 3_000_000);
        let attrs = span["attributes"].as_array().unwrap();
        let get = |k: &str| {
            attrs
                .iter()
                .find(|a| a["key"] == k)
                .map(|a| a["value"]["stringValue"].clone())
        };
        assert_eq!(get("gen_ai.operation.name"), Some(json!("execute_tool")));
        assert_eq!(
            get("gen_ai.tool.call.arguments"),
            Some(json!("{\"term\":\"x\"}"))
        );
    }
}
