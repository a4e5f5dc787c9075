//! A term that qualifies a member: `JsonReader.peek`, `WalkBuilder::new`, `URLMap#remap`,
//! `node->next`. No symbol is named so (a declaration writes the member's name alone), so
//! the whole term would match nothing; an agent writes it to mean the member declared in
//! its owner's body. The term is read as its two names too: a file that defines (or
//! declares) the member and defines the owner gets `symbol_qualified` added, above the
//! other files that define a member of that name; a file that defines only one of them
//! keeps the score its name alone gives, so that a member the tree does not hold yet
//! (`JsonReader.readJsonValue` in a task that adds it) still finds its owner. A file's
//! symbols say what it defines, not which body holds each one: both in one file is the
//! evidence.

use super::cascade::{
    cascade, is_module_score, Candidate, CodeStep, Part, Qualified, Query, SymbolMatch, Why,
};
use crate::profile::CodeWeights;
use crate::retrieval::code_tokens::{is_identifier, last_identifier, shaped_as_name};
use crate::tree::symbols::{SymbolClass, SymbolKind};
use crate::tree::Tree;
use std::collections::{HashMap, HashSet};

/// Separators that qualify a member, as the languages and their docs write them.
const SEPARATORS: [&str; 4] = ["::", "->", "#", "."];

/// The owner and member `term` names, when it qualifies a member: identifiers joined by
/// `::` or `->`; by `#` after a capitalised owner (`URLMap#remap`, as Ruby and JSDoc write
/// a method; not a page's anchor, `guide.md#usage`); by `.` when the owner is capitalised
/// (a type: `JsonReader.peek`) or the member is shaped as a name (`logger.ReplaceHooks`),
/// not a file name (`walk.rs`). Of a longer chain (`Rack::Utils::escape`) the owner is the
/// last but one. `None` for a term of several words, and without the symbol step, which
/// alone tells what a file defines.
pub(super) fn split<'t>(term: &'t str, w: &CodeWeights) -> Option<(&'t str, &'t str)> {
    if !w.symbol_scan {
        return None;
    }
    let term = term.trim();
    let (at, sep) = SEPARATORS
        .iter()
        .filter_map(|sep| term.rfind(sep).map(|at| (at, *sep)))
        .max_by_key(|(at, _)| *at)?;
    let (head, member) = (&term[..at], &term[at + sep.len()..]);
    // every link of the chain a name
    let mut links = vec![head];
    for sep in SEPARATORS {
        links = links.iter().flat_map(|l| l.split(sep)).collect();
    }
    if !links.iter().all(|l| is_identifier(l)) || !is_identifier(member) {
        return None;
    }
    let owner = links[links.len() - 1];
    let capitalised = owner.starts_with(|c: char| c.is_ascii_uppercase());
    let qualifies = match sep {
        "#" => capitalised,
        "." => capitalised || shaped_as_name(member, None),
        _ => true,
    };
    qualifies.then_some((owner, member))
}

/// Reads a qualified `term` as its member and owner too (see the module's documentation):
/// `candidates`, the whole term's, become the merged ones, and the member's and owner's
/// queries follow the whole term's in `queries` (indexed by [`Part`]). A term that is no
/// qualified name, or that names a file by its stem or path (`JsonReader.java`), is left
/// as it is.
pub(super) fn read(
    tree: &Tree,
    term: &str,
    impl_query: bool,
    weights: &CodeWeights,
    candidates: &mut Vec<Candidate>,
    queries: &mut Vec<Query>,
) {
    let Some((owner, member)) = split(term, weights) else {
        return;
    };
    if candidates
        .iter()
        .any(|c| c.why.step() == CodeStep::ExactStem)
    {
        return;
    }
    let (owner, member) = (Query::new(owner, weights), Query::new(member, weights));
    let members = cascade(tree, &member, impl_query, weights, Part::Member);
    let owners = cascade(tree, &owner, impl_query, weights, Part::Owner);
    let owns = |c: &Candidate| match c.why {
        Why::Symbol {
            index,
            how: SymbolMatch::Exact,
        } => {
            let (table, slot) = tree.table_of(c.file as usize);
            let sym = table.file_range(slot).start + index;
            owner_symbol(table.kind(sym), table.name(sym), &owner.term.raw)
        }
        // a member defined out of its owner's body (`void CommandRouter::route()`)
        Why::Symbol { how, .. } => how == SymbolMatch::Member,
        _ => owner_file(c, weights),
    };
    *candidates = merge(std::mem::take(candidates), members, owners, owns, weights);
    queries.extend([member, owner]);
}

