//! BM25F over the fields of [`super::fields`]: the per-tree statistics (each term's
//! postings with its frequency per field, each file's field lengths and their means), built
//! once per tree, and the score of a file for a set of query terms.
//!
//! A term's frequencies are combined across fields before saturation (Robertson, Zaragoza
//! and Taylor, "Simple BM25 extension to multiple weighted fields", 2004):
//! `tf' = Σ_f w_f · tf_f / (1 − b_f + b_f · len_f / avglen_f)`, and the file scores
//! `Σ_t idf(t) · tf' / (k1 + tf')` with `idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5))`.

pub use super::field_index::FieldIndex;
use super::field_index::{TermCounts, Terms};
use super::fields::FIELDS;
use super::file_counts::{
    counted_with_lines, file_terms, held_terms, path_terms, Counted, FileCounts, FileTerms,
    TermLines, COUNT_BATCH,
};
use super::kept::{self, Damaged, Kept};
use super::kept_runs;
use super::length_sample::{estimated_averages, measured_sample, sample_of, Sampled};
use super::posting::{Holding, Posting, NF};
use crate::encoding::fnv::fnv;
use crate::encoding::fx_hash::FxBuild;
use crate::first_call::state::{HeldWord, HeldWords};
use crate::profile::{FieldWeight, Profile, TaskRankingWeights};
use crate::tree::{RecordFiles, Tree, TreeState};
use crate::worker_scratch::{WorkerScratch, FILES_PER_JOB};
use rayon::prelude::*;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The key of a tree's kept statistics: its content stamp and the profile rules they
/// depend on (which extensions are source, and so how a file splits into fields; how many
/// files the average lengths are measured on, and how they are estimated from them).
fn kept_key(stamp: u64, profile: &Profile) -> u64 {
    let mut parts: Vec<&[u8]> = vec![&[]];
    let stamp = stamp.to_le_bytes();
    parts[0] = &stamp;
    for ext in &profile.grep.source_extensions {
        parts.push(ext.as_bytes());
    }
    // the files the averages are measured on
    let sample = (profile.task_ranking.length_sample as u64).to_le_bytes();
    parts.push(&sample);
    // statistics kept before the averages were estimated per byte of text
    // (`length_sample.rs`) do not check out
    parts.push(AVERAGES_ESTIMATED_BY);
    fnv(&parts)
}

/// How the kept average lengths were estimated ([`kept_key`]).
const AVERAGES_ESTIMATED_BY: &[u8] = b"per byte of text";

impl FieldIndex {
    /// The statistics of `tree`: read from the file kept beside its index when the tree
    /// came from the kept index and they were kept for it and this profile's rules; built
    /// (and then kept) otherwise. A tree held in memory (`--no-cache`) builds them and
    /// writes nothing.
    pub fn for_tree(tree: &Tree, profile: &Profile) -> FieldIndex {
        let Some(stamp) = tree.kept() else {
            return FieldIndex::build(tree, profile);
        };
        let key = kept_key(stamp.stamp, profile);
        let path = kept::path_beside(&stamp.index_path);
        let overlay = tree.overlay();
        let index_files = overlay.map_or(tree.len(), |o| o.index_files);
        if let Some(mut opened) = Kept::open(&path, key, index_files) {
            let kept_lengths = std::mem::take(&mut opened.lengths);
            let Some(overlay) = overlay else {
                return FieldIndex {
                    lengths: kept_lengths,
                    average: opened.average,
                    terms: Terms::Kept(opened),
                };
            };
            // the files read again since: counted again, their lengths and postings laid
            // over the kept ones, the removed ones dropped, the averages estimated again as
            // a build over the tree would
            let counted: Vec<(u32, FileTerms)> = overlay
                .ids
                .par_iter()
                .map(|&i| (i, file_terms(&tree.files()[i as usize], profile)))
                .collect();
            let mut lengths: Vec<[u32; NF]> = (0..tree.len())
                .map(|i| match overlay.position(i) {
                    Some(_) => [0; NF],
                    None => kept_lengths[overlay.in_index(i)],
                })
                .collect();
            let files: Vec<(u32, TermCounts)> = counted
                .into_iter()
                .map(|(i, (len, counts))| {
                    lengths[i as usize] = len;
                    (i, counts)
                })
                .collect();
            return FieldIndex {
                average: estimated_averages(tree, &sample_of(tree, profile, &lengths)),
                lengths,
                terms: Terms::Edited {
                    kept: opened,
                    overlay: overlay.clone(),
                    files,
                },
            };
        }
        if overlay.is_some() {
            // not the statistics of the index's files: nothing is kept under its stamp
            return FieldIndex::build(tree, profile);
        }
        // written straight to disk, a segment of postings at a time (`kept_runs.rs`), then
        // read as any kept statistics are; not kept (a cache that cannot be written) is
        // only slower next time: built in memory, the answer is the same
        let written = kept_runs::write(tree, profile, &path, key, kept_runs::SEGMENT_POSTINGS);
        if let Some(mut opened) = written
            .ok()
            .and_then(|_| Kept::open(&path, key, tree.len()))
        {
            return FieldIndex {
                lengths: std::mem::take(&mut opened.lengths),
                average: opened.average,
                terms: Terms::Kept(opened),
            };
        }
        FieldIndex::build(tree, profile)
    }

