//! Engines: any find tool measured on the same corpora as findbench (README, "How does my
//! tool compare?").
//!
//! - this module: the engine model ([`Engine`]: findbench's own, built in, or an external
//!   tool), resolving `--engine NAME|FILE`, and whether a tool is installed;
//! - [`command`]: an external tool's command per mode and how its output is read;
//! - [`template`]: command templates and their placeholders;
//! - [`file`]: engine files (`engines/NAME.yaml`), validated with file and line;
//! - [`external`]: runs one case through an external tool (spawn, timeout, bounded output,
//!   answer parsing), a broken tool being a failed case, never a broken run;
//! - [`run`]: every engine over the same cases, and the per-engine results;
//! - [`select`]: one engine of a results document, or two paired, for `compare`.

pub mod command;
pub mod external;
pub mod file;
pub mod run;
pub mod select;
pub mod template;

use crate::case::CaseResult;
use crate::error::{HarnessError, Result};
use crate::metrics::GroupMetrics;
use command::ExternalEngine;
use findbench_engine::Mode;
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

    #[test]
    fn programs_are_found_on_path_or_by_path() {
        assert!(find_program("sh").is_some());
        assert!(find_program("surely-not-a-program-findbench").is_none());
        assert!(find_program("/nonexistent/tool").is_none());
    }
}
