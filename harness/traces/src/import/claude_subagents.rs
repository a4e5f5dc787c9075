//! A Claude Code session read with its subagents as one. Claude Code keeps a subagent's
//! transcript beside its session: `<session-id>.jsonl` has `<session-id>/subagents/
//! agent-<id>.jsonl` (and `subagents/workflows/<id>/agent-<id>.jsonl` for a workflow's),
//! each line `isSidechain` with the parent's `sessionId`. The files' entries are merged by
//! time, each file's own order kept, so a subagent's search falls in the parent's turn it
//! was run for; a problem names the file and line it is on.

use super::log_lines::for_each_line;
use super::session::Session;
use super::summary::ProblemKind;
use serde_json::Value;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The subagent transcripts of the session file `session`, sorted: every `*.jsonl` under
/// `<session-id>/subagents/`, at any depth.
pub fn subagent_files(session: &Path) -> Vec<PathBuf> {
    let dir = session.with_extension("").join("subagents");
    let mut out = Vec::new();
    walk(&dir, &mut out);
    out.sort();
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        match entry.file_type() {
            // a link to a directory is not followed: it could loop
            Ok(kind) if kind.is_dir() => walk(&path, out),
            Ok(_) if path.extension().is_some_and(|e| e == "jsonl") => out.push(path),
            _ => {}
        }
    }
}

/// Whether `path` is a subagent transcript of a session file that is there to read it with
/// (`<dir>/<id>/subagents/.../x.jsonl` beside `<dir>/<id>.jsonl`).
pub fn is_read_with_its_session(path: &Path) -> bool {
    path.ancestors()
        .skip(1)
        .find(|a| a.file_name().is_some_and(|n| n == "subagents"))
        .and_then(Path::parent)
        .is_some_and(|session_dir| session_dir.with_extension("jsonl").is_file())
}

/// One line of one of the session's files.
struct Entry {
    source: usize,
    line: usize,
    parsed: Result<Value, String>,
    at: Option<SystemTime>,
}

/// Reads the session `path` (from `reader`) and its subagents' files into one session:
/// `read_entry` is given each line in merged order, with `session.source` naming its file.
pub fn read_merged(
    path: &Path,
    reader: &mut dyn BufRead,
    mut read_entry: impl FnMut(&mut Session, usize, Result<Value, String>),
) -> std::io::Result<Session> {
    let mut session = Session::new(path);
    let mut files = vec![entries(0, reader)?];
    for (i, sub) in subagent_files(path).into_iter().enumerate() {
        session.sources.push(sub.clone());
        let read = std::fs::File::open(&sub)
            .map(|f| std::io::BufReader::with_capacity(64 * 1024, f))
            .and_then(|mut r| entries(i + 1, &mut r));
        match read {
            Ok(e) => files.push(e),
            Err(e) => {
                session.source = i + 1;
                session.problem(0, ProblemKind::Unreadable, format!("cannot read: {e}"));
                session.source = 0;
            }
        }
    }
    let mut next: Vec<std::iter::Peekable<std::vec::IntoIter<Entry>>> = files
        .into_iter()
        .map(|f| f.into_iter().peekable())
        .collect();
    // the earliest next entry of any file; the session's own first on a tie
    while let Some(i) = (0..next.len())
        .filter_map(|i| next[i].peek().map(|e| (e.at, i)))
        .min()
        .map(|(_, i)| i)
    {
        let Some(entry) = next[i].next() else { break };
        session.source = entry.source;
        session.lines += 1;
        read_entry(&mut session, entry.line, entry.parsed);
    }
    session.source = 0;
    Ok(session)
}

/// A file's lines, each with its time (a line without one takes the time of the line
/// before it).
fn entries(source: usize, reader: &mut dyn BufRead) -> std::io::Result<Vec<Entry>> {
    let mut out: Vec<Entry> = Vec::new();
    for_each_line(reader, |line, parsed| {
        let own = parsed
            .as_ref()
            .ok()
            .and_then(|v| v.get("timestamp"))
            .and_then(Value::as_str)
            .and_then(|t| humantime::parse_rfc3339_weak(t).ok());
        let at = own.or_else(|| out.last().and_then(|e| e.at));
        out.push(Entry {
            source,
            line,
            parsed,
            at,
        });
    })?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(t: &str, n: usize) -> String {
        format!("{{\"type\":\"x\",\"n\":{n},\"timestamp\":\"2025-10-02T14:00:{t}Z\"}}\n")
    }

    #[test]
    fn files_merge_by_time_each_keeping_its_order_and_subagents_are_read_with_their_session() {
        let dir = tempfile::tempdir().unwrap();
        let session = dir.path().join("s1.jsonl");
        let agents = dir.path().join("s1/subagents");
        std::fs::create_dir_all(agents.join("workflows/w1")).unwrap();
        let main = [line("00", 1), line("10", 2), line("05", 3)].concat();
        std::fs::write(&session, &main).unwrap();
        std::fs::write(
            agents.join("agent-a.jsonl"),
            line("03", 10) + &line("06", 11),
        )
        .unwrap();
        std::fs::write(agents.join("workflows/w1/agent-b.jsonl"), line("10", 20)).unwrap();
        let mut order = Vec::new();
        let s = read_merged(&session, &mut main.as_bytes(), |s, _, v| {
            order.push((s.source, v.unwrap()["n"].as_u64().unwrap()));
        })
        .unwrap();
        // the session's line 3 (05) stays after its line 2 (10); a tie goes to the session
        assert_eq!(order, [(0, 1), (1, 10), (1, 11), (0, 2), (0, 3), (2, 20)]);
        assert_eq!(s.sources.len(), 3);
        assert_eq!(s.lines, 6);
        assert!(is_read_with_its_session(
            &agents.join("workflows/w1/agent-b.jsonl")
        ));
        assert!(!is_read_with_its_session(&session));
        std::fs::remove_file(&session).unwrap();
        assert!(!is_read_with_its_session(&agents.join("agent-a.jsonl")));
    }
}
