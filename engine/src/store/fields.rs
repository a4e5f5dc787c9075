//! The items' fields as given, one packed column per field.

use super::codec::{Reader, Writer};
use super::texts::{Lists, OptTexts, Texts};
use crate::item::{Domain, Item};

/// Every field of every item, column by column, in file order.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ItemFields {
    pub(crate) ids: Texts,
    pub(crate) titles: Texts,
    pub(crate) descriptions: OptTexts,
    pub(crate) statuses: OptTexts,
    pub(crate) priorities: OptTexts,
    pub(crate) phases: OptTexts,
    pub(crate) parents: OptTexts,
    pub(crate) lists: OptTexts,
    pub(crate) labels: Lists,
    pub(crate) notes: Lists,
    pub(crate) comments: Lists,
    pub(crate) domains: Vec<Domain>,
    pub(crate) archived: Vec<bool>,
}

impl ItemFields {
    /// Packs the items; `None` when one field's text passes 4 GiB.
    pub(crate) fn pack(items: &[Item]) -> Option<ItemFields> {
        let mut f = ItemFields {
            ids: Texts::with_capacity(items.len()),
            titles: Texts::with_capacity(items.len()),
            domains: Vec::with_capacity(items.len()),
            archived: Vec::with_capacity(items.len()),
            ..ItemFields::default()
        };
        for item in items {
            let fits = f.ids.push(&item.id)
                & f.titles.push(&item.title)
                & f.descriptions.push(item.description.as_deref())
                & f.statuses.push(item.status.as_deref())
                & f.priorities.push(item.priority.as_deref())
                & f.phases.push(item.phase.as_deref())
                & f.parents.push(item.parent.as_deref())
                & f.lists.push(item.list.as_deref())
                & f.labels.push(&item.labels)
                & f.notes.push(&item.notes)
                & f.comments.push(&item.comments);
            if !fits {
                return None;
            }
            f.domains.push(item.domain);
            f.archived.push(item.archived);
        }
        Some(f)
    }

    pub(crate) fn len(&self) -> usize {
        self.ids.len()
    }

    /// The item at `i` as an owned [`Item`].
    pub(crate) fn item(&self, i: usize) -> Item {
        let own = |s: Option<&str>| s.map(str::to_string);
        Item {
            id: self.ids.get(i).to_string(),
            title: self.titles.get(i).to_string(),
            description: own(self.descriptions.get(i)),
            status: own(self.statuses.get(i)),
            priority: own(self.priorities.get(i)),
            phase: own(self.phases.get(i)),
            labels: self.labels.to_vec(i),
            notes: self.notes.to_vec(i),
            comments: self.comments.to_vec(i),
            parent: own(self.parents.get(i)),
            list: own(self.lists.get(i)),
            domain: self.domains[i],
            archived: self.archived[i],
        }
    }

    pub(crate) fn encode(&self, w: &mut Writer) {
        self.ids.encode(w);
        self.titles.encode(w);
        for column in self.optional() {
            column.encode(w);
        }
        self.labels.encode(w);
        self.notes.encode(w);
        self.comments.encode(w);
        w.bytes(
            &self
                .domains
                .iter()
                .map(|&d| domain_code(d))
                .collect::<Vec<u8>>(),
        );
        w.bools(&self.archived);
    }

    fn optional(&self) -> [&OptTexts; 6] {
        [
            &self.descriptions,
            &self.statuses,
            &self.priorities,
            &self.phases,
            &self.parents,
            &self.lists,
        ]
    }

    /// Reads the columns back; `None` unless all hold the same number of items.
    pub(crate) fn decode<R: std::io::Read>(r: &mut Reader<R>) -> Option<ItemFields> {
        let f = ItemFields {
            ids: Texts::decode(r)?,
            titles: Texts::decode(r)?,
            descriptions: OptTexts::decode(r)?,
            statuses: OptTexts::decode(r)?,
            priorities: OptTexts::decode(r)?,
            phases: OptTexts::decode(r)?,
            parents: OptTexts::decode(r)?,
            lists: OptTexts::decode(r)?,
            labels: Lists::decode(r)?,
            notes: Lists::decode(r)?,
            comments: Lists::decode(r)?,
            domains: r
                .bytes()?
                .iter()
                .map(|&b| Domain::ALL.get(b as usize).copied())
                .collect::<Option<Vec<Domain>>>()?,
            archived: r.bools()?,
        };
        let n = f.ids.len();
        let same = f.titles.len() == n
            && f.optional().iter().all(|c| c.len() == n)
            && [&f.labels, &f.notes, &f.comments]
                .iter()
                .all(|c| c.len() == n)
            && f.domains.len() == n
            && f.archived.len() == n;
        same.then_some(f)
    }
}

fn domain_code(d: Domain) -> u8 {
    Domain::ALL
        .iter()
        .position(|&x| x == d)
        .expect("every domain is in Domain::ALL") as u8
}
