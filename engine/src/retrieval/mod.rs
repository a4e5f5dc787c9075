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

mod best_files;
pub mod bm25f;
pub mod built_copy;
pub mod code_tokens;
mod counted_files;
pub(crate) mod field_index;
pub mod fields;
mod file_counts;
pub mod history;
pub mod kept;
mod kept_runs;
pub mod kind;
mod length_sample;
mod named_files;
pub mod posting;
mod references;
mod subject_scope;
pub mod tested_subject;
pub mod tokens;
mod word_parts;

use crate::profile::Profile;
use crate::tree::{Tree, TreeState};
use best_files::Scored;
use bm25f::FieldIndex;
use fields::FIELDS;
pub(crate) use file_counts::{counted_of_read, Counted, CountsAndLines};
pub use length_sample::{estimated_averages, sampled_lengths, Sampled};
pub(crate) use length_sample::{length_sample, lengths_of_read, WHOLE};
use rayon::prelude::*;
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

/// Why a tree does not hold a question's subject: which coverage rule of the profile's
/// `task_ranking` the question's terms fall short of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Absent {
    /// Only `held` of the question's `terms` terms occur anywhere in the tree, fewer than
    /// the `needed` of `min_coverage`.
    InTree {
        held: usize,
        needed: usize,
        terms: usize,
    },
    /// No file holds `needed` of the `terms` together (`min_joint_coverage`); the best
    /// holds `most`.
    Together {
        most: usize,
        needed: usize,
        terms: usize,
    },
}

impl std::fmt::Display for Absent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Absent::InTree {
                held,
                needed,
                terms,
            } => write!(
                f,
                "the tree holds {held} of the question's {terms} terms, fewer than the \
                 {needed} its subject needs"
            ),
            Absent::Together {
                most,
                needed,
                terms,
            } => write!(
                f,
                "no file holds {needed} of the question's {terms} terms together (the best \
                 holds {most})"
            ),
        }
    }
}

/// The files ranked for a question, and whether the tree holds its subject at all.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Ranking {
    pub files: Vec<RankedFile>,
    /// Set when the question's terms fall short of the coverage rules: the files are still
    /// ranked by the terms the tree holds, as candidates to look at, never as evidence.
    pub absent: Option<Absent>,
}

/// The files of `tree` that hold a significant term of `question`, best first, at most
/// `limit` of them. Empty when the tree holds fewer than the profile's `min_coverage` share
/// of the terms anywhere, or no file holds `min_joint_coverage` of them together (its
/// subject is absent), or the question has no word left once stop words are dropped.
pub fn rank_files(tree: &Tree, question: &str, profile: &Profile, limit: usize) -> Vec<RankedFile> {
    let ranking = rank_candidates(tree, question, profile, limit);
    match ranking.absent {
        Some(_) => Vec::new(),
        None => ranking.files,
    }
}

/// As [`rank_files`], but the files are ranked whatever the coverage rules say, and
/// [`Ranking::absent`] says which rule the question fell short of: an answer that is not
/// evidence still lists where the words it has are.
pub fn rank_candidates(tree: &Tree, question: &str, profile: &Profile, limit: usize) -> Ranking {
    rank_written(tree, question, question, profile, limit)
}

