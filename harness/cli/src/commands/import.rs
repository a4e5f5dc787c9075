//! `findbench import FORMAT PATH...`: the session logs coding agents write (Claude Code,
//! Codex CLI, OpenTelemetry GenAI spans) as findbench trace lines, one per search, for
//! `replay` and `clusters` (docs/traces.md). Lines go to stdout, or with `--out FILE` to a
//! temporary name renamed into place; what could not be used is listed on stderr.

use clap::Args;
use findbench_eval::atomic_file::{write_atomic, write_atomic_with};
use findbench_eval::error::CodedError;
use findbench_traces::error::TracesError;
use findbench_traces::import::{
    check_formats, find_logs, import_file, FileImport, ImportFormat, ImportOptions, ImportSummary,
};
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// What wrote the logs.
    #[arg(value_enum, value_name = "FORMAT")]
    pub format: ImportFormat,
    /// Log files, or directories searched for `*.jsonl` at any depth (in sorted order).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Write the trace lines to FILE (through a temporary name, renamed when complete)
    /// instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The tree every trace is replayed against, in place of the directory the session ran
    /// in (a checkout of the same repository, or a copy); `expected` paths stay relative.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Write each question as its SHA-256 (`sha256:<hex>`), never its text.
    #[arg(long)]
    pub redact: bool,
    /// Also write the import summary (counts, problems by kind and by file:line) as JSON.
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
}

pub fn run(args: ImportArgs) -> i32 {
    match import(&args) {
        Ok(()) => 0,
        // stdout carries trace lines: an error goes to stderr whatever --format says
        Err(e) => {
            eprintln!("error: {e}");
            if let Some(hint) = e.hint() {
                eprintln!("hint: {hint}");
            }
            e.exit_code()
        }
    }
}

fn import(args: &ImportArgs) -> Result<(), TracesError> {
    let format = args.format;
    let options = ImportOptions::new(args.root.as_deref(), args.redact)?;
    let files = find_logs(&args.paths)?;
    check_formats(format, &files)?;
    let mut summary = ImportSummary::new(format.name());
    let mut imports: Vec<FileImport> = Vec::with_capacity(files.len());
    let mut traces = 0;
    // every file is read before anything is written: logs with no search write nothing
    for file in &files {
        let imported = import_file(format, file, &options);
        traces += imported.traces.len();
        imports.push(imported);
    }
    if traces == 0 {
        for imported in &mut imports {
            summary.add(imported);
        }
        eprint!("{}", summary.render());
        return Err(TracesError::invalid_with_hint(
            format!(
                "no search to import: {} held none",
                files
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            format!(
                "a trace is a search the agent ran ({} logs: docs/traces.md); check FORMAT and the paths",
                format.name()
            ),
        ));
    }
    let mut each_file = |write: &mut dyn FnMut(&str) -> std::io::Result<()>| {
        for imported in &mut imports {
            write(&lines(imported))?;
            summary.add(imported);
        }
        std::io::Result::Ok(())
    };
    match &args.out {
        Some(out) => {
            write_atomic_with(out, |w| each_file(&mut |text| w.write_all(text.as_bytes())))?
        }
        // stdout's own errors end the process there (output::print)
        None => each_file(&mut |text| {
            crate::output::print(text);
            Ok(())
        })
        .map_err(|e| TracesError::file("-", e.to_string()))?,
    }
    eprint!("{}", summary.render());
    if let Some(path) = &args.summary {
        let mut doc = serde_json::to_string_pretty(&summary.to_json())
            .map_err(|e| TracesError::invalid(e.to_string()))?;
        doc.push('\n');
        write_atomic(path, doc.as_bytes())?;
    }
    Ok(())
}

/// A file's traces as JSON lines.
fn lines(imported: &FileImport) -> String {
    let mut out = String::new();
    for trace in &imported.traces {
        // a Trace is strings, numbers and lists: it always serialises
        if let Ok(line) = serde_json::to_string(trace) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}
