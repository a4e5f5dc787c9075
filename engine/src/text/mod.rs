//! Text primitives shared by every mode: case folding, word boundaries, typo tolerance,
//! CamelCase words and `[ _-]?` search terms.

pub mod camel;
pub mod char_bag;
pub mod fold;
pub mod partial_ratio;
pub mod stem;
pub mod term;
pub mod typo;
pub mod words;
