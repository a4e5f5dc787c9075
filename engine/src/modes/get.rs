//! `get` (the zoom of map-and-zoom.md): one item in full, with its breadcrumb, notes and
//! comments, and on request its subtree to a depth, each child with its indicators so an
//! agent sees where a branch goes on.

use crate::error::{EngineError, Result};
use crate::item::Domain;
use crate::modes::outline::{Indicators, ListFilter};
use crate::profile::OutlineWeights;
use crate::rank::natural_cmp;
use crate::store::{BreadcrumbCut, Store, SubtreeNode};
use crate::text::fold::fold;
use crate::text::typo::EditDistance;
use serde::{Deserialize, Serialize};
use std::collections::BinaryHeap;

/// A `get` request. `depth` of `None` takes the profile's (2); it only matters with
/// `children`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GetRequest {
    pub id: String,
    pub children: bool,
    pub depth: Option<usize>,
    /// The item must be in this list (case-insensitive), and so must the children shown.
    pub list: Option<String>,
}

impl GetRequest {
    pub fn new(id: impl Into<String>) -> GetRequest {
        GetRequest {
            id: id.into(),
            ..GetRequest::default()
        }
    }
}

/// The whole item: every stored field, with `notes` and `comments` always present (empty
/// when there are none), its breadcrumb and indicators, and `children` when asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemDetail {
    pub id: String,
    pub title: String,
    pub description: Option<String>,
    pub status: Option<String>,
    pub priority: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    pub labels: Vec<String>,
    pub parent: Option<String>,
    pub list: Option<String>,
    pub domain: Domain,
    pub archived: bool,
    pub breadcrumb: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breadcrumb_cut: Option<BreadcrumbCut>,
    pub notes: Vec<String>,
    pub comments: Vec<String>,
    pub indicators: String,
    pub has_notes: bool,
    pub has_comments: bool,
    /// Direct children (within `--list` when given); `[F: n]`.
    pub child_count: usize,
    /// The subtree, with `--children` only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub children: Option<Vec<ChildNode>>,
}

/// One node of the subtree. `children` is present when the walk went into it; a node at the
/// depth limit shows only `child_count` and `[F: n]`, which say the branch goes on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChildNode {
    pub id: String,
    pub title: String,
    pub status: Option<String>,
    pub indicators: String,
    pub has_notes: bool,
    pub has_comments: bool,
    pub child_count: usize,
    /// This node is an ancestor of itself (a parent cycle): listed, not expanded again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cycle: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub children: Option<Vec<ChildNode>>,
}

