//! The files the average field lengths of BM25F are measured on, and the averages
//! estimated from them.
//!
//! The average of a field's length over a tree is a property of the tree, not of any file
//! a question finds; measured on every file it costs a read and a symbol scan of the whole
//! tree, which the first question on a root cannot afford (`first_call/mod.rs`). A sample
//! of a fixed size estimates it: the files whose path hashes lowest, so the same tree
//! gives the same files to every call (a kept index and a first call agree to the bit),
//! and a file added or removed changes the sample by one file at most.
//!
//! A text field's length follows its file's size, and sizes are heavy-tailed: a plain mean
//! over the sample is off by a fifth on a cargo registry. Every file's size is known
//! without counting it (the index keeps it; a first call learns it from the pass that
//! reads every file), so a text field's average is estimated as the sample's length per
//! byte of text times the mean text bytes of every file (a ratio estimator): on four real
//! trees it is as precise from 256 files as the plain mean from 512 (benches/RESULTS.md,
//! "Fast-path A/Bs").

use super::counted_files::CountedFiles;
use super::fields::Field;
use super::fields::Syntax;
use super::file_counts::{count_fields, is_source, path_of};
use super::posting::NF;
use super::tokens::for_each_part;
use crate::encoding::fnv::fnv1a;
use crate::profile::Profile;
use crate::tree::symbols::scan_file_keeping;
use crate::tree::{Tree, TreeFile};
use crate::worker_scratch::WorkerScratch;
use rayon::prelude::*;
use std::collections::BinaryHeap;

/// The indices (ascending, into [`Tree::files`]) of the files the averages are measured
/// on: every file when the tree has at most `size`, else the `size` files whose paths
/// hash lowest (FNV-1a; ties, which need equal hashes of different paths, by path).
pub(crate) fn length_sample<F: CountedFiles + ?Sized>(files: &F, size: usize) -> Vec<usize> {
    if files.len() <= size {
        return (0..files.len()).collect();
    }
    // the `size` lowest (hash, file) pairs, held in a heap of that size as the paths pass:
    // the tree's files are ordered by path, so the file number breaks a tie of hashes by path
    let mut lowest: BinaryHeap<(u64, usize)> = BinaryHeap::with_capacity(size + 1);
    files.each_path(&mut |i, path| {
        let key = (fnv1a(path.as_bytes()), i);
        if lowest.len() < size {
            lowest.push(key);
        } else if lowest.peek().is_some_and(|&top| key < top) {
            lowest.pop();
            lowest.push(key);
        }
    });
    let mut chosen: Vec<usize> = lowest.into_iter().map(|(_, i)| i).collect();
    chosen.sort_unstable();
    chosen
}

/// One file of the sample, measured: its field lengths over the part of its text counted,
/// and the bytes of that part ([`sampled_lengths`]).
pub type Sampled = ([u32; NF], u64);

/// The field lengths of `file` over at most the first `cap` bytes of its text (up to the
/// end of the last line that ends within them, or `cap` bytes when none does; all of a
/// smaller file; all of any when `cap` is 0), and those bytes: its path whole, the names
/// its symbol scan finds in that text, and the text's fields split and counted as
/// `file_counts::counted_with_lines` counts a whole file. A file with no text
/// counts its path and no bytes. `bytes` is a buffer kept from file to file.
pub fn sampled_lengths(
    file: &TreeFile,
    profile: &Profile,
    cap: usize,
    bytes: &mut Vec<u8>,
) -> Sampled {
    if !file.read_into(bytes) {
        return (path_lengths(file), 0);
    }
    lengths_of_read(file, profile, cap, bytes)
}

/// [`sampled_lengths`] of a file whose text `bytes` were read (`TreeFile::read_into` said
/// it holds text): what the first pass over a root measures of a sampled file it reads
/// anyway (`first_call/pass.rs`).
pub(crate) fn lengths_of_read(
    file: &TreeFile,
    profile: &Profile,
    cap: usize,
    bytes: &[u8],
) -> Sampled {
    let mut len = path_lengths(file);
    let end = match cap {
        0 => bytes.len(),
        cap if bytes.len() <= cap => bytes.len(),
        cap => memchr::memrchr(b'\n', &bytes[..cap]).map_or(cap, |i| i + 1),
    };
    let text = crate::text::decoded(&bytes[..end]);
    let text: &str = &text;
    if let Some(language) = file.language {
        // the names of this text, scanned from it (a file's own symbols, when it holds
        // them, are those of its whole text)
        scan_file_keeping(language, text, &mut |name| {
            for_each_part(name, |_| len[Field::Symbols.index()] += 1);
            false
        });
    }
    let syntax = Syntax::of(file, is_source(file, profile));
    count_fields(text, syntax, &[false; 256], &mut len, |_, _| {});
    (len, end as u64)
}

