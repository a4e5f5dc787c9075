//! Engines: any find tool measured on the same corpora as findbench (README, "How does my
//! tool compare?").
//!
//! - this module: the engine model ([`Engine`]: findbench's own, built in, or an external
//!   tool), command templates and their placeholders, resolving `--engine NAME|FILE`, and
//!   whether a tool is installed;
//! - [`file`]: engine files (`engines/NAME.yaml`), validated with file and line;
//! - [`external`]: runs one case through an external tool (spawn, timeout, bounded output,
//!   answer parsing), a broken tool being a failed case, never a broken run;
//! - [`run`]: every engine over the same cases, and the per-engine results;
//! - [`select`]: one engine of a results document, or two paired, for `compare`.

pub mod external;
pub mod file;
pub mod run;
pub mod select;

use crate::error::{HarnessError, Result};
use crate::metrics::GroupMetrics;
use crate::results::CaseResult;
use findbench_engine::{Mode, Outcome};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The name of the built-in engine (findbench-engine, in process).
pub const BUILTIN: &str = "findbench";

/// One engine of a run.
#[derive(Debug, Clone)]
pub enum Engine {
    /// findbench's own engine, called in process with the run's profile.
    Builtin,
    External(ExternalEngine),
}

impl Engine {
    pub fn name(&self) -> &str {
        match self {
            Engine::Builtin => BUILTIN,
            Engine::External(e) => &e.name,
        }
    }

    /// Whether the engine answers `mode` (the others are "n/a" for it).
    pub fn supports(&self, mode: Mode) -> bool {
        match self {
            Engine::Builtin => true,
            Engine::External(e) => e.modes.contains_key(&mode),
        }
    }

    /// Resolves `--engine` values: `findbench`, a file path, or a NAME of
    /// `engines/NAME.yaml` in the working directory.
    pub fn resolve(spec: &str) -> Result<Engine> {
        let spec = spec.trim();
        if spec == BUILTIN {
            return Ok(Engine::Builtin);
        }
        let as_path = Path::new(spec);
        if as_path.is_file() {
            return file::load_engine_file(as_path).map(Engine::External);
        }
        let shipped = Path::new("engines").join(format!("{spec}.yaml"));
        if !spec.contains(['/', '\\']) && shipped.is_file() {
            return file::load_engine_file(&shipped).map(Engine::External);
        }
        Err(HarnessError::file(
            as_path,
            format!(
                "no such engine: not `{BUILTIN}`, not a file, and no {} (engines are `{BUILTIN}`, a NAME of engines/NAME.yaml, or an engine file)",
                shipped.display()
            ),
        ))
    }

    /// Why the engine cannot run here (a program it needs is not installed), or None.
    pub fn missing(&self) -> Option<String> {
        let Engine::External(e) = self else {
            return None;
        };
        let mut programs: Vec<String> = e.requires.clone();
        for command in e.modes.values() {
            if let Some(first) = command.argv.first() {
                // argv[0] with only `{engine_dir}` in it is known before any case
                if let Some(p) = first.expand_static(&e.engine_dir) {
                    programs.push(p);
                }
            }
        }
        let mut missing: Vec<String> = Vec::new();
        for p in programs {
            if find_program(&p).is_none() && !missing.contains(&p) {
                missing.push(p);
            }
        }
        (!missing.is_empty()).then(|| {
            let names: Vec<String> = missing.iter().map(|m| format!("`{m}`")).collect();
            format!(
                "{} not installed (not found on PATH)",
                if names.len() == 1 {
                    format!("{} is", names[0])
                } else {
                    format!("{} are", names.join(", "))
                }
            )
        })
    }
}

/// Where `program` is: a path (with a `/`) if it is an executable file, else the first
/// executable of that name in a PATH directory.
pub fn find_program(program: &str) -> Option<PathBuf> {
    let executable = |p: &Path| -> bool {
        match std::fs::metadata(p) {
            Ok(m) if m.is_file() => {
                #[cfg(unix)]
                {
                    use std::os::unix::fs::PermissionsExt;
                    m.permissions().mode() & 0o111 != 0
                }
                #[cfg(not(unix))]
                {
                    true
                }
            }
            _ => false,
        }
    };
    if program.contains('/') || program.contains(std::path::MAIN_SEPARATOR) {
        let p = PathBuf::from(program);
        return executable(&p).then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| executable(p))
}

