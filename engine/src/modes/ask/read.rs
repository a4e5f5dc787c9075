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
    for n in mentioning_lines(folded, &finders, &mut seen) {
        mentions += 1;
        if quoted.len() < cap && Some(n) != tool_line {
            quoted.push(n);
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
    // the text's lines up to the last one quoted (a file may have thousands)
    let last = quoted.iter().max().map_or(0, |&n| n as usize);
    let originals: Vec<&str> = text.lines().take(last).collect();
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

/// The numbers (from 1, ascending) of the lines of `folded` on which one of `finders`
/// finds its word, each once; `seen[k]` set for each finder that finds it somewhere. Each
/// word is searched for through the whole text and its places turned into lines (a search
/// set up for every line of every word was most of a first call's read of a large file);
/// a word holds no newline, so a line holds a word exactly when a place of it is on the
/// line.
fn mentioning_lines(folded: &str, finders: &[Finder<'_>], seen: &mut [bool]) -> Vec<u32> {
    let bytes = folded.as_bytes();
    let mut places: Vec<usize> = Vec::new();
    for (k, f) in finders.iter().enumerate() {
        let before = places.len();
        places.extend(f.find_iter(bytes));
        seen[k] |= places.len() > before;
    }
    places.sort_unstable();
    let (mut number, mut counted) = (1u32, 0usize);
    let mut lines: Vec<u32> = Vec::new();
    for at in places {
        number += memchr::memchr_iter(b'\n', &bytes[counted..at]).count() as u32;
        counted = at;
        if lines.last() != Some(&number) {
            lines.push(number);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`mentioning_lines`] as the read searched before: every line for every word.
    fn line_by_line(folded: &str, finders: &[Finder<'_>], seen: &mut [bool]) -> Vec<u32> {
        let mut lines = Vec::new();
        for (i, line) in folded.lines().enumerate() {
            let mut any = false;
            for (k, f) in finders.iter().enumerate() {
                if f.find(line.as_bytes()).is_some() {
                    any = true;
                    seen[k] = true;
                }
            }
            if any {
                lines.push(i as u32 + 1);
            }
        }
        lines
    }

    /// The lines found from the words' places through the whole text are those a search
    /// of each line finds, and so are the words seen, on this crate's sources (folded as a
    /// read folds them) for words common, rare, repeated on a line and absent, and on
    /// texts with `\r\n`, no final newline and overlapping places.
    #[test]
    fn the_lines_from_the_places_are_the_lines_searched() {
        let mut texts: Vec<String> = crate::own_sources::own_sources()
            .into_iter()
            .map(|(_, bytes)| String::from_utf8_lossy(&bytes).to_ascii_lowercase())
            .collect();
        texts.push("aaa\r\nxaaaa\r\n\r\nlast aa".to_string());
        texts.push("\nfn\n\nfn fn\n".to_string());
        let word_lists: [&[&str]; 4] = [
            &["fn", "self"],
            &["scan", "partial_ratio"],
            &["aa"],
            &["absent_word_here", "fn"],
        ];
        let mut found = 0;
        for words in word_lists {
            let finders: Vec<Finder<'_>> =
                words.iter().map(|w| Finder::new(w.as_bytes())).collect();
            for text in &texts {
                let mut seen = vec![false; finders.len()];
                let mut seen_by_line = vec![false; finders.len()];
                let lines = mentioning_lines(text, &finders, &mut seen);
                assert_eq!(
                    lines,
                    line_by_line(text, &finders, &mut seen_by_line),
                    "{words:?}"
                );
                assert_eq!(seen, seen_by_line, "{words:?}");
                found += lines.len();
            }
        }
        assert!(found > 1000, "{found}");
    }
}
