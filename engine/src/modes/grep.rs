//! `grep`: the cascade's fallback. Files whose text contains the term, literally and
//! case-insensitively, reading `[ _-]?` between segments as "one optional space, `_` or `-`",
//! with the number of matching lines and the first of them.
//!
//! Hits are ranked by the evidence they give (the profile's `grep` section): the whole term
//! above its words scattered over a line or the file, a source file above docs above data
//! (corpora and fixtures quote the questions), a declaration line above a mention, a dense
//! file above one that mentions the term once in many lines.

use crate::error::{EngineError, Result};
use crate::modes::task::Summary;
use crate::profile::{CodeWeights, GrepWeights};
use crate::text::term::SEPARATOR;
use crate::tree::{Symbol, Tree, TreeFile};
use crate::worker_scratch::FILES_PER_JOB;
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
    /// The evidence score (the profile's `grep` weights); the number of matching lines
    /// when evidence ranking is off.
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

pub fn grep(
    tree: &Tree,
    request: &GrepRequest,
    code: &CodeWeights,
    weights: &GrepWeights,
) -> Result<GrepResponse> {
    if request.term.trim().is_empty() {
        return Err(EngineError::invalid("empty term"));
    }
    if request.limit == 0 {
        return Err(EngineError::invalid("--limit must be at least 1"));
    }
    let mut matches = rank(tree, &request.term, code, weights);
    let total = matches.len();
    matches.truncate(request.limit);
    Ok(GrepResponse {
        query: request.clone(),
        summary: Summary::new(total, matches.len()),
        matches,
    })
}

/// How the term matched a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tier {
    /// The whole term, on `count` lines.
    Phrase,
    /// Every word on one line (`count` such lines), not adjacent.
    SameLine,
    /// Every word somewhere in the file (`count` lines hold one).
    SameFile,
}

/// What a file is, for the weight of its evidence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Source,
    Docs,
    Data,
    Other,
}

impl Kind {
    fn of(f: &TreeFile, w: &GrepWeights) -> Kind {
        let has = |list: &[String]| list.iter().any(|e| e == f.ext());
        if f.language.is_some() || has(&w.source_extensions) {
            Kind::Source
        } else if has(&w.docs_extensions) {
            Kind::Docs
        } else if has(&w.data_extensions) {
            Kind::Data
        } else {
            Kind::Other
        }
    }

    fn weight(self, w: &GrepWeights) -> f64 {
        match self {
            Kind::Source => w.source,
            Kind::Docs => w.docs,
            Kind::Data => w.data,
            Kind::Other => w.other,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Kind::Source => "source",
            Kind::Docs => "docs",
            Kind::Data => "data",
            Kind::Other => "text",
        }
    }
}

/// Every file with a match, best evidence first (ties: shorter path, then bytes).
pub fn rank(tree: &Tree, term: &str, code: &CodeWeights, weights: &GrepWeights) -> Vec<GrepMatch> {
    let pattern = Pattern::new(term, code.separator_pattern, weights.word_continuation);
    if pattern.segments.is_empty() {
        return Vec::new();
    }
    // only the files whose words can hold every segment (the kept index's posting lists)
    let files = tree.files();
    let mut matches: Vec<GrepMatch> = tree
        .candidates(&pattern.segments)
        .into_par_iter()
        .with_max_len(FILES_PER_JOB)
        .filter_map(|i| score_file(&files[i], &pattern, weights))
        .collect();
    matches.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(b.count.cmp(&a.count))
            .then(a.path.len().cmp(&b.path.len()))
            .then_with(|| a.path.cmp(&b.path))
    });
    matches
}

