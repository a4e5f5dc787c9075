//! Parent links resolved once per store: parent index, children, and breadcrumbs that stop
//! safely at cycles, self-parents, missing parents and very deep chains.

use crate::item::Item;
use serde::Serialize;
use std::collections::HashMap;

/// Longest breadcrumb built; deeper chains are cut and marked, so a 10,000-deep chain
/// neither overflows the stack nor floods the output.
pub const MAX_BREADCRUMB_DEPTH: usize = 64;

#[derive(Debug, Default)]
pub struct Hierarchy {
    parent: Vec<Option<usize>>,
    /// Set where an item's own parent link is broken: missing, or pointing at itself.
    broken_link: Vec<Option<BreadcrumbCut>>,
    children: Vec<Vec<usize>>,
}

/// Why a breadcrumb stopped before reaching a root, if it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BreadcrumbCut {
    /// The chain came back to an item already on it.
    Cycle,
    /// A `parent` names an id that is not in the store.
    MissingParent,
    /// The chain is longer than [`MAX_BREADCRUMB_DEPTH`].
    TooDeep,
}

/// The chain of titles from the outermost ancestor reached down to the item itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Breadcrumb {
    pub titles: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut: Option<BreadcrumbCut>,
}

impl Breadcrumb {
    /// `Grandparent > Parent > Item`, led by `… > ` when the chain was cut.
    pub fn render(&self) -> String {
        let joined = self.titles.join(" > ");
        match self.cut {
            None => joined,
            Some(BreadcrumbCut::Cycle) => format!("(cycle) > {joined}"),
            Some(BreadcrumbCut::MissingParent) => format!("(missing parent) > {joined}"),
            Some(BreadcrumbCut::TooDeep) => format!("… > {joined}"),
        }
    }
}

impl Hierarchy {
    pub(crate) fn build(items: &[Item], by_id: &HashMap<String, usize>) -> Hierarchy {
        let mut parent = vec![None; items.len()];
        let mut broken_link = vec![None; items.len()];
        let mut children = vec![Vec::new(); items.len()];
        for (i, item) in items.iter().enumerate() {
            let Some(pid) = item.parent.as_deref().filter(|p| !p.is_empty()) else {
                continue;
            };
            match by_id.get(pid) {
                Some(&p) if p != i => {
                    parent[i] = Some(p);
                    children[p].push(i);
                }
                // a self-parent is a one-item cycle
                Some(_) => broken_link[i] = Some(BreadcrumbCut::Cycle),
                None => broken_link[i] = Some(BreadcrumbCut::MissingParent),
            }
        }
        Hierarchy {
            parent,
            broken_link,
            children,
        }
    }

    pub fn parent(&self, index: usize) -> Option<usize> {
        self.parent[index]
    }

    /// Children of `index` in file order.
    pub fn children(&self, index: usize) -> &[usize] {
        &self.children[index]
    }

    pub fn child_count(&self, index: usize) -> usize {
        self.children[index].len()
    }

    /// Walks parent links iteratively from `index`, stopping at a root, a cycle, a missing
    /// parent, or [`MAX_BREADCRUMB_DEPTH`].
    pub fn breadcrumb<'a>(&self, index: usize, title: impl Fn(usize) -> &'a str) -> Breadcrumb {
        let mut chain = vec![index];
        let mut cut = self.broken_link[index];
        let mut current = index;
        while let Some(p) = self.parent[current] {
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
        Breadcrumb {
            titles: chain.into_iter().map(|i| title(i).to_string()).collect(),
            cut,
        }
    }
}