/// The candidates of the whole term, of the member's own name and of the owner's
/// definitions as one per file: the best of each file's, plus `symbol_qualified` to a
/// definition or declaration of the member in a file that defines the owner (`owns`:
/// [`owner_symbol`] or the module the file is). In the tree's order.
fn merge(
    whole: Vec<Candidate>,
    members: Vec<Candidate>,
    mut owners: Vec<Candidate>,
    owns: impl Fn(&Candidate) -> bool,
    w: &CodeWeights,
) -> Vec<Candidate> {
    let mut owning: HashSet<u32> = HashSet::new();
    for c in owners.iter_mut().filter(|c| owns(c)) {
        owning.insert(c.file);
        c.qualified = Qualified::Owner;
    }
    let mut best: HashMap<u32, Candidate> = HashMap::new();
    // a file whose path or symbols only hold one of the two names is no evidence for the
    // qualified name (`Gemfile` for `Rack::File#serving`); members first: of equal scores
    // the member's reason is kept
    let members = members.into_iter().filter(names_member);
    let owners = owners
        .into_iter()
        .filter(|c| c.qualified == Qualified::Owner);
    for mut c in members.chain(whole).chain(owners) {
        if c.part == Part::Member && owning.contains(&c.file) {
            c.score += w.symbol_qualified;
            c.qualified = Qualified::MemberAndOwner;
        }
        match best.get(&c.file) {
            Some(kept) if kept.score >= c.score => {}
            _ => {
                best.insert(c.file, c);
            }
        }
    }
    let mut out: Vec<Candidate> = best.into_values().collect();
    out.sort_by_key(|c| c.file);
    out
}

/// Whether the symbol the owner's name matched exactly (`kind`, `name` as written) is an
/// owner `owner` qualifies: a type, module or namespace (`Logger` for `logger`), or any
/// symbol written as the owner is (a JavaScript constructor `function Foo`, a `const
/// axios`); not a function whose name only has the owner's words (`walk_builder` is no
/// owner of `WalkBuilder::new`).
pub(super) fn owner_symbol(kind: SymbolKind, name: &str, owner: &str) -> bool {
    kind.class() == SymbolClass::Type
        || matches!(kind, SymbolKind::Module | SymbolKind::Namespace)
        || last_identifier(name) == owner
}

/// A candidate of the owner alone that defines it, or the module it is.
fn owner_file(c: &Candidate, w: &CodeWeights) -> bool {
    matches!(c.why, Why::DirectoryModule)
        || (matches!(c.why, Why::ExactStem | Why::ExactStemCamel) && is_module_score(c, w))
}

/// The member's own name: a definition or declaration of it, a member definition, an
/// inflection, or the file named for it (`link_header.rb` for `Sinatra::LinkHeader`).
fn names_member(c: &Candidate) -> bool {
    matches!(
        c.why,
        Why::Symbol {
            how: SymbolMatch::Exact | SymbolMatch::Member | SymbolMatch::Inflected,
            ..
        } | Why::ExactStem
            | Why::ExactStemCamel
            | Why::DirectoryModule
    )
}

/// What a candidate of a qualified term adds to its reason: that the file defines the
/// owner too, or that it is the owner alone.
pub(super) fn reason(c: &Candidate, queries: &[Query], w: &CodeWeights) -> String {
    let name = |part: Part| {
        queries
            .get(part as usize)
            .map_or("", |q| q.term.raw.as_str())
    };
    match c.qualified {
        Qualified::MemberAndOwner => format!(
            "; +{} the file defines the owner `{}` too",
            w.symbol_qualified,
            name(Part::Owner)
        ),
        Qualified::Owner => format!("; the owner of `{}`", name(Part::Member)),
        Qualified::No => String::new(),
    }
}
