//! Parent links resolved once per store: parent index, children, and breadcrumbs and subtrees
//! that stop safely at cycles, self-parents, missing parents and very deep chains.
//!
//! Every walk here is iterative and bounded: user data decides how deep a chain is, so no
//! walk recurses on it, and none visits more than its stated limit.

use super::codec::{Reader, Writer};
use serde::{Deserialize, Serialize};

/// Longest breadcrumb built; deeper chains are cut and marked, so a 10,000-deep chain
/// neither overflows the stack nor floods the output.
pub const MAX_BREADCRUMB_DEPTH: usize = 64;

/// Parent links as flat arrays (no vector per item), so a store of 100k items is a handful
/// of allocations and is cached as is.
#[derive(Debug, Default, PartialEq)]
pub struct Hierarchy {
    /// Each item's parent position, [`NO_PARENT`] for a root.
    parent: Vec<u32>,
    /// Set where an item's own parent link is broken: missing, or pointing at itself.
    broken_link: Vec<Option<BreadcrumbCut>>,
    /// Item `i`'s children, in file order, are `children[children_ends[i - 1]..children_ends[i]]`.
    children: Vec<u32>,
    children_ends: Vec<u32>,
}

const NO_PARENT: u32 = u32::MAX;

/// Why a breadcrumb stopped before reaching a root, if it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BreadcrumbCut {
    /// The chain came back to an item already on it (a self-parent is the shortest cycle).
    Cycle,
    /// A `parent` names an id that is not in the store.
    MissingParent,
    /// The chain is longer than [`MAX_BREADCRUMB_DEPTH`].
    TooDeep,
}

impl BreadcrumbCut {
    pub fn as_str(self) -> &'static str {
        match self {
            BreadcrumbCut::Cycle => "cycle",
            BreadcrumbCut::MissingParent => "missing_parent",
            BreadcrumbCut::TooDeep => "too_deep",
        }
    }
}

/// The chain of items from the outermost ancestor reached down to the item itself, as
/// store positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lineage {
    /// Outermost ancestor first, the item itself last; never empty.
    pub chain: Vec<usize>,
    pub cut: Option<BreadcrumbCut>,
}

/// The chain of titles from the outermost ancestor reached down to the item itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Breadcrumb {
    pub titles: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut: Option<BreadcrumbCut>,
    /// The id the outermost item names as its parent when that id is not in the store.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing_parent: Option<String>,
}

impl Breadcrumb {
    /// `Grandparent > Parent > Item`, led by a marker when the chain was cut:
    /// `(cycle) > `, `(missing parent P9) > `, or `… > ` for a chain too deep to show.
    pub fn render(&self) -> String {
        let joined = self.titles.join(" > ");
        match self.cut {
            None => joined,
            Some(BreadcrumbCut::Cycle) => format!("(cycle) > {joined}"),
            Some(BreadcrumbCut::MissingParent) => match &self.missing_parent {
                Some(id) => format!("(missing parent {id}) > {joined}"),
                None => format!("(missing parent) > {joined}"),
            },
            Some(BreadcrumbCut::TooDeep) => format!("… > {joined}"),
        }
    }
}

/// One node of a depth-limited subtree walk, in pre-order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubtreeNode {
    /// Store position of the node.
    pub index: usize,
    /// 1 for a direct child of the root.
    pub depth: usize,
    /// Children that pass the walk's filter, whether or not they were visited.
    pub child_count: usize,
    /// The walk went on into this node's children.
    pub expanded: bool,
    /// The node is an ancestor of itself on this walk (a parent cycle); it is listed once
    /// more but never expanded again.
    pub cycle: bool,
}

/// A depth- and size-limited subtree, flattened in pre-order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Subtree {
    pub nodes: Vec<SubtreeNode>,
    /// Children of the root that pass the filter.
    pub root_child_count: usize,
    /// Set when the node limit stopped the walk before the depth limit did.
    pub truncated: bool,
}