/// The lengths of a file's fields with its path's alone counted.
fn path_lengths(file: &TreeFile) -> [u32; NF] {
    let mut len = [0u32; NF];
    for_each_part(path_of(file), |_| len[Field::Path.index()] += 1);
    len
}

/// The average length of each field over `tree`, from the files of its sample, each
/// measured ([`sampled_lengths`]): the path's as their mean, each text field's as their
/// length per byte of text counted times the mean text bytes of every file
/// ([`text_bytes`]); the mean when the sample counted no text. At least 1, so that an
/// empty field divides nothing by zero.
pub fn estimated_averages(tree: &Tree, sampled: &[Sampled]) -> [f64; NF] {
    averages_of(tree, sampled)
}

/// [`estimated_averages`] over any [`CountedFiles`].
pub(crate) fn averages_of<F: CountedFiles + ?Sized>(files: &F, sampled: &[Sampled]) -> [f64; NF] {
    let mut totals = [0f64; NF];
    let mut sample_bytes = 0f64;
    for (lengths, bytes) in sampled {
        for (total, &len) in totals.iter_mut().zip(lengths) {
            *total += f64::from(len);
        }
        sample_bytes += *bytes as f64;
    }
    let n = sampled.len().max(1) as f64;
    let mean_bytes = if sample_bytes > 0.0 {
        files.text_bytes_total() as f64 / files.len().max(1) as f64
    } else {
        0.0
    };
    let mut averages = totals.map(|t| t / n);
    for (f, average) in averages.iter_mut().enumerate() {
        if f != Field::Path.index() && sample_bytes > 0.0 {
            *average = totals[f] / sample_bytes * mean_bytes;
        }
    }
    averages.map(|a| a.max(1.0))
}

/// The `cap` of [`sampled_lengths`] that counts every byte of a file: what the averages
/// are measured with. Counting a part of each large file (its first 8, 16 or 32 KiB) read a
/// third to two thirds of the sample's bytes, but a file's first bytes are not its whole:
/// the averages' error on a cargo registry went from 27 % to 69 % for prose
/// (`benches/examples/length_estimators.rs` measures it; docs/index.md).
pub const WHOLE: usize = 0;

/// The sample of `tree` for `profile`, measured ([`length_sample`], [`sampled_lengths`]),
/// in parallel.
pub(crate) fn measured_sample(tree: &Tree, profile: &Profile) -> Vec<Sampled> {
    let w = &profile.task_ranking;
    let files = tree.files();
    let scratch: WorkerScratch<Vec<u8>> = WorkerScratch::new();
    length_sample(tree, w.length_sample)
        .par_iter()
        .with_max_len(1)
        .map(|&i| scratch.with(|bytes| sampled_lengths(&files[i], profile, WHOLE, bytes)))
        .collect()
}

