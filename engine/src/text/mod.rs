//! Text primitives shared by every mode: case folding, word boundaries, typo tolerance.

pub mod char_bag;
pub mod fold;
pub mod typo;
pub mod words;
