//! `find name` (name-filter.md): the item a person means by an approximate name ("the email
//! task"), scored with rapidfuzz's `partial_ratio` (0-100) and labelled `good` or `weak` so an
//! agent knows when it must ask before it acts.

use crate::error::{EngineError, Result};
use crate::item::Domain;
use crate::profile::NameWeights;
use crate::rank::{natural_cmp, Summary};
use crate::store::{ItemRef, Store};
use crate::text::fold::fold;
use crate::text::partial_ratio::{partial_ratio, partial_ratio_chars};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// Titles scored per parallel task: below this a store is scored on one thread.
const PARALLEL_CHUNK: usize = 2048;

/// A `find name` request. `limit` and `threshold` of `None` take the profile's (5 and 60).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct NameRequest {
    /// The approximate name; `None` or blank lists the domain's items unfiltered.
    pub query: Option<String>,
    pub domain: Domain,
    /// Keep finished items (tasks `Done`, goals `Complete`, reading `Read`) and archived ones.
    pub include_done: bool,
    pub limit: Option<usize>,
    pub threshold: Option<f64>,
}

impl NameRequest {
    pub fn new(query: impl Into<String>) -> NameRequest {
        NameRequest {
            query: Some(query.into()),
            ..NameRequest::default()
        }
    }
}

/// How far the answer can be trusted: the best score reached the threshold (`good`), or the
/// results are best guesses below it (`weak`: ask the person before acting).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MatchQuality {
    Good,
    Weak,
}

impl MatchQuality {
    pub fn as_str(self) -> &'static str {
        match self {
            MatchQuality::Good => "good",
            MatchQuality::Weak => "weak",
        }
    }
}

/// One result, with its own score (the spec's per-item score), `null` when unfiltered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NameResult {
    pub id: String,
    pub title: String,
    pub status: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<String>,
    pub score: Option<f64>,
}

/// The request as answered: the defaults that applied and the string actually scored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NameQuery {
    pub query: Option<String>,
    /// The query folded, its short tokens dropped: what each title is scored against.
    pub normalised: Option<String>,
    pub domain: Domain,
    pub include_done: bool,
    pub limit: usize,
    pub threshold: f64,
}

/// Whether finished items were left out, under the domain's own name: `excluded_done`
/// (tasks), `excluded_complete` (goals) or `excluded_read` (reading). Only the requested
/// domain's key is present.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExcludedFlag {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excluded_done: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excluded_complete: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excluded_read: Option<bool>,
}

impl ExcludedFlag {
    fn new(domain: Domain, excluded: bool) -> ExcludedFlag {
        let mut flag = ExcludedFlag::default();
        let slot = match domain {
            Domain::Task => &mut flag.excluded_done,
            Domain::Goal => &mut flag.excluded_complete,
            Domain::Reading => &mut flag.excluded_read,
        };
        *slot = Some(excluded);
        flag
    }