/// The sample of `tree` for `profile` from every file's field lengths counted whole
/// (`lengths[i]` for file `i`, what the kept statistics count): what [`measured_sample`]
/// measures, without reading the sampled files again.
pub(crate) fn sample_of<F: CountedFiles + ?Sized>(
    files: &F,
    profile: &Profile,
    lengths: &[[u32; NF]],
) -> Vec<Sampled> {
    let chosen = length_sample(files, profile.task_ranking.length_sample);
    let bytes = files.text_bytes_of(&chosen);
    chosen
        .iter()
        .zip(bytes)
        .map(|(&i, b)| (lengths[i], b))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(n: usize) -> Tree {
        let files: Vec<(String, String)> = (0..n)
            .map(|i| (format!("src/m{i:04}.rs"), format!("fn f{i}() {{}}\n")))
            .collect();
        Tree::from_memory("t", files.iter().map(|(p, t)| (p.as_str(), t.as_str())))
    }

    /// A sampled file the first pass counts for the question's terms
    /// (`file_counts::counted_of_read`, `first_call/pass.rs`) is measured with the lengths
    /// those numbers hold: the ones [`lengths_of_read`] gives, for any terms, on this
    /// crate's sources and the fixtures in every language the scan reads (their symbols
    /// taken from the tree's scan by one, scanned for the names alone by the other).
    #[test]
    fn a_file_counted_for_terms_is_measured_with_its_lengths() {
        use crate::retrieval::file_counts::counted_of_read;
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut texts: Vec<(String, String)> = crate::own_sources::own_sources()
            .into_iter()
            .map(|(path, bytes)| {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                (path.display().to_string(), text)
            })
            .collect();
        for (path, _, text) in crate::own_sources::sources_under(&root.join("corpora/fixtures")) {
            texts.push((path.display().to_string(), text));
        }
        let tree = Tree::from_memory("own", texts.iter().map(|(p, t)| (p.as_str(), t.as_str())));
        assert!(tree.files().iter().filter(|f| f.language.is_some()).count() > 100);
        let profile = Profile::default();
        let term_lists: [&[&str]; 3] = [
            &["pars", "head"],
            &["file", "tree", "scan", "symbol"],
            &["fn"],
        ];
        let mut bytes = Vec::new();
        for terms in term_lists {
            let terms: Vec<String> = terms.iter().map(|t| t.to_string()).collect();
            let mut held = 0;
            for f in tree.files() {
                let read = f.read_into(&mut bytes);
                let measured = match read {
                    true => lengths_of_read(f, &profile, WHOLE, &bytes),
                    false => (path_lengths(f), 0),
                };
                let ((len, found), _) =
                    counted_of_read(f, &profile, &terms, read.then_some(&bytes[..]));
                assert_eq!(len, measured.0, "{} {terms:?}", f.path);
                assert_eq!(
                    bytes.len() as u64 * u64::from(read),
                    measured.1,
                    "{}",
                    f.path
                );
                held += found.len();
            }
            // the terms are counted, not only the lengths
            assert!(held > 10, "{terms:?}");
        }
    }

    /// Where every file's text fields hold the same terms per byte, the averages estimated
    /// from a few files are those of every file, binary files counted with no text; the
    /// plain mean of the same files is not (so the test tells the two apart). The path's
    /// average is the sample's mean.
    #[test]
    fn text_fields_are_estimated_per_byte_of_text() {
        use crate::tree::Content;
        let block = "/// Parses the header.\npub fn parse_header() { read_gzip(); }\n";
        let text = |i: usize| block.repeat(1 + (i * i) % 97);
        let mut files: Vec<TreeFile> = (0..300usize)
            .map(|i| {
                let text = text(i);
                let folded = text.to_ascii_lowercase();
                let size = text.len() as u64;
                TreeFile::new(
                    format!("src/m{i:03}.rs"),
                    size,
                    Content::Text { text, folded },
                )
            })
            .collect();
        // a large binary file and one over the size limit hold no text
        files.push(TreeFile::new(
            "data/blob.bin".into(),
            1 << 20,
            Content::Binary,
        ));
        files.push(TreeFile::new(
            "data/huge.rs".into(),
            1 << 30,
            Content::TooLarge,
        ));
        let t = Tree::from_parts("t", files);
        let profile = crate::profile::Profile::default();
        let lengths: Vec<[u32; NF]> = t
            .files()
            .iter()
            .map(|f| super::super::file_counts::file_terms(f, &profile).0)
            .collect();
        let all: Vec<usize> = (0..t.len()).collect();
        let mean = |files: &[usize], f: usize| {
            files.iter().map(|&i| f64::from(lengths[i][f])).sum::<f64>() / files.len() as f64
        };
        // each file measured as a sample measures it: its lengths, and its text's bytes
        let measured: Vec<Sampled> = t
            .files()
            .iter()
            .map(|f| sampled_lengths(f, &profile, WHOLE, &mut Vec::new()))
            .collect();
        for (i, m) in measured.iter().enumerate() {
            assert_eq!((m.0, m.1), (lengths[i], t.text_bytes_of(&[i])[0]));
        }
        let of = |files: &[usize]| -> Vec<Sampled> { files.iter().map(|&i| measured[i]).collect() };
        let sample = length_sample(&t, 20);
        let estimated = estimated_averages(&t, &of(&sample));
        let mut apart = false;
        for f in 1..NF {
            let exact = mean(&all, f).max(1.0);
            assert!(
                (estimated[f] - exact).abs() <= 1e-9 * exact,
                "field {f}: {estimated:?}"
            );
            apart |= (mean(&sample, f).max(1.0) - exact).abs() > 0.05 * exact;
        }
        assert!(
            apart,
            "the sample's plain mean is as good here: the test tells nothing"
        );
        assert!(estimated[Field::Symbols.index()] > 1.0 && estimated[Field::Code.index()] > 1.0);
        assert_eq!(estimated[Field::Path.index()], mean(&sample, 0).max(1.0));
        // every file measured: the plain mean, the same
        let whole = estimated_averages(&t, &of(&all));
        for (f, average) in whole.iter().enumerate() {
            assert!((average - mean(&all, f).max(1.0)).abs() <= 1e-9 * average);
        }
    }

    /// A cap counts the lines that end within it (or the cap's bytes when none does), and
    /// every byte of a smaller file; the path is counted whole either way.
    #[test]
    fn a_cap_counts_the_lines_within_it() {
        let text = "fn first_name() {}\n// a comment line\nfn second_name() {}\n";
        let t = Tree::from_memory("t", [("src/some_file.rs", text)]);
        let f = &t.files()[0];
        let profile = crate::profile::Profile::default();
        let measured = |cap: usize| sampled_lengths(f, &profile, cap, &mut Vec::new());
        let whole = measured(WHOLE);
        assert_eq!(whole.1, text.len() as u64);
        assert_eq!(measured(text.len()), whole);
        // the first two lines: one name, its code, and the comment
        let two = measured(text.len() - 3);
        assert_eq!(two.1, text.find("fn second").unwrap() as u64);
        let (path, symbols, prose, code) = (0, 1, 2, 3);
        assert_eq!(two.0[path], whole.0[path]);
        assert_eq!((two.0[symbols], whole.0[symbols]), (2, 4));
        assert_eq!((two.0[prose], whole.0[prose]), (2, 2));
        assert_eq!((two.0[code], whole.0[code]), (3, 6));
        // no line ends within the cap: its bytes
        assert_eq!(measured(5).1, 5);
        // a cap beyond the file: all of it
        assert_eq!(measured(text.len() + 100), whole);
    }

    /// The averages worked by hand from two sampled files of a tree of three files of 11
    /// bytes each (`fn f0() {}` and its line end): the path's the mean of 2 and 4; a text
    /// field's its total over the sample's 40 bytes times 11, e.g. the code's (8 + 4) / 40 x
    /// 11 = 3.3; a field held nowhere at least 1.
    #[test]
    fn averages_worked_by_hand() {
        let t = tree(3);
        assert!(t.files().iter().all(|f| f.size() == 11));
        let sampled = [([2, 4, 0, 8], 10), ([4, 2, 0, 4], 30)];
        let averages = estimated_averages(&t, &sampled);
        let want = [3.0, 1.65, 1.0, 3.3];
        for (a, w) in averages.iter().zip(want) {
            assert!((a - w).abs() < 1e-12, "{averages:?}");
        }
        // a sample that counted no text byte: each field's plain mean
        let no_text = [([3, 4, 0, 6], 0), ([5, 8, 0, 9], 0)];
        assert_eq!(estimated_averages(&t, &no_text), [4.0, 6.0, 1.0, 7.5]);
        // no file sampled: 1 for every field
        assert_eq!(estimated_averages(&t, &[]), [1.0; NF]);
    }

    #[test]
    fn a_small_tree_is_measured_whole() {
        assert_eq!(length_sample(&tree(5), 8), [0, 1, 2, 3, 4]);
        assert_eq!(length_sample(&tree(8), 8).len(), 8);
    }

    #[test]
    fn a_large_tree_gives_the_files_whose_paths_hash_lowest() {
        let t = tree(300);
        let sample = length_sample(&t, 40);
        assert_eq!(sample.len(), 40);
        let mut by_hash: Vec<(u64, usize)> = t
            .files()
            .iter()
            .enumerate()
            .map(|(i, f)| (fnv1a(f.path.as_bytes()), i))
            .collect();
        by_hash.sort_unstable();
        let mut want: Vec<usize> = by_hash[..40].iter().map(|&(_, i)| i).collect();
        want.sort_unstable();
        assert_eq!(sample, want);
        // not the first files by path: a hash, not an order, picks them
        assert_ne!(sample, (0..40).collect::<Vec<_>>());
        assert!(length_sample(&t, 0).is_empty());
        // all but one: the file whose path hashes highest is left out
        let highest = by_hash[299].1;
        let all_but_one = length_sample(&t, 299);
        assert_eq!(all_but_one.len(), 299);
        assert!(!all_but_one.contains(&highest));
    }
}
