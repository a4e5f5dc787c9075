//! `find task`: fuzzy search over titles, descriptions, labels and notes (task-find.md).

use crate::error::{EngineError, Result};
use crate::profile::TaskWeights;
use crate::rank::{round3, TermQuery};
use crate::store::Store;
use crate::text::fold::fold;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

// The shared ranking parts live in `crate::rank`; re-exported here, where callers found them
// before it existed.
pub use crate::rank::{natural_cmp, Summary, TaskField};

/// Items scored per parallel task: below this a store is scored on one thread.
const PARALLEL_CHUNK: usize = 4096;

/// A `find task` request. Build one with [`TaskRequest::new`] and adjust the fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskRequest {
    /// Free-text query; may be empty when `id` is given.
    pub query: String,
    /// `--id`: prefix by default, `*37` suffix, `*37*` contains, `T37*` explicit prefix.
    pub id: Option<String>,
    pub fields: Vec<TaskField>,
    /// Statuses to keep (case-insensitive); empty keeps all.
    pub status: Vec<String>,
    pub limit: usize,
    /// Lowest score kept (0-1); `None` takes the profile's `task.threshold`. The response
    /// echoes the threshold used.
    pub threshold: Option<f64>,
    pub exact: bool,
    pub include_archive: bool,
    pub verbose: bool,
}

impl TaskRequest {
    pub fn new(query: impl Into<String>) -> TaskRequest {
        TaskRequest {
            query: query.into(),
            id: None,
            fields: vec![TaskField::Title, TaskField::Description],
            status: Vec::new(),
            limit: 10,
            threshold: None,
            exact: false,
            include_archive: false,
            verbose: false,
        }
    }

    fn validate(&self, weights: &TaskWeights) -> Result<()> {
        let has_query = !self.query.trim().is_empty();
        let has_id = self
            .id
            .as_deref()
            .is_some_and(|p| !p.trim_matches('*').trim().is_empty());
        if !has_query && !has_id {
            return Err(EngineError::invalid_with_hint(
                "empty query",
                "give a search query, or --id with an id pattern",
            ));
        }
        if self.id.is_some() && !has_id {
            return Err(EngineError::invalid("--id pattern is empty"));
        }
        if self.limit == 0 {
            return Err(EngineError::invalid_with_hint(
                "--limit must be at least 1",
                "omit --limit for the default of 10",
            ));
        }
        if let Some(threshold) = self.threshold.filter(|t| !(0.0..=1.0).contains(t)) {
            return Err(EngineError::invalid_with_hint(
                format!("--threshold {threshold} is outside 0..1"),
                format!(
                    "scores run from 0 to 1; the default threshold is {}",
                    weights.threshold
                ),
            ));
        }
        if self.fields.is_empty() {
            return Err(EngineError::invalid("no field to search"));
        }
        if self.exact && !has_query {
            return Err(EngineError::invalid(
                "--exact needs a query (the full title)",
            ));
        }
        Ok(())
    }
}

/// One ranked task; the minimal object of the spec, with `labels` and `description` only
/// when verbose.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskMatch {
    pub id: String,
    pub title: String,
    pub status: Option<String>,
    pub priority: Option<String>,
    pub score: f64,
    pub matched_in: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskResponse {
    pub query: TaskRequest,
    pub summary: Summary,
    pub matches: Vec<TaskMatch>,
}

enum IdPattern {
    Prefix(String),
    Suffix(String),
    Contains(String),
}

impl IdPattern {
    fn parse(raw: &str) -> IdPattern {
        let p = fold(raw.trim());
        match (p.starts_with('*'), p.ends_with('*') && p.len() > 1) {
            (true, true) => IdPattern::Contains(p.trim_matches('*').to_string()),
            (true, false) => IdPattern::Suffix(p.trim_start_matches('*').to_string()),
            _ => IdPattern::Prefix(p.trim_end_matches('*').to_string()),
        }
    }