    /// Writes the statistics of the index's records `files` for `profile` beside the index
    /// unless they are kept there already (what `findbench index` does); true when they are
    /// kept and check out. Nothing is written when a file's mtime is in the racy window.
    pub fn keep_records(files: &RecordFiles, profile: &Profile) -> bool {
        let Some(stamp) = files.kept() else {
            return false;
        };
        let key = kept_key(stamp.stamp, profile);
        let path = kept::path_beside(&stamp.index_path);
        // kept already (an index unchanged, or changed by a few files laid over it)
        if Kept::is_kept(&path, key, files.len()) {
            return true;
        }
        kept_runs::write(files, profile, &path, key, kept_runs::SEGMENT_POSTINGS).is_ok()
            && Kept::is_kept(&path, key, files.len())
    }

    /// True when statistics kept for `tree` and `profile` are on disk and check out.
    pub fn is_kept(tree: &Tree, profile: &Profile) -> bool {
        tree.kept().is_some_and(|stamp| {
            let path = kept::path_beside(&stamp.index_path);
            Kept::open(&path, kept_key(stamp.stamp, profile), tree.len()).is_some()
        })
    }

    /// The statistics of `tree`, built in memory from every file's text: a batch of files
    /// counted at once (in parallel), then added in file order, so that the per-file
    /// counts of the whole tree are never held together (they are several times the
    /// postings they become).
    pub fn build(tree: &Tree, profile: &Profile) -> FieldIndex {
        let mut vocabulary: HashMap<String, u32, FxBuild> = HashMap::default();
        let mut postings: Vec<Vec<Posting>> = Vec::new();
        let mut lengths = Vec::with_capacity(tree.len());
        for batch in tree.files().chunks(COUNT_BATCH) {
            let per_file: Vec<FileTerms> =
                batch.par_iter().map(|f| file_terms(f, profile)).collect();
            for (len, counts) in per_file {
                let i = lengths.len() as u32;
                // terms in a fixed order, so postings and ids do not depend on hashing
                let mut counts: Vec<(String, [u16; NF])> = counts.into_iter().collect();
                counts.sort_unstable_by(|a, b| a.0.cmp(&b.0));
                for (term, tf) in counts {
                    let next = postings.len() as u32;
                    let id = *vocabulary.entry(term).or_insert(next);
                    if id == next {
                        postings.push(Vec::new());
                    }
                    postings[id as usize].push(Posting { file: i, tf });
                }
                lengths.push(len);
            }
        }
        FieldIndex {
            average: estimated_averages(tree, &sample_of(tree, profile, &lengths)),
            lengths,
            terms: Terms::Memory {
                vocabulary,
                postings,
            },
        }
    }