/// An external tool, as its engine file describes it.
#[derive(Debug, Clone)]
pub struct ExternalEngine {
    pub name: String,
    pub about: Option<String>,
    /// The engine file.
    pub file: PathBuf,
    /// Its directory, absolute: `{engine_dir}`, for scripts shipped beside the file.
    pub engine_dir: PathBuf,
    /// Programs that must be installed besides each command's first word.
    pub requires: Vec<String>,
    pub modes: BTreeMap<Mode, ModeCommand>,
}

/// How an external tool answers one mode.
#[derive(Debug, Clone, PartialEq)]
pub struct ModeCommand {
    /// The program and its arguments (`sh -c COMMAND` for `shell: true`).
    pub argv: Vec<Template>,
    pub shell: bool,
    pub cwd: Option<Template>,
    /// A file whose bytes are fed to standard input.
    pub stdin: Option<Template>,
    pub timeout_ms: u64,
    pub answer: Answer,
    /// The outcome of an empty answer.
    pub empty: Outcome,
    /// Exit codes besides 0 that mean the tool found nothing.
    pub no_match_exit: Vec<i32>,
    /// Standard output beyond this is a failed case.
    pub max_output_bytes: u64,
}

/// How to read a tool's standard output.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// One path or id a line, best first; blank lines ignored.
    Lines,
    /// A JSON document: the ranked list at the dotted key `list` (empty: the document),
    /// each item's path or id at `key` (None: the items are strings); optionally the
    /// outcome at the dotted key `outcome`.
    Json {
        list: String,
        key: Option<String>,
        outcome: Option<String>,
    },
}

/// A value a command template takes from the case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placeholder {
    /// The case's query.
    Query,
    /// The source tree (absolute), for root fixtures.
    Root,
    /// The item store file (absolute), for store fixtures.
    Store,
    /// A file of paths, one a line: the path list of a paths fixture, or the files of a
    /// source tree as findbench walks them (written once per run).
    Paths,
    /// The case's result limit.
    Limit,
    /// The engine file's directory (absolute).
    EngineDir,
}

impl Placeholder {
    const ALL: [Placeholder; 6] = [
        Placeholder::Query,
        Placeholder::Root,
        Placeholder::Store,
        Placeholder::Paths,
        Placeholder::Limit,
        Placeholder::EngineDir,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Placeholder::Query => "query",
            Placeholder::Root => "root",
            Placeholder::Store => "store",
            Placeholder::Paths => "paths",
            Placeholder::Limit => "limit",
            Placeholder::EngineDir => "engine_dir",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Text(String),
    Value(Placeholder),
}

/// One argument (or the cwd, or the stdin file) with `{placeholder}`s; `{{` and `}}` are
/// literal braces, and a brace that does not open `{name}` of letters and `_` is literal
/// too (so `awk '{print $1}'` needs no escaping).
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    pieces: Vec<Piece>,
    /// Substituted values are single-quoted for `sh -c`.
    quote: bool,
}

impl Template {
    pub fn literal(s: &str) -> Template {
        Template {
            pieces: vec![Piece::Text(s.to_string())],
            quote: false,
        }
    }

    /// Parses `s`; an unknown `{name}` is an error naming the known ones.
    pub fn parse(s: &str) -> std::result::Result<Template, String> {
        let mut pieces = Vec::new();
        let mut text = String::new();
        let mut rest = s;
        while let Some(i) = rest.find(['{', '}']) {
            text.push_str(&rest[..i]);
            let tail = &rest[i..];
            if tail.starts_with("{{") || tail.starts_with("}}") {
                text.push(tail.as_bytes()[0] as char);
                rest = &tail[2..];
                continue;
            }
            if tail.starts_with('{') {
                if let Some(end) = tail.find('}') {
                    let name = &tail[1..end];
                    if !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                    {
                        let p = Placeholder::ALL
                            .into_iter()
                            .find(|p| p.as_str() == name)
                            .ok_or_else(|| {
                                let known: Vec<String> = Placeholder::ALL
                                    .iter()
                                    .map(|p| format!("{{{}}}", p.as_str()))
                                    .collect();
                                format!(
                                    "unknown placeholder `{{{name}}}` (placeholders are {}; `{{{{` is a literal brace)",
                                    known.join(", ")
                                )
                            })?;
                        if !text.is_empty() {
                            pieces.push(Piece::Text(std::mem::take(&mut text)));
                        }
                        pieces.push(Piece::Value(p));
                        rest = &tail[end + 1..];
                        continue;
                    }
                }
            }
            text.push(tail.as_bytes()[0] as char);
            rest = &tail[1..];
        }
        text.push_str(rest);
        if !text.is_empty() {
            pieces.push(Piece::Text(text));
        }
        Ok(Template {
            pieces,
            quote: false,
        })
    }

