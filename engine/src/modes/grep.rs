//! `grep`: the cascade's fallback. Files whose text contains the term, literally and
//! case-insensitively, reading `[ _-]?` between segments as "one optional space, `_` or `-`",
//! with the number of matching lines and the first of them.

use crate::error::{EngineError, Result};
use crate::modes::task::Summary;
use crate::profile::CodeWeights;
use crate::text::term::SEPARATOR;
use crate::tree::Tree;
use memchr::memmem::Finder;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// A `grep` request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GrepRequest {
    pub term: String,
    pub limit: usize,
}

impl GrepRequest {
    pub fn new(term: impl Into<String>) -> GrepRequest {
        GrepRequest {
            term: term.into(),
            limit: 20,
        }
    }
}

/// The first line that matched.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FirstLine {
    /// 1-based.
    pub number: u32,
    /// The line, trimmed and cut to [`MAX_LINE_CHARS`] characters.
    pub text: String,
}

/// One file with matches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GrepMatch {
    pub path: String,
    /// The number of matching lines (what ranks the files).
    pub score: f64,
    pub count: usize,
    pub first: FirstLine,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GrepResponse {
    pub query: GrepRequest,
    pub summary: Summary,
    pub matches: Vec<GrepMatch>,
}

/// Longest first line shown.
pub const MAX_LINE_CHARS: usize = 200;

pub fn grep(tree: &Tree, request: &GrepRequest, weights: &CodeWeights) -> Result<GrepResponse> {
    if request.term.trim().is_empty() {
        return Err(EngineError::invalid("empty term"));
    }
    if request.limit == 0 {
        return Err(EngineError::invalid("--limit must be at least 1"));
    }
    let mut matches = rank(tree, &request.term, weights);
    let total = matches.len();
    matches.truncate(request.limit);
    Ok(GrepResponse {
        query: request.clone(),
        summary: Summary::new(total, matches.len()),
        matches,
    })
}

/// Every file with a match, most matching lines first (ties: shorter path, then bytes).
pub fn rank(tree: &Tree, term: &str, weights: &CodeWeights) -> Vec<GrepMatch> {
    let pattern = Pattern::new(term, weights.separator_pattern);
    if pattern.segments.is_empty() {
        return Vec::new();
    }
    let mut matches: Vec<GrepMatch> = tree
        .files()
        .par_iter()
        .filter_map(|f| {
            let folded = f.content.folded()?;
            let text = f.content.text()?;
            let (count, first_at) = pattern.count_lines(folded.as_bytes())?;
            let number = memchr::memchr_iter(b'\n', &folded.as_bytes()[..first_at]).count() + 1;
            let start = folded[..first_at].rfind('\n').map_or(0, |i| i + 1);
            let end = folded[first_at..]
                .find('\n')
                .map_or(folded.len(), |i| first_at + i);
            let line: String = text[start..end]
                .trim()
                .chars()
                .take(MAX_LINE_CHARS)
                .collect();
            Some(GrepMatch {
                path: f.path.clone(),
                score: count as f64,
                count,
                reason: format!(
                    "{count} matching line{}, first at line {number}",
                    if count == 1 { "" } else { "s" }
                ),
                first: FirstLine {
                    number: number as u32,
                    text: line,
                },
            })
        })
        .collect();
    matches.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then(a.path.len().cmp(&b.path.len()))
            .then_with(|| a.path.cmp(&b.path))
    });
    matches
}

/// The term as segments joined by optional separators.
struct Pattern {
    segments: Vec<Vec<u8>>,
    first: Finder<'static>,
}

impl Pattern {
    fn new(term: &str, separator_pattern: bool) -> Pattern {
        // ASCII folding, as the text was folded: offsets stay aligned with the original
        let lowered = term.trim().to_ascii_lowercase();
        let segments: Vec<Vec<u8>> = if separator_pattern {
            lowered
                .split(SEPARATOR)
                .filter(|s| !s.is_empty())
                .map(|s| s.as_bytes().to_vec())
                .collect()
        } else {
            vec![lowered.into_bytes()]
        };
        let first = Finder::new(segments.first().map_or(&[][..], |s| s.as_slice())).into_owned();
        Pattern { segments, first }
    }

    /// The number of lines with a match and the offset of the first match.
    fn count_lines(&self, text: &[u8]) -> Option<(usize, usize)> {
        let mut at = 0;
        let mut count = 0;
        let mut first = None;
        while let Some(i) = self.first.find(&text[at..]) {
            let start = at + i;
            if self.rest_matches(text, start + self.segments[0].len()) {
                count += 1;
                first.get_or_insert(start);
                // one count per line: continue after this line
                match memchr::memchr(b'\n', &text[start..]) {
                    Some(nl) => at = start + nl + 1,
                    None => break,
                }
            } else {
                at = start + 1;
            }
        }
        first.map(|f| (count, f))
    }

    fn rest_matches(&self, text: &[u8], mut at: usize) -> bool {
        for seg in &self.segments[1..] {
            if text[at..].starts_with(seg) {
                at += seg.len();
            } else if text
                .get(at)
                .is_some_and(|c| matches!(c, b' ' | b'_' | b'-'))
                && text[at + 1..].starts_with(seg)
            {
                at += 1 + seg.len();
            } else {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;

    fn tree() -> Tree {
        Tree::from_memory(
            "t",
            [
                ("DESIGN.md", "# Design\nThe cursor binary ships in tools/.\nA Cursor-Binary is fast.\ncursor_binary again cursorbinary\n"),
                ("src/a.cpp", "int x;\n// CursorBinary\n"),
                ("src/b.cpp", "cursor  binary (two spaces)\n"),
            ],
        )
    }

    #[test]
    fn separator_pattern_matches_space_underscore_dash_or_nothing() {
        let r = grep(
            &tree(),
            &GrepRequest::new("cursor[ _-]?binary"),
            &CodeWeights::default(),
        )
        .unwrap();
        assert_eq!(r.matches.len(), 2);
        let d = &r.matches[0];
        assert_eq!(d.path, "DESIGN.md");
        assert_eq!(d.count, 3);
        assert_eq!(d.first.number, 2);
        assert_eq!(d.first.text, "The cursor binary ships in tools/.");
        assert_eq!(r.matches[1].path, "src/a.cpp");
        assert_eq!(r.matches[1].first.text, "// CursorBinary");
    }

    #[test]
    fn legacy_matches_the_pattern_literally() {
        let legacy = Profile::builtin("legacy").unwrap();
        let r = grep(
            &tree(),
            &GrepRequest::new("cursor[ _-]?binary"),
            &legacy.code,
        )
        .unwrap();
        assert!(r.matches.is_empty());
        let r = grep(&tree(), &GrepRequest::new("CURSOR_BINARY"), &legacy.code).unwrap();
        assert_eq!(r.matches.len(), 1);
    }

    #[test]
    fn no_match_in_a_tree_without_the_term() {
        let r = grep(
            &tree(),
            &GrepRequest::new("kubernetes"),
            &CodeWeights::default(),
        )
        .unwrap();
        assert_eq!(r.summary.total_matches, 0);
    }
}