fn score_file(f: &TreeFile, pattern: &Pattern, w: &GrepWeights) -> Option<GrepMatch> {
    // read for this search only: holding every candidate's text would hold most of a
    // large tree for a common word
    let (text, folded) = f.text_and_folded_once()?;
    let (text, folded): (&str, &str) = (&text, &folded);
    let bytes = folded.as_bytes();
    let phrase = pattern.phrase_lines(bytes);
    let (tier, starts) = if !phrase.is_empty() {
        (Tier::Phrase, phrase)
    } else if w.evidence && w.scattered_words && pattern.segments.len() >= 2 {
        pattern.scattered(bytes, text.as_bytes())?
    } else {
        return None;
    };
    let count = starts.len();
    let first_at = starts[0];
    let line_of = |at: usize| memchr::memchr_iter(b'\n', &bytes[..at]).count() + 1;
    let line_text = |at: usize| {
        let start = folded[..at].rfind('\n').map_or(0, |i| i + 1);
        let end = folded[at..].find('\n').map_or(folded.len(), |i| at + i);
        &text[start..end]
    };
    let number = line_of(first_at);
    let first = FirstLine {
        number: number as u32,
        text: line_text(first_at)
            .trim()
            .chars()
            .take(MAX_LINE_CHARS)
            .collect(),
    };
    let lines_text = if count == 1 { "line" } else { "lines" };
    if !w.evidence {
        return Some(GrepMatch {
            path: f.path.clone(),
            score: count as f64,
            count,
            reason: format!("{count} matching {lines_text}, first at line {number}"),
            first,
        });
    }
    let kind = Kind::of(f, w);
    // a symbol of the file named by the term: its definition first, the name equal to the
    // term before one that merely holds its words
    let declaration = match tier {
        Tier::Phrase | Tier::SameLine => declaration_of(f, pattern),
        Tier::SameFile => None,
    };
    let lines = memchr::memchr_iter(b'\n', bytes).count() + usize::from(!folded.ends_with('\n'));
    let density = count.min(lines.max(1)) as f64 / lines.max(1) as f64;
    let tier_weight = match tier {
        Tier::Phrase => w.phrase,
        Tier::SameLine => w.same_line,
        Tier::SameFile => w.same_file,
    };
    let in_stem = pattern.in_path(f.stem());
    let in_dir = pattern.in_path(f.dir());
    let score = tier_weight * kind.weight(w)
        + match declaration {
            Some((sym, exact)) => {
                w.declaration
                    + if sym.definition { w.definition } else { 0.0 }
                    + if exact { w.exact_name } else { 0.0 }
            }
            None => 0.0,
        }
        + w.stem_word * in_stem as f64
        + w.directory_word * in_dir as f64
        + w.density * density;
    let score = (score * 1000.0).round() / 1000.0;
    let how = match tier {
        Tier::Phrase => format!("{count} matching {lines_text}"),
        Tier::SameLine => format!("every word on {count} {lines_text}"),
        Tier::SameFile => format!("every word in the file ({count} {lines_text})"),
    };
    let mut reason = format!("{how}, first at line {number}; {} file", kind.as_str());
    if let Some((sym, _)) = declaration {
        reason.push_str(&format!(
            "; {} `{} {}` at line {}",
            if sym.definition {
                "definition"
            } else {
                "declaration"
            },
            sym.kind.as_str(),
            sym.name,
            sym.line
        ));
    }
    if in_stem + in_dir > 0 {
        reason.push_str(&format!(
            "; {} of the words in its path",
            in_stem.max(in_dir)
        ));
    }
    // the line to read first is the declaration's
    let first = match declaration {
        Some((sym, _)) if sym.line as usize != number => text
            .lines()
            .nth(sym.line as usize - 1)
            .map_or(first, |l| FirstLine {
                number: sym.line,
                text: l.trim().chars().take(MAX_LINE_CHARS).collect(),
            }),
        _ => first,
    };
    Some(GrepMatch {
        path: f.path.clone(),
        score,
        count,
        first,
        reason,
    })
}

/// The file's best symbol named by the term: every segment in its name; a definition
/// before a declaration, a name equal to the term before one that holds more; and whether
/// it is equal.
fn declaration_of<'f>(f: &'f TreeFile, pattern: &Pattern) -> Option<(&'f Symbol, bool)> {
    // compared without separators: `taskrequest` and `feed_eof` against `task_request`
    let compact = |s: &[u8]| -> Vec<u8> {
        s.iter()
            .copied()
            .filter(|c| !matches!(c, b'_' | b' ' | b'-'))
            .collect()
    };
    let segments: Vec<Vec<u8>> = pattern.segments.iter().map(|s| compact(s)).collect();
    let whole: Vec<u8> = segments.concat();
    f.symbols()
        .iter()
        .filter_map(|sym| {
            let name = compact(sym.snake.as_bytes());
            let holds = segments
                .iter()
                .all(|s| memchr::memmem::find(&name, s).is_some());
            holds.then(|| (sym, name == whole))
        })
        .max_by_key(|(sym, exact)| (sym.definition, *exact, std::cmp::Reverse(sym.line)))
}

