//! OpenTelemetry GenAI spans (OTLP/JSON): read by the reader `replay` uses
//! ([`crate::trace::otlp`]), so its traces, one per agent invocation, come out as every
//! other import's do: `--root` names the tree, `--redact` hashes the question, and each
//! tool call keeps the size of its `gen_ai.tool.call.result` as `output_bytes`. A span the
//! reader cannot use is a problem with its `file:line`: a line that is not JSON is
//! `not_json`, one that is not an export request `unknown_type`, any other `bad_span`.

use super::options::ImportOptions;
use super::summary::{FileImport, Problem, ProblemKind};
use super::to_trace::redacted;
use crate::trace::{otlp, FixtureSource, TraceItem};
use std::io::BufRead;
use std::path::Path;

/// Reads one OTLP/JSON file.
pub fn read(
    path: &Path,
    reader: &mut dyn BufRead,
    options: &ImportOptions,
) -> std::io::Result<FileImport> {
    let file = otlp::read_file(path, reader)?;
    let mut out = FileImport {
        lines: file.lines,
        ..FileImport::default()
    };
    out.entry_types.insert("span".into(), file.spans);
    for item in file.items {
        match item {
            TraceItem::Trace(mut trace) => {
                out.turns += 1;
                out.searches += trace.tools.len();
                if let Some(root) = &options.root {
                    let source = FixtureSource::Root(root.display().to_string());
                    trace.fixture = source.label();
                    trace.fixture_source = Some(source);
                }
                if options.redact {
                    trace.query = redacted(&trace.query);
                }
                out.traces.push(*trace);
            }
            TraceItem::Bad(bad) => {
                let kind =
                    if bad.reason.starts_with("not JSON") || bad.reason.starts_with("not UTF-8") {
                        ProblemKind::NotJson
                    } else if bad.reason.starts_with("not an OTLP") {
                        ProblemKind::UnknownType
                    } else {
                        ProblemKind::BadSpan
                    };
                out.problems.push(Problem {
                    file: bad.file,
                    line: bad.line,
                    kind,
                    detail: bad.reason,
                });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    const SPANS: &str = r#"{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"agent-cpp"}}]},"scopeSpans":[{"scope":{"name":"agent"},"spans":[{"traceId":"t1","spanId":"a","parentSpanId":"","name":"execute_tool grep","startTimeUnixNano":"1750000000000000000","endTimeUnixNano":"1750000000002000000","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"execute_tool"}},{"key":"gen_ai.tool.name","value":{"stringValue":"grep"}},{"key":"gen_ai.tool.call.arguments","value":{"stringValue":"{\"pattern\":\"cursor_binary\"}"}},{"key":"gen_ai.tool.call.result","value":{"stringValue":"{\"matches\":[{\"path\":\"src/a.cpp\"}]}"}}]}]}]}]}"#;

    #[test]
    fn spans_become_traces_with_the_root_the_redaction_and_result_sizes() {
        let text = format!("{SPANS}\nnot json\n{{\"foo\":1}}\n");
        let options = ImportOptions {
            root: Some(PathBuf::from("/srv/agent-cpp")),
            redact: true,
        };
        let out = read(Path::new("o.jsonl"), &mut text.as_bytes(), &options).unwrap();
        assert_eq!((out.lines, out.turns, out.searches), (3, 1, 1));
        let t = &out.traces[0];
        assert_eq!(t.fixture, "/srv/agent-cpp");
        assert_eq!(t.query, redacted("cursor_binary"));
        assert_eq!(t.tools[0].candidates, 1);
        assert_eq!(t.tools[0].output_bytes, Some(34));
        let kinds: Vec<(usize, ProblemKind)> =
            out.problems.iter().map(|p| (p.line, p.kind)).collect();
        assert_eq!(
            kinds,
            [(2, ProblemKind::NotJson), (3, ProblemKind::UnknownType)]
        );
        let plain = read(
            Path::new("o.jsonl"),
            &mut SPANS.as_bytes(),
            &ImportOptions::default(),
        )
        .unwrap();
        assert_eq!(plain.traces[0].fixture, "agent-cpp");
        assert_eq!(plain.traces[0].query, "cursor_binary");
    }
}
