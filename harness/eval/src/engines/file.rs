//! Engine files (`engines/NAME.yaml`): the YAML shape, parsed with spans so that every
//! error names the file and line, like corpora (`corpus/load.rs`), then validated into an
//! [`ExternalEngine`] before any case runs.
//!
//! ```yaml
//! name: rg
//! about: ripgrep as an agent uses it without findbench
//! requires: [rg]                 # programs that must be on PATH besides each argv[0]
//! timeout_ms: 10000              # default of every mode
//! modes:
//!   grep:
//!     argv: ["{engine_dir}/rg-rank.sh", "{query}", "{root}", "{limit}"]
//!     answer: lines              # one path or id a line, best first
//!     no_match_exit: [1]         # exit codes that mean "found nothing"
//!   path:
//!     argv: [fzf, --filter, "{query}"]
//!     stdin: "{paths}"           # a file fed to the tool's standard input
//!     answer: json               # or: the ranked list under `list`, each item's key under `key`
//!     list: results.matches
//!     key: path
//! ```

use super::command::{Answer, ExternalEngine, ModeCommand};
use super::template::{Placeholder, Template};
use crate::error::{HarnessError, Origin, Result};
use findbench_engine::Mode;
use serde::Deserialize;
use serde_saphyr::Spanned;
use std::collections::BTreeMap;
use std::path::Path;

/// Timeout of a mode that names none, nor the file.
pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;
/// Most bytes of a tool's standard output read by default; more is a failed case.
pub const DEFAULT_MAX_OUTPUT_BYTES: u64 = 4 * 1024 * 1024;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EngineFile {
    name: Spanned<String>,
    #[serde(default)]
    about: Option<String>,
    #[serde(default)]
    requires: Vec<Spanned<String>>,
    #[serde(default)]
    timeout_ms: Option<Spanned<u64>>,
    modes: Spanned<BTreeMap<String, Spanned<ModeSpec>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ModeSpec {
    /// The program and its arguments, run without a shell.
    #[serde(default)]
    argv: Option<Spanned<Vec<String>>>,
    /// A command line for `sh -c`, only with `shell: true`.
    #[serde(default)]
    command: Option<Spanned<String>>,
    #[serde(default)]
    shell: bool,
    #[serde(default)]
    cwd: Option<Spanned<String>>,
    /// A file fed to standard input (a template, e.g. `{paths}`).
    #[serde(default)]
    stdin: Option<Spanned<String>>,
    #[serde(default)]
    timeout_ms: Option<Spanned<u64>>,
    answer: Spanned<String>,
    /// `json`: dotted key of the ranked list (empty: the document is the list).
    #[serde(default)]
    list: Option<Spanned<String>>,
    /// `json`: key of each item's path or id (absent: the items are strings).
    #[serde(default)]
    key: Option<Spanned<String>>,
    /// `json`: dotted key of the outcome (success, no_match, insufficient_evidence, failure).
    #[serde(default)]
    outcome: Option<Spanned<String>>,
    /// The outcome of an empty answer: no_match (default) or insufficient_evidence.
    #[serde(default)]
    empty: Option<Spanned<String>>,
    /// Exit codes besides 0 that mean the tool ran and found nothing.
    #[serde(default)]
    no_match_exit: Vec<i32>,
    #[serde(default)]
    max_output_bytes: Option<Spanned<u64>>,
}

/// Reads and validates an engine file.
pub fn load_engine_file(path: &Path) -> Result<ExternalEngine> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| HarnessError::file(path, format!("cannot read engine file: {e}")))?;
    parse_engine_str(path, &text)
}