    /// The flag's value, whichever domain it is for.
    pub fn excluded(&self) -> bool {
        self.excluded_done
            .or(self.excluded_complete)
            .or(self.excluded_read)
            .unwrap_or(false)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NameResponse {
    pub query: NameQuery,
    /// `total_matches` counts items at or above the threshold (every candidate when
    /// unfiltered); a weak answer returns best guesses below it, so its total is 0.
    pub summary: Summary,
    pub results: Vec<NameResult>,
    /// `good`, `weak`, or `null` when there was no query.
    pub fuzzy_match_quality: Option<MatchQuality>,
    /// True when at least one finished (or archived) item of the domain was actually left
    /// out, so "search those too?" is a question worth asking; false when none exists or
    /// `include_done` was set.
    #[serde(flatten)]
    pub excluded: ExcludedFlag,
    /// How many finished or archived items were left out.
    pub excluded_count: usize,
}

/// The query as name-filter.md normalises it: folded, split on whitespace, tokens shorter
/// than `min_chars` characters dropped unless none is long enough, rejoined with one space.
/// `None` when nothing is left.
pub fn normalise_query(query: &str, min_chars: usize) -> Option<String> {
    let folded = fold(query);
    let tokens: Vec<&str> = folded.split_whitespace().collect();
    if tokens.is_empty() {
        return None;
    }
    let long: Vec<&str> = tokens
        .iter()
        .copied()
        .filter(|t| t.chars().count() >= min_chars)
        .collect();
    Some(if long.is_empty() { tokens } else { long }.join(" "))
}

fn is_finished(item: ItemRef<'_>, domain: Domain) -> bool {
    item.archived() || item.status_folded() == domain.done_status()
}

/// Runs `find name` over `store`.
pub fn find_name(
    store: &Store,
    request: &NameRequest,
    weights: &NameWeights,
) -> Result<NameResponse> {
    let limit = request.limit.unwrap_or(weights.limit);
    if limit == 0 {
        return Err(EngineError::invalid_with_hint(
            "--limit must be at least 1",
            format!("omit --limit for the default of {}", weights.limit),
        ));
    }
    let threshold = request.threshold.unwrap_or(weights.threshold);
    if !(0.0..=100.0).contains(&threshold) {
        return Err(EngineError::invalid_with_hint(
            format!("--threshold {threshold} is outside 0..100"),
            format!(
                "scores run from 0 to 100; the default threshold is {}",
                weights.threshold
            ),
        ));
    }
    let normalised = request
        .query
        .as_deref()
        .and_then(|q| normalise_query(q, weights.min_token_chars));
    let domain = request.domain;
    let mut excluded_count = 0;
    let mut candidates: Vec<usize> = Vec::new();
    for item in store.iter() {
        let index = item.index();
        if item.domain() != domain {
            continue;
        }
        if !request.include_done && is_finished(item, domain) {
            excluded_count += 1;
            continue;
        }
        candidates.push(index);
    }

    let result = |index: usize, score: Option<f64>| {
        let item = store.item(index);
        NameResult {
            id: item.id().to_string(),
            title: item.title().to_string(),
            status: item.status().map(String::from),
            priority: item.priority().map(String::from),
            score,
        }
    };
    let (results, quality, total) = match &normalised {
        None => {
            // unfiltered, in store order, as the spec's `items[:limit]`
            let total = candidates.len();
            let results: Vec<NameResult> = candidates
                .iter()
                .take(limit)
                .map(|&i| result(i, None))
                .collect();
            (results, None, total)
        }
        Some(needle) => {
            let needle_chars: Vec<char> = needle.chars().collect();
            let score = |&i: &usize| {
                let item = store.item(i);
                let s = match item.title_wide() {
                    Some(wide) => partial_ratio_chars(&needle_chars, wide),
                    // bytes when both are ASCII; a rare non-ASCII query splits the title itself
                    None => partial_ratio(needle, item.title_folded().text),
                };
                (s, i)
            };
            // in candidate order whatever the thread count; the ranking is a total order
            let mut scored: Vec<(f64, usize)> = if candidates.len() > PARALLEL_CHUNK {
                candidates
                    .par_iter()
                    .with_min_len(PARALLEL_CHUNK)
                    .map(score)
                    .collect()
            } else {
                candidates.iter().map(score).collect()
            };
            let above = scored.iter().filter(|(s, _)| *s >= threshold).count();
            if above > 0 {
                scored.retain(|(s, _)| *s >= threshold);
            }
            let top = best(scored, limit, |a, b| rank(store, a, b));
            let quality = if above > 0 {
                MatchQuality::Good
            } else {
                MatchQuality::Weak
            };
            let results = top.into_iter().map(|(s, i)| result(i, Some(s))).collect();
            (results, Some(quality), above)
        }
    };
    let summary = Summary {
        total_matches: total,
        returned: results.len(),
        truncated: results.len() < total,
    };
    Ok(NameResponse {
        query: NameQuery {
            query: request.query.clone(),
            normalised,
            domain,
            include_done: request.include_done,
            limit,
            threshold,
        },
        summary,
        results,
        fuzzy_match_quality: quality,
        excluded: ExcludedFlag::new(domain, excluded_count > 0),
        excluded_count,
    })
}

/// The folded title's length in characters.
fn title_len(item: ItemRef<'_>) -> usize {
    item.title_wide()
        .map_or(item.title_folded().text.len(), |wide| wide.len())
}

/// Higher score first; ties to the shorter title, then natural id order.
fn rank(store: &Store, a: &(f64, usize), b: &(f64, usize)) -> Ordering {
    let (x, y) = (store.item(a.1), store.item(b.1));
    b.0.partial_cmp(&a.0)
        .unwrap_or(Ordering::Equal)
        .then_with(|| title_len(x).cmp(&title_len(y)))
        .then_with(|| natural_cmp(x.id(), y.id()))
}

/// The `k` best of `all` by `order`, sorted: a partial selection first, so a large store
/// does not pay for sorting everything.
fn best<T>(mut all: Vec<T>, k: usize, order: impl Fn(&T, &T) -> Ordering) -> Vec<T> {
    if all.len() > k {
        all.select_nth_unstable_by(k - 1, &order);
        all.truncate(k);
    }
    all.sort_by(&order);
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Item;

    fn life() -> Store {
        let tasks = serde_json::json!([
            {"id": "T1", "title": "Read emails", "status": "Not started"},
            {"id": "T2", "title": "Calendar cleanup", "status": "In progress"},
            {"id": "T3", "title": "Email the accountant", "status": "DONE"},
            {"id": "T4", "title": "Book dentist", "status": "Not started"},
            {"id": "T5", "title": "Old email task", "status": "Not started", "archived": true},
            {"id": "G1", "title": "Read 24 books", "status": "Active", "domain": "goal"},
            {"id": "G2", "title": "Emails zero", "status": "complete", "domain": "goal"},
            {"id": "R1", "title": "Deep Work", "status": "Read", "domain": "reading"},
        ]);
        let items: Vec<Item> = serde_json::from_value(tasks).unwrap();
        Store::from_items("life", items).unwrap()
    }

    fn run(req: NameRequest) -> NameResponse {
        find_name(&life(), &req, &NameWeights::default()).unwrap()
    }

    fn ids(r: &NameResponse) -> Vec<&str> {
        r.results.iter().map(|x| x.id.as_str()).collect()
    }

    #[test]
    fn short_tokens_are_dropped_unless_all_are_short() {
        assert_eq!(
            normalise_query("mark THE email task as done", 3).as_deref(),
            Some("mark the email task done")
        );
        assert_eq!(
            normalise_query("update the xyz task", 3).as_deref(),
            Some("update the xyz task")
        );
        assert_eq!(normalise_query("to do", 3).as_deref(), Some("to do"));
        assert_eq!(normalise_query("  a   b ", 3).as_deref(), Some("a b"));
        assert_eq!(normalise_query("   ", 3), None);
        assert_eq!(normalise_query("STRAẞE", 3).as_deref(), Some("strasse"));
    }

    #[test]
    fn good_match_excludes_done_and_says_so() {
        let r = run(NameRequest::new("emails"));
        assert_eq!(r.fuzzy_match_quality, Some(MatchQuality::Good));
        assert_eq!(ids(&r)[0], "T1");
        assert_eq!(r.results[0].score, Some(100.0));
        // T3 is done and T5 archived: left out, and the response says so
        assert!(!ids(&r).contains(&"T3"));
        assert!(!ids(&r).contains(&"T5"));
        assert_eq!(r.excluded.excluded_done, Some(true));
        assert_eq!(r.excluded.excluded_complete, None);
        assert_eq!(r.excluded_count, 2);
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["excluded_done"], true);
        assert!(json.get("excluded_read").is_none());
    }

    #[test]
    fn include_done_brings_finished_items_back() {
        let mut req = NameRequest::new("email");
        req.include_done = true;
        let r = run(req);
        assert!(ids(&r).contains(&"T3"));
        assert!(ids(&r).contains(&"T5"));
        assert_eq!(r.excluded.excluded_done, Some(false));
        assert_eq!(r.excluded_count, 0);
    }

    #[test]
    fn weak_when_nothing_reaches_the_threshold() {
        let r = run(NameRequest::new("xyzzy quux"));
        assert_eq!(r.fuzzy_match_quality, Some(MatchQuality::Weak));
        assert_eq!(r.results.len(), 3); // the three open tasks, best guesses
        assert!(r.results.iter().all(|x| x.score.unwrap() < 60.0));
        assert_eq!(r.summary.total_matches, 0);
        let scores: Vec<f64> = r.results.iter().map(|x| x.score.unwrap()).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]));
    }

    #[test]
    fn threshold_and_limit_apply() {
        let mut req = NameRequest::new("emails");
        req.threshold = Some(0.0);
        req.limit = Some(2);
        let r = run(req);
        assert_eq!(r.results.len(), 2);
        assert_eq!(r.summary.total_matches, 3);
        assert!(r.summary.truncated);
        let mut req = NameRequest::new("x");
        req.threshold = Some(101.0);
        assert!(find_name(&life(), &req, &NameWeights::default()).is_err());
        req.threshold = None;
        req.limit = Some(0);
        assert!(find_name(&life(), &req, &NameWeights::default()).is_err());
    }

    #[test]
    fn no_query_lists_unfiltered_in_store_order() {
        let r = run(NameRequest::default());
        assert_eq!(r.fuzzy_match_quality, None);
        assert_eq!(ids(&r), ["T1", "T2", "T4"]);
        assert!(r.results.iter().all(|x| x.score.is_none()));
        let r = run(NameRequest::new("   "));
        assert_eq!(r.fuzzy_match_quality, None);
    }

    #[test]
    fn domains_have_their_own_done_status_and_flag() {
        let mut req = NameRequest::new("emails");
        req.domain = Domain::Goal;
        let r = run(req);
        assert_eq!(r.excluded.excluded_complete, Some(true));
        assert_eq!(ids(&r), ["G1"]); // G2 complete; G1 is a weak guess
        assert_eq!(r.fuzzy_match_quality, Some(MatchQuality::Weak));
        let mut req = NameRequest::new("deep work");
        req.domain = Domain::Reading;
        let r = run(req);
        assert!(r.results.is_empty());
        assert_eq!(r.excluded.excluded_read, Some(true));
    }

    #[test]
    fn ascii_and_non_ascii_titles_and_queries_score_alike() {
        // partial_ratio over the folded strings, whichever path (bytes or chars) is taken
        let items: Vec<Item> = serde_json::from_value(serde_json::json!([
            {"id": "R1", "title": "Straße der Ölsardinen"},
            {"id": "R2", "title": "Cien años de soledad"},
            {"id": "R3", "title": "Calendar cleanup"},
        ]))
        .unwrap();
        let store = Store::from_items("t", items).unwrap();
        for query in ["strasse", "ÖLSARDINEN", "años", "calendär", "cleanup"] {
            let mut req = NameRequest::new(query);
            req.threshold = Some(0.0);
            let r = find_name(&store, &req, &NameWeights::default()).unwrap();
            assert_eq!(r.results.len(), 3);
            let needle = normalise_query(query, 3).unwrap();
            for res in &r.results {
                let title = fold(&res.title);
                assert_eq!(
                    res.score,
                    Some(partial_ratio(&needle, &title)),
                    "{query} {title}"
                );
            }
        }
        let r = find_name(
            &store,
            &NameRequest::new("strasse"),
            &NameWeights::default(),
        )
        .unwrap();
        assert_eq!(
            (r.results[0].id.as_str(), r.results[0].score),
            ("R1", Some(100.0))
        );
    }

    #[test]
    fn ties_go_to_the_shorter_title_then_the_id() {
        let items: Vec<Item> = serde_json::from_value(serde_json::json!([
            {"id": "T10", "title": "Pay rent now"},
            {"id": "T9", "title": "Pay rent today"},
            {"id": "T2", "title": "Pay rent now"},
        ]))
        .unwrap();
        let store = Store::from_items("t", items).unwrap();
        let r = find_name(&store, &NameRequest::new("rent"), &NameWeights::default()).unwrap();
        assert_eq!(ids(&r), ["T2", "T10", "T9"]);
    }
}
