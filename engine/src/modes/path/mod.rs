//! `find path`: fuzzy subsequence search over paths, with one-letter typo tolerance and the
//! matched positions of the best alignment.
//!
//! Per path, cheapest test first: the character bag (one AND), then the subsequence or typo
//! test on the text as listed, case-blind, eight bytes a step. Only then alignment, by a
//! dynamic programme over the folded path (an ASCII path is folded into a per-thread
//! buffer), best bound first, skipping true matches that cannot reach the results. Scratch
//! rows are per worker thread, so the scan allocates nothing per path.
//!
//! - `find.rs`: the search; `request.rs`: its request and response;
//! - `source.rs`: paths by id, from an index or, in `listing.rs`, a listing read for one
//!   query and matched where it lies;
//! - `prefilter.rs`: which paths match, on `pattern.rs` byte tests and `typo.rs` rules;
//! - `bounds.rs`, `path_bound.rs`, `best_first.rs`: what a path can score at most, and skipping
//!   the ones that cannot reach the results;
//! - `scorer.rs`, `align.rs`, `score.rs`: the prepared query, the alignment and the scores;
//! - `trace.rs`: positions and reasons of the results.

mod align;
mod best_first;
mod bounds;
mod find;
mod listing;
mod path_bound;
mod pattern;
mod prefilter;
mod request;
mod score;
mod scorer;
mod scratch;
mod source;
mod trace;
mod typo;
mod weights;

pub use find::{find_path, find_path_in_listing};
pub use listing::Listing;
pub use request::{PathMatch, PathRequest, PathResponse};

#[cfg(test)]
mod tests;
