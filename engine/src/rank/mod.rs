//! What the item modes share when they rank: the fields a query searches, term matching
//! (`find task` and `find outline` agree on what a match is), result summaries, the natural
//! order of ids and score rounding. Weights come from [`crate::profile`].

mod field_weight;
mod natural;
mod score;
mod summary;
mod term_query;

pub use crate::store::TaskField;
pub use natural::natural_cmp;
pub use score::round3;
pub use summary::Summary;
pub(crate) use term_query::TermQuery;

#[cfg(test)]
mod reference_tests;
