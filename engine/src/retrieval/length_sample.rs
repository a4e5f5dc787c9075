//! The files the average field lengths of BM25F are measured on, and the averages
//! estimated from them.
//!
//! The average of a field's length over a tree is a property of the tree, not of any file
//! a question finds; measured on every file it costs a read and a symbol scan of the whole
//! tree, which the first question on a root cannot afford (`modes/cold/mod.rs`). A sample
//! of a fixed size estimates it: the files whose path hashes lowest, so the same tree
//! gives the same files to every call (a kept index and a first call agree to the bit),
//! and a file added or removed changes the sample by one file at most.
//!
//! A text field's length follows its file's size, and sizes are heavy-tailed: a plain mean
//! over the sample is off by a fifth on a cargo registry. Every file's size is known
//! without counting it (the index keeps it; a first call learns it from the pass that
//! reads every file), so a text field's average is estimated as the sample's length per
//! byte of text times the mean text bytes of every file (a ratio estimator): on four real
//! trees it is as precise from 256 files as the plain mean from 512 (docs/index.md, tenth
//! session of 2026-11-29).

use super::fields::Field;
use super::posting::NF;
use crate::encoding::fnv::fnv1a;
use crate::tree::{ContentKind, Tree, TreeFile};
use rayon::prelude::*;

/// The indices (ascending, into [`Tree::files`]) of the files the averages are measured
/// on: every file when the tree has at most `size`, else the `size` files whose paths
/// hash lowest (FNV-1a; ties, which need equal hashes of different paths, by path).
pub(crate) fn length_sample(tree: &Tree, size: usize) -> Vec<usize> {
    let files = tree.files();
    if files.len() <= size {
        return (0..files.len()).collect();
    }
    let mut keyed: Vec<(u64, usize)> = files
        .par_iter()
        .enumerate()
        .map(|(i, f)| (fnv1a(f.path.as_bytes()), i))
        .collect();
    // the tree's files are ordered by path: the index breaks a tie of hashes by path
    if size > 0 {
        keyed.select_nth_unstable(size - 1);
    }
    let mut chosen: Vec<usize> = keyed[..size].iter().map(|&(_, i)| i).collect();
    chosen.sort_unstable();
    chosen
}

/// The average length of each field over `tree`, from the lengths of the files of `sample`
/// (`lengths[i]` for each `i` in it; other entries are not read): the path's as their mean,
/// each text field's as their length per byte of text times the mean text bytes of every
/// file ([`text_bytes`]); the mean when the sample holds no text. At least 1, so that an
/// empty field divides nothing by zero.
pub fn estimated_averages(tree: &Tree, sample: &[usize], lengths: &[[u32; NF]]) -> [f64; NF] {
    let mut totals = [0f64; NF];
    let mut sample_bytes = 0f64;
    for &i in sample {
        for (total, &len) in totals.iter_mut().zip(&lengths[i]) {
            *total += f64::from(len);
        }
        sample_bytes += text_bytes(&tree.files()[i]) as f64;
    }
    let n = sample.len().max(1) as f64;
    let mean_bytes = if sample_bytes > 0.0 {
        // on the pool: a file whose kind no read has learnt yet is probed here
        let all: u64 = tree.files().par_iter().map(text_bytes).sum();
        all as f64 / tree.len().max(1) as f64
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

/// The bytes of a file's text: its size when it holds text, else none (a binary file, one
/// over the size limit or unreadable has no text field).
fn text_bytes(file: &TreeFile) -> u64 {
    match file.content_kind() {
        ContentKind::Text => file.size(),
        _ => 0,
    }
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
        let sample = length_sample(&t, 20);
        let estimated = estimated_averages(&t, &sample, &lengths);
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
        let whole = estimated_averages(&t, &all, &lengths);
        for (f, average) in whole.iter().enumerate() {
            assert!((average - mean(&all, f).max(1.0)).abs() <= 1e-9 * average);
        }
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
    }
}
