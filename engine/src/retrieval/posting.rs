//! One file's frequencies of one term, per field: what the statistics built in memory
//! ([`super::bm25f`]) and those kept on disk ([`super::kept`]) both list for a term.

use super::fields::FIELDS;

/// How many fields a posting counts.
pub(crate) const NF: usize = FIELDS.len();

/// One file's frequencies of one term, per field.
#[derive(Debug, Clone, Copy)]
pub struct Posting {
    pub file: u32,
    pub tf: [u16; NF],
}

/// The files that hold one term: with their frequencies (the statistics list them), or
/// only which files (the first `ask` on a root counts a file's frequencies when its score
/// is needed: [`super::file_counts::counted_with_lines`]). Either way ascending by file.
#[derive(Debug)]
pub enum Holding<'a> {
    Listed(std::borrow::Cow<'a, [Posting]>),
    Files(&'a [u32]),
}

impl Holding<'_> {
    /// How many files hold the term (its document frequency).
    pub fn len(&self) -> usize {
        match self {
            Holding::Listed(p) => p.len(),
            Holding::Files(f) => f.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The files, ascending.
    pub fn files(&self) -> Vec<u32> {
        match self {
            Holding::Listed(p) => p.iter().map(|p| p.file).collect(),
            Holding::Files(f) => f.to_vec(),
        }
    }

    /// The frequencies of `file`, when listed and the file holds the term.
    pub fn tf_of(&self, file: u32) -> Option<[u16; NF]> {
        match self {
            Holding::Listed(p) => p
                .binary_search_by_key(&file, |p| p.file)
                .ok()
                .map(|i| p[i].tf),
            Holding::Files(_) => None,
        }
    }
}