/// As [`rank_candidates`], ranked by the terms of `words` (the words `ask`'s planner kept of
/// a question) while the question as `written` tells which of them are code-shaped, the
/// names it quotes and the scope it opens with: the punctuation that says so (a subject's
/// `scope:`, backticks, quotes) is not in the words.
pub fn rank_written(
    tree: &Tree,
    words: &str,
    written: &str,
    profile: &Profile,
    limit: usize,
) -> Ranking {
    let w = &profile.task_ranking;
    let terms = tokens::question_terms(words, &w.stop_words);
    if terms.is_empty() || limit == 0 {
        return Ranking::default();
    }
    let slot = index_for(tree, profile);
    let kept = slot.get_or_init(|| FieldIndex::for_tree(tree, profile));
    // the files holding each term; a kept file that does not check out is removed, and the
    // statistics are built anew from the tree for this question
    let rebuilt;
    let (index, lists) = match terms
        .iter()
        .map(|t| kept.holding(t))
        .collect::<Result<Vec<_>, _>>()
    {
        Ok(lists) => (kept, lists),
        Err(_) => {
            rebuilt = FieldIndex::build(tree, profile);
            let lists = terms
                .iter()
                .map(|t| rebuilt.holding(t).unwrap_or(posting::Holding::Files(&[])))
                .collect();
            (&rebuilt, lists)
        }
    };
    // a tree that holds too few of the question's terms anywhere does not hold its subject
    let held = lists.iter().filter(|l| !l.is_empty()).count();
    let needed = (w.min_coverage * terms.len() as f64).ceil().max(1.0) as usize;
    let mut absent = (held < needed).then_some(Absent::InTree {
        held,
        needed,
        terms: terms.len(),
    });
    // the terms each file holds, ascending
    let mut by_file: HashMap<u32, Vec<usize>> = HashMap::new();
    for (t, list) in lists.iter().enumerate() {
        for file in list.files() {
            by_file.entry(file).or_default().push(t);
        }
    }
    // nor does one in which no file holds enough of them together
    let together = (w.min_joint_coverage * terms.len() as f64).ceil().max(1.0) as usize;
    let most = by_file.values().map(Vec::len).max().unwrap_or(0);
    if absent.is_none() && most < together {
        absent = Some(Absent::Together {
            most,
            needed: together,
            terms: terms.len(),
        });
    }
    if by_file.is_empty() {
        return Ranking {
            files: Vec::new(),
            absent,
        };
    }
    let files = tree.files();
    let depth = w.rerank_depth.max(limit);
    // the terms of the question's code-shaped tokens weigh `code_tokens` times a word's
    let shaped = code_tokens::code_shaped(written, &terms);
    let term_weights: Vec<f64> = shaped
        .iter()
        .map(|&s| if s { w.code_tokens } else { 1.0 })
        .collect();
    // a subject's scope (`printer: ...`) names the part of the tree the change is in
    let scope = match w.subject_scope != 0.0 {
        true => subject_scope::scope_parts(written),
        false => Vec::new(),
    };
    let held = best_files::Held {
        by_file: &by_file,
        term_weights: &term_weights,
        scope: &scope,
    };
    let scoring = best_files::Scoring {
        tree,
        profile,
        index,
        terms: &terms,
        lists: &lists,
        held,
    };
    let mut ranked = best_files::best_scored(scoring, depth);
    // the file the question names (by its path, or for a name it quotes), scored where the
    // bounds left it out
    let named = named_files::named_files(tree, profile, written, by_file.keys().copied());
    let unscored: Vec<u32> = named
        .iter()
        .map(|(f, _)| *f)
        .filter(|f| !ranked.iter().any(|s| s.file == *f))
        .collect();
    if !unscored.is_empty() {
        let scored = best_files::scored_files(scoring, &unscored);
        ranked.extend(scored);
    }
    let named = named_files::raise_named(profile, &named, &mut ranked);
    let order = |a: &Scored, b: &Scored| {
        b.score.total_cmp(&a.score).then_with(|| {
            let (pa, pb) = (&files[a.file as usize].path, &files[b.file as usize].path);
            pa.len().cmp(&pb.len()).then_with(|| pa.cmp(pb))
        })
    };
    ranked.sort_by(order);
    // the best candidates are read line by line: the line where most words meet
    let mut lines: HashMap<u32, Vec<(u32, usize)>> = HashMap::new();
    // found when the file was counted to be scored (a first call), else read for this pass
    // only, as the candidates' texts together may be large; each file on a worker of its own
    // and a built copy (a bundle, a minified file, a source map) is known
    let weigh_copies = w.built_copy != 1.0;
    let best_of: Vec<(Lines, Option<String>)> = ranked
        .par_iter_mut()
        .with_max_len(1)
        .take(depth)
        .map(|entry| {
            let f = &files[entry.file as usize];
            let best = match entry.lines.take() {
                Some(lines) => lines,
                None => best_lines(f.text_once().as_deref(), &terms),
            };
            let copy = weigh_copies
                .then(|| built_copy::built_copy(tree, f, w.minified_line_bytes))
                .flatten();
            (best, copy)
        })
        .collect();
    let mut copies: HashMap<u32, String> = HashMap::new();
    for (entry, (best, copy)) in ranked.iter_mut().zip(best_of) {
        let top = best.first().map_or(0, |l| l.1);
        if terms.len() > 1 && top > 1 {
            let share = (top - 1) as f64 / (terms.len() - 1) as f64;
            entry.score *= 1.0 + w.proximity * share;
        }
        if let Some(copy) = copy {
            entry.score *= w.built_copy.max(0.0);
            copies.insert(entry.file, copy);
        }
        lines.insert(entry.file, best);
    }
    // a test among the best points at the file it tests
    let tested_by = tested_subject::lift_subjects(tree, profile, &mut ranked, depth);
    for &subject in tested_by.keys() {
        lines.entry(subject).or_insert_with(|| {
            let text = files[subject as usize].text_once();
            best_lines(text.as_deref(), &terms)
        });
    }
    // a file that defines a name the question quotes, or uses the names the best define
    let references =
        references::weigh_references(tree, profile, written, &terms, &mut ranked, depth);
    // a file that changed often before the revision is more likely the one to change
    let changes = history::weigh_changes(tree, profile, &mut ranked);
    ranked.sort_by(order);
    let best = ranked
        .into_iter()
        .take(limit)
        .map(
            |Scored {
                 file,
                 score,
                 found,
                 kind,
                 ..
             }| {
                let f = &files[file as usize];
                let mut evidence = lines.remove(&file).unwrap_or_default();
                evidence.truncate(profile.planner.evidence_lines.max(1));
                let words: Vec<String> = found
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
                    found.len(),
                    terms.len(),
                    words.join(", "),
                    kind.as_str()
                );
                let code: Vec<String> = found
                    .iter()
                    .filter(|(t, _)| shaped[*t] && w.code_tokens != 1.0)
                    .map(|(t, _)| format!("`{}`", terms[*t]))
                    .collect();
                if !code.is_empty() {
                    reason.push_str(&format!("; code-shaped: {}", code.join(", ")));
                }
                if subject_scope::in_scope(&scope, &f.path) {
                    reason.push_str(&format!("; in the subject's scope `{}`", scope.join("/")));
                }
                if let Some(copy) = copies.get(&file) {
                    reason.push_str(&format!("; built copy: {copy}"));
                }
                if let Some(&test) = tested_by.get(&file) {
                    let test = &files[test as usize].path;
                    reason.push_str(&format!("; tested by `{test}`"));
                }
                if let Some(name) = named.get(&file) {
                    reason.push_str(&format!("; named for `{name}`"));
                }
                if let Some(names) = references.defines.get(&file) {
                    let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
                    reason.push_str(&format!("; defines {}", names.join(", ")));
                }
                if let Some(users) = references.referenced.get(&file) {
                    reason.push_str(&format!("; its names written by {users} of the best files"));
                }
                if let Some(uses) = references.uses.get(&file) {
                    let best = &files[uses.best as usize].path;
                    let names: Vec<String> = uses.names.iter().map(|n| format!("`{n}`")).collect();
                    reason.push_str(&format!(
                        "; uses {} of the {} names `{best}` defines",
                        names.join(", "),
                        uses.of
                    ));
                }
                if let Some(co) = changes.with.get(&file) {
                    let best = &files[co.best as usize].path;
                    reason.push_str(&format!(
                        "; changed with `{best}` in {} of its {} commits",
                        co.together, co.of
                    ));
                }
                if let Some(c) = changes.of_file.get(&file) {
                    reason.push_str(&format!(
                        "; changed in {c} of the last {} commits",
                        changes.commits
                    ));
                }
                if let Some((n, k)) = evidence.first() {
                    reason.push_str(&format!("; line {n} holds {k}"));
                }
                RankedFile {
                    path: f.path.clone(),
                    score: (score * 1e4).round() / 1e4,
                    reason,
                    evidence_lines: evidence,
                }
            },
        )
        .collect();
    Ranking {
        files: best,
        absent,
    }
}