    /// The same template for a `sh -c` command line: every substituted value quoted.
    pub fn shell_quoted(mut self) -> Template {
        self.quote = true;
        self
    }

    pub fn placeholders(&self) -> Vec<Placeholder> {
        self.pieces
            .iter()
            .filter_map(|p| match p {
                Piece::Value(v) => Some(*v),
                Piece::Text(_) => None,
            })
            .collect()
    }

    /// The text when the template holds no placeholder besides `{engine_dir}`.
    pub fn expand_static(&self, engine_dir: &Path) -> Option<String> {
        let mut out = String::new();
        for p in &self.pieces {
            match p {
                Piece::Text(t) => out.push_str(t),
                Piece::Value(Placeholder::EngineDir) => out.push_str(&engine_dir.to_string_lossy()),
                Piece::Value(_) => return None,
            }
        }
        Some(out)
    }

    /// The text with every placeholder replaced; a placeholder without a value (`{root}`
    /// for a store fixture) is an error naming it.
    pub fn expand(
        &self,
        value: &dyn Fn(Placeholder) -> Option<String>,
    ) -> std::result::Result<String, String> {
        let mut out = String::new();
        for p in &self.pieces {
            match p {
                Piece::Text(t) => out.push_str(t),
                Piece::Value(v) => {
                    let s = value(*v).ok_or_else(|| {
                        format!("`{{{}}}` has no value for this case's fixture", v.as_str())
                    })?;
                    if self.quote {
                        out.push_str(&shell_quote(&s));
                    } else {
                        out.push_str(&s);
                    }
                }
            }
        }
        Ok(out)
    }
}

/// `s` single-quoted for a POSIX shell.
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// What results.json records of each engine of a run (`engines`, when the run named one).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EngineReport {
    pub name: String,
    /// `builtin` or `external`.
    pub kind: String,
    /// The engine file of an external engine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub about: Option<String>,
    /// The modes it answers.
    pub modes: Vec<String>,
    /// The engine whose results are the run's `summary`, `suites` and `cases` (the first
    /// `--engine`): the one gated and compared with the baseline.
    pub primary: bool,
    /// Why it did not run (a program not installed); null when it ran.
    #[serde(default)]
    pub missing: Option<String>,
    /// Cases it ran, and cases of modes it does not answer ("n/a", not failures).
    pub cases_run: usize,
    pub not_applicable: usize,
    /// Its metrics over the cases it ran (absent when it ran none).
    #[serde(default)]
    pub summary: Option<GroupMetrics>,
    #[serde(default)]
    pub suites: BTreeMap<String, GroupMetrics>,
    /// Its case results; empty for the primary engine, whose cases are the run's `cases`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cases: Vec<CaseResult>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(p: Placeholder) -> Option<String> {
        match p {
            Placeholder::Query => Some("it's x".into()),
            Placeholder::Root => Some("/r".into()),
            Placeholder::Limit => Some("5".into()),
            _ => None,
        }
    }

    #[test]
    fn templates_substitute_escape_and_quote() {
        let t = Template::parse("--q={query} in {root}").unwrap();
        assert_eq!(t.expand(&values).unwrap(), "--q=it's x in /r");
        assert_eq!(
            t.clone().shell_quoted().expand(&values).unwrap(),
            r"--q='it'\''s x' in '/r'"
        );
        let t = Template::parse("awk '{print $1}' {{query}} {limit}").unwrap();
        assert_eq!(t.placeholders(), [Placeholder::Limit]);
        assert_eq!(t.expand(&values).unwrap(), "awk '{print $1}' {query} 5");
        let e = Template::parse("{store}").unwrap().expand(&values);
        assert_eq!(
            e.unwrap_err(),
            "`{store}` has no value for this case's fixture"
        );
        assert!(Template::parse("{quer}").unwrap_err().contains("{query}"));
    }

    #[test]
    fn programs_are_found_on_path_or_by_path() {
        assert!(find_program("sh").is_some());
        assert!(find_program("surely-not-a-program-findbench").is_none());
        assert!(find_program("/nonexistent/tool").is_none());
    }
}
