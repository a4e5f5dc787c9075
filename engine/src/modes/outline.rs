//! `find outline` (the map of map-and-zoom.md): ranked matches, each placed in its outline
//! by a breadcrumb and summarised by indicators, so an agent can decide which node to open
//! with `get` without reading any of them in full.

use crate::error::{EngineError, Result};
use crate::profile::OutlineWeights;
use crate::rank::{natural_cmp, round3, Summary, TaskField, TermQuery};
use crate::store::{BreadcrumbCut, ItemRef, Store};
use crate::text::fold::fold;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// A `find outline` request. `limit` of `None` takes the profile's (10).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct OutlineRequest {
    pub query: String,
    pub limit: Option<usize>,
    /// Only items of this list (case-insensitive).
    pub list: Option<String>,
    pub include_archive: bool,
}

impl OutlineRequest {
    pub fn new(query: impl Into<String>) -> OutlineRequest {
        OutlineRequest {
            query: query.into(),
            ..OutlineRequest::default()
        }
    }
}

/// The compact signals of map-and-zoom.md: `[N]` has notes, `[C]` has comments, `[F: n]`
/// has n children. Shared by `find outline` and `get`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Indicators {
    pub has_notes: bool,
    pub has_comments: bool,
    pub children: usize,
}

impl Indicators {
    pub fn of(item: ItemRef<'_>, children: usize) -> Indicators {
        Indicators {
            has_notes: item.has_notes(),
            has_comments: item.has_comments(),
            children,
        }
    }

    /// `[N] [C] [F: 3]`, only the signals that are present; empty when none is.
    pub fn render(&self) -> String {
        let mut parts: Vec<String> = Vec::with_capacity(3);
        if self.has_notes {
            parts.push("[N]".into());
        }
        if self.has_comments {
            parts.push("[C]".into());
        }
        if self.children > 0 {
            parts.push(format!("[F: {}]", self.children));
        }
        parts.join(" ")
    }
}

/// One match of the map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutlineMatch {
    pub id: String,
    pub title: String,
    pub list: Option<String>,
    /// `Grandparent > Parent > Item`, led by a marker when the chain was cut.
    pub breadcrumb: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breadcrumb_cut: Option<BreadcrumbCut>,
    pub indicators: String,
    pub has_notes: bool,
    pub has_comments: bool,
    /// Number of direct children (the `n` of `[F: n]`).
    pub children: usize,
    pub score: f64,
    pub matched_in: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutlineResponse {
    /// The request as answered, with the limit that applied.
    pub query: OutlineRequest,
    pub summary: Summary,
    pub matches: Vec<OutlineMatch>,
}

/// `--list NAME`, resolved against the lists the store actually has.
pub(crate) struct ListFilter {
    folded: String,
}

impl ListFilter {
    /// `None` when no list was asked for; an error naming the store's lists when no item is
    /// in the one asked for, so a typo is not mistaken for an empty list.
    pub(crate) fn new(store: &Store, list: Option<&str>) -> Result<Option<ListFilter>> {
        let Some(name) = list.map(str::trim).filter(|l| !l.is_empty()) else {
            return Ok(None);
        };
        let filter = ListFilter { folded: fold(name) };
        if store.iter().any(|i| filter.keeps(i)) {
            return Ok(Some(filter));
        }
        let mut lists: Vec<&str> = store.iter().filter_map(|i| i.list()).collect();
        lists.sort_unstable();
        lists.dedup();
        let hint = if lists.is_empty() {
            "this store's items name no list; omit --list".to_string()
        } else {
            format!("lists in this store: {}", lists.join(", "))
        };
        Err(EngineError::invalid_with_hint(
            format!("no item is in list `{name}`"),
            hint,
        ))
    }

    pub(crate) fn keeps(&self, item: ItemRef<'_>) -> bool {
        match item.list() {
            None => false,
            Some(l) if l.is_ascii() && self.folded.is_ascii() => {
                l.trim().eq_ignore_ascii_case(&self.folded)
            }
            Some(l) => fold(l.trim()) == self.folded,
        }
    }
}

