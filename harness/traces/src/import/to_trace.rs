//! A session's searches as trace lines: one line per search, asking the question of its
//! turn against the tree the session ran in, with the files the agent read or edited after
//! it in that turn as `expected`.
//!
//! | trace field | from |
//! |---|---|
//! | `trace_id` | session id `/` the search's call id |
//! | `timestamp` | the search call's time (else its turn's, else the session's) |
//! | `query` | the person's message that started the turn (`sha256:` of it with `--redact`) |
//! | `fixture` | `{root: --root}`, else `{git: cwd, rev: commit}` when the log names the commit, else `{root: cwd}`, else the fixture name the log gives (OTLP) |
//! | `tools` | the one search: the agent tool's name, its pattern or command, the lines or paths it returned, the bytes it returned, its duration |
//! | `outcome` | `success` when the search returned something, `insufficient_evidence` when it did not |
//! | `iterations` | how many searches the turn had run, this one included |
//! | `expected` | files read or edited later in the turn, relative to the root (others counted as `outside_root`) |
//! | `later_calls` | the turn's later searches, reads and edits in order, each with the bytes it returned, up to the first read of the last `expected` file |

use super::options::ImportOptions;
use super::root_path::Roots;
use super::session::Session;
use super::summary::{FileImport, ProblemKind};
use super::turn::{Search, Step, Turn};
use crate::trace::{FixtureSource, LaterCall, LaterCallKind, ToolCall, Trace, TraceOutcome};
use std::collections::HashSet;
use std::path::PathBuf;

/// The traces of `session`, with its counts and problems.
pub fn traces(mut session: Session, options: &ImportOptions) -> FileImport {
    let searches = session
        .turns
        .iter()
        .flat_map(|t| &t.steps)
        .filter(|s| matches!(s, Step::Search(_)))
        .count();
    let mut out = FileImport {
        lines: session.lines,
        entry_types: std::mem::take(&mut session.entry_types),
        searches,
        turns: session.turns.len(),
        ..FileImport::default()
    };
    let fixture = match (&options.root, &session.cwd, &session.commit) {
        (Some(root), _, _) => Some(FixtureSource::Root(root.display().to_string())),
        (None, Some(cwd), Some(rev)) => Some(FixtureSource::Git {
            git: cwd.clone(),
            rev: rev.clone(),
            path: None,
            dirty: false,
        }),
        (None, Some(cwd), None) => Some(FixtureSource::Root(cwd.clone())),
        (None, None, _) => None,
    };
    // (label, source): a fixture by name has no source of its own
    let fixture = fixture
        .map(|f| (f.label(), Some(f)))
        .or_else(|| session.fixture_name.clone().map(|name| (name, None)));
    let roots = Roots {
        session: session.cwd.as_ref().map(PathBuf::from),
        replacement: options.root.clone(),
    };
    let session_id = session.id.clone().unwrap_or_else(|| {
        session
            .file
            .file_stem()
            .map_or_else(|| "session".into(), |s| s.to_string_lossy().into_owned())
    });
    let turns = std::mem::take(&mut session.turns);
    match &fixture {
        None if searches > 0 => {
            let line = turns.first().map_or(1, |t| t.line);
            session.problem(
                line,
                ProblemKind::NoRoot,
                format!(
                    "the session names no working directory: its {searches} searches need \
                     --root DIR"
                ),
            );
        }
        _ => {}
    }
    for turn in &turns {
        let expected = touched(&mut session, &roots, turn);
        let mut ordinal = 0u32;
        for (i, step) in turn.steps.iter().enumerate() {
            let Step::Search(search) = step else {
                continue;
            };
            ordinal += 1;
            if search.result.is_none() {
                session.problem_in(
                    search.source,
                    search.line,
                    ProblemKind::NoResult,
                    format!(
                        "search `{}` ({}) has no result in the log",
                        search.call_id, search.tool
                    ),
                );
                continue;
            }
            let Some(fixture) = &fixture else { continue };
            let Some(timestamp) = [&search.timestamp, &turn.timestamp, &session.started]
                .into_iter()
                .flatten()
                .next()
                .cloned()
            else {
                let detail = format!("search `{}` has no time in the log", search.call_id);
                session.problem_in(
                    search.source,
                    search.line,
                    ProblemKind::BadTimestamp,
                    detail,
                );
                continue;
            };
            if let Err(e) = humantime::parse_rfc3339_weak(&timestamp) {
                let detail = format!("`{timestamp}` is not RFC 3339 ({e})");
                session.problem_in(
                    search.source,
                    search.line,
                    ProblemKind::BadTimestamp,
                    detail,
                );
                continue;
            }
            let after: Vec<String> = expected
                .iter()
                .filter(|(at, _)| *at > i)
                .map(|(_, p)| p.clone())
                .fold(Vec::new(), |mut seen, p| {
                    if !seen.contains(&p) {
                        seen.push(p);
                    }
                    seen
                });
            let made = Made {
                session_id: &session_id,
                fixture,
                options,
            };
            let later = later_calls(turn, i, &expected, &after);
            let mut trace = made.trace(search, turn, timestamp, ordinal, after);
            trace.later_calls = later;
            out.traces.push(trace);
        }
    }
    out.problems = session.problems;
    // file order, whichever pass found them
    let order: Vec<PathBuf> = session.sources.clone();
    out.problems
        .sort_by_key(|p| (order.iter().position(|f| *f == p.file), p.line));
    out
}

