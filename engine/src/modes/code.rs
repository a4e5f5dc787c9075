//! `find code`: the directory-aware cascade of directory-aware-find.md. Each file scores the
//! highest step it reaches, by what the file is to the term, strongest first: it defines a
//! symbol named the term (or members qualified by it), declares one, is named the term,
//! opens a namespace named the term, its path holds the term (stem, then directory), or it
//! only mentions the term (a symbol that contains it). The implementation boost is added
//! when asked; tests, examples, benches and generated files lose a tie-breaker smaller than
//! the gap between two steps, so they rank below the implementation of equal evidence and
//! above any file of weaker evidence. Every candidate says which step and why.

use crate::error::{EngineError, Result};
use crate::modes::task::Summary;
use crate::profile::CodeWeights;
pub use crate::retrieval::kind::{is_test_file, secondary_kind, Secondary};
use crate::tree::symbols::SymbolKind;
use crate::tree::{SymbolTable, Tree, TreeFile};
pub use cascade::CodeStep;
use cascade::{cascade, is_module_score, Candidate, Part, Query, SymbolMatch, Why};
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

/// One ranked file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CodeMatch {
    pub path: String,
    pub score: f64,
    pub step: CodeStep,
    pub reason: String,
    /// The line of the declaration the symbol step matched (1-based).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// What the file is when it is not the implementation (`test`, `example or bench`,
    /// `generated`), or the matched symbol is a test function.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secondary: Option<String>,
    /// The file defines a symbol named exactly the term (a namespace only opens one): what
    /// was asked for, even in a test file. Not part of the envelope.
    #[serde(skip)]
    pub defines_term: bool,
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
    let (total, matches) = rank_top(tree, request, weights, request.limit);
    Ok(CodeResponse {
        query: request.clone(),
        summary: Summary::new(total, matches.len()),
        matches,
    })
}

/// Every candidate, best first (ties: shorter path, then byte order), each with its reason:
/// for callers that explain the whole ranking.
pub fn rank(tree: &Tree, request: &CodeRequest, weights: &CodeWeights) -> Vec<CodeMatch> {
    rank_top(tree, request, weights, usize::MAX).1
}

/// How many files match, and the best `limit` of them with their reasons. Candidates are
/// ranked in a compact form; reasons are formatted only for the ones returned. A term that
/// qualifies a member (`JsonReader.peek`, `WalkBuilder::new`) is also read as its two
/// names (`code/qualified.rs`).
pub fn rank_top(
    tree: &Tree,
    request: &CodeRequest,
    weights: &CodeWeights,
    limit: usize,
) -> (usize, Vec<CodeMatch>) {
    let whole = Query::new(&request.term, weights);
    let mut candidates = cascade(tree, &whole, request.impl_query, weights, Part::Whole);
    let mut queries = vec![whole];
    qualified::read(
        tree,
        &request.term,
        request.impl_query,
        weights,
        &mut candidates,
        &mut queries,
    );
    let files = tree.files();
    let total = candidates.len();
    let order = |a: &Candidate, b: &Candidate| -> Ordering {
        let (pa, pb) = (&files[a.file as usize].path, &files[b.file as usize].path);
        b.score
            .total_cmp(&a.score)
            .then(pa.len().cmp(&pb.len()))
            .then_with(|| pa.cmp(pb))
    };
    if limit == 0 {
        return (total, Vec::new());
    }
    if candidates.len() > limit {
        candidates.select_nth_unstable_by(limit, order);
        candidates.truncate(limit);
    }
    candidates.sort_by(order);
    let matches = candidates
        .iter()
        .map(|c| {
            let (table, slot) = tree.table_of(c.file as usize);
            let q = &queries[c.part as usize];
            let mut m = describe(&files[c.file as usize], table, slot, c, q, weights);
            m.reason.push_str(&qualified::reason(c, &queries, weights));
            m
        })
        .collect();
    (total, matches)
}

/// The key the cascade looks `term` up by in the symbol table (`SymbolTable::containing`
/// and `members`): what the first call on a root scans files for (`first_call/mod.rs`).
pub(crate) fn lookup_key(term: &str, weights: &CodeWeights) -> String {
    Query::new(term, weights).key
}

/// Every key the cascade looks `term` up by: its own, and a qualified term's member's and
/// owner's (`qualified.rs`).
pub(crate) fn lookup_keys(term: &str, weights: &CodeWeights) -> Vec<String> {
    let mut keys = vec![lookup_key(term, weights)];
    if let Some((owner, member)) = qualified::split(term, weights) {
        keys.extend([lookup_key(member, weights), lookup_key(owner, weights)]);
    }
    keys
}

/// The words of a candidate: which step, which symbol, boost and penalty.
fn describe(
    f: &TreeFile,
    symbols: &SymbolTable,
    slot: usize,
    c: &Candidate,
    q: &Query,
    w: &CodeWeights,
) -> CodeMatch {
    let mut line = None;
    let mut defines_term = false;
    let mut reason = match c.why {
        Why::ExactStem if is_module_score(c, w) => format!("module file `{}`", f.stem()),
        Why::ExactStemCamel if is_module_score(c, w) => {
            "module file (CamelCase normalised)".to_string()
        }
        Why::DirectoryModule => format!(
            "module file of directory `{}`",
            f.dir().rsplit('/').next().unwrap_or("")
        ),
        Why::ExactStem => format!("exact stem `{}`", f.stem()),
        Why::PathTail => format!("path ends with `{}`", q.term.literal),
        Why::ExactStemCamel => "exact stem after CamelCase normalisation".to_string(),
        Why::Symbol { index, how } => {
            // the one symbol, not the file's every symbol
            let sym = &symbols.symbol(symbols.file_range(slot).start + index);
            line = Some(sym.line);
            defines_term =
                how == SymbolMatch::Exact && sym.definition && sym.kind != SymbolKind::Namespace;
            let what = match how {
                SymbolMatch::Exact if sym.definition => "definition",
                SymbolMatch::Exact => "declaration",
                SymbolMatch::Member => "member definition",
                SymbolMatch::Inflected => "definition (inflected)",
                SymbolMatch::Partial => "symbol",
            };
            format!(
                "{what} `{} {}` at line {}{}",
                sym.kind.as_str(),
                sym.name,
                sym.line,
                if how == SymbolMatch::Partial {
                    " (contains the term)"
                } else {
                    ""
                }
            )
        }
        Why::AllWords => {
            let list: Vec<String> = q.words.iter().map(|x| format!("`{x}`")).collect();
            format!("all words {} in stem", list.join(", "))
        }
        Why::PartialStem => format!("stem `{}` contains `{}`", f.stem(), q.key),
        Why::Directory => format!("directory `{}` contains `{}`", f.dir(), q.key),
    };
    if c.boost != 0.0 {
        reason.push_str(&format!("; +{} implementation file", c.boost));
    }
    match c.secondary {
        Some(kind) if w.test_penalty != 0.0 => {
            reason.push_str(&format!("; -{} {} file", w.test_penalty, kind.as_str()));
        }
        Some(kind) => reason.push_str(&format!("; {} file", kind.as_str())),
        None => {}
    }
    CodeMatch {
        path: f.path.clone(),
        score: c.score,
        step: c.why.step(),
        reason,
        line,
        secondary: c.secondary.map(|s| s.as_str().to_string()),
        defines_term,
    }
}

mod cascade;
mod qualified;
#[cfg(test)]
mod tests;