/// The term as segments joined by optional separators.
struct Pattern {
    segments: Vec<Vec<u8>>,
    finders: Vec<Finder<'static>>,
    continuation: bool,
}

impl Pattern {
    fn new(term: &str, separator_pattern: bool, continuation: bool) -> Pattern {
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
        let finders = segments
            .iter()
            .map(|s| Finder::new(s.as_slice()).into_owned())
            .collect();
        Pattern {
            segments,
            finders,
            continuation,
        }
    }

    /// How many segments a folded path part (stem or directory) holds.
    fn in_path(&self, part: &str) -> usize {
        self.segments
            .iter()
            .filter(|s| !s.is_empty() && self.finders_find(part.as_bytes(), s))
            .count()
    }

    fn finders_find(&self, hay: &[u8], seg: &[u8]) -> bool {
        memchr::memmem::find(hay, seg).is_some()
    }

    /// The offset of the first match on each line holding the whole term.
    fn phrase_lines(&self, text: &[u8]) -> Vec<usize> {
        let mut at = 0;
        let mut out = Vec::new();
        while let Some(i) = self.finders[0].find(&text[at..]) {
            let start = at + i;
            if self.rest_matches(text, start + self.segments[0].len()) {
                out.push(start);
                // one count per line: continue after this line
                match memchr::memchr(b'\n', &text[start..]) {
                    Some(nl) => at = start + nl + 1,
                    None => break,
                }
            } else {
                at = start + 1;
            }
        }
        out
    }

    fn rest_matches(&self, text: &[u8], mut at: usize) -> bool {
        for seg in &self.segments[1..] {
            match self.next_segment(text, at, seg) {
                Some(end) => at = end,
                None => return false,
            }
        }
        true
    }

    /// Where `seg` ends when it follows at `at`: directly, after one separator, or (with
    /// continuation) after the rest of the current word.
    fn next_segment(&self, text: &[u8], at: usize, seg: &[u8]) -> Option<usize> {
        let mut j = at;
        loop {
            let rest = &text[j..];
            if rest.starts_with(seg) {
                return Some(j + seg.len());
            }
            if rest
                .first()
                .is_some_and(|c| matches!(c, b' ' | b'_' | b'-'))
                && rest[1..].starts_with(seg)
            {
                return Some(j + 1 + seg.len());
            }
            if self.continuation && rest.first().is_some_and(u8::is_ascii_alphanumeric) {
                j += 1;
            } else {
                return None;
            }
        }
    }

    /// Every segment at the start of a word somewhere: the tier and, for each line that
    /// counts, the offset of its first segment match. `None` when a segment is missing.
    fn scattered(&self, folded: &[u8], original: &[u8]) -> Option<(Tier, Vec<usize>)> {
        // (line start, offset) of each segment's word-start matches
        let mut per_segment: Vec<Vec<(usize, usize)>> = Vec::with_capacity(self.segments.len());
        for finder in &self.finders {
            let mut hits = Vec::new();
            // hits come in order: find each one's line start from the previous hit on
            let (mut scanned, mut line) = (0, 0);
            for at in finder.find_iter(folded) {
                if let Some(i) = memchr::memrchr(b'\n', &folded[scanned..at]) {
                    line = scanned + i + 1;
                }
                scanned = at;
                if word_start(original, at) && hits.last().is_none_or(|&(l, _)| l != line) {
                    hits.push((line, at));
                }
            }
            if hits.is_empty() {
                return None;
            }
            per_segment.push(hits);
        }
        let same_line: Vec<usize> = per_segment[0]
            .iter()
            .filter(|(line, _)| {
                per_segment[1..]
                    .iter()
                    .all(|hits| hits.binary_search_by_key(line, |&(l, _)| l).is_ok())
            })
            .map(|&(_, at)| at)
            .collect();
        if !same_line.is_empty() {
            return Some((Tier::SameLine, same_line));
        }
        let mut lines: Vec<(usize, usize)> = per_segment.into_iter().flatten().collect();
        lines.sort_unstable();
        lines.dedup_by_key(|(line, _)| *line);
        Some((
            Tier::SameFile,
            lines.into_iter().map(|(_, at)| at).collect(),
        ))
    }
}

