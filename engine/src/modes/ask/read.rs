//! The `read` step of `ask`: open a candidate as an agent would and decide whether it
//! holds evidence for the term.

use super::found::AskMatch;
use crate::modes::code::CodeStep;
use crate::modes::grep;
use crate::profile::Profile;
use crate::retrieval::tokens::{self, for_each_part, TermStarts};
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
    /// The declaration `find` matched first, then the lines that hold the most words of the
    /// term (as words or identifier parts), up to the profile's `evidence_lines`.
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

/// What a read of a candidate gave: the read, its evidence, and which of the question's
/// terms ([`read_file`]'s `terms`) the file holds as a word or an identifier part, in a line
/// or in its path (what its confidence is weighed from).
pub struct Read {
    pub result: ReadResult,
    pub evidence: Option<Evidence>,
    pub held: Vec<bool>,
}

/// Opens a candidate as an agent would: its text, the lines that hold a word of the term as
/// a word or an identifier part (`text` in `help_text` or `TextWrapper`, not in
/// `contextlib`; a plural as its singular), best first. Evidence when every word of the
/// term is held by such a line or the path, when a task's ranked file has such a line
/// (its confidence then decides), when `find` matched the declaration it points at, or when the file is named for the term (or, with `read_requires_mention` off, when
/// the file has text at all). A URL's text, and an import line unless the question names
/// its keyword, hold no word. `terms` are the question's terms as the ranking makes them:
/// which the file holds is returned beside.
pub fn read_file(
    tree: &Tree,
    m: &AskMatch,
    term: &Term,
    terms: &[String],
    profile: &Profile,
) -> Read {
    let rules = &profile.planner;
    let result = |mentions: usize, evidence: bool, note: String| ReadResult {
        path: m.path.clone(),
        mentions,
        evidence,
        note,
    };
    let Some(file) = tree.file(&m.path) else {
        return unread(result(0, false, "not in the tree".into()), terms);
    };
    let (text, folded) = match file.read() {
        Ok(read) => read,
        Err(note) => return unread(result(0, false, note), terms),
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
    // each word as the terms it is made of (`partial_ratio`: `partial`, `ratio`), and the
    // question's terms after them: one list the lines' parts are looked up in
    let word_terms: Vec<Vec<String>> = words.iter().map(|w| tokens::terms(w)).collect();
    let mut looked: Vec<String> = word_terms.iter().flatten().cloned().collect();
    let asked = looked.len();
    looked.extend(terms.iter().cloned());
    let starts = TermStarts::new(&looked);
    // a term may be both a word's and the question's: every place of it is held at once
    let places: Vec<Vec<usize>> = looked
        .iter()
        .map(|t| (0..looked.len()).filter(|&j| looked[j] == *t).collect())
        .collect();
    // a term is held by a part made that term (`text` of `TextWrapper`), by a part it
    // begins (`bin` of `cursor_binary`, at least `min_prefix` letters), or by an identifier
    // its letters begin (`replayservice` of `ReplayService`); never inside a word
    // (`text` of `contextlib`)
    let min_prefix = rules.evidence_min_prefix.max(1);
    let holds_in = |line: &str, held: &mut Vec<bool>| {
        held.iter_mut().for_each(|h| *h = false);
        for_each_part(line, |part| {
            if let Some(k) = starts.place_of(part) {
                places[k].iter().for_each(|&j| held[j] = true);
            } else if part.len() >= min_prefix {
                for (j, t) in looked.iter().enumerate() {
                    if t.len() >= min_prefix
                        && part.len() > t.len()
                        && part.as_bytes()[..t.len()].eq_ignore_ascii_case(t.as_bytes())
                    {
                        held[j] = true;
                    }
                }
            }
        });
        for identifier in line.split(|c: char| !c.is_ascii_alphanumeric() && c != '_') {
            if identifier.len() < min_prefix {
                continue;
            }
            let letters: String = identifier
                .bytes()
                .filter(|&b| b != b'_')
                .map(|b| b.to_ascii_lowercase() as char)
                .collect();
            for (j, t) in looked.iter().enumerate() {
                if t.len() >= min_prefix && letters.starts_with(t.as_str()) {
                    held[j] = true;
                }
            }
        }
    };
    let mut held_anywhere = vec![false; looked.len()];
    let mut scratch = vec![false; looked.len()];
    holds_in(&m.path, &mut scratch);
    for (any, h) in held_anywhere.iter_mut().zip(&scratch) {
        *any |= *h;
    }
    let tool_line = m.line.filter(|&n| n >= 1);
    // the lines a word's letters are on, then those where a word of the term is a part
    let mut unused = vec![false; finders.len()];
    let candidates = mentioning_lines(folded, &finders, &mut unused);
    let mut candidates = candidates.into_iter().peekable();
    let import_keywords_asked =
        |keyword: &str| looked.iter().any(|t| *t == tokens::term_of(keyword));
    // a licence header's words ("copyright", "warranty", "software") say what the file's
    // licence is, not what it does: they count when the question is about the licence
    let licence_asked = looked
        .iter()
        .any(|t| t.starts_with("licen") || t.starts_with("copyright"));
    let licence_end = if licence_asked {
        0
    } else {
        licence_header_end(text)
    };
    // (line number, distinct words of the term it holds)
    let mut mentioning: Vec<(u32, usize)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let number = i as u32 + 1;
        if number <= licence_end {
            candidates.next_if(|&n| n <= licence_end);
            continue;
        }
        let on_candidate = candidates.next_if_eq(&number).is_some();
        if !on_candidate && terms.is_empty() {
            if candidates.peek().is_none() {
                break;
            }
            continue;
        }
        let code = without_urls(line);
        if import_keyword(&code).is_some_and(|k| !import_keywords_asked(k)) {
            continue;
        }
        holds_in(&code, &mut scratch);
        for (any, h) in held_anywhere.iter_mut().zip(&scratch) {
            *any |= *h;
        }
        let words_held = word_terms
            .iter()
            .enumerate()
            .filter(|(w, parts)| {
                !parts.is_empty() && {
                    let first: usize = word_terms[..*w].iter().map(Vec::len).sum();
                    scratch[first..first + parts.len()].iter().any(|h| *h)
                }
            })
            .count();
        if words_held > 0 {
            mentioning.push((number, words_held));
        }
    }
    let mentions = mentioning.len();
    // every word of the term held somewhere: each of its terms by a line or the path
    let every_word = mentions > 0
        && word_terms.iter().enumerate().all(|(w, parts)| {
            let first: usize = word_terms[..w].iter().map(Vec::len).sum();
            parts.is_empty()
                || parts
                    .iter()
                    .enumerate()
                    .all(|(k, _)| held_anywhere[first + k])
        });
    let shown = words
        .iter()
        .map(|w| format!("`{w}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let named = rules.exact_name_is_evidence && m.step == Some(CodeStep::ExactStem);
    // the declaration `find` matched is evidence; a line another tool pointed at only when
    // it holds the term
    let declared = m.step.is_some() && tool_line.is_some();
    // a task's ranked file needs a line that holds one of its words; the confidence the
    // caller weighs from `held` decides whether those words tell the file apart
    let ranked = m.ranked && mentions > 0;
    let is_evidence = every_word || ranked || declared || named || !rules.read_requires_mention;
    let held: Vec<bool> = held_anywhere[asked..].to_vec();
    if !is_evidence {
        let note = if mentions == 0 {
            format!("no line mentions {shown}")
        } else {
            format!("{mentions} lines mention some of {shown}, none all of them")
        };
        return Read {
            result: result(mentions, false, note),
            evidence: None,
            held,
        };
    }
    // the best lines first (most words of the term), the declaration `find` matched before
    // them
    let cap = rules.evidence_lines.max(1);
    let mut best = mentioning.clone();
    best.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut quoted: Vec<u32> = Vec::new();
    if let Some(n) = tool_line.filter(|_| declared) {
        quoted.push(n);
    }
    for (n, _) in best {
        if quoted.len() < cap && !quoted.contains(&n) {
            quoted.push(n);
        }
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
    let note = match (mentions, tool_line.filter(|_| declared)) {
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
    Read {
        result: result(mentions, true, note),
        evidence: Some(evidence),
        held,
    }
}

/// A read that could not open its file.
fn unread(result: ReadResult, terms: &[String]) -> Read {
    Read {
        result,
        evidence: None,
        held: vec![false; terms.len()],
    }
}

/// `line` without the URLs written in it (`scheme://` to the next space, quote or
/// bracket): the words of an address are no evidence of what the code does.
fn without_urls(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains("://") {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find("://") {
        // the scheme: the letters before `://`
        let scheme = rest[..at]
            .bytes()
            .rev()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-'))
            .count();
        out.push_str(&rest[..at - scheme]);
        let after = &rest[at + 3..];
        let end = after
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | ')' | '>' | ']' | '`'))
            .unwrap_or(after.len());
        out.push(' ');
        rest = &after[end..];
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// The last line of the licence header `text` opens with (0 when it opens with none): its
/// first block of comment lines (after a `#!` line and blank lines), when one of them names
/// a copyright or a licence.
pub(super) fn licence_header_end(text: &str) -> u32 {
    let mut last = 0u32;
    let mut names_licence = false;
    let mut in_block = false;
    for (i, line) in text.lines().enumerate().take(200) {
        let t = line.trim();
        let comment = in_block
            || t.starts_with("//")
            || hash_comment(t)
            || t.starts_with("/*")
            || t.starts_with('*')
            || t.starts_with("--")
            || t.starts_with("<!--")
            || t.starts_with(';');
        if t.is_empty() || (i == 0 && t.starts_with("#!")) {
            continue;
        }
        if !comment {
            break;
        }
        if t.starts_with("/*") || t.starts_with("<!--") {
            in_block = true;
        }
        if t.contains("*/") || t.contains("-->") {
            in_block = false;
        }
        let folded = t.to_ascii_lowercase();
        names_licence |= folded.contains("copyright") || folded.contains("licen");
        last = i as u32 + 1;
    }
    if names_licence {
        last
    } else {
        0
    }
}

/// A `#` comment (`# text`, `##`), not a C directive (`#include`) or a Rust attribute
/// (`#[test]`).
fn hash_comment(t: &str) -> bool {
    t.strip_prefix('#').is_some_and(|rest| {
        !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '[' || c == '!')
    })
}

/// The keyword of an import line (`import`, `from`, `use`, `include`, `require`, `using`,
/// `extern crate`), as the languages the tree scans write one: such a line names what the
/// file uses, not what it does.
fn import_keyword(line: &str) -> Option<&'static str> {
    let t = line.trim_start();
    let t = t.strip_prefix("pub ").unwrap_or(t);
    let imports = t.starts_with("import ")
        || t.starts_with("import{")
        || (t.starts_with("from ") && t.contains(" import "));
    let requires = t.starts_with("require ")
        || t.starts_with("require_once")
        || t.starts_with("require(")
        || ((t.starts_with("const ") || t.starts_with("var ") || t.starts_with("let "))
            && t.contains("= require("));
    if imports {
        Some("import")
    } else if requires {
        Some("require")
    } else if t.starts_with("use ") && t.trim_end().ends_with([';', '{', ',']) {
        Some("use")
    } else if t.starts_with("#include") {
        Some("include")
    } else if t.starts_with("extern crate ") {
        Some("crate")
    } else if t.starts_with("using ") && t.trim_end().ends_with(';') {
        Some("using")
    } else {
        None
    }
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

    #[test]
    fn a_licence_header_is_the_first_comment_block_naming_a_licence() {
        let c = "/*\n * Copyright (c) 2009 Someone\n * the software is provided as is\n */\n\n#include <x.h>\nint f(void);\n";
        assert_eq!(licence_header_end(c), 4);
        let py = "#!/usr/bin/env python\n# Licensed under the MIT license.\n#\n# more\nimport os\n";
        assert_eq!(licence_header_end(py), 4);
        let rust = "// SPDX-License-Identifier: MIT\n#[cfg(test)]\nmod t {}\n";
        assert_eq!(licence_header_end(rust), 1);
        // a first comment that names no licence is the file's own description
        assert_eq!(
            licence_header_end("// parses the header\nfn parse() {}\n"),
            0
        );
        assert_eq!(licence_header_end("fn f() {}\n// copyright\n"), 0);
    }

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
