//! `findbench import`: the session logs coding agents already write, turned into findbench
//! trace lines (one per search the agent ran) that `replay` and `clusters` read.
//!
//! - [`claude_code`]: Claude Code transcripts (`~/.claude/projects/<dir>/<session>.jsonl`);
//! - [`codex`]: Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`);
//! - [`otel`]: OTLP/JSON GenAI spans, through the reader `replay` uses ([`crate::trace::otlp`]).
//!
//! The readers fill one model ([`session`], [`turn`]); [`search_call`] recognises searches
//! and file reads in shell commands; [`to_trace`] makes the lines. Tool output is never
//! copied: only its size and its line count. A line that cannot be used is a [`Problem`]
//! with its `file:line`, counted by kind, and the rest of the file goes on.

pub mod claude_code;
pub mod claude_subagents;
pub mod codex;
mod log_lines;
pub mod options;
pub mod otel;
pub mod root_path;
pub mod search_call;
pub mod session;
pub mod shell_words;
pub mod summary;
pub mod to_trace;
pub mod turn;

pub use options::ImportOptions;
pub use summary::{FileImport, ImportSummary, Problem, ProblemKind};

use crate::error::TracesError;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// The agent log formats `import` reads (`FORMAT` on its command line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum ImportFormat {
    /// Claude Code transcripts (~/.claude/projects/<dir>/<session>.jsonl).
    ClaudeCode,
    /// Codex CLI rollouts (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl).
    Codex,
    /// OTLP/JSON GenAI spans, as `replay --from otlp` reads them.
    Otel,
}

impl ImportFormat {
    pub const ALL: [ImportFormat; 3] = [
        ImportFormat::ClaudeCode,
        ImportFormat::Codex,
        ImportFormat::Otel,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ImportFormat::ClaudeCode => "claude-code",
            ImportFormat::Codex => "codex",
            ImportFormat::Otel => "otel",
        }
    }

    /// The format named `name`; an unknown name is invalid input listing the formats.
    pub fn parse(name: &str) -> Result<ImportFormat, TracesError> {
        ImportFormat::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = ImportFormat::ALL.iter().map(|f| f.name()).collect();
                TracesError::invalid_with_hint(
                    format!("unknown agent log format `{name}`"),
                    format!("one of: {}", names.join(", ")),
                )
            })
    }
}

/// The log files of `paths`: a file as given, a directory's `*.jsonl` at any depth (sorted),
/// each once. A path that does not exist is a file error (exit 3).
pub fn find_logs(paths: &[PathBuf]) -> Result<Vec<PathBuf>, TracesError> {
    let mut out: Vec<PathBuf> = Vec::new();
    for path in paths {
        let mut found = Vec::new();
        if path.is_dir() {
            walk(path, &mut found)?;
            found.sort();
            if found.is_empty() {
                return Err(TracesError::file_with_hint(
                    path,
                    "directory holds no *.jsonl agent log",
                    where_logs_are(),
                ));
            }
        } else if path.is_file() {
            found.push(path.clone());
        } else {
            return Err(TracesError::file_with_hint(
                path,
                "no such agent log file or directory",
                where_logs_are(),
            ));
        }
        for f in found {
            // a subagent's transcript is read with its session's
            if path.is_dir() && claude_subagents::is_read_with_its_session(&f) {
                continue;
            }
            if !out.contains(&f) {
                out.push(f);
            }
        }
    }
    Ok(out)
}

fn where_logs_are() -> &'static str {
    "Claude Code keeps its sessions in ~/.claude/projects/, Codex CLI in ~/.codex/sessions/ \
     (docs/traces.md)"
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), TracesError> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| TracesError::file(dir, format!("cannot list: {e}")))?;
    for entry in entries {
        let entry = entry.map_err(|e| TracesError::file(dir, format!("cannot list: {e}")))?;
        let path = entry.path();
        // a link to a directory is not followed: it could loop
        let kind = entry
            .file_type()
            .map_err(|e| TracesError::file(&path, e.to_string()))?;
        if kind.is_dir() {
            walk(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "jsonl") && path.is_file() {
            out.push(path);
        }
    }
    Ok(())
}

/// Lines of a log [`sniff`] looks at for the format it is in.
const SNIFF_LINES: usize = 50;

/// The format a log's first lines show it is in, when one of them says: an OTLP request
/// (`resourceSpans`), a Claude Code entry (`sessionId`, a `user` or `assistant` entry with a
/// `message`, a `summary` with a `leafUuid`) or a Codex rollout entry (`session_meta`,
/// `response_item`, `turn_context`, `event_msg` with a `payload`; an older rollout's
/// `record_type` or first line with `instructions`). None for a log that shows nothing.
pub fn sniff(reader: &mut dyn BufRead) -> Option<ImportFormat> {
    let mut line = String::new();
    for _ in 0..SNIFF_LINES {
        line.clear();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let Ok(serde_json::Value::Object(entry)) = serde_json::from_str(line.trim()) else {
            continue;
        };
        let kind = entry.get("type").and_then(|t| t.as_str()).unwrap_or("");
        if entry.contains_key("resourceSpans") {
            return Some(ImportFormat::Otel);
        }
        if entry.contains_key("sessionId")
            || (matches!(kind, "user" | "assistant") && entry.contains_key("message"))
            || (kind == "summary" && entry.contains_key("leafUuid"))
        {
            return Some(ImportFormat::ClaudeCode);
        }
        if (matches!(
            kind,
            "session_meta" | "response_item" | "turn_context" | "event_msg"
        ) && entry.contains_key("payload"))
            || entry.contains_key("record_type")
            || (entry.contains_key("instructions") && entry.contains_key("id"))
        {
            return Some(ImportFormat::Codex);
        }
    }
    None
}