/// A file's best lines (1-based) with how many distinct terms each holds.
type Lines = Vec<(u32, usize)>;

/// Every line of `text` that holds a term of `terms`, with how many distinct terms it
/// holds: most first, then by line number.
fn best_lines(text: Option<&str>, terms: &[String]) -> Vec<(u32, usize)> {
    let Some(text) = text else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut seen = vec![false; terms.len()];
    let starts = tokens::TermStarts::new(terms);
    for (i, line) in text.lines().enumerate() {
        seen.iter_mut().for_each(|s| *s = false);
        tokens::for_each_part(line, |part| {
            if let Some(k) = starts.place_of(part) {
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

/// A tree's identity for the cache: its serial number (no two trees of a process share
/// one, where a tree made after another is dropped may take its address, and a file edited
/// to the same size keeps its hash), root, size and a hash of its paths and file sizes, and
/// of the profile rules the statistics depend on (what a file is: source, test, docs).
#[derive(Debug, Clone, PartialEq, Eq)]
struct TreeKey {
    serial: u64,
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
            f.size().hash(&mut h);
        }
        TreeKey {
            serial: tree.serial(),
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

/// Builds the ranking statistics of `tree` for `profile` and keeps them beside its index
/// (what `findbench index` does ahead of the first question); `true` when they are kept
/// on disk. Statistics that cannot be kept (a tree held in memory, or one with a file
/// whose mtime is in the racy window) are not built: the next question would build them
/// again anyway.
pub fn keep_statistics(tree: &Tree, profile: &Profile) -> bool {
    if tree.kept().is_none() {
        return false;
    }
    warm_statistics(tree, profile);
    FieldIndex::is_kept(tree, profile)
}

/// [`keep_statistics`] for what `findbench index` built or read: after a build or a
/// refresh, counted from the index's records a batch at a time (`tree/record_files.rs`).
pub fn keep_index_statistics(indexed: &crate::tree::Indexed, profile: &Profile) -> bool {
    match indexed {
        crate::tree::Indexed::Tree(tree) => keep_statistics(tree, profile),
        crate::tree::Indexed::Records(files) => FieldIndex::keep_records(files, profile),
    }
}

/// Builds the ranking statistics of `tree` for `profile` for the next questions on it in
/// this process (a resident server's), keeping them beside its index when they can be.
pub fn warm_statistics(tree: &Tree, profile: &Profile) {
    index_for(tree, profile).get_or_init(|| FieldIndex::for_tree(tree, profile));
}

/// The slot of `tree`'s statistics, kept for the next questions on it: the caller builds
/// them on first use (`get_or_init`), once however many threads ask at once.
pub fn index_for(tree: &Tree, profile: &Profile) -> Slot {
    // a first call's tree carries its own, and is answered from those alone
    if let TreeState::FirstCall(first_call) = tree.state() {
        return first_call.statistics.clone();
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> Tree {
        Tree::from_memory(
            "t",
            [
                (
                    "src/walk.rs",
                    "use std::sync::atomic::AtomicBool;\n\
                     /// Walks the tree in parallel.\n\
                     pub fn scan(quit: &AtomicBool) {\n\
                     \x20   let x = 1;\n\
                     \x20   // Exit when Ctrl-C was pressed twice\n\
                     \x20   if quit.load() { std::process::exit(130); }\n\
                     }\n",
                ),
                (
                    "src/exit_codes.rs",
                    "pub enum ExitCode { Success, Error }\n",
                ),
                (
                    "CHANGELOG.md",
                    "# v8\n- Exit immediately when Ctrl-C has been pressed twice\n",
                ),
                (
                    "tests/tests.rs",
                    "#[test]\nfn second_interrupt() { /* exits when Ctrl-C is pressed twice */ }\n",
                ),
                (
                    "src/config.rs",
                    "pub struct Config { pub threads: usize }\n\
                     fn default_num_threads() -> usize { 4 }\n",
                ),
            ],
        )
    }

    fn paths(ranked: &[RankedFile]) -> Vec<&str> {
        ranked.iter().map(|r| r.path.as_str()).collect()
    }

    #[test]
    fn the_implementation_ranks_above_the_changelog_and_the_test_that_repeat_the_task() {
        let q = "Exit immediately when Ctrl-C has been pressed twice";
        let ranked = rank_files(&tree(), q, &Profile::default(), 5);
        assert_eq!(
            paths(&ranked)[..3],
            ["src/walk.rs", "CHANGELOG.md", "tests/tests.rs"]
        );
        let top = &ranked[0];
        // the line where most words meet comes first
        assert_eq!(top.evidence_lines[0], (5, 4));
        assert!(
            top.reason
                .starts_with("task words 4 of 5: `exit` (prose, code), `ctrl` (prose)"),
            "{}",
            top.reason
        );
        assert!(
            top.reason.ends_with("source file; line 5 holds 4"),
            "{}",
            top.reason
        );
        // without the kind priors the changelog, which holds every word, wins
        let mut flat = Profile::default();
        flat.task_ranking.docs_prior = 1.0;
        flat.task_ranking.test_prior = 1.0;
        let ranked = rank_files(&tree(), q, &flat, 5);
        assert_eq!(ranked[0].path, "CHANGELOG.md");
    }

    #[test]
    fn words_meet_identifiers_by_their_parts_and_stems() {
        let ranked = rank_files(
            &tree(),
            "Tweak default thread count",
            &Profile::default(),
            5,
        );
        assert_eq!(paths(&ranked), ["src/config.rs"]);
        assert_eq!(ranked[0].evidence_lines, [(2, 2), (1, 1)]);
        assert!(
            ranked[0].reason.contains("`thread` (symbol, code)"),
            "{}",
            ranked[0].reason
        );
    }

    #[test]
    fn a_tree_that_holds_too_few_of_the_words_ranks_nothing() {
        // `exit` is one word of three; the other two occur nowhere
        let p = Profile::default();
        assert!(rank_files(&tree(), "exit kubernetes operator", &p, 5).is_empty());
        assert!(rank_files(&tree(), "the of and", &p, 5).is_empty());
        // words one per file are not a subject the tree holds
        assert!(rank_files(&tree(), "exit thread kubernetes", &p, 5).is_empty());
        // two of three in one file are enough, and a file holding one of them is ranked
        let ranked = rank_files(&tree(), "exit codes kubernetes", &p, 5);
        assert_eq!(ranked[0].path, "src/exit_codes.rs");
        assert!(ranked.iter().any(|r| r.path == "src/walk.rs"));
        let mut loose = p.clone();
        loose.task_ranking.min_coverage = 0.0;
        loose.task_ranking.min_joint_coverage = 0.0;
        let ranked = rank_files(&tree(), "exit kubernetes operator", &loose, 5);
        assert_eq!(ranked[0].path, "src/exit_codes.rs");
    }

    #[test]
    fn the_path_field_and_the_limit_count() {
        let ranked = rank_files(&tree(), "exit codes", &Profile::default(), 1);
        assert_eq!(paths(&ranked), ["src/exit_codes.rs"]);
        assert!(
            ranked[0].reason.contains("`exit` (path, symbol, code)"),
            "{}",
            ranked[0].reason
        );
    }

    #[test]
    fn the_statistics_are_built_once_per_tree() {
        let t = tree();
        let a = index_for(&t, &Profile::default());
        a.get_or_init(|| FieldIndex::build(&t, &Profile::default()));
        let b = index_for(&t, &Profile::default());
        assert!(Arc::ptr_eq(&a, &b) && b.get().is_some());
        // another tree of another shape has its own
        let other = Tree::from_memory("t", [("a.rs", "fn a() {}\n")]);
        assert!(!Arc::ptr_eq(&a, &index_for(&other, &Profile::default())));
    }

    /// The best lines hold the terms every term of each line holds: how many of them, most
    /// first, then by line number.
    #[test]
    fn the_best_lines_count_the_terms_each_line_holds() {
        let text = "fn parse_header(h: &[u8]) -> Header {\n// nothing here\n\
                    /// Parses the gzip header; headers parsed once.\nlet gzip = GzipHeader::new();\n\
                    PARSING\n";
        let terms: Vec<String> = ["gzip", "head", "pars"].map(String::from).to_vec();
        let mut want = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line_terms = tokens::terms(line);
            let k = terms.iter().filter(|t| line_terms.contains(t)).count();
            if k > 0 {
                want.push((i as u32 + 1, k));
            }
        }
        want.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        assert_eq!(best_lines(Some(text), &terms), want);
        assert_eq!(want, [(3, 3), (4, 2), (1, 1), (5, 1)]);
        assert!(best_lines(None, &terms).is_empty());
    }

    /// The lines a first call finds while it counts a file to score it are the best lines
    /// of the file's text, for every file of this crate's sources and of the project's
    /// scripts, benchmarks and docs, and for texts whose lines end in CR LF, that hold
    /// invalid UTF-8, or strings and comments over several lines; read from disk by a tree
    /// loaded without a kept index, as a first call reads them.
    #[test]
    fn the_lines_found_while_counting_are_the_best_lines() {
        let dir = tempfile::tempdir().unwrap();
        let cache = tempfile::tempdir().unwrap();
        let project = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files: Vec<(std::path::PathBuf, Vec<u8>)> = crate::own_sources::own_sources();
        for sub in ["scripts", "benches", "docs"] {
            for entry in std::fs::read_dir(project.join(sub)).unwrap().flatten() {
                if let Ok(bytes) = std::fs::read(entry.path()) {
                    files.push((entry.path(), bytes));
                }
            }
        }
        let crafted: [(&str, &[u8]); 3] = [
            (
                "crlf.py",
                b"def parse_line(x):\r\n    \"\"\"Reads the\r\n    file header\"\"\"\r\n    return x # terms\r\n",
            ),
            (
                "latin1.c",
                b"/* caf\xe9 file\n * read\xff line */\nint read_file_terms(void) { return '\xe9'; }\n",
            ),
            (
                "template.js",
                b"const s = `read\nthe file ${line}`;\n// terms\nlet x = 'read';\n",
            ),
        ];
        for (name, bytes) in crafted {
            files.push((name.into(), bytes.to_vec()));
        }
        for (i, (path, bytes)) in files.iter().enumerate() {
            let name = path.file_name().unwrap().to_string_lossy();
            std::fs::write(dir.path().join(format!("{i:04}_{name}")), bytes).unwrap();
        }
        let options = crate::tree::TreeOptions {
            cache_dir: Some(cache.path().to_path_buf()),
            ..Default::default()
        };
        let tree = Tree::load(dir.path(), &options).unwrap();
        assert!(tree.is_unindexed() && tree.len() > 100, "{}", tree.len());
        let profile = Profile::default();
        let terms = tokens::question_terms(
            "how are the terms of a file read and parsed per line",
            &profile.task_ranking.stop_words,
        );
        let mut bytes = Vec::new();
        let mut lines_of_several = 0;
        for f in tree.files() {
            let (_, lines) = file_counts::counted_with_lines(f, &profile, &terms, &mut bytes);
            assert_eq!(
                lines,
                best_lines(f.text_once().as_deref(), &terms),
                "{}",
                f.path
            );
            lines_of_several += lines.iter().filter(|l| l.1 > 1).count();
        }
        assert!(lines_of_several > 100, "{lines_of_several}");
    }
}

#[cfg(test)]
#[path = "rank_tests.rs"]
mod worked_tests;