    /// Score of an id match: `id_whole` for the whole id, `id_number` for its whole number
    /// (`37` ~ `T037`), otherwise by how much of the id the pattern covers. A numeric pattern
    /// also matches the number after a letter prefix, with or without zero padding (`37` ~
    /// `T37`, `T0370`).
    fn score(&self, id: &str, w: &TaskWeights) -> Option<f64> {
        let digits = id.trim_start_matches(|c: char| !c.is_ascii_digit());
        let unpadded = digits.trim_start_matches('0');
        let pattern = match self {
            IdPattern::Prefix(p) | IdPattern::Suffix(p) | IdPattern::Contains(p) => p.as_str(),
        };
        let numeric = !pattern.is_empty() && pattern.bytes().all(|b| b.is_ascii_digit());
        let unpadded_pattern = pattern.trim_start_matches('0');
        let mut best: Option<f64> = None;
        for (candidate, pat) in [
            (id, pattern),
            (digits, pattern),
            // zero padding is read away only for an exact or prefix id: `*001` is the
            // ids ending in 001, not every id ending in 1
            (
                unpadded,
                if numeric && matches!(self, IdPattern::Prefix(_)) {
                    unpadded_pattern
                } else {
                    pattern
                },
            ),
        ] {
            if candidate.is_empty() || pat.is_empty() {
                continue;
            }
            let hit = match self {
                IdPattern::Prefix(_) => candidate.starts_with(pat),
                IdPattern::Suffix(_) => candidate.ends_with(pat),
                IdPattern::Contains(_) => candidate.contains(pat),
            };
            if !hit {
                continue;
            }
            let s = if candidate == id && pat.len() == id.len() {
                w.id_whole
            } else if pat.len() == candidate.len() {
                w.id_number
            } else {
                w.id_part_floor + w.id_part_span * (pat.len() as f64 / candidate.len() as f64)
            };
            best = Some(best.map_or(s, |b: f64| b.max(s)));
        }
        best
    }
}

/// Runs `find task` over `store`.
pub fn find_task(
    store: &Store,
    request: &TaskRequest,
    weights: &TaskWeights,
) -> Result<TaskResponse> {
    request.validate(weights)?;
    let threshold = request.threshold.unwrap_or(weights.threshold);
    let query = TermQuery::new(&request.query);
    let id_pattern = request.id.as_deref().map(IdPattern::parse);
    let statuses: Vec<String> = request.status.iter().map(|s| fold(s.trim())).collect();

    let score = |index: usize| -> Option<(f64, usize, Vec<TaskField>)> {
        let item = store.item(index);
        if item.archived() && !request.include_archive {
            return None;
        }
        if !statuses.is_empty() && !statuses.iter().any(|s| s == item.status_folded()) {
            return None;
        }
        let id_score = match &id_pattern {
            Some(p) => Some(p.score(item.id_folded(), weights)?),
            None => None,
        };
        let (score, fields) = if request.exact {
            (item.title_collapsed() == query.exact_title())
                .then(|| (weights.exact_title, vec![TaskField::Title]))?
        } else if query.is_empty() {
            (id_score?, Vec::new())
        } else {
            query.score(item, &request.fields, weights)?
        };
        (score >= threshold).then_some((score, index, fields))
    };
    // chunks in order, each scored in order: the same list whatever the thread count
    let mut scored: Vec<(f64, usize, Vec<TaskField>)> = if store.len() > PARALLEL_CHUNK {
        (0..store.len())
            .into_par_iter()
            .with_min_len(PARALLEL_CHUNK)
            .filter_map(score)
            .collect()
    } else {
        (0..store.len()).filter_map(score).collect()
    };

    scored.sort_by(|a, b| {
        let (x, y) = (store.item(a.1), store.item(b.1));
        b.0.partial_cmp(&a.0)
            .unwrap_or(Ordering::Equal)
            .then_with(|| x.priority_rank().cmp(&y.priority_rank()))
            .then_with(|| natural_cmp(x.id(), y.id()))
    });
    let total = scored.len();
    let matches: Vec<TaskMatch> = scored
        .into_iter()
        .take(request.limit)
        .map(|(score, index, fields)| {
            let item = store.item(index);
            TaskMatch {
                id: item.id().to_string(),
                title: item.title().to_string(),
                status: item.status().map(String::from),
                priority: item.priority().map(String::from),
                score: round3(score),
                matched_in: fields.iter().map(|f| f.as_str().to_string()).collect(),
                phase: item.phase().map(String::from),
                labels: request.verbose.then(|| item.labels()),
                description: if request.verbose {
                    item.description().map(String::from)
                } else {
                    None
                },
            }
        })
        .collect();
    Ok(TaskResponse {
        query: TaskRequest {
            threshold: Some(threshold),
            ..request.clone()
        },
        summary: Summary::new(total, matches.len()),
        matches,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_patterns() {
        let w = TaskWeights::default();
        assert_eq!(IdPattern::parse("T37").score("t37", &w), Some(1.0));
        assert!(IdPattern::parse("37").score("t376", &w).is_some());
        assert!(IdPattern::parse("*76").score("t376", &w).is_some());
        assert!(IdPattern::parse("*37*").score("t1370", &w).is_some());
        assert!(IdPattern::parse("38").score("t376", &w).is_none());
        // zero padding: the whole number ranks just below the literal id
        assert_eq!(IdPattern::parse("37").score("t037", &w), Some(0.99));
        assert!(IdPattern::parse("37").score("t0370", &w).is_some());
        assert!(IdPattern::parse("037").score("t037", &w).is_some());
        assert!(IdPattern::parse("*7").score("t037", &w).is_some());
    }
}