/// True when `at` starts a word of the original text: after a non-alphanumeric byte, or at
/// a CamelCase hump (`Budget` in `maxBudget`).
fn word_start(text: &[u8], at: usize) -> bool {
    if at == 0 {
        return true;
    }
    let prev = text[at - 1];
    !prev.is_ascii_alphanumeric()
        || (prev.is_ascii_lowercase() && text.get(at).is_some_and(u8::is_ascii_uppercase))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;

    fn run(tree: &Tree, term: &str, p: &Profile) -> GrepResponse {
        grep(tree, &GrepRequest::new(term), &p.code, &p.grep).unwrap()
    }

    fn paths(r: &GrepResponse) -> Vec<&str> {
        r.matches.iter().map(|m| m.path.as_str()).collect()
    }

    fn tree() -> Tree {
        Tree::from_memory(
            "t",
            [
                ("NOTES.md", "# Design\nThe cursor binary ships in tools/.\nA Cursor-Binary is fast.\ncursor_binary again cursorbinary\n"),
                ("src/a.cpp", "int x;\n// CursorBinary\n"),
                ("src/b.cpp", "cursor  binary (two spaces)\n"),
            ],
        )
    }

    #[test]
    fn separator_pattern_matches_space_underscore_dash_or_nothing() {
        let mut p = Profile::default();
        p.grep.scattered_words = false;
        let r = run(&tree(), "cursor[ _-]?binary", &p);
        // the source file's one line outranks the design doc's three
        assert_eq!(paths(&r), ["src/a.cpp", "NOTES.md"]);
        let d = &r.matches[1];
        assert_eq!(d.count, 3);
        assert_eq!(d.first.number, 2);
        assert_eq!(d.first.text, "The cursor binary ships in tools/.");
        assert_eq!(r.matches[0].first.text, "// CursorBinary");
        // two spaces are no separator: both words on one line is weaker evidence
        let r = run(&tree(), "cursor[ _-]?binary", &Profile::default());
        assert_eq!(paths(&r), ["src/a.cpp", "src/b.cpp", "NOTES.md"]);
        assert!(r.matches[1].reason.starts_with("every word on 1 line"));
    }

    #[test]
    fn legacy_matches_the_pattern_literally() {
        let legacy = Profile::builtin("legacy").unwrap();
        let r = run(&tree(), "cursor[ _-]?binary", &legacy);
        assert!(r.matches.is_empty());
        let r = run(&tree(), "CURSOR_BINARY", &legacy);
        assert_eq!(r.matches.len(), 1);
    }

    #[test]
    fn no_match_in_a_tree_without_the_term() {
        let r = run(&tree(), "kubernetes", &Profile::default());
        assert_eq!(r.summary.total_matches, 0);
    }

    #[test]
    fn source_files_rank_above_data_and_docs_that_quote_the_term() {
        let t = Tree::from_memory(
            "t",
            [
                (
                    "corpora/validation.yaml",
                    "- query: find case folding\n- query: case folding again\n- query: case folding 3\n",
                ),
                ("README.md", "Case folding is Unicode.\nMore case folding.\n"),
                (
                    "src/text/fold.rs",
                    "//! Unicode case folding.\npub fn fold(s: &str) -> String {\n    s.to_lowercase()\n}\n",
                ),
            ],
        );
        let r = run(&t, "case[ _-]?folding", &Profile::default());
        assert_eq!(
            paths(&r),
            ["src/text/fold.rs", "README.md", "corpora/validation.yaml"]
        );
        assert!(
            r.matches[0].reason.contains("source file"),
            "{}",
            r.matches[0].reason
        );
        // the spec's grep ranks by matching lines alone
        let legacy = Profile::builtin("legacy").unwrap();
        let r = run(&t, "case folding", &legacy);
        assert_eq!(r.matches[0].path, "corpora/validation.yaml");
    }

    #[test]
    fn a_declaration_line_outranks_mentions() {
        let t = Tree::from_memory(
            "t",
            [
                (
                    "tests/find_task.rs",
                    "use x::TaskRequest;\nlet a = TaskRequest::new();\nlet b = TaskRequest::new();\n",
                ),
                (
                    "src/modes/task.rs",
                    "use y;\n\n\n\n\n\n/// A request.\npub struct TaskRequest {\n    q: String,\n}\n",
                ),
            ],
        );
        let r = run(&t, "TaskRequest", &Profile::default());
        assert_eq!(r.matches[0].path, "src/modes/task.rs");
        assert!(
            r.matches[0]
                .reason
                .contains("definition `struct TaskRequest` at line 8"),
            "{}",
            r.matches[0].reason
        );
    }

    #[test]
    fn the_whole_term_outranks_scattered_words_which_still_match() {
        let t = Tree::from_memory(
            "t",
            [
                ("a.rs", "// the iteration budget\n"),
                ("b.rs", "// budget of each iteration\n"),
                ("c.rs", "// an iteration\n// a budget\n"),
                ("d.rs", "// iterations only; rebudgeted\n"),
            ],
        );
        let r = run(&t, "iteration[ _-]?budget", &Profile::default());
        assert_eq!(paths(&r), ["a.rs", "b.rs", "c.rs"]);
        assert!(
            r.matches[1].reason.starts_with("every word on 1 line"),
            "{}",
            r.matches[1].reason
        );
        assert!(
            r.matches[2].reason.starts_with("every word in the file"),
            "{}",
            r.matches[2].reason
        );
        let mut p = Profile::default();
        p.grep.scattered_words = false;
        assert_eq!(paths(&run(&t, "iteration[ _-]?budget", &p)), ["a.rs"]);
    }

    #[test]
    fn stems_match_the_rest_of_a_word_before_the_next_one() {
        let t = Tree::from_memory("t", [("n.md", "Traces replayed nightly.\n")]);
        let r = run(&t, "trace[ _-]?replay", &Profile::default());
        assert_eq!(r.matches.len(), 1);
        assert!(r.matches[0].reason.starts_with("1 matching line"));
        let mut p = Profile::default();
        p.grep.word_continuation = false;
        p.grep.scattered_words = false;
        assert!(run(&t, "trace[ _-]?replay", &p).matches.is_empty());
    }

    #[test]
    fn denser_files_win_among_equals() {
        let t = Tree::from_memory(
            "t",
            [
                ("long.rs", "// replay\n\n\n\n\n\n\n\n\n// replay\n"),
                ("short.rs", "// replay\n"),
            ],
        );
        let r = run(&t, "replay", &Profile::default());
        assert_eq!(paths(&r), ["short.rs", "long.rs"]);
    }

    #[test]
    fn a_definition_outranks_a_prototype() {
        let t = Tree::from_memory(
            "t",
            [
                ("include/d.h", "std::string timeline_json(int id);\n"),
                (
                    "src/diagnostics/d.cpp",
                    "#include \"d.h\"\nstd::string timeline_json(int id) {\n    return {};\n}\n\n\n\n",
                ),
            ],
        );
        let r = run(&t, "timeline_json", &Profile::default());
        assert_eq!(paths(&r), ["src/diagnostics/d.cpp", "include/d.h"]);
        assert!(r.matches[1]
            .reason
            .contains("; declaration `function timeline_json`"));
    }

    #[test]
    fn a_file_named_by_a_word_of_the_term_outranks_other_mentions() {
        let t = Tree::from_memory(
            "t",
            [
                ("src/lib.rs", "// the ranking profile\n"),
                (
                    "src/profile.rs",
                    "//! Ranking profiles: weights as data.\n\n\n\n",
                ),
            ],
        );
        let r = run(&t, "rank[ _-]?profile", &Profile::default());
        assert_eq!(paths(&r), ["src/profile.rs", "src/lib.rs"]);
        assert!(
            r.matches[0].reason.ends_with("1 of the words in its path"),
            "{}",
            r.matches[0].reason
        );
    }
}