/// The files read or edited in `turn` (step index, path relative to the root), from calls
/// that came back without an error; calls without a result and paths outside the root are
/// problems of the session.
fn touched(session: &mut Session, roots: &Roots, turn: &Turn) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, step) in turn.steps.iter().enumerate() {
        let Step::Touch(touch) = step else { continue };
        match &touch.result {
            None => session.problem_in(
                touch.source,
                touch.line,
                ProblemKind::NoResult,
                format!(
                    "read or edit `{}` of `{}` has no result in the log",
                    touch.call_id, touch.path
                ),
            ),
            Some(r) if r.is_error => {}
            Some(_) => match roots.relative(&touch.path, touch.base.as_deref()) {
                Some(path) => out.push((i, path)),
                None => session.problem_in(
                    touch.source,
                    touch.line,
                    ProblemKind::OutsideRoot,
                    format!("`{}` is outside the root: left out of expected", touch.path),
                ),
            },
        }
    }
    out
}

/// The calls of `turn` after its step `at` (a search) that came back, in order, up to
/// the one that first read or edited the last of `expected`: what the agent read to reach
/// each of them. `touched` is [`touched`]'s list; a step of a call already counted (a shell
/// command that searched and printed files) counts 0 bytes. None when the list is empty.
fn later_calls(
    turn: &Turn,
    at: usize,
    touched: &[(usize, String)],
    expected: &[String],
) -> Option<Vec<LaterCall>> {
    let mut counted: HashSet<&str> = HashSet::from([turn.steps[at].call_id()]);
    let mut unreached: Vec<&String> = expected.iter().collect();
    let mut calls = Vec::new();
    for (j, step) in turn.steps.iter().enumerate().skip(at + 1) {
        if unreached.is_empty() {
            break;
        }
        let Some(result) = step.result() else {
            continue;
        };
        let path = touched
            .binary_search_by_key(&j, |(k, _)| *k)
            .ok()
            .map(|k| touched[k].1.clone());
        if let Some(p) = &path {
            unreached.retain(|e| *e != p);
        }
        calls.push(LaterCall {
            kind: match step {
                Step::Search(_) => LaterCallKind::Search,
                Step::Touch(_) => LaterCallKind::Read,
            },
            path,
            output_bytes: if counted.insert(step.call_id()) {
                result.bytes
            } else {
                0
            },
        });
    }
    (!calls.is_empty()).then_some(calls)
}

/// What every trace of a session shares.
struct Made<'a> {
    session_id: &'a str,
    fixture: &'a (String, Option<FixtureSource>),
    options: &'a ImportOptions,
}

impl Made<'_> {
    fn trace(
        &self,
        search: &Search,
        turn: &Turn,
        timestamp: String,
        ordinal: u32,
        expected: Vec<String>,
    ) -> Trace {
        let (session_id, fixture, options) = (self.session_id, self.fixture, self.options);
        let result = search.result.clone().unwrap_or_default();
        let duration_ms = result
            .duration_ms
            .or_else(|| elapsed_ms(&timestamp, result.timestamp.as_deref()))
            .unwrap_or(0.0);
        let query = if options.redact {
            redacted(&turn.question)
        } else {
            turn.question.clone()
        };
        Trace {
            trace_id: format!("{session_id}/{}", search.call_id),
            timestamp,
            query,
            fixture: fixture.0.clone(),
            fixture_source: fixture.1.clone(),
            tools: vec![ToolCall {
                name: search.tool.clone(),
                input: search.input.clone(),
                candidates: result.candidates,
                duration_ms,
                output_bytes: Some(result.bytes),
            }],
            outcome: if result.candidates > 0 {
                TraceOutcome::Success
            } else {
                TraceOutcome::InsufficientEvidence
            },
            iterations: ordinal,
            duration_ms,
            expected: Some(expected),
            later_calls: None,
            call: None,
        }
    }
}

/// Milliseconds from `from` to `to` (both RFC 3339), when both read and `to` is not before.
fn elapsed_ms(from: &str, to: Option<&str>) -> Option<f64> {
    let from = humantime::parse_rfc3339_weak(from).ok()?;
    let to = humantime::parse_rfc3339_weak(to?).ok()?;
    let d = to.duration_since(from).ok()?;
    Some((d.as_secs_f64() * 1e6).round() / 1e3)
}