    /// Statistics that know only that no file holds any of `held_by_none`: another term
    /// looked up is pushed to `missed` (and reads as held by no file). What the first
    /// `ask` on a root runs with until it knows whether the cascade ranks at all, and
    /// what it ranks with when no file holds a word of the question (the ranking is then
    /// empty whatever the field lengths).
    pub(crate) fn no_terms(
        tree: &Tree,
        held_by_none: &[String],
        missed: Arc<Mutex<Vec<String>>>,
    ) -> FieldIndex {
        FieldIndex {
            lengths: vec![[0; NF]; tree.len()],
            average: [1.0; NF],
            terms: Terms::Held {
                holders: held_by_none
                    .iter()
                    .map(|t| (t.clone(), Vec::new()))
                    .collect(),
                missed,
                counted: Counted::default(),
            },
        }
    }

    /// The statistics [`FieldIndex::build`] gives, but knowing of `terms` only which files
    /// hold them (another term looked up is pushed to `missed`), and the field lengths of
    /// only the files the averages are measured on ([`super::length_sample`]): what the
    /// first `ask` on a root ranks with. It reads those files and the files whose folded
    /// path or text holds a term's letters (a term is the folded prefix of a word: stems
    /// only cut; which words each file's text holds is what a first call's tree knows
    /// ([`TreeState::FirstCall`]), else the file is read to know), and no other. `sampled` is the
    /// sample's lengths when they were measured already (the first pass measures them
    /// while it reads the files: [`super::length_sample::lengths_of_read`]), and `counted`
    /// the files whose numbers it counted then ([`FieldIndex::count`] reads them again only
    /// for other terms).
    pub(crate) fn for_terms(
        tree: &Tree,
        profile: &Profile,
        terms: &[String],
        missed: Arc<Mutex<Vec<String>>>,
        sampled: Option<Vec<Sampled>>,
        counted: Counted,
    ) -> FieldIndex {
        let sampled = sampled.unwrap_or_else(|| measured_sample(tree, profile));
        let finders: Vec<memchr::memmem::Finder<'_>> = terms
            .iter()
            .map(|t| memchr::memmem::Finder::new(t.as_bytes()))
            .collect();
        // the words the first pass searched for, and each term as it knew it (looked up
        // once rather than once per file)
        let held: Option<(&HeldWords, Vec<HeldWord>)> = match tree.state() {
            TreeState::FirstCall(first_call) => {
                let h = &first_call.held;
                Some((h, terms.iter().map(|t| h.word(t.as_bytes())).collect()))
            }
            TreeState::Indexed { .. } | TreeState::Unindexed(_) => None,
        };
        let scratch: WorkerScratch<(Vec<u8>, Vec<u8>)> = WorkerScratch::new();
        let per_file: Vec<Vec<bool>> = tree
            .files()
            .par_iter()
            .with_max_len(FILES_PER_JOB)
            .enumerate()
            .map(|(i, f)| {
                scratch.with(|(path, bytes)| {
                    path.clear();
                    path.extend(f.path.bytes().map(|b| b.to_ascii_lowercase()));
                    let may_hold: Vec<bool> = (0..terms.len())
                        .map(|k| {
                            finders[k].find(path).is_some()
                                || held
                                    .as_ref()
                                    .is_none_or(|(h, words)| h.may_hold(i, words[k]))
                        })
                        .collect();
                    if !may_hold.contains(&true) {
                        return Vec::new();
                    }
                    // the first pass found which terms the text holds: only the path is left
                    let text: Option<Vec<bool>> = held.as_ref().and_then(|(h, words)| {
                        words
                            .iter()
                            .zip(&may_hold)
                            .map(|(&word, &may)| match may {
                                false => Some(false),
                                true => h.holds_as_term(i, word),
                            })
                            .collect()
                    });
                    match text {
                        Some(text) => {
                            let mut holds = path_terms(f, terms, &may_hold);
                            for (h, t) in holds.iter_mut().zip(text) {
                                *h |= t;
                            }
                            holds
                        }
                        None => held_terms(f, terms, &may_hold, bytes),
                    }
                })
            })
            .collect();
        let mut holders: HashMap<String, Vec<u32>> =
            terms.iter().map(|t| (t.clone(), Vec::new())).collect();
        for (i, holds) in per_file.into_iter().enumerate() {
            for (t, _) in holds.iter().enumerate().filter(|(_, &h)| h) {
                if let Some(list) = holders.get_mut(&terms[t]) {
                    list.push(i as u32);
                }
            }
        }
        FieldIndex {
            average: estimated_averages(tree, &sampled),
            // a file's lengths are counted with its frequencies, when it is scored
            lengths: vec![[0; NF]; tree.len()],
            terms: Terms::Held {
                holders,
                missed,
                counted,
            },
        }
    }