/// Runs `find outline` over `store`.
pub fn find_outline(
    store: &Store,
    request: &OutlineRequest,
    weights: &OutlineWeights,
) -> Result<OutlineResponse> {
    if request.query.trim().is_empty() {
        return Err(EngineError::invalid_with_hint(
            "empty query",
            "give words to look for in titles, descriptions and notes",
        ));
    }
    let limit = request.limit.unwrap_or(weights.limit);
    if limit == 0 {
        return Err(EngineError::invalid_with_hint(
            "--limit must be at least 1",
            format!("omit --limit for the default of {}", weights.limit),
        ));
    }
    let list = ListFilter::new(store, request.list.as_deref())?;
    let query = TermQuery::new(&request.query);
    let mut scored: Vec<(f64, usize, Vec<TaskField>)> = Vec::new();
    for item in store.iter() {
        let index = item.index();
        if item.archived() && !request.include_archive {
            continue;
        }
        if list.as_ref().is_some_and(|l| !l.keeps(item)) {
            continue;
        }
        if let Some((score, fields)) = query.score(item, &weights.fields, &weights.matching) {
            if score >= weights.threshold {
                scored.push((score, index, fields));
            }
        }
    }
    scored.sort_by(|a, b| {
        b.0.partial_cmp(&a.0)
            .unwrap_or(Ordering::Equal)
            .then_with(|| natural_cmp(store.item(a.1).id(), store.item(b.1).id()))
    });
    let total = scored.len();
    scored.truncate(limit);
    let hierarchy = store.hierarchy();
    let matches: Vec<OutlineMatch> = scored
        .into_iter()
        .map(|(score, index, fields)| {
            let item = store.item(index);
            let crumb = store.breadcrumb(index);
            let indicators = Indicators::of(item, hierarchy.child_count(index));
            OutlineMatch {
                id: item.id().to_string(),
                title: item.title().to_string(),
                list: item.list().map(String::from),
                breadcrumb: crumb.render(),
                breadcrumb_cut: crumb.cut,
                indicators: indicators.render(),
                has_notes: indicators.has_notes,
                has_comments: indicators.has_comments,
                children: indicators.children,
                score: round3(score),
                matched_in: fields.iter().map(|f| f.as_str().to_string()).collect(),
            }
        })
        .collect();
    let mut echoed = request.clone();
    echoed.limit = Some(limit);
    Ok(OutlineResponse {
        query: echoed,
        summary: Summary::new(total, matches.len()),
        matches,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Item;

    fn store(items: serde_json::Value) -> Store {
        let items: Vec<Item> = serde_json::from_value(items).unwrap();
        Store::from_items("test", items).unwrap()
    }

    fn outline_store() -> Store {
        store(serde_json::json!([
            {"id": "P1", "title": "Website relaunch", "list": "Work"},
            {"id": "P2", "title": "Backend", "parent": "P1", "list": "Work"},
            {"id": "P3", "title": "Auth service", "parent": "P2", "list": "Work",
             "notes": ["token refresh spec"], "comments": ["who owns this?"]},
            {"id": "P4", "title": "Fix token refresh", "parent": "P3", "list": "Work"},
            {"id": "P5", "title": "Rotate signing keys", "parent": "P3", "list": "Work"},
            {"id": "H1", "title": "Token for the bus", "list": "Home"},
            {"id": "A1", "title": "Old token work", "list": "Work", "archived": true},
        ]))
    }

    #[test]
    fn matches_carry_breadcrumb_and_indicators() {
        let store = outline_store();
        let r = find_outline(
            &store,
            &OutlineRequest::new("token"),
            &OutlineWeights::default(),
        )
        .unwrap();
        let ids: Vec<&str> = r.matches.iter().map(|m| m.id.as_str()).collect();
        // P3 matches through its notes only, so it ranks below the title matches
        assert_eq!(ids, ["H1", "P4", "P3"]);
        let p3 = &r.matches[2];
        assert_eq!(p3.breadcrumb, "Website relaunch > Backend > Auth service");
        assert_eq!(p3.indicators, "[N] [C] [F: 2]");
        assert!(p3.has_notes && p3.has_comments);
        assert_eq!(p3.children, 2);
        assert_eq!(p3.matched_in, ["notes"]);
        let p4 = &r.matches[1];
        assert_eq!(p4.indicators, "");
        assert_eq!(p4.list.as_deref(), Some("Work"));
        assert_eq!(r.query.limit, Some(10));
    }

    #[test]
    fn list_filter_is_case_insensitive_and_checked() {
        let store = outline_store();
        let mut req = OutlineRequest::new("token");
        req.list = Some("work".into());
        let r = find_outline(&store, &req, &OutlineWeights::default()).unwrap();
        assert!(r.matches.iter().all(|m| m.list.as_deref() == Some("Work")));
        assert_eq!(r.matches.len(), 2);
        req.list = Some("Wrok".into());
        let err = find_outline(&store, &req, &OutlineWeights::default()).unwrap_err();
        assert_eq!(err.exit_code(), 2);
        assert!(err.hint().unwrap().contains("Home, Work"));
    }

    #[test]
    fn archive_and_limit() {
        let store = outline_store();
        let mut req = OutlineRequest::new("token");
        req.include_archive = true;
        req.limit = Some(1);
        let r = find_outline(&store, &req, &OutlineWeights::default()).unwrap();
        assert_eq!(r.summary.total_matches, 4);
        assert_eq!(r.matches.len(), 1);
        assert!(r.summary.truncated);
        req.limit = Some(0);
        assert!(find_outline(&store, &req, &OutlineWeights::default()).is_err());
        assert!(find_outline(
            &store,
            &OutlineRequest::new("  "),
            &OutlineWeights::default()
        )
        .is_err());
    }

    #[test]
    fn cut_breadcrumbs_are_marked() {
        let store = store(serde_json::json!([
            {"id": "a", "title": "loop a", "parent": "b"},
            {"id": "b", "title": "loop b", "parent": "a"},
            {"id": "c", "title": "orphan", "parent": "gone"},
            {"id": "d", "title": "selfish", "parent": "d"},
        ]));
        let w = OutlineWeights::default();
        let m = &find_outline(&store, &OutlineRequest::new("loop a"), &w)
            .unwrap()
            .matches[0];
        assert_eq!(m.breadcrumb, "(cycle) > loop b > loop a");
        assert_eq!(m.breadcrumb_cut, Some(BreadcrumbCut::Cycle));
        let m = &find_outline(&store, &OutlineRequest::new("orphan"), &w)
            .unwrap()
            .matches[0];
        assert_eq!(m.breadcrumb, "(missing parent gone) > orphan");
        let m = &find_outline(&store, &OutlineRequest::new("selfish"), &w)
            .unwrap()
            .matches[0];
        assert_eq!(m.breadcrumb, "(cycle) > selfish");
        assert_eq!(m.children, 0);
    }
}
