//! Byte encodings shared by everything kept on disk: varints, stable hashes and the fast
//! hasher of word maps. Below the tree, the store and retrieval, which all use them.

pub(crate) mod fnv;
pub(crate) mod fx_hash;
pub(crate) mod sorted_heads;
pub(crate) mod varint;