    pub fn files(&self) -> usize {
        self.lengths.len()
    }

    /// The files that hold `term` (none for a term no file holds); `Err` when the kept file
    /// does not check out (it is removed, and the caller builds the statistics anew).
    pub fn holding(&self, term: &str) -> Result<Holding<'_>, Damaged> {
        match &self.terms {
            Terms::Memory {
                vocabulary,
                postings,
            } => Ok(Holding::Listed(Cow::Borrowed(
                vocabulary
                    .get(term)
                    .map(|&id| postings[id as usize].as_slice())
                    .unwrap_or(&[]),
            ))),
            Terms::Kept(kept) => match kept.postings(term) {
                Ok(list) => Ok(Holding::Listed(Cow::Owned(list))),
                Err(damaged) => {
                    kept.discard();
                    Err(damaged)
                }
            },
            Terms::Edited {
                kept,
                overlay,
                files,
            } => match kept.postings(term) {
                Ok(list) => {
                    let mut list: Vec<Posting> = list
                        .into_iter()
                        .filter_map(|p| {
                            overlay
                                .in_tree(p.file)
                                .map(|file| Posting { file, tf: p.tf })
                        })
                        .collect();
                    list.extend(files.iter().filter_map(|(file, counts)| {
                        counts.get(term).map(|&tf| Posting { file: *file, tf })
                    }));
                    list.sort_unstable_by_key(|p| p.file);
                    Ok(Holding::Listed(Cow::Owned(list)))
                }
                Err(damaged) => {
                    kept.discard();
                    Err(damaged)
                }
            },
            Terms::Held {
                holders, missed, ..
            } => match holders.get(term) {
                Some(list) => Ok(Holding::Files(list.as_slice())),
                None => {
                    let mut missed = missed.lock().unwrap_or_else(|e| e.into_inner());
                    if !missed.iter().any(|t| t == term) {
                        missed.push(term.to_string());
                    }
                    Ok(Holding::Files(&[]))
                }
            },
        }
    }

    /// `file`'s field lengths and its frequencies of those of `terms` it holds (by their
    /// place in `terms`, whose holdings are `lists`): from the lists when they carry
    /// frequencies, else counted from the file, with the lines of its text that hold the
    /// terms ([`counted_with_lines`]; `None` when the file was not read). `bytes` is a
    /// buffer kept from file to file.
    pub(crate) fn count(
        &self,
        tree: &Tree,
        profile: &Profile,
        file: u32,
        terms: &[String],
        lists: &[Holding<'_>],
        bytes: &mut Vec<u8>,
    ) -> (FileCounts, Option<TermLines>) {
        if let Terms::Held { counted, .. } = &self.terms {
            if let Some((counts, lines)) = counted.get(terms, file) {
                return (counts.clone(), Some(lines.clone()));
            }
            let (counts, lines) =
                counted_with_lines(&tree.files()[file as usize], profile, terms, bytes);
            return (counts, Some(lines));
        }
        let held = lists
            .iter()
            .enumerate()
            .filter_map(|(t, l)| l.tf_of(file).map(|tf| (t, tf)))
            .collect();
        ((self.lengths[file as usize], held), None)
    }

    /// True when [`FieldIndex::count`] reads the file (its frequencies are not listed).
    pub(crate) fn counts_by_reading(&self) -> bool {
        matches!(self.terms, Terms::Held { .. })
    }

    /// Inverse document frequency of a term held by `df` files.
    pub fn idf(&self, df: usize) -> f64 {
        let n = self.files() as f64;
        let df = df as f64;
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }

    /// The field-weighted, length-normalised frequency of a term in one file (`tf'`), from
    /// its frequencies `tf` and the file's field lengths `len`.
    pub fn weighted_tf(&self, tf: &[u16; NF], len: &[u32; NF], w: &TaskRankingWeights) -> f64 {
        FIELDS
            .iter()
            .map(|&f| {
                let i = f.index();
                let tf = f64::from(tf[i]);
                if tf == 0.0 {
                    return 0.0;
                }
                let FieldWeight { weight, b } = *w.field(f);
                let norm = 1.0 - b + b * f64::from(len[i]) / self.average[i];
                weight * tf / norm.max(f64::EPSILON)
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::length_sample::{sampled_lengths, WHOLE};

    /// The statistics of some terms are those of every term, for those terms: the same
    /// field lengths (counted for a file that holds none of them, a term held more times
    /// than a posting counts included), averages and postings.
    #[test]
    fn the_statistics_of_some_terms_are_those_of_all_terms() {
        let saturated = "word ".repeat(70_000);
        let tree = Tree::from_memory(
            "t",
            [
                ("src/gzip/header.rs", "/// Parses the gzip header.\npub fn parse_header(h: &[u8]) -> Header { todo!() }\n"),
                ("src/lib.rs", "// nothing here\nfn main() { let x = \"a string\"; }\n"),
                ("docs/Parsing.md", "# Parsing headers\n\nThe header is parsed twice.\n"),
                ("big.txt", saturated.as_str()),
                ("tests/header_test.py", "def test_header():\n    '''header'''\n    pass\n"),
                ("data.bin", "\0binary"),
            ],
        );
        let terms: Vec<String> = ["head", "pars", "word", "absent"]
            .map(String::from)
            .to_vec();
        // measured on every file, and on a sample of some files only
        for sample in [1024, 3] {
            let mut profile = Profile::default();
            profile.task_ranking.length_sample = sample;
            let all = FieldIndex::build(&tree, &profile);
            let missed = Arc::new(Mutex::new(Vec::new()));
            let some = FieldIndex::for_terms(
                &tree,
                &profile,
                &terms,
                missed.clone(),
                None,
                Counted::default(),
            );
            assert_eq!(some.average, all.average, "sample {sample}");
            // the sample is measured as every file is counted
            for i in crate::retrieval::length_sample::length_sample(&tree, sample) {
                let f = &tree.files()[i];
                let measured = sampled_lengths(f, &profile, WHOLE, &mut Vec::new()).0;
                assert_eq!(measured, all.lengths[i], "sample {sample}: {}", f.path);
            }
            let lists = |index: &FieldIndex| -> Vec<Vec<u32>> {
                terms
                    .iter()
                    .map(|t| index.holding(t).unwrap().files())
                    .collect()
            };
            assert_eq!(lists(&some), lists(&all), "sample {sample}");
            let files: Vec<u32> = (0..tree.len() as u32).collect();
            let (a, b): (Vec<_>, Vec<_>) = (
                terms.iter().map(|t| all.holding(t).unwrap()).collect(),
                terms.iter().map(|t| some.holding(t).unwrap()).collect(),
            );
            let (ca, cb) = (
                files
                    .iter()
                    .map(|&f| all.count(&tree, &profile, f, &terms, &a, &mut Vec::new()))
                    .collect::<Vec<_>>(),
                files
                    .iter()
                    .map(|&f| some.count(&tree, &profile, f, &terms, &b, &mut Vec::new()))
                    .collect::<Vec<_>>(),
            );
            for (i, ((x, lines), (y, counted_lines))) in ca.iter().zip(&cb).enumerate() {
                // the lengths of a file holding no term are never asked for
                if !x.1.is_empty() {
                    assert_eq!(x, y, "{}", tree.files()[i].path);
                }
                // the kept lists carry no lines; a counted file has its own
                assert!(lines.is_none() && counted_lines.is_some());
            }
            assert!(ca.iter().any(|c| c.0 .1.len() == 2), "{ca:?}");
            assert!(missed.lock().unwrap().is_empty());
            // a term outside them reads as held by none, and is named to the caller
            assert!(some.holding("string").unwrap().is_empty());
            assert!(!all.holding("string").unwrap().is_empty());
            assert_eq!(*missed.lock().unwrap(), ["string"]);
        }
    }
}

#[cfg(test)]
#[path = "bm25f_reference_tests.rs"]
mod reference_tests;