/// Parses and validates an engine file's text; `path` names it in messages and gives
/// `{engine_dir}`.
pub fn parse_engine_str(path: &Path, text: &str) -> Result<ExternalEngine> {
    let at = |line: u64| Origin::at(path, line as usize, None);
    let file: EngineFile = serde_saphyr::from_str(text).map_err(|e| {
        let line = e.location().map(|l| l.line()).unwrap_or(0);
        let message = e.without_snippet().to_string();
        let message = message.lines().next().unwrap_or("").trim();
        let message = match message.rfind(" at line ") {
            Some(i) => &message[..i],
            None => message,
        };
        HarnessError::invalid_at(at(line), message.to_string())
    })?;
    let name = file.name.value.trim().to_string();
    if name.is_empty() || name.contains([',', '/', ' ']) {
        return Err(HarnessError::invalid_at(
            at(file.name.referenced.line()),
            format!("engine `name` must be one word without `,` or `/`, got `{name}`"),
        ));
    }
    let default_timeout = match &file.timeout_ms {
        Some(t) => positive(t, "timeout_ms", &at)?,
        None => DEFAULT_TIMEOUT_MS,
    };
    if file.modes.value.is_empty() {
        return Err(HarnessError::invalid_at(
            at(file.modes.referenced.line()),
            "`modes` is empty: name at least one mode the tool answers",
        ));
    }
    let mut modes = BTreeMap::new();
    for (mode_name, spec) in &file.modes.value {
        let line = spec.referenced.line();
        let mode = Mode::parse(mode_name.trim()).map_err(|e| {
            let hint = e.hint().map(|h| format!(" ({h})")).unwrap_or_default();
            HarnessError::invalid_at(at(line), format!("{e}{hint}"))
        })?;
        let command = mode_command(mode, &spec.value, line, default_timeout, &at)
            .map_err(|e| prefix_mode(e, mode))?;
        modes.insert(mode, command);
    }
    let requires = file
        .requires
        .iter()
        .map(|r| {
            let v = r.value.trim();
            if v.is_empty() {
                Err(HarnessError::invalid_at(
                    at(r.referenced.line()),
                    "`requires` holds an empty program name",
                ))
            } else {
                Ok(v.to_string())
            }
        })
        .collect::<Result<Vec<_>>>()?;
    let engine_dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let engine_dir = engine_dir
        .canonicalize()
        .unwrap_or_else(|_| engine_dir.to_path_buf());
    Ok(ExternalEngine {
        name,
        about: file.about.map(|a| a.trim().to_string()),
        file: path.to_path_buf(),
        engine_dir,
        requires,
        modes,
    })
}

fn prefix_mode(e: HarnessError, mode: Mode) -> HarnessError {
    match e {
        HarnessError::Invalid {
            origin,
            message,
            hint,
        } => HarnessError::Invalid {
            origin,
            message: format!("mode `{}`: {message}", mode.as_str()),
            hint,
        },
        other => other,
    }
}

fn positive(value: &Spanned<u64>, field: &str, at: &dyn Fn(u64) -> Origin) -> Result<u64> {
    if value.value == 0 {
        return Err(HarnessError::invalid_at(
            at(value.referenced.line()),
            format!("`{field}` must be at least 1"),
        ));
    }
    Ok(value.value)
}

