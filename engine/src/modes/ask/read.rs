//! The `read` step of `ask`: open a candidate as an agent would and decide whether it
//! holds evidence for the term.

use super::found::AskMatch;
use crate::modes::code::CodeStep;
use crate::modes::grep;
use crate::profile::Profile;
use crate::text::term::Term;
use crate::tree::Tree;
use memchr::memmem::Finder;
use serde::{Deserialize, Serialize};

/// One quoted line of the selected file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvidenceLine {
    /// 1-based.
    pub number: u32,
    /// Trimmed, cut to [`grep::MAX_LINE_CHARS`] characters.
    pub text: String,
}

/// What reading the selected file showed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    pub path: String,
    /// The tool's line first, then the first other lines that mention a word of the term,
    /// up to the profile's `evidence_lines`.
    pub lines: Vec<EvidenceLine>,
    /// Lines of the file that mention a word of the term.
    pub mentions: usize,
}

/// One `read` of the cascade and what it found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadResult {
    pub path: String,
    /// Lines that mention a word of the term (0 for a file without text).
    pub mentions: usize,
    /// Whether the read counts as evidence.
    pub evidence: bool,
    /// What the read showed, for a person.
    pub note: String,
}

/// The reads of a cascade and the evidence of the one that counted.
#[derive(Default)]
pub struct Reading {
    pub reads: Vec<ReadResult>,
    pub evidence: Option<Evidence>,
}

/// Opens a candidate as an agent would: its text, the lines that mention a word of the
/// term, the tool's line first. Evidence when such a line exists (or, with
/// `read_requires_mention` off, when the file has text at all).
pub fn read_file(
    tree: &Tree,
    m: &AskMatch,
    term: &Term,
    profile: &Profile,
) -> (ReadResult, Option<Evidence>) {
    let rules = &profile.planner;
    let result = |mentions: usize, evidence: bool, note: String| ReadResult {
        path: m.path.clone(),
        mentions,
        evidence,
        note,
    };
    let Some(file) = tree.file(&m.path) else {
        return (result(0, false, "not in the tree".into()), None);
    };
    let (text, folded) = match file.read() {
        Ok(read) => read,
        Err(note) => return (result(0, false, note), None),
    };
    // the words as the text was folded (ASCII), so byte offsets agree; a plural is looked
    // for as its singular, which finds both (`symbols` ~ `symbol`)
    let words: Vec<String> = term
        .words
        .iter()
        .map(|w| w.to_ascii_lowercase())
        .filter(|w| !w.is_empty())
        .collect();
    let finders: Vec<Finder> = words
        .iter()
        .map(|w| match w.strip_suffix('s') {
            Some(singular) if singular.len() >= 3 && !singular.ends_with('s') => {
                Finder::new(singular.as_bytes())
            }
            _ => Finder::new(w.as_bytes()),
        })
        .collect();
    let mut mentions = 0;
    let mut quoted: Vec<u32> = Vec::new();
    let cap = rules.evidence_lines.max(1);
    let tool_line = m.line.filter(|&n| n >= 1);
    if let Some(n) = tool_line {
        quoted.push(n);
    }
    // which words some line or the path holds: a file that mentions one word of several
    // (`pretty` of `pretty printer`) is not about the term
    let path = m.path.to_ascii_lowercase();
    let mut seen: Vec<bool> = finders
        .iter()
        .map(|f| f.find(path.as_bytes()).is_some())
        .collect();
    for (i, line) in folded.lines().enumerate() {
        let mut any = false;
        for (k, f) in finders.iter().enumerate() {
            if f.find(line.as_bytes()).is_some() {
                any = true;
                seen[k] = true;
            }
        }
        if any {
            mentions += 1;
            let n = i as u32 + 1;
            if quoted.len() < cap && Some(n) != tool_line {
                quoted.push(n);
            }
        }
    }
    // some line mentions the term, and its other words are in the text or the path
    let every_word = mentions > 0 && seen.iter().all(|s| *s);
    let shown = words
        .iter()
        .map(|w| format!("`{w}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let named = rules.exact_name_is_evidence && m.step == Some(CodeStep::ExactStem);
    let is_evidence = every_word || tool_line.is_some() || named || !rules.read_requires_mention;
    if !is_evidence {
        let note = if mentions == 0 {
            format!("no line mentions {shown}")
        } else {
            format!("{mentions} lines mention some of {shown}, none all of them")
        };
        return (result(mentions, false, note), None);
    }
    let originals: Vec<&str> = text.lines().collect();
    let lines: Vec<EvidenceLine> = quoted
        .iter()
        .filter_map(|&n| {
            let line = originals.get(n as usize - 1)?;
            Some(EvidenceLine {
                number: n,
                text: line.trim().chars().take(grep::MAX_LINE_CHARS).collect(),
            })
        })
        .collect();
    let note = match (mentions, tool_line) {
        (0, None) if named => format!("named for the term; no line mentions {shown}"),
        (0, None) => "readable text; no line mentions the term".into(),
        (k, Some(n)) => format!(
            "line {n} as found; {k} line{} mention {shown}",
            if k == 1 { "" } else { "s" }
        ),
        (k, None) => format!("{k} line{} mention {shown}", if k == 1 { "" } else { "s" }),
    };
    let evidence = Evidence {
        path: m.path.clone(),
        lines,
        mentions,
    };
    (result(mentions, true, note), Some(evidence))
}