/// Checks that no log of `files` shows another format than `format` ([`sniff`]): a
/// Claude Code log imported as `codex` (or the reverse) would only give `unknown_type`
/// lines. Invalid input (exit 2) naming the file and the format it is in.
pub fn check_formats(format: ImportFormat, files: &[PathBuf]) -> Result<(), TracesError> {
    for file in files {
        let Ok(f) = std::fs::File::open(file) else {
            continue; // counted as unreadable by the import itself
        };
        let found = sniff(&mut std::io::BufReader::new(f));
        if let Some(found) = found.filter(|f| *f != format) {
            return Err(TracesError::invalid_with_hint(
                format!(
                    "{}: this is a {} log, not {}",
                    file.display(),
                    found.name(),
                    format.name()
                ),
                format!(
                    "import it as `findbench import {} {}`",
                    found.name(),
                    file.display()
                ),
            ));
        }
    }
    Ok(())
}

/// Imports one log file. Never fails: a file that cannot be read is a problem of kind
/// `unreadable`, and the other files go on.
pub fn import_file(format: ImportFormat, path: &Path, options: &ImportOptions) -> FileImport {
    let unreadable = |e: std::io::Error| FileImport {
        problems: vec![Problem {
            file: path.to_path_buf(),
            line: 0,
            kind: ProblemKind::Unreadable,
            detail: format!("cannot read: {e}"),
        }],
        ..FileImport::default()
    };
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => return unreadable(e),
    };
    let mut reader = std::io::BufReader::with_capacity(64 * 1024, file);
    import_reader(format, path, &mut reader, options).unwrap_or_else(unreadable)
}

/// Imports a log read from `reader`, reported as `path`.
pub fn import_reader(
    format: ImportFormat,
    path: &Path,
    reader: &mut dyn BufRead,
    options: &ImportOptions,
) -> std::io::Result<FileImport> {
    Ok(match format {
        ImportFormat::ClaudeCode => to_trace::traces(claude_code::read(path, reader)?, options),
        ImportFormat::Codex => to_trace::traces(codex::read(path, reader)?, options),
        ImportFormat::Otel => otel::read(path, reader, options)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_name_and_an_unknown_one_lists_them() {
        assert_eq!(
            ImportFormat::parse("claude-code").unwrap(),
            ImportFormat::ClaudeCode
        );
        let e = ImportFormat::parse("cursor").unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert_eq!(
            findbench_eval::error::CodedError::hint(&e).as_deref(),
            Some("one of: claude-code, codex, otel")
        );
    }

    #[test]
    fn a_log_shows_its_format_in_its_first_lines() {
        let sniffed = |text: &str| sniff(&mut text.as_bytes());
        let logs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpora/fixtures/agent-logs");
        for (format, dir) in [
            (ImportFormat::ClaudeCode, "claude-code"),
            (ImportFormat::Codex, "codex"),
            (ImportFormat::Otel, "otel"),
        ] {
            let files = find_logs(&[logs.join(dir)]).unwrap();
            assert!(!files.is_empty());
            for f in files {
                let text = std::fs::read_to_string(&f).unwrap();
                assert_eq!(sniffed(&text), Some(format), "{}", f.display());
                check_formats(format, std::slice::from_ref(&f)).unwrap();
                let other = if format == ImportFormat::Codex {
                    ImportFormat::ClaudeCode
                } else {
                    ImportFormat::Codex
                };
                let e = check_formats(other, std::slice::from_ref(&f)).unwrap_err();
                assert_eq!(e.exit_code(), 2);
                assert!(
                    e.to_string().contains(&format!(
                        "this is a {} log, not {}",
                        format.name(),
                        other.name()
                    )),
                    "{e}"
                );
            }
        }
        assert_eq!(sniffed(""), None);
        assert_eq!(sniffed("not json\n{\"type\":\"other\"}\n"), None);
    }

    #[test]
    fn logs_are_found_sorted_at_any_depth_and_a_missing_path_is_exit_3() {
        let dir = tempfile::tempdir().unwrap();
        let day = dir.path().join("2025/09/12");
        std::fs::create_dir_all(&day).unwrap();
        for name in ["rollout-b.jsonl", "rollout-a.jsonl", "notes.txt"] {
            std::fs::write(day.join(name), "").unwrap();
        }
        std::fs::write(dir.path().join("top.jsonl"), "").unwrap();
        let found = find_logs(&[dir.path().to_path_buf()]).unwrap();
        let names: Vec<String> = found
            .iter()
            .map(|p| p.strip_prefix(dir.path()).unwrap().display().to_string())
            .collect();
        assert_eq!(
            names,
            [
                "2025/09/12/rollout-a.jsonl",
                "2025/09/12/rollout-b.jsonl",
                "top.jsonl"
            ]
        );
        let e = find_logs(&[dir.path().join("absent")]).unwrap_err();
        assert_eq!(e.exit_code(), 3);
        let e = ImportOptions::new(Some(&dir.path().join("absent")), false).unwrap_err();
        assert_eq!(e.exit_code(), 3);
    }
}
