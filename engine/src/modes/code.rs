//! `find code`: the directory-aware cascade of directory-aware-find.md. Each file scores the
//! highest step it reaches (exact stem, symbol, all words, partial stem, directory), plus the
//! implementation boost when asked; every candidate says which step and why.

use crate::error::{EngineError, Result};
use crate::modes::task::Summary;
use crate::profile::CodeWeights;
use crate::text::term::Term;
use crate::tree::symbols::SymbolClass;
use crate::tree::{Tree, TreeFile};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// A `find code` request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CodeRequest {
    /// The term; may hold `[ _-]?` separators or be a CamelCase identifier.
    pub term: String,
    /// Boost implementation files (`--impl`).
    #[serde(rename = "impl")]
    pub impl_query: bool,
    pub limit: usize,
}

impl CodeRequest {
    pub fn new(term: impl Into<String>) -> CodeRequest {
        CodeRequest {
            term: term.into(),
            impl_query: false,
            limit: 10,
        }
    }
}

/// The step of the cascade a candidate reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CodeStep {
    ExactStem,
    Symbol,
    AllWords,
    PartialStem,
    Directory,
}

/// One ranked file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CodeMatch {
    pub path: String,
    pub score: f64,
    pub step: CodeStep,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CodeResponse {
    pub query: CodeRequest,
    pub summary: Summary,
    pub matches: Vec<CodeMatch>,
}

/// Runs the cascade over every file of the tree.
pub fn find_code(
    tree: &Tree,
    request: &CodeRequest,
    weights: &CodeWeights,
) -> Result<CodeResponse> {
    if request.term.trim().is_empty() {
        return Err(EngineError::invalid_with_hint(
            "empty term",
            "give a file stem, identifier or words, e.g. `replay` or `cursor[ _-]?binary`",
        ));
    }
    if request.limit == 0 {
        return Err(EngineError::invalid("--limit must be at least 1"));
    }
    let matches = rank(tree, request, weights);
    let total = matches.len();
    let matches: Vec<CodeMatch> = matches.into_iter().take(request.limit).collect();
    Ok(CodeResponse {
        query: request.clone(),
        summary: Summary::new(total, matches.len()),
        matches,
    })
}

/// Every candidate, best first (ties: shorter path, then byte order).
pub fn rank(tree: &Tree, request: &CodeRequest, weights: &CodeWeights) -> Vec<CodeMatch> {
    let query = Query::new(&request.term, weights);
    let mut matches: Vec<CodeMatch> = tree
        .files()
        .par_iter()
        .filter_map(|f| score_file(f, &query, request.impl_query, weights))
        .collect();
    matches.sort_by(compare);
    matches
}

fn compare(a: &CodeMatch, b: &CodeMatch) -> Ordering {
    b.score
        .total_cmp(&a.score)
        .then(a.path.len().cmp(&b.path.len()))
        .then_with(|| a.path.cmp(&b.path))
}

/// The forms of the term each step compares with.
struct Query {
    term: Term,
    /// What stems and directories are compared with: the snake form, or (legacy) the
    /// folded term with its separator pattern left in.
    key: String,
    words: Vec<String>,
}

impl Query {
    fn new(raw: &str, w: &CodeWeights) -> Query {
        let term = Term::new(raw);
        let key = if w.camel_case {
            term.snake.clone()
        } else if w.separator_pattern {
            term.literal.replace(crate::text::term::SEPARATOR, "_")
        } else {
            term.literal.clone()
        };
        let words = if w.separator_pattern || w.camel_case {
            term.words.clone()
        } else {
            term.literal
                .split_whitespace()
                .map(str::to_string)
                .collect()
        };
        Query { term, key, words }
    }
}

/// The highest step reached so far; a reason is only formatted when it wins.
struct Best(Option<(f64, CodeStep, String)>);

impl Best {
    fn offer(&mut self, score: f64, step: CodeStep, reason: &dyn Fn() -> String) {
        if score > 0.0 && score > self.score() {
            self.0 = Some((score, step, reason()));
        }
    }

    fn score(&self) -> f64 {
        self.0.as_ref().map_or(0.0, |b| b.0)
    }
}