/// `--redact`: the question as `sha256:` and the hex of its SHA-256, so equal questions
/// still group together while the text is gone.
pub fn redacted(question: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(question.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

#[cfg(test)]
mod tests {
    use super::super::turn::{CallResult, Touch};
    use super::*;
    use std::path::Path;

    fn result(candidates: u64) -> Option<CallResult> {
        Some(CallResult {
            candidates,
            bytes: 40,
            timestamp: Some("2026-01-05T10:00:01.500Z".into()),
            ..CallResult::default()
        })
    }

    fn search(id: &str, line: usize, result: Option<CallResult>) -> Step {
        Step::Search(Search {
            call_id: id.into(),
            tool: "Grep".into(),
            input: "cursor_binary".into(),
            line,
            source: 0,
            timestamp: Some("2026-01-05T10:00:01Z".into()),
            result,
        })
    }

    fn touch(id: &str, path: &str, line: usize, result: Option<CallResult>) -> Step {
        Step::Touch(Touch {
            call_id: id.into(),
            path: path.into(),
            base: None,
            line,
            source: 0,
            result,
        })
    }

    fn session() -> Session {
        let mut s = Session::new(Path::new("s.jsonl"));
        s.note(Some("s1"), Some("/home/dev/agent-cpp"), None);
        s.start_turn("where is the cursor binary parsed?".into(), None, 1);
        for step in [
            touch("r0", "/home/dev/agent-cpp/README.md", 2, result(1)),
            search("g1", 3, result(2)),
            touch("r1", "/home/dev/agent-cpp/src/a.cpp", 4, result(1)),
            search("g2", 5, result(0)),
            touch("r2", "/tmp/notes.txt", 6, result(1)),
            touch("r3", "/home/dev/agent-cpp/src/b.cpp", 7, None),
            search("g3", 8, None),
            touch("r4", "src/a.cpp", 9, result(1)),
        ] {
            s.add(step);
        }
        s
    }

    #[test]
    fn one_trace_per_search_with_what_was_read_after_it() {
        let out = traces(session(), &ImportOptions::default());
        assert_eq!((out.searches, out.turns, out.traces.len()), (3, 1, 2));
        let t = &out.traces[0];
        assert_eq!(t.trace_id, "s1/g1");
        assert_eq!(t.query, "where is the cursor binary parsed?");
        assert_eq!(
            t.fixture_source,
            Some(FixtureSource::Root("/home/dev/agent-cpp".into()))
        );
        assert_eq!(t.expected.as_deref(), Some(&["src/a.cpp".to_string()][..]));
        assert_eq!(t.outcome, TraceOutcome::Success);
        assert_eq!(
            (t.tools[0].candidates, t.tools[0].output_bytes),
            (2, Some(40))
        );
        assert_eq!((t.duration_ms, t.iterations), (500.0, 1));
        let t = &out.traces[1];
        assert_eq!(t.outcome, TraceOutcome::InsufficientEvidence);
        assert_eq!(t.iterations, 2);
        assert_eq!(t.expected.as_deref(), Some(&["src/a.cpp".to_string()][..]));
        // what the agent read after each search up to the expected file: the first search
        // reached it at once; the second read a file outside the root first (the read
        // without a result and the search without one are not counted)
        let read = |path: Option<&str>| LaterCall {
            kind: LaterCallKind::Read,
            path: path.map(String::from),
            output_bytes: 40,
        };
        assert_eq!(
            out.traces[0].later_calls,
            Some(vec![read(Some("src/a.cpp"))])
        );
        assert_eq!(
            t.later_calls,
            Some(vec![read(None), read(Some("src/a.cpp"))])
        );
        let problems: Vec<String> = out.problems.iter().map(|p| p.to_string()).collect();
        assert_eq!(problems.len(), 3, "{problems:#?}");
        assert!(problems[0].starts_with("s.jsonl:6: outside_root: `/tmp/notes.txt`"));
        assert!(problems[1].starts_with("s.jsonl:7: no_result: read or edit `r3`"));
        assert!(problems[2].starts_with("s.jsonl:8: no_result: search `g3`"));
    }

    #[test]
    fn root_commit_and_redaction() {
        let options = ImportOptions {
            root: Some(PathBuf::from("/srv/agent-cpp")),
            redact: true,
        };
        let mut s = session();
        s.commit = Some("4f2c".into());
        let out = traces(s, &options);
        let t = &out.traces[0];
        assert_eq!(t.fixture, "/srv/agent-cpp");
        assert_eq!(t.query, redacted("where is the cursor binary parsed?"));
        assert!(!t.query.contains("cursor"));
        let mut s = session();
        s.commit = Some("4f2c".into());
        let t = &traces(s, &ImportOptions::default()).traces[0];
        assert_eq!(t.fixture, "/home/dev/agent-cpp@4f2c");
        let mut s = session();
        s.cwd = None;
        let out = traces(s, &ImportOptions::default());
        assert!(out.traces.is_empty());
        assert_eq!(out.problems[0].kind, ProblemKind::NoRoot);
    }

    #[test]
    fn a_redacted_question_is_its_sha256() {
        assert_eq!(
            redacted("abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
