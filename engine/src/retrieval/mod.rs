//! Ranking files by every word of a task ("Exit immediately when Ctrl-C has been pressed
//! twice"), for questions that name no single symbol: BM25F over identifier-aware,
//! stemmed terms in four fields (path, declared names, prose, code), times a prior for what
//! the file is (implementation above tests, documentation and data), re-ranked by the line
//! where most of the question's words meet, which is also the evidence shown.
//!
//! - [`tokens`]: terms of text and questions (CamelCase/snake_case/kebab split, stems, stop
//!   words);
//! - [`fields`]: which bytes of a file are prose and which code;
//! - [`kind`]: what a file is (source, test, docs, data, other);
//! - [`bm25f`]: the per-tree statistics and the BM25F term weight.
//!
//! The statistics are built once per tree and kept (see [`index_for`]); every weight is in
//! the profile's `task_ranking` section.

pub mod bm25f;
pub mod fields;
pub mod kind;
pub mod tokens;

use crate::profile::Profile;
use crate::tree::Tree;
use bm25f::FieldIndex;
use fields::FIELDS;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

/// One file ranked for a question.
#[derive(Debug, Clone, PartialEq)]
pub struct RankedFile {
    pub path: String,
    pub score: f64,
    /// Which words the file holds, in which fields, its kind and its best line.
    pub reason: String,
    /// The lines where most of the question's words meet, best first (1-based), with how
    /// many distinct words each holds.
    pub evidence_lines: Vec<(u32, usize)>,
}

/// The files of `tree` that hold at least one significant word of `question`, best first,
/// at most `limit` of them. Empty when no file holds any (or the question has no word
/// left once stop words are dropped).
pub fn rank_files(tree: &Tree, question: &str, profile: &Profile, limit: usize) -> Vec<RankedFile> {
    let w = &profile.task_ranking;
    let terms = tokens::question_terms(question, &w.stop_words);
    if terms.is_empty() || limit == 0 {
        return Vec::new();
    }
    let slot = index_for(tree, profile);
    let index = slot.get_or_init(|| FieldIndex::build(tree, profile));
    // accumulated score, and for each term the fields it was found in
    struct Acc {
        score: f64,
        found: Vec<(usize, [bool; 4])>,
    }
    let mut by_file: HashMap<u32, Acc> = HashMap::new();
    for (t, term) in terms.iter().enumerate() {
        let postings = index.postings(term);
        if postings.is_empty() {
            continue;
        }
        let idf = index.idf(postings.len());
        for p in postings {
            let tf = index.weighted_tf(p, w);
            let acc = by_file.entry(p.file).or_insert(Acc {
                score: 0.0,
                found: Vec::new(),
            });
            acc.score += idf * tf / (w.k1 + tf);
            acc.found.push((t, p.tf.map(|n| n > 0)));
        }
    }
    let files = tree.files();
    let mut ranked: Vec<(u32, f64, Acc)> = by_file
        .into_iter()
        .map(|(file, acc)| {
            let kind = index.kind(file as usize);
            let coverage = acc.found.len() as f64 / terms.len() as f64;
            let score = acc.score * kind.prior(w) * coverage.powf(w.coverage);
            (file, score, acc)
        })
        .collect();
    let order = |a: &(u32, f64, Acc), b: &(u32, f64, Acc)| {
        b.1.total_cmp(&a.1).then_with(|| {
            let (pa, pb) = (&files[a.0 as usize].path, &files[b.0 as usize].path);
            pa.len().cmp(&pb.len()).then_with(|| pa.cmp(pb))
        })
    };
    ranked.sort_by(order);
    // the best candidates are read line by line: the line where most words meet
    let depth = w.rerank_depth.max(limit);
    let mut lines: HashMap<u32, Vec<(u32, usize)>> = HashMap::new();
    for entry in ranked.iter_mut().take(depth) {
        let best = best_lines(files[entry.0 as usize].text(), &terms);
        let top = best.first().map_or(0, |l| l.1);
        if terms.len() > 1 && top > 1 {
            let share = (top - 1) as f64 / (terms.len() - 1) as f64;
            entry.1 *= 1.0 + w.proximity * share;
        }
        lines.insert(entry.0, best);
    }
    ranked.sort_by(order);
    ranked
        .into_iter()
        .take(limit)
        .map(|(file, score, acc)| {
            let f = &files[file as usize];
            let mut evidence = lines.remove(&file).unwrap_or_default();
            evidence.truncate(profile.planner.evidence_lines.max(1));
            let words: Vec<String> = acc
                .found
                .iter()
                .map(|(t, in_fields)| {
                    let names: Vec<&str> = FIELDS
                        .iter()
                        .filter(|f| in_fields[f.index()])
                        .map(|f| f.as_str())
                        .collect();
                    format!("`{}` ({})", terms[*t], names.join(", "))
                })
                .collect();
            let mut reason = format!(
                "task words {} of {}: {}; {} file",
                acc.found.len(),
                terms.len(),
                words.join(", "),
                index.kind(file as usize).as_str()
            );
            if let Some((n, k)) = evidence.first() {
                reason.push_str(&format!("; line {n} holds {k}"));
            }
            RankedFile {
                path: f.path.clone(),
                score: (score * 1e4).round() / 1e4,
                reason,
                evidence_lines: evidence,
            }
        })
        .collect()
}