impl Hierarchy {
    /// Resolves parent links: `parent_of(i)` is item `i`'s `parent` field, `position` finds
    /// an id. Items are at most `u32::MAX` (the store checks).
    pub(crate) fn build<'a>(
        n: usize,
        parent_of: impl Fn(usize) -> Option<&'a str>,
        position: impl Fn(&str) -> Option<usize>,
    ) -> Hierarchy {
        let mut parent = vec![NO_PARENT; n];
        let mut broken_link = vec![None; n];
        let mut counts = vec![0u32; n];
        for (i, slot) in parent.iter_mut().enumerate() {
            let Some(pid) = parent_of(i).filter(|p| !p.trim().is_empty()) else {
                continue;
            };
            match position(pid) {
                Some(p) if p != i => {
                    *slot = p as u32;
                    counts[p] += 1;
                }
                // a self-parent is a one-item cycle
                Some(_) => broken_link[i] = Some(BreadcrumbCut::Cycle),
                None => broken_link[i] = Some(BreadcrumbCut::MissingParent),
            }
        }
        let mut children_ends = Vec::with_capacity(n);
        let mut total = 0u32;
        for c in &counts {
            total += c;
            children_ends.push(total);
        }
        // fill each item's slots from its start, in file order
        let mut next: Vec<u32> = (0..n)
            .map(|i| if i == 0 { 0 } else { children_ends[i - 1] })
            .collect();
        let mut children = vec![0u32; total as usize];
        for (i, &p) in parent.iter().enumerate() {
            if p != NO_PARENT {
                children[next[p as usize] as usize] = i as u32;
                next[p as usize] += 1;
            }
        }
        Hierarchy {
            parent,
            broken_link,
            children,
            children_ends,
        }
    }

    pub(crate) fn encode(&self, w: &mut Writer) {
        w.u32s(&self.parent);
        let links: Vec<u8> = self
            .broken_link
            .iter()
            .map(|l| match l {
                None => 0,
                Some(BreadcrumbCut::Cycle) => 1,
                Some(BreadcrumbCut::MissingParent) => 2,
                Some(BreadcrumbCut::TooDeep) => 3,
            })
            .collect();
        w.bytes(&links);
        w.u32s(&self.children);
        w.u32s(&self.children_ends);
    }

    /// Reads links back for `n` items, checking every position is an item.
    pub(crate) fn decode<R: std::io::Read>(r: &mut Reader<R>, n: usize) -> Option<Hierarchy> {
        let parent = r.u32s()?;
        let broken_link = r
            .bytes()?
            .iter()
            .map(|b| match b {
                0 => Some(None),
                1 => Some(Some(BreadcrumbCut::Cycle)),
                2 => Some(Some(BreadcrumbCut::MissingParent)),
                3 => Some(Some(BreadcrumbCut::TooDeep)),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        let children = r.u32s()?;
        let children_ends = r.u32s()?;
        let mut last = 0;
        let ends_ok = children_ends.iter().all(|&e| {
            let ok = e >= last && e as usize <= children.len();
            last = e;
            ok
        });
        let ok = parent.len() == n
            && broken_link.len() == n
            && children_ends.len() == n
            && ends_ok
            && last as usize == children.len()
            && parent.iter().all(|&p| p == NO_PARENT || (p as usize) < n)
            && children.iter().all(|&c| (c as usize) < n);
        ok.then_some(Hierarchy {
            parent,
            broken_link,
            children,
            children_ends,
        })
    }

    pub fn parent(&self, index: usize) -> Option<usize> {
        let p = self.parent[index];
        (p != NO_PARENT).then_some(p as usize)
    }

    /// Children of `index` in file order, as store positions.
    pub fn children(&self, index: usize) -> &[u32] {
        let start = if index == 0 {
            0
        } else {
            self.children_ends[index - 1] as usize
        };
        &self.children[start..self.children_ends[index] as usize]
    }

    pub fn child_count(&self, index: usize) -> usize {
        self.children(index).len()
    }

    /// Walks parent links iteratively from `index`, stopping at a root, a cycle, a missing
    /// parent, or [`MAX_BREADCRUMB_DEPTH`] items.
    pub fn lineage(&self, index: usize) -> Lineage {
        let mut chain = vec![index];
        let mut cut = self.broken_link[index];
        let mut current = index;
        while let Some(p) = self.parent(current) {
            // the chain is at most MAX_BREADCRUMB_DEPTH long, so this scan stays cheap
            if chain.contains(&p) {
                cut = Some(BreadcrumbCut::Cycle);
                break;
            }
            if chain.len() >= MAX_BREADCRUMB_DEPTH {
                cut = Some(BreadcrumbCut::TooDeep);
                break;
            }
            chain.push(p);
            current = p;
            cut = self.broken_link[p];
        }
        chain.reverse();
        Lineage { chain, cut }
    }

    /// The breadcrumb of `index`, titles given by `title`.
    pub fn breadcrumb<'a>(&self, index: usize, title: impl Fn(usize) -> &'a str) -> Breadcrumb {
        let lineage = self.lineage(index);
        Breadcrumb {
            titles: lineage
                .chain
                .iter()
                .map(|&i| title(i).to_string())
                .collect(),
            cut: lineage.cut,
            missing_parent: None,
        }
    }

    /// The subtree under `root` to `max_depth` levels (1 = direct children only), visiting at
    /// most `max_nodes` nodes, keeping only children for which `keep` holds (a filtered-out
    /// child hides its whole branch). Iterative, and safe on parent cycles.
    pub fn subtree(
        &self,
        root: usize,
        max_depth: usize,
        max_nodes: usize,
        keep: impl Fn(usize) -> bool,
    ) -> Subtree {
        let kept_children = |i: usize| -> usize {
            self.children(i)
                .iter()
                .filter(|&&c| keep(c as usize))
                .count()
        };
        let mut out = Subtree {
            root_child_count: kept_children(root),
            ..Subtree::default()
        };
        if max_depth == 0 {
            return out;
        }
        // `path[d]` is the node at depth d on the way down to the current one (root at 0),
        // so a child already on it closes a cycle.
        let mut path: Vec<usize> = vec![root];
        // (node, depth), pushed in reverse so children come out in file order
        let mut stack: Vec<(usize, usize)> = Vec::new();
        let push_children = |stack: &mut Vec<(usize, usize)>, of: usize, depth: usize| {
            for &c in self.children(of).iter().rev() {
                if keep(c as usize) {
                    stack.push((c as usize, depth));
                }
            }
        };
        push_children(&mut stack, root, 1);
        while let Some((node, depth)) = stack.pop() {
            if out.nodes.len() >= max_nodes {
                out.truncated = true;
                break;
            }
            path.truncate(depth);
            let cycle = path.contains(&node);
            let child_count = kept_children(node);
            let expanded = !cycle && depth < max_depth && child_count > 0;
            out.nodes.push(SubtreeNode {
                index: node,
                depth,
                child_count,
                expanded,
                cycle,
            });
            if expanded {
                path.push(node);
                push_children(&mut stack, node, depth + 1);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::item::Item;
    use std::collections::HashMap;

    fn build(items: &[Item], by_id: &HashMap<String, usize>) -> Hierarchy {
        Hierarchy::build(
            items.len(),
            |i| items[i].parent.as_deref(),
            |id| by_id.get(id).copied(),
        )
    }

    fn items(links: &[(&str, Option<&str>)]) -> (Vec<Item>, HashMap<String, usize>) {
        let items: Vec<Item> = links
            .iter()
            .map(|(id, parent)| {
                serde_json::from_value(serde_json::json!({
                    "id": id, "title": format!("t{id}"), "parent": parent,
                }))
                .unwrap()
            })
            .collect();
        let by_id = items
            .iter()
            .enumerate()
            .map(|(i, it)| (it.id.clone(), i))
            .collect();
        (items, by_id)
    }

    fn crumb(h: &Hierarchy, items: &[Item], i: usize) -> String {
        h.breadcrumb(i, |j| items[j].title.as_str()).render()
    }

    #[test]
    fn plain_chain() {
        let (items, by_id) = items(&[("a", None), ("b", Some("a")), ("c", Some("b"))]);
        let h = build(&items, &by_id);
        assert_eq!(crumb(&h, &items, 2), "ta > tb > tc");
        assert_eq!(h.lineage(2).cut, None);
        assert_eq!(h.children(0), [1]);
    }

    #[test]
    fn blank_parent_is_a_root() {
        let (items, by_id) = items(&[("a", Some("  ")), ("b", Some(""))]);
        let h = build(&items, &by_id);
        assert_eq!(crumb(&h, &items, 0), "ta");
        assert_eq!(crumb(&h, &items, 1), "tb");
    }

    #[test]
    fn self_parent_is_a_cycle() {
        let (items, by_id) = items(&[("a", Some("a")), ("b", Some("a"))]);
        let h = build(&items, &by_id);
        assert_eq!(crumb(&h, &items, 0), "(cycle) > ta");
        assert_eq!(crumb(&h, &items, 1), "(cycle) > ta > tb");
        // a self-parent is not its own child
        assert!(h.children(0).iter().all(|&c| c != 0));
        let sub = h.subtree(0, 5, 100, |_| true);
        assert_eq!(sub.nodes.len(), 1);
    }

    #[test]
    fn two_item_cycle_and_a_branch_hanging_off_it() {
        let (items, by_id) = items(&[("a", Some("b")), ("b", Some("a")), ("x", Some("a"))]);
        let h = build(&items, &by_id);
        assert_eq!(crumb(&h, &items, 0), "(cycle) > tb > ta");
        assert_eq!(crumb(&h, &items, 2), "(cycle) > tb > ta > tx");
        let sub = h.subtree(0, 10, 100, |_| true);
        let got: Vec<(usize, usize, bool, bool)> = sub
            .nodes
            .iter()
            .map(|n| (n.index, n.depth, n.expanded, n.cycle))
            .collect();
        // a > b > a(cycle, not expanded again), then x
        assert_eq!(
            got,
            [
                (1, 1, true, false),
                (0, 2, false, true),
                (2, 1, false, false)
            ]
        );
    }

    #[test]
    fn missing_parent_is_marked() {
        let (items, by_id) = items(&[("a", Some("ghost")), ("b", Some("a"))]);
        let h = build(&items, &by_id);
        let lineage = h.lineage(1);
        assert_eq!(lineage.chain, [0, 1]);
        assert_eq!(lineage.cut, Some(BreadcrumbCut::MissingParent));
    }

    fn chain(n: usize) -> (Vec<Item>, HashMap<String, usize>) {
        let ids: Vec<String> = (0..n).map(|i| format!("n{i}")).collect();
        let links: Vec<(&str, Option<&str>)> = (0..n)
            .map(|i| (ids[i].as_str(), (i > 0).then(|| ids[i - 1].as_str())))
            .collect();
        items(&links)
    }

    #[test]
    fn ten_thousand_deep_chain_is_cut_and_marked() {
        let (items, by_id) = chain(10_000);
        let h = build(&items, &by_id);
        let lineage = h.lineage(9_999);
        assert_eq!(lineage.chain.len(), MAX_BREADCRUMB_DEPTH);
        assert_eq!(lineage.cut, Some(BreadcrumbCut::TooDeep));
        assert_eq!(*lineage.chain.last().unwrap(), 9_999);
        let text = crumb(&h, &items, 9_999);
        assert!(text.starts_with("… > tn9936 > "), "{text}");
        assert!(text.ends_with(" > tn9999"), "{text}");
        // exactly at the limit is not cut
        assert_eq!(h.lineage(MAX_BREADCRUMB_DEPTH - 1).cut, None);
        assert_eq!(
            h.lineage(MAX_BREADCRUMB_DEPTH).cut,
            Some(BreadcrumbCut::TooDeep)
        );
    }

    #[test]
    fn ten_thousand_deep_chain_as_one_cycle() {
        let (mut items, _) = chain(10_000);
        items[0].parent = Some("n9999".into());
        let by_id = items
            .iter()
            .enumerate()
            .map(|(i, it)| (it.id.clone(), i))
            .collect();
        let h = build(&items, &by_id);
        // longer than the breadcrumb limit: cut for depth before the cycle is seen
        assert_eq!(h.lineage(5_000).cut, Some(BreadcrumbCut::TooDeep));
        let sub = h.subtree(0, 20_000, 20_000, |_| true);
        assert_eq!(sub.nodes.len(), 10_000);
        let last = sub.nodes.last().unwrap();
        assert_eq!((last.index, last.cycle, last.expanded), (0, true, false));
    }

    #[test]
    fn subtree_limits_depth_and_nodes() {
        let (items, by_id) = chain(10_000);
        let h = build(&items, &by_id);
        let sub = h.subtree(0, 2, 100, |_| true);
        assert_eq!(sub.nodes.len(), 2);
        assert!(sub.nodes[0].expanded);
        // the deepest node shown still says its branch continues
        assert_eq!(
            (sub.nodes[1].expanded, sub.nodes[1].child_count),
            (false, 1)
        );
        assert!(!sub.truncated);
        let sub = h.subtree(0, usize::MAX, 50, |_| true);
        assert_eq!(sub.nodes.len(), 50);
        assert!(sub.truncated);
        assert!(h.subtree(0, 0, 50, |_| true).nodes.is_empty());
    }

    #[test]
    fn subtree_is_pre_order_in_file_order_and_filtered() {
        let (items, by_id) = items(&[
            ("r", None),
            ("a", Some("r")),
            ("b", Some("r")),
            ("a1", Some("a")),
            ("b1", Some("b")),
        ]);
        let h = build(&items, &by_id);
        let order: Vec<usize> = h
            .subtree(0, 5, 100, |_| true)
            .nodes
            .iter()
            .map(|n| n.index)
            .collect();
        assert_eq!(order, [1, 3, 2, 4]);
        let sub = h.subtree(0, 5, 100, |i| i != 1);
        assert_eq!(sub.root_child_count, 1);
        assert_eq!(
            sub.nodes.iter().map(|n| n.index).collect::<Vec<_>>(),
            [2, 4]
        );
    }
}
