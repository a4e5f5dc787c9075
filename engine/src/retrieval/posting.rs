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