fn mode_command(
    mode: Mode,
    spec: &ModeSpec,
    line: u64,
    default_timeout: u64,
    at: &dyn Fn(u64) -> Origin,
) -> Result<ModeCommand> {
    let invalid = |line: u64, m: String| HarnessError::invalid_at(at(line), m);
    let template = |s: &Spanned<String>| {
        Template::parse(&s.value).map_err(|m| invalid(s.referenced.line(), m))
    };
    let argv: Vec<Template> = match (&spec.argv, &spec.command, spec.shell) {
        (Some(_), Some(c), _) => {
            return Err(invalid(
                c.referenced.line(),
                "give `argv` or `command`, not both".into(),
            ))
        }
        (Some(a), None, false) => {
            if a.value.is_empty() || a.value[0].trim().is_empty() {
                return Err(invalid(
                    a.referenced.line(),
                    "`argv` needs a program as its first word".into(),
                ));
            }
            a.value
                .iter()
                .map(|w| Template::parse(w).map_err(|m| invalid(a.referenced.line(), m)))
                .collect::<Result<_>>()?
        }
        (Some(a), None, true) => {
            return Err(invalid(
                a.referenced.line(),
                "`shell: true` runs a `command` string with sh -c; `argv` runs without a shell"
                    .into(),
            ))
        }
        (None, Some(c), true) => vec![
            Template::literal("sh"),
            Template::literal("-c"),
            template(c)?.shell_quoted(),
        ],
        (None, Some(c), false) => {
            return Err(invalid(
                c.referenced.line(),
                "`command` is run by a shell only with `shell: true` (or write `argv`)".into(),
            ))
        }
        (None, None, _) => {
            return Err(invalid(
                line,
                "needs `argv` (the program and its arguments) or `command` with `shell: true`"
                    .into(),
            ))
        }
    };
    let cwd = spec.cwd.as_ref().map(template).transpose()?;
    let stdin = spec.stdin.as_ref().map(template).transpose()?;
    let command_line = spec
        .argv
        .as_ref()
        .map(|a| a.referenced.line())
        .or(spec.command.as_ref().map(|c| c.referenced.line()))
        .unwrap_or(line);
    let mut used: Vec<Placeholder> = argv.iter().flat_map(|t| t.placeholders()).collect();
    if !used.contains(&Placeholder::Query) {
        return Err(invalid(
            command_line,
            "the command never passes `{query}`".into(),
        ));
    }
    used.extend(
        cwd.iter()
            .chain(stdin.iter())
            .flat_map(|t| t.placeholders()),
    );
    let fixture_needed: &[Placeholder] = match mode {
        Mode::Task | Mode::Name | Mode::Outline | Mode::Get => &[Placeholder::Store],
        Mode::Code | Mode::Grep | Mode::Ask => &[Placeholder::Root],
        Mode::Path => &[Placeholder::Root, Placeholder::Paths],
    };
    if !fixture_needed.iter().any(|p| used.contains(p)) {
        let names: Vec<String> = fixture_needed
            .iter()
            .map(|p| format!("`{{{}}}`", p.as_str()))
            .collect();
        return Err(invalid(
            command_line,
            format!(
                "the command never names {}, what the mode searches (in argv, cwd or stdin)",
                names.join(" or ")
            ),
        ));
    }
    let answer = match spec.answer.value.trim() {
        "lines" => {
            for (key, given) in [
                ("list", &spec.list),
                ("key", &spec.key),
                ("outcome", &spec.outcome),
            ] {
                if let Some(g) = given {
                    return Err(invalid(
                        g.referenced.line(),
                        format!("`{key}` applies to `answer: json` only"),
                    ));
                }
            }
            Answer::Lines
        }
        "json" => Answer::Json {
            list: spec
                .list
                .as_ref()
                .map(|l| l.value.trim().to_string())
                .unwrap_or_default(),
            key: spec.key.as_ref().map(|k| k.value.trim().to_string()),
            outcome: spec.outcome.as_ref().map(|o| o.value.trim().to_string()),
        },
        other => {
            return Err(invalid(
                spec.answer.referenced.line(),
                format!("`answer` is lines or json, got `{other}`"),
            ))
        }
    };
    let empty = match spec.empty.as_ref().map(|e| (e.value.trim(), e)) {
        None | Some(("no_match", _)) => findbench_engine::Outcome::NoMatch,
        Some(("insufficient_evidence", _)) => findbench_engine::Outcome::InsufficientEvidence,
        Some((other, e)) => {
            return Err(invalid(
                e.referenced.line(),
                format!("`empty` is no_match or insufficient_evidence, got `{other}`"),
            ))
        }
    };
    if let Some(code) = spec.no_match_exit.iter().find(|c| **c == 0) {
        return Err(invalid(
            line,
            format!("`no_match_exit` lists {code}, which is success already"),
        ));
    }
    Ok(ModeCommand {
        argv,
        shell: spec.shell,
        cwd,
        stdin,
        timeout_ms: match &spec.timeout_ms {
            Some(t) => positive(t, "timeout_ms", at)?,
            None => default_timeout,
        },
        answer,
        empty,
        no_match_exit: spec.no_match_exit.clone(),
        max_output_bytes: match &spec.max_output_bytes {
            Some(m) => positive(m, "max_output_bytes", at)?,
            None => DEFAULT_MAX_OUTPUT_BYTES,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "name: t\ntimeout_ms: 500\nmodes:\n  grep:\n    argv: [tool, \"{query}\", \"{root}\"]\n    answer: lines\n    no_match_exit: [1]\n  path:\n    argv: [fzf, --filter, \"{query}\"]\n    stdin: \"{paths}\"\n    answer: json\n    list: results\n    key: path\n";

    fn err(text: &str) -> String {
        parse_engine_str(Path::new("e.yaml"), text)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn parses_modes_answers_and_timeouts() {
        let e = parse_engine_str(Path::new("e.yaml"), GOOD).unwrap();
        assert_eq!(e.name, "t");
        assert_eq!(e.modes.len(), 2);
        let grep = &e.modes[&Mode::Grep];
        assert_eq!(grep.timeout_ms, 500);
        assert_eq!(grep.answer, Answer::Lines);
        assert_eq!(grep.no_match_exit, [1]);
        let path = &e.modes[&Mode::Path];
        assert_eq!(
            path.answer,
            Answer::Json {
                list: "results".into(),
                key: Some("path".into()),
                outcome: None
            }
        );
        assert!(path.stdin.is_some());
    }

    #[test]
    fn unknown_keys_and_modes_name_file_and_line() {
        let e = err(&GOOD.replace("    answer: lines\n", "    answer: lines\n    anwser: x\n"));
        assert!(e.starts_with("e.yaml:7:"), "{e}");
        assert!(e.contains("anwser"), "{e}");
        let e = err(&GOOD.replace("  grep:", "  grop:"));
        assert!(
            e.starts_with("e.yaml:5:") || e.starts_with("e.yaml:4:"),
            "{e}"
        );
        assert!(e.contains("unknown mode `grop`"), "{e}");
        let e = err(&GOOD.replace("timeout_ms: 500", "timeout: 500"));
        assert!(e.starts_with("e.yaml:2:") && e.contains("timeout"), "{e}");
    }

    #[test]
    fn placeholders_are_checked() {
        let e = err(&GOOD.replace("\"{query}\", \"{root}\"", "\"{qeury}\", \"{root}\""));
        assert!(e.starts_with("e.yaml:5:"), "{e}");
        assert!(e.contains("unknown placeholder `{qeury}`"), "{e}");
        let e = err(&GOOD.replace("\"{query}\", \"{root}\"", "\"{root}\""));
        assert!(
            e.contains("mode `grep`: the command never passes `{query}`"),
            "{e}"
        );
        let e = err(&GOOD.replace("\"{query}\", \"{root}\"", "\"{query}\""));
        assert!(e.contains("never names `{root}`"), "{e}");
        let e = err(&GOOD.replace("    stdin: \"{paths}\"\n", ""));
        assert!(e.contains("`{root}` or `{paths}`"), "{e}");
    }

    #[test]
    fn shell_only_when_declared() {
        let e = err(&GOOD.replace(
            "    argv: [tool, \"{query}\", \"{root}\"]",
            "    command: \"tool {query} {root} | head\"",
        ));
        assert!(e.contains("only with `shell: true`"), "{e}");
        let ok = GOOD.replace(
            "    argv: [tool, \"{query}\", \"{root}\"]",
            "    command: \"tool {query} {root} | awk '{{print}}'\"\n    shell: true",
        );
        let e = parse_engine_str(Path::new("e.yaml"), &ok).unwrap();
        assert_eq!(e.modes[&Mode::Grep].argv.len(), 3);
    }

    #[test]
    fn answer_kinds_and_values() {
        let e = err(&GOOD.replace("answer: lines", "answer: csv"));
        assert!(
            e.contains("e.yaml:6:") && e.contains("lines or json"),
            "{e}"
        );
        let e = err(&GOOD.replace("answer: lines", "answer: lines\n    key: path"));
        assert!(e.contains("`key` applies to `answer: json` only"), "{e}");
        let e = err(&GOOD.replace("timeout_ms: 500", "timeout_ms: 0"));
        assert!(e.contains("e.yaml:2:") && e.contains("at least 1"), "{e}");
    }
}
