//! `find path`: which paths match (in parallel chunks of an index, or in parallel pieces of a
//! listing scanned in place), then alignment of the ones that can reach the results, best
//! bound first; typo candidates only when true matches do not fill the limit.

use super::listing::{scan_listing, Listing};
use super::request::{PathRequest, PathResponse};
use super::scorer::Scorer;
use super::scratch::{Hit, Scratch};
use super::source::PathSource;
use crate::error::{EngineError, Result};
use crate::profile::PathWeights;
use crate::rank::Summary;
use crate::tree::paths::{fold_bytes, PathList};
use rayon::prelude::*;
use std::cmp::Ordering;

/// Paths scored per parallel task: large enough to amortise scheduling.
const CHUNK: usize = 2048;

pub fn find_path(list: &PathList, request: &PathRequest, w: &PathWeights) -> Result<PathResponse> {
    let q = folded_query(request)?;
    let scorer = Scorer::new(&q, w);
    // which paths match; a true match carries the bound of its score, not yet aligned
    let hits: Vec<Hit> = (0..list.len())
        .into_par_iter()
        .step_by(CHUNK)
        .map(|start| {
            let end = (start + CHUNK).min(list.len());
            (start..end)
                .filter_map(|i| {
                    let (bag, bytes) = list.scan(i);
                    scorer.classify(list, i, bag, bytes)
                })
                .collect::<Vec<_>>()
        })
        .flatten()
        .collect();
    Ok(rank(list, &scorer, hits, request))
}

/// `find path` over a listing read for this one query: its lines are matched where they
/// lie, as they are found ([`scan_listing`]); the answer is [`find_path`]'s over the same
/// listing indexed.
pub fn find_path_in_listing(
    listing: &Listing,
    request: &PathRequest,
    w: &PathWeights,
) -> Result<PathResponse> {
    if !listing.scannable() {
        return find_path(&listing.indexed(), request, w);
    }
    let q = folded_query(request)?;
    let scorer = Scorer::new(&q, w);
    let (source, hits) = scan_listing(listing, &scorer);
    Ok(rank(&source, &scorer, hits, request))
}

/// The request's query folded, or why it cannot be searched.
fn folded_query(request: &PathRequest) -> Result<Vec<u8>> {
    let query = request.query.trim();
    if query.is_empty() {
        return Err(EngineError::invalid_with_hint(
            "empty query",
            "give some characters of the path, e.g. `authmw` for src/auth_middleware.py",
        ));
    }
    if request.limit == 0 {
        return Err(EngineError::invalid("--limit must be at least 1"));
    }
    let mut q = Vec::with_capacity(query.len());
    fold_bytes(query, &mut q);
    Ok(q)
}

/// The matches `hits` (true matches with bounds, typo candidates unscored) aligned as far as
/// the limit needs, ranked and described.
fn rank<S: PathSource>(
    list: &S,
    scorer: &Scorer,
    mut hits: Vec<Hit>,
    request: &PathRequest,
) -> PathResponse {
    let total = hits.len();
    // typo candidates rank below every true match: align them only when true matches do
    // not fill the limit (they are counted in `total` either way)
    let true_matches = hits.iter().filter(|h| h.tier == 0).count();
    if true_matches < request.limit {
        // every true match is a result; typo candidates fill the rest
        let mut typos: Vec<Hit> = hits.iter().filter(|h| h.tier == 1).copied().collect();
        hits.retain(|h| h.tier == 0);
        hits.par_iter_mut()
            .for_each_init(Scratch::default, |scratch, h| {
                h.score = scorer.score_true(list, h.index as usize, scratch)
            });
        typos
            .par_iter_mut()
            .for_each(|h| h.score = scorer.typo_bound(list, h));
        scorer.align_best(&mut typos, request.limit - true_matches, |h, scratch| {
            scorer.score_typo(list, h, scratch)
        });
        hits.append(&mut typos);
    } else {
        hits.retain(|h| h.tier == 0);
        scorer.align_best(&mut hits, request.limit, |h, scratch| {
            h.score = scorer.score_true(list, h.index as usize, scratch)
        });
    }
    let by_rank = |a: &Hit, b: &Hit| -> Ordering {
        a.tier
            .cmp(&b.tier)
            .then(b.score.total_cmp(&a.score))
            .then_with(|| {
                let (pa, pb) = (
                    list.path_bytes(a.index as usize),
                    list.path_bytes(b.index as usize),
                );
                pa.len().cmp(&pb.len()).then_with(|| pa.cmp(pb))
            })
    };
    if hits.len() > request.limit {
        hits.select_nth_unstable_by(request.limit, by_rank);
        hits.truncate(request.limit);
    }
    hits.sort_by(by_rank);
    let mut scratch = Scratch::default();
    let matches = hits
        .iter()
        .map(|h| scorer.describe(list, h, &mut scratch))
        .collect::<Vec<_>>();
    PathResponse {
        query: request.clone(),
        summary: Summary::new(total, matches.len()),
        matches,
    }
}
