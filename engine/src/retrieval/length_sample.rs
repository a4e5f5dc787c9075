//! The files the average field lengths of BM25F are measured on.
//!
//! The average of a field's length over a tree is a property of the tree, not of any file
//! a question finds; measured on every file it costs a read and a symbol scan of the whole
//! tree, which the first question on a root cannot afford (`modes/cold/mod.rs`). A sample
//! of a fixed size estimates it: the files whose path hashes lowest, so the same tree
//! gives the same files to every call (a kept index and a first call agree to the bit),
//! and a file added or removed changes the sample by one file at most.

use crate::encoding::fnv::fnv1a;
use crate::tree::Tree;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(n: usize) -> Tree {
        let files: Vec<(String, String)> = (0..n)
            .map(|i| (format!("src/m{i:04}.rs"), format!("fn f{i}() {{}}\n")))
            .collect();
        Tree::from_memory("t", files.iter().map(|(p, t)| (p.as_str(), t.as_str())))
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