/// An id close to one that was not found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IdSuggestion {
    pub id: String,
    pub title: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GetResponse {
    /// The request as answered, with the depth that applied.
    pub query: GetRequest,
    /// `null` when no item has the id (in the list asked for).
    pub item: Option<Box<ItemDetail>>,
    /// With `--children`: whether the node limit cut the subtree before the depth did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated: Option<bool>,
    /// When not found: the closest ids, best first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub suggestions: Vec<IdSuggestion>,
    /// When not found: what to try next, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

/// Runs `get` on `store`.
pub fn get_item(
    store: &Store,
    request: &GetRequest,
    weights: &OutlineWeights,
) -> Result<GetResponse> {
    let asked = request.id.trim();
    if asked.is_empty() {
        return Err(EngineError::invalid_with_hint(
            "empty id",
            "give the id of an item, as `find outline` or `find task` print it",
        ));
    }
    let depth = request.depth.unwrap_or(weights.depth);
    if depth > weights.max_depth {
        return Err(EngineError::invalid_with_hint(
            format!("--depth {depth} is deeper than {}", weights.max_depth),
            format!(
                "ask for at most {} levels; a node at the limit shows [F: n] where its branch goes on",
                weights.max_depth
            ),
        ));
    }
    let list = ListFilter::new(store, request.list.as_deref())?;
    let mut query = request.clone();
    query.id = asked.to_string();
    query.depth = Some(depth);

    let Some(index) = find_index(store, asked) else {
        let suggestions = closest_ids(store, asked, weights.suggestions, |i| {
            list.as_ref().is_none_or(|l| l.keeps(store.item(i)))
        });
        let hint = if suggestions.is_empty() {
            "the store has no items to suggest".to_string()
        } else {
            let ids: Vec<&str> = suggestions.iter().map(|s| s.id.as_str()).collect();
            format!("closest ids: {}", ids.join(", "))
        };
        return Ok(GetResponse {
            query,
            item: None,
            truncated: None,
            suggestions,
            hint: Some(format!("no item with id `{asked}`; {hint}")),
        });
    };
    let indexed = store.item(index);
    if let Some(l) = &list {
        if !l.keeps(indexed) {
            let actual = indexed.list().unwrap_or("(none)");
            return Ok(GetResponse {
                query,
                item: None,
                truncated: None,
                suggestions: Vec::new(),
                hint: Some(format!(
                    "item `{}` is in list `{actual}`, not `{}`; omit --list to get it",
                    indexed.id(),
                    request.list.as_deref().unwrap_or_default().trim()
                )),
            });
        }
    }

    let keep = |i: usize| list.as_ref().is_none_or(|l| l.keeps(store.item(i)));
    let hierarchy = store.hierarchy();
    let walk_depth = if request.children { depth } else { 0 };
    let subtree = hierarchy.subtree(index, walk_depth, weights.max_children, keep);
    let indicators = Indicators::of(indexed, subtree.root_child_count);
    let crumb = store.breadcrumb(index);
    let item = indexed.to_item();
    let detail = ItemDetail {
        id: item.id,
        title: item.title,
        description: item.description,
        status: item.status,
        priority: item.priority,
        phase: item.phase,
        labels: item.labels,
        parent: item.parent,
        list: item.list,
        domain: item.domain,
        archived: item.archived,
        breadcrumb: crumb.render(),
        breadcrumb_cut: crumb.cut,
        notes: item.notes,
        comments: item.comments,
        indicators: indicators.render(),
        has_notes: indicators.has_notes,
        has_comments: indicators.has_comments,
        child_count: subtree.root_child_count,
        children: request.children.then(|| nest(store, &subtree.nodes)),
    };
    Ok(GetResponse {
        query,
        item: Some(Box::new(detail)),
        truncated: request.children.then_some(subtree.truncated),
        suggestions: Vec::new(),
        hint: None,
    })
}

/// The exact id, or else the one id equal to it ignoring case.
fn find_index(store: &Store, id: &str) -> Option<usize> {
    if let Some(i) = store.position(id) {
        return Some(i);
    }
    let folded = fold(id);
    let mut found = store
        .iter()
        .filter(|it| it.id_folded() == folded)
        .map(|it| it.index());
    match (found.next(), found.next()) {
        (Some(i), None) => Some(i),
        _ => None,
    }
}

/// The `n` ids closest to `asked` by edit distance over folded ids, ties in natural id
/// order. An id sharing nothing with `asked` (distance as long as both) is no suggestion.
///
/// Only ids that could still make the top `n` are measured in full: the bound is the n-th
/// best distance so far (ties kept, so the natural order can break them).
fn closest_ids(
    store: &Store,
    asked: &str,
    n: usize,
    keep: impl Fn(usize) -> bool,
) -> Vec<IdSuggestion> {
    let asked = fold(asked);
    let asked_chars: Vec<char> = asked.chars().collect();
    let mut distance = EditDistance::default();
    let mut chars: Vec<char> = Vec::new();
    // the n smallest distances so far (a max-heap), and every id within the n-th of them
    let mut smallest: BinaryHeap<usize> = BinaryHeap::with_capacity(n + 1);
    let mut ranked: Vec<(usize, usize)> = Vec::new();
    for item in store.iter() {
        let i = item.index();
        if n == 0 || !keep(i) {
            continue;
        }
        let id = item.id_folded();
        let (len, d) = if asked.is_ascii() && id.is_ascii() {
            let len = asked.len().max(id.len());
            let bound = bound(&smallest, n, len);
            (len, distance.within(asked.as_bytes(), id.as_bytes(), bound))
        } else {
            chars.clear();
            chars.extend(id.chars());
            let len = asked_chars.len().max(chars.len());
            let bound = bound(&smallest, n, len);
            (len, distance.within(&asked_chars, &chars, bound))
        };
        let Some(d) = d.filter(|&d| d < len) else {
            continue;
        };
        ranked.push((d, i));
        smallest.push(d);
        if smallest.len() > n {
            smallest.pop();
        }
    }
    ranked.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| natural_cmp(store.item(a.1).id(), store.item(b.1).id()))
    });
    ranked
        .into_iter()
        .take(n)
        .map(|(_, i)| IdSuggestion {
            id: store.item(i).id().to_string(),
            title: store.item(i).title().to_string(),
        })
        .collect()
}

/// The largest distance still worth measuring: below the ids' common length, and no worse
/// than the n-th best so far.
fn bound(smallest: &BinaryHeap<usize>, n: usize, len: usize) -> usize {
    let limit = len.saturating_sub(1);
    match smallest.peek() {
        Some(&worst) if smallest.len() >= n => worst.min(limit),
        _ => limit,
    }
}