/// Every line of `text` that holds a term of `terms`, with how many distinct terms it
/// holds: most first, then by line number.
fn best_lines(text: Option<&str>, terms: &[String]) -> Vec<(u32, usize)> {
    let Some(text) = text else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut seen = vec![false; terms.len()];
    for (i, line) in text.lines().enumerate() {
        seen.iter_mut().for_each(|s| *s = false);
        tokens::for_each_term(line, |t, _| {
            if let Some(k) = terms.iter().position(|q| *q == t) {
                seen[k] = true;
            }
        });
        let k = seen.iter().filter(|s| **s).count();
        if k > 0 {
            out.push((i as u32 + 1, k));
        }
    }
    out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    out
}

/// A tree's identity for the cache: its address, root, size and a hash of its paths and
/// file sizes (an address reused by another tree of the same shape is all but impossible),
/// and of the profile rules the statistics depend on (what a file is: source, test, docs).
#[derive(Debug, Clone, PartialEq, Eq)]
struct TreeKey {
    address: usize,
    root: std::path::PathBuf,
    files: usize,
    fingerprint: u64,
}

impl TreeKey {
    fn of(tree: &Tree, profile: &Profile) -> TreeKey {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        profile.grep.source_extensions.hash(&mut h);
        profile.grep.docs_extensions.hash(&mut h);
        profile.grep.data_extensions.hash(&mut h);
        profile.code.test_dirs.hash(&mut h);
        profile.code.test_names.hash(&mut h);
        for f in tree.files() {
            f.path.hash(&mut h);
            f.size.hash(&mut h);
        }
        TreeKey {
            address: tree as *const Tree as usize,
            root: tree.root().to_path_buf(),
            files: tree.len(),
            fingerprint: h.finish(),
        }
    }
}

/// Trees whose statistics are kept; the oldest is dropped past this many.
const KEPT_TREES: usize = 16;

/// A tree's statistics, once built.
pub type Slot = Arc<OnceLock<FieldIndex>>;

/// The slot of `tree`'s statistics, kept for the next questions on it: the caller builds
/// them on first use (`get_or_init`), once however many threads ask at once.
pub fn index_for(tree: &Tree, profile: &Profile) -> Slot {
    static KEPT: Mutex<Vec<(TreeKey, Slot)>> = Mutex::new(Vec::new());
    let key = TreeKey::of(tree, profile);
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, slot)) = kept.iter().find(|(k, _)| *k == key) {
        return slot.clone();
    }
    if kept.len() >= KEPT_TREES {
        kept.remove(0);
    }
    let slot = Slot::default();
    kept.push((key, slot.clone()));
    slot
}