/// One file's best step, or `None` when it reaches none.
fn score_file(f: &TreeFile, q: &Query, impl_query: bool, w: &CodeWeights) -> Option<CodeMatch> {
    if q.key.is_empty() {
        return None;
    }
    let mut best = Best(None);
    if f.stem == q.term.literal || (!w.camel_case && f.stem == q.key) {
        best.offer(w.exact_stem, CodeStep::ExactStem, &|| {
            format!("exact stem `{}`", f.stem)
        });
    } else if w.camel_case && f.stem_snake == q.key {
        best.offer(w.exact_stem, CodeStep::ExactStem, &|| {
            "exact stem after CamelCase normalisation".to_string()
        });
    }
    if w.symbol_scan && best.score() < w.exact_stem {
        for sym in &f.symbols {
            let (score, how) = if sym.snake == q.key {
                let s = match sym.kind.class() {
                    SymbolClass::Type => w.symbol_type,
                    SymbolClass::Function => w.symbol_function,
                    SymbolClass::Other => w.symbol_other,
                };
                (s, "")
            } else if sym.snake.contains(&q.key) {
                (w.symbol_partial, " (contains the term)")
            } else {
                continue;
            };
            best.offer(score, CodeStep::Symbol, &|| {
                format!(
                    "symbol `{} {}` at line {}{how}",
                    sym.kind.as_str(),
                    sym.name,
                    sym.line
                )
            });
        }
    }
    if w.word_match
        && q.words.len() >= 2
        && q.words.iter().all(|word| f.stem.contains(word.as_str()))
    {
        best.offer(w.all_words, CodeStep::AllWords, &|| {
            let list: Vec<String> = q.words.iter().map(|x| format!("`{x}`")).collect();
            format!("all words {} in stem", list.join(", "))
        });
    }
    let stem = if w.camel_case { &f.stem_snake } else { &f.stem };
    if stem.contains(q.key.as_str()) {
        best.offer(w.partial_stem, CodeStep::PartialStem, &|| {
            format!("stem `{}` contains `{}`", f.stem, q.key)
        });
    }
    if f.dir.contains(q.key.as_str()) {
        best.offer(w.directory, CodeStep::Directory, &|| {
            format!("directory `{}` contains `{}`", f.dir, q.key)
        });
    }
    let (mut score, step, mut reason) = best.0?;
    if impl_query && w.impl_boost != 0.0 && w.impl_extensions.contains(&f.ext) {
        score += w.impl_boost;
        reason.push_str(&format!("; +{} implementation file", w.impl_boost));
    }
    Some(CodeMatch {
        path: f.path.clone(),
        score,
        step,
        reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;

    fn tree() -> Tree {
        Tree::from_memory(
            "t",
            [
                (
                    "include/app/command_router.h",
                    "#pragma once\nclass CommandRouter {\n public:\n  void route(int c);\n};\n",
                ),
                (
                    "src/app/command_router.cpp",
                    "#include \"app/command_router.h\"\nvoid CommandRouter::route(int c) {\n}\n",
                ),
                (
                    "src/services/replay_service.cpp",
                    "#include \"x.h\"\nvoid ReplayService::replay(const Trace& t) {\n}\n",
                ),
                (
                    "src/services/replay_service.h",
                    "class ReplayService {\n  void replay(const Trace& t);\n};\n",
                ),
                (
                    "src/cursor/cursor_binary.cpp",
                    "int main(int argc, char** argv) {\n}\n",
                ),
                ("src/cursor/cursorbinary_notes.md", "notes\n"),
                (
                    "src/engine/tool_runner.cpp",
                    "struct EvidenceGate {\n};\nbool gate_evidence(int x) {\n}\n",
                ),
                ("src/gating/policy.cpp", "int p;\n"),
                ("docs/replay.md", "# replay\n"),
            ],
        )
    }

    fn run(term: &str, impl_query: bool, profile: &Profile) -> Vec<CodeMatch> {
        let mut r = CodeRequest::new(term);
        r.impl_query = impl_query;
        r.limit = 50;
        find_code(&tree(), &r, &profile.code).unwrap().matches
    }

    fn find<'a>(m: &'a [CodeMatch], path: &str) -> &'a CodeMatch {
        m.iter()
            .find(|c| c.path == path)
            .unwrap_or_else(|| panic!("{path} not in {m:?}"))
    }

    #[test]
    fn exact_stem_scores_20_after_camel_case_normalisation() {
        let m = run("CommandRouter", false, &Profile::default());
        let c = find(&m, "include/app/command_router.h");
        assert_eq!(c.score, 20.0);
        assert_eq!(c.step, CodeStep::ExactStem);
        assert_eq!(c.reason, "exact stem after CamelCase normalisation");
        // the shorter path wins the tie
        assert_eq!(m[0].path, "src/app/command_router.cpp");
    }

    #[test]
    fn exact_lowered_stem_says_so() {
        let m = run("replay_service", false, &Profile::default());
        assert_eq!(
            find(&m, "src/services/replay_service.h").reason,
            "exact stem `replay_service`"
        );
    }

    #[test]
    fn symbol_steps_weigh_by_kind() {
        let p = Profile::default();
        let m = run("EvidenceGate", false, &p);
        let c = find(&m, "src/engine/tool_runner.cpp");
        assert_eq!(c.score, 18.0);
        assert_eq!(c.reason, "symbol `struct EvidenceGate` at line 1");
        let m = run("gate_evidence", false, &p);
        assert_eq!(find(&m, "src/engine/tool_runner.cpp").score, 17.0);
        let m = run("evidence", false, &p);
        let c = find(&m, "src/engine/tool_runner.cpp");
        assert_eq!(c.score, 15.0);
        assert!(c.reason.contains("contains the term"), "{}", c.reason);
    }

    #[test]
    fn separator_pattern_reaches_exact_stem_and_partial() {
        let m = run("cursor[ _-]?binary", false, &Profile::default());
        assert_eq!(m[0].path, "src/cursor/cursor_binary.cpp");
        assert_eq!(m[0].score, 20.0);
        let m = run("cursor[ _-]?bin", false, &Profile::default());
        let c = find(&m, "src/cursor/cursor_binary.cpp");
        assert_eq!((c.score, c.step), (12.0, CodeStep::AllWords));
        let m = run("binary", false, &Profile::default());
        let c = find(&m, "src/cursor/cursor_binary.cpp");
        assert_eq!((c.score, c.step), (10.0, CodeStep::PartialStem));
        assert_eq!(c.reason, "stem `cursor_binary` contains `binary`");
    }

    #[test]
    fn all_words_step_scores_12() {
        // `binary` and `cursor` both occur in the stem, not as the term
        let m = run("binary[ _-]?cursor", false, &Profile::default());
        let c = find(&m, "src/cursor/cursor_binary.cpp");
        assert_eq!((c.score, c.step), (12.0, CodeStep::AllWords));
        assert_eq!(c.reason, "all words `binary`, `cursor` in stem");
    }

    #[test]
    fn directory_step_scores_5() {
        let m = run("gating", false, &Profile::default());
        let c = find(&m, "src/gating/policy.cpp");
        assert_eq!((c.score, c.step), (5.0, CodeStep::Directory));
    }

    #[test]
    fn impl_boost_adds_8_to_implementation_files_only() {
        let m = run("replay", true, &Profile::default());
        assert_eq!(m[0].path, "src/services/replay_service.cpp");
        assert_eq!(m[0].score, 17.0 + 8.0);
        assert!(
            m[0].reason.ends_with("; +8 implementation file"),
            "{}",
            m[0].reason
        );
        assert_eq!(find(&m, "src/services/replay_service.h").score, 17.0);
        assert_eq!(find(&m, "docs/replay.md").score, 20.0);
    }

    #[test]
    fn weights_are_data() {
        let mut p = Profile::default();
        p.code.impl_boost = 0.0;
        p.code.partial_stem = 11.0;
        let m = run("binary", true, &p);
        assert_eq!(find(&m, "src/cursor/cursor_binary.cpp").score, 11.0);
    }

    #[test]
    fn legacy_matches_the_separator_pattern_literally() {
        let legacy = Profile::builtin("legacy").unwrap();
        assert!(run("cursor[ _-]?binary", true, &legacy).is_empty());
        assert!(run("CommandRouter", true, &legacy).is_empty());
        let m = run("replay", true, &legacy);
        let c = find(&m, "src/services/replay_service.cpp");
        assert_eq!(c.score, 18.0, "partial stem + impl, no symbol step");
        assert_eq!(
            find(&m, "src/services/replay_service.h").step,
            CodeStep::PartialStem
        );
    }

    #[test]
    fn empty_term_is_invalid() {
        let err = find_code(&tree(), &CodeRequest::new("  "), &CodeWeights::default()).unwrap_err();
        assert_eq!(err.exit_code(), 2);
    }
}