/// Turns the pre-order walk into nested nodes without recursion: `open` holds the chain of
/// nodes still taking children; a node at depth d closes every open node at depth >= d.
fn nest(store: &Store, nodes: &[SubtreeNode]) -> Vec<ChildNode> {
    let mut roots: Vec<ChildNode> = Vec::new();
    let mut open: Vec<ChildNode> = Vec::new();
    let close = |open: &mut Vec<ChildNode>, roots: &mut Vec<ChildNode>| {
        if let Some(done) = open.pop() {
            match open.last_mut() {
                Some(parent) => parent.children.get_or_insert_with(Vec::new).push(done),
                None => roots.push(done),
            }
        }
    };
    for n in nodes {
        while open.len() >= n.depth {
            close(&mut open, &mut roots);
        }
        let indexed = store.item(n.index);
        let indicators = Indicators::of(indexed, n.child_count);
        open.push(ChildNode {
            id: indexed.id().to_string(),
            title: indexed.title().to_string(),
            status: indexed.status().map(String::from),
            indicators: indicators.render(),
            has_notes: indicators.has_notes,
            has_comments: indicators.has_comments,
            child_count: n.child_count,
            cycle: n.cycle,
            // an expanded node always gets its list, even if every child is cut by the limit
            children: n.expanded.then(Vec::new),
        });
    }
    while !open.is_empty() {
        close(&mut open, &mut roots);
    }
    roots
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Item;

    fn store(items: serde_json::Value) -> Store {
        let items: Vec<Item> = serde_json::from_value(items).unwrap();
        Store::from_items("test", items).unwrap()
    }

    fn tree() -> Store {
        store(serde_json::json!([
            {"id": "R", "title": "Root", "list": "Work", "notes": ["n"], "comments": ["c"]},
            {"id": "A", "title": "A", "parent": "R", "list": "Work", "notes": ["why A"]},
            {"id": "A1", "title": "A1", "parent": "A", "list": "Work"},
            {"id": "A1x", "title": "A1x", "parent": "A1", "list": "Work"},
            {"id": "B", "title": "B", "parent": "R", "list": "Home"},
            {"id": "T37", "title": "Thirty-seven", "list": "Work"},
            {"id": "T376", "title": "Three seventy-six", "list": "Work"},
        ]))
    }

    fn get(store: &Store, req: GetRequest) -> GetResponse {
        get_item(store, &req, &OutlineWeights::default()).unwrap()
    }

    #[test]
    fn whole_item_without_children() {
        let r = get(&tree(), GetRequest::new("A"));
        let item = r.item.unwrap();
        assert_eq!(item.breadcrumb, "Root > A");
        assert_eq!(item.notes, ["why A"]);
        assert!(item.comments.is_empty());
        assert_eq!(item.indicators, "[N] [F: 1]");
        assert!(item.children.is_none());
        assert_eq!(r.truncated, None);
        // notes and comments are always present in JSON
        let json = serde_json::to_value(GetResponse {
            item: Some(get(&tree(), GetRequest::new("A1")).item.unwrap()),
            ..r
        })
        .unwrap();
        assert_eq!(json["item"]["comments"], serde_json::json!([]));
        assert_eq!(json["item"]["notes"], serde_json::json!([]));
    }

    #[test]
    fn children_to_default_depth_two() {
        let mut req = GetRequest::new("R");
        req.children = true;
        let r = get(&tree(), req);
        let item = r.item.unwrap();
        assert_eq!(r.query.depth, Some(2));
        let kids = item.children.unwrap();
        let ids: Vec<&str> = kids.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["A", "B"]);
        let a1 = &kids[0].children.as_ref().unwrap()[0];
        assert_eq!(a1.id, "A1");
        // depth 2 stops here, and says the branch goes on
        assert!(a1.children.is_none());
        assert_eq!((a1.child_count, a1.indicators.as_str()), (1, "[F: 1]"));
        assert_eq!(r.truncated, Some(false));
    }

    #[test]
    fn list_narrows_item_and_children() {
        let mut req = GetRequest::new("R");
        req.children = true;
        req.list = Some("work".into());
        let item = get(&tree(), req.clone()).item.unwrap();
        assert_eq!(item.child_count, 1);
        assert_eq!(item.children.unwrap().len(), 1);
        req.id = "B".into();
        let r = get(&tree(), req);
        assert!(r.item.is_none());
        assert!(r.hint.unwrap().contains("is in list `Home`"), "hint");
    }

    #[test]
    fn unknown_id_suggests_closest() {
        let r = get(&tree(), GetRequest::new("T38"));
        assert!(r.item.is_none());
        let ids: Vec<&str> = r.suggestions.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids[..2], ["T37", "T376"]);
        assert!(r.hint.unwrap().contains("closest ids: T37, T376"));
        let r = get(&tree(), GetRequest::new("zzzzzzzz"));
        assert!(r.suggestions.is_empty());
    }

    #[test]
    fn bounded_suggestions_equal_a_full_ranking() {
        let ids: Vec<String> = (0..400)
            .map(|i| match i % 4 {
                0 => format!("T{i}"),
                1 => format!("ENG-{i}"),
                2 => format!("é{i}x"),
                _ => format!("{}", i * 7),
            })
            .collect();
        let items: Vec<serde_json::Value> = ids
            .iter()
            .map(|id| serde_json::json!({"id": id, "title": "t"}))
            .collect();
        let s = store(serde_json::Value::Array(items));
        for asked in ["T38", "ENG-1", "e12x", "É12X", "777", "zz", "T1000000"] {
            let got: Vec<String> = closest_ids(&s, asked, 5, |_| true)
                .into_iter()
                .map(|x| x.id)
                .collect();
            let a: Vec<char> = fold(asked).chars().collect();
            let mut want: Vec<(usize, &String)> = ids
                .iter()
                .filter_map(|id| {
                    let b: Vec<char> = fold(id).chars().collect();
                    let d = crate::text::typo::edit_distance(&a, &b);
                    (d < a.len().max(b.len())).then_some((d, id))
                })
                .collect();
            want.sort_by(|x, y| x.0.cmp(&y.0).then_with(|| natural_cmp(x.1, y.1)));
            let want: Vec<String> = want.into_iter().take(5).map(|x| x.1.clone()).collect();
            assert_eq!(got, want, "{asked}");
        }
    }

    #[test]
    fn id_is_matched_ignoring_case_when_unique() {
        let r = get(&tree(), GetRequest::new("t37"));
        assert_eq!(r.item.unwrap().id, "T37");
    }

    #[test]
    fn depth_is_bounded_and_empty_id_rejected() {
        let mut req = GetRequest::new("R");
        req.depth = Some(1000);
        let err = get_item(&tree(), &req, &OutlineWeights::default()).unwrap_err();
        assert_eq!(err.exit_code(), 2);
        assert!(get_item(&tree(), &GetRequest::new(" "), &OutlineWeights::default()).is_err());
    }

    #[test]
    fn cycle_through_the_item_is_shown_once() {
        let s = store(serde_json::json!([
            {"id": "a", "title": "a", "parent": "b"},
            {"id": "b", "title": "b", "parent": "a"},
        ]));
        let mut req = GetRequest::new("a");
        req.children = true;
        req.depth = Some(32);
        let item = get(&s, req).item.unwrap();
        assert_eq!(item.breadcrumb, "(cycle) > b > a");
        let b = &item.children.unwrap()[0];
        let again = &b.children.as_ref().unwrap()[0];
        assert_eq!((again.id.as_str(), again.cycle), ("a", true));
        assert!(again.children.is_none());
    }

    #[test]
    fn deep_chain_get_is_bounded() {
        let items: Vec<serde_json::Value> = (0..10_000)
            .map(|i| {
                serde_json::json!({
                    "id": format!("n{i}"), "title": format!("node {i}"),
                    "parent": if i == 0 { None } else { Some(format!("n{}", i - 1)) },
                })
            })
            .collect();
        let s = store(serde_json::Value::Array(items));
        let mut req = GetRequest::new("n9999");
        req.children = true;
        let item = get(&s, req).item.unwrap();
        assert!(item.breadcrumb.starts_with("… > "));
        assert_eq!(item.breadcrumb_cut, Some(BreadcrumbCut::TooDeep));
        let mut req = GetRequest::new("n0");
        req.children = true;
        req.depth = Some(32);
        let item = get(&s, req).item.unwrap();
        let mut depth = 0;
        let mut node = item.children.as_ref().map(|c| &c[0]);
        while let Some(n) = node {
            depth += 1;
            node = n.children.as_ref().map(|c| &c[0]);
        }
        assert_eq!(depth, 32);
    }

    #[test]
    fn node_limit_truncates() {
        let mut items = vec![serde_json::json!({"id": "r", "title": "root"})];
        items.extend(
            (0..2000)
                .map(|i| serde_json::json!({"id": format!("c{i}"), "title": "c", "parent": "r"})),
        );
        let s = store(serde_json::Value::Array(items));
        let mut req = GetRequest::new("r");
        req.children = true;
        let r = get(&s, req);
        assert_eq!(r.truncated, Some(true));
        let item = r.item.unwrap();
        assert_eq!(item.child_count, 2000);
        assert_eq!(item.children.unwrap().len(), 1000);
    }
}
