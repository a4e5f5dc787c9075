//! `find task`: fuzzy search over titles, descriptions, labels and notes (task-find.md).

use crate::error::{EngineError, Result};
use crate::profile::TaskWeights;
use crate::store::{FoldedText, IndexedItem, Store};
use crate::text::char_bag::{char_bag, missing};
use crate::text::fold::{fold, fold_collapsed};
use crate::text::typo::{may_be_within_one_edit, within_one_edit};
use crate::text::words::{is_boundary_after, is_boundary_before};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// A field `find task` can search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TaskField {
    Title,
    Description,
    Labels,
    Notes,
}

impl TaskField {
    pub const ALL: [TaskField; 4] = [
        TaskField::Title,
        TaskField::Description,
        TaskField::Labels,
        TaskField::Notes,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            TaskField::Title => "title",
            TaskField::Description => "description",
            TaskField::Labels => "labels",
            TaskField::Notes => "notes",
        }
    }

    /// Parses `--field`: a comma-separated list of field names, or `all`.
    pub fn parse_list(spec: &str) -> Result<Vec<TaskField>> {
        let mut fields = Vec::new();
        for name in spec.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match name.to_ascii_lowercase().as_str() {
                "all" => fields.extend(TaskField::ALL),
                "title" => fields.push(TaskField::Title),
                "description" | "desc" => fields.push(TaskField::Description),
                "labels" | "label" => fields.push(TaskField::Labels),
                "notes" | "note" => fields.push(TaskField::Notes),
                _ => {
                    return Err(EngineError::invalid_with_hint(
                        format!("unknown field `{name}` in --field"),
                        "fields are: title, description, labels, notes, all",
                    ))
                }
            }
        }
        if fields.is_empty() {
            return Err(EngineError::invalid_with_hint(
                "--field is empty",
                "fields are: title, description, labels, notes, all",
            ));
        }
        fields.sort();
        fields.dedup();
        Ok(fields)
    }

    fn text(self, item: &IndexedItem) -> &FoldedText {
        match self {
            TaskField::Title => &item.title,
            TaskField::Description => &item.description,
            TaskField::Labels => &item.labels,
            TaskField::Notes => &item.notes,
        }
    }

    fn weight(self, w: &TaskWeights) -> f64 {
        match self {
            TaskField::Title => w.title,
            TaskField::Description => w.description,
            TaskField::Labels => w.labels,
            TaskField::Notes => w.notes,
        }
    }
}

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
    pub threshold: f64,
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
            threshold: 0.3,
            exact: false,
            include_archive: false,
            verbose: false,
        }
    }

    fn validate(&self) -> Result<()> {
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
        if !(0.0..=1.0).contains(&self.threshold) {
            return Err(EngineError::invalid_with_hint(
                format!("--threshold {} is outside 0..1", self.threshold),
                "scores run from 0 to 1; the default threshold is 0.3",
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

/// How many items matched and how many are returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    pub total_matches: usize,
    pub returned: usize,
    pub truncated: bool,
}

impl Summary {
    pub fn new(total_matches: usize, returned: usize) -> Summary {
        Summary {
            total_matches,
            returned,
            truncated: returned < total_matches,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskResponse {
    pub query: TaskRequest,
    pub summary: Summary,
    pub matches: Vec<TaskMatch>,
}

/// A folded query term, kept both as a string (for substring search) and as chars (for
/// typo comparison).
struct Term {
    finder: memchr::memmem::Finder<'static>,
    text: String,
    chars: Vec<char>,
    ascii: bool,
    bag: u64,
}

/// A free-text query prepared once for term matching: its folded terms, its collapsed form
/// (the exact-title comparison) and a finder for that phrase. `find task` and `find outline`
/// rank with it, so both modes agree on what a match is.
pub(crate) struct TermQuery {
    terms: Vec<Term>,
    exact_title: String,
    phrase: memchr::memmem::Finder<'static>,
}

impl TermQuery {
    pub(crate) fn new(query: &str) -> TermQuery {
        let terms = fold(query)
            .split_whitespace()
            .map(|t| Term {
                finder: memchr::memmem::Finder::new(t.as_bytes()).into_owned(),
                text: t.to_string(),
                chars: t.chars().collect(),
                ascii: t.is_ascii(),
                bag: char_bag(t),
            })
            .collect();
        let exact_title = fold_collapsed(query);
        let phrase = memchr::memmem::Finder::new(exact_title.as_bytes()).into_owned();
        TermQuery {
            terms,
            exact_title,
            phrase,
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// The query folded with whitespace collapsed: equal to an item's `title_collapsed`
    /// when the query is its whole title.
    pub(crate) fn exact_title(&self) -> &str {
        &self.exact_title
    }

    /// Scores the item over `fields`; `None` unless every term matches one of them (AND).
    /// Also gives the fields that matched.
    pub(crate) fn score(
        &self,
        item: &IndexedItem,
        fields: &[TaskField],
        weights: &TaskWeights,
    ) -> Option<(f64, Vec<TaskField>)> {
        score_terms(
            item,
            &self.terms,
            &self.exact_title,
            &self.phrase,
            fields,
            weights,
        )
    }
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

    /// Score of an id match: 1 for the whole id, 0.99 for its whole number (`37` ~ `T037`),
    /// otherwise by how much of the id the pattern covers. A numeric pattern also matches the
    /// number after a letter prefix, with or without zero padding (`37` ~ `T37`, `T0370`).
    fn score(&self, id: &str) -> Option<f64> {
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
                1.0
            } else if pat.len() == candidate.len() {
                0.99
            } else {
                0.5 + 0.45 * (pat.len() as f64 / candidate.len() as f64)
            };
            best = Some(best.map_or(s, |b: f64| b.max(s)));
        }
        best
    }
}

/// How one term matched one field.
#[derive(Clone, Copy)]
struct TermHit {
    weight: f64,
    typo: bool,
}

/// Runs `find task` over `store`.
pub fn find_task(
    store: &Store,
    request: &TaskRequest,
    weights: &TaskWeights,
) -> Result<TaskResponse> {
    request.validate()?;
    let query = TermQuery::new(&request.query);
    let id_pattern = request.id.as_deref().map(IdPattern::parse);
    let statuses: Vec<String> = request.status.iter().map(|s| fold(s.trim())).collect();

    let mut scored: Vec<(f64, usize, Vec<TaskField>)> = Vec::new();
    for (index, item) in store.items().iter().enumerate() {
        if item.item.archived && !request.include_archive {
            continue;
        }
        if !statuses.is_empty() && !statuses.contains(&item.status_folded) {
            continue;
        }
        let id_score = match &id_pattern {
            Some(p) => match p.score(&item.id_folded) {
                Some(s) => Some(s),
                None => continue,
            },
            None => None,
        };
        let found = if request.exact {
            (item.title_collapsed == query.exact_title()).then(|| (1.0, vec![TaskField::Title]))
        } else if query.is_empty() {
            id_score.map(|s| (s, Vec::new()))
        } else {
            query.score(item, &request.fields, weights)
        };
        if let Some((score, fields)) = found {
            if score >= request.threshold {
                scored.push((score, index, fields));
            }
        }
    }

    let items = store.items();
    scored.sort_by(|a, b| {
        b.0.partial_cmp(&a.0)
            .unwrap_or(Ordering::Equal)
            .then_with(|| {
                items[a.1]
                    .item
                    .priority_rank()
                    .cmp(&items[b.1].item.priority_rank())
            })
            .then_with(|| natural_cmp(&items[a.1].item.id, &items[b.1].item.id))
    });
    let total = scored.len();
    let matches: Vec<TaskMatch> = scored
        .into_iter()
        .take(request.limit)
        .map(|(score, index, fields)| {
            let item = &items[index].item;
            TaskMatch {
                id: item.id.clone(),
                title: item.title.clone(),
                status: item.status.clone(),
                priority: item.priority.clone(),
                score: round3(score),
                matched_in: fields.iter().map(|f| f.as_str().to_string()).collect(),
                phase: item.phase.clone(),
                labels: request.verbose.then(|| item.labels.clone()),
                description: if request.verbose {
                    item.description.clone()
                } else {
                    None
                },
            }
        })
        .collect();
    Ok(TaskResponse {
        query: request.clone(),
        summary: Summary::new(total, matches.len()),
        matches,
    })
}

/// Scores every term against the selected fields; `None` unless every term matches (AND).
fn score_terms(
    item: &IndexedItem,
    terms: &[Term],
    exact_title: &str,
    phrase: &memchr::memmem::Finder<'static>,
    fields: &[TaskField],
    w: &TaskWeights,
) -> Option<(f64, Vec<TaskField>)> {
    if fields.contains(&TaskField::Title) && item.title_collapsed == exact_title {
        return Some((1.0, vec![TaskField::Title]));
    }
    // reject before searching: a term with two characters absent from every selected field
    // cannot match even with a typo, and one absent character rules out an exact match
    let bag = fields.iter().fold(0, |bag, &f| bag | f.text(item).bag);
    for term in terms {
        let absent = missing(term.bag, bag);
        if absent > 1 || (absent == 1 && term.chars.len() < w.min_typo_len) {
            return None;
        }
    }
    let mut total = 0.0;
    let mut any_typo = false;
    let mut matched: Vec<TaskField> = Vec::new();
    for term in terms {
        let mut best: Option<TermHit> = None;
        for &field in fields {
            let text = field.text(item);
            let absent = missing(term.bag, text.bag);
            if text.is_empty() || absent > 1 {
                continue;
            }
            let exact = if absent == 0 {
                exact_hit(text, term, w)
            } else {
                None
            };
            let hit = exact
                .map(|k| TermHit {
                    weight: k * field.weight(w),
                    typo: false,
                })
                .or_else(|| {
                    typo_hit(text, term, w).map(|k| TermHit {
                        weight: k * field.weight(w),
                        typo: true,
                    })
                });
            if let Some(hit) = hit {
                if !matched.contains(&field) {
                    matched.push(field);
                }
                best = Some(match best {
                    None => hit,
                    // an exact hit anywhere beats a typo hit anywhere
                    Some(b) if (b.typo, -b.weight) > (hit.typo, -hit.weight) => hit,
                    Some(b) => b,
                });
            }
        }
        let hit = best?;
        any_typo |= hit.typo;
        total += hit.weight;
    }
    let raw = total / terms.len() as f64;
    let score = if any_typo {
        w.typo_floor + w.typo_span * raw
    } else {
        let phrase_hit = terms.len() > 1
            && fields.contains(&TaskField::Title)
            && phrase.find(item.title_collapsed.as_bytes()).is_some();
        let bonus = if phrase_hit { w.phrase_bonus } else { 0.0 };
        (w.exact_floor + w.exact_span * raw + bonus).min(0.99)
    };
    matched.sort();
    Some((score, matched))
}

/// The best kind of exact (substring) occurrence of `term` in `text`, as a weight.
fn exact_hit(text: &FoldedText, term: &Term, w: &TaskWeights) -> Option<f64> {
    let hay = text.text.as_str();
    let mut best: Option<f64> = None;
    for start in term.finder.find_iter(hay.as_bytes()) {
        let end = start + term.text.len();
        // the query is folded the same way, so occurrences start on char boundaries
        if !hay.is_char_boundary(start) || !hay.is_char_boundary(end) {
            continue;
        }
        let before = is_boundary_before(hay, start);
        let kind = if before && is_boundary_after(hay, end) {
            w.whole_word
        } else if before {
            w.word_prefix
        } else {
            w.mid_word
        };
        best = Some(best.map_or(kind, |b: f64| b.max(kind)));
        if kind >= w.whole_word {
            break;
        }
    }
    best
}

/// A one-edit match of `term` against a whole word, or against the start of a longer word.
fn typo_hit(text: &FoldedText, term: &Term, w: &TaskWeights) -> Option<f64> {
    if term.chars.len() < w.min_typo_len {
        return None;
    }
    let mut best: Option<f64> = None;
    let mut chars: Vec<char> = Vec::new();
    for i in 0..text.words.len() {
        let word = text.word(i);
        // byte length bounds char length from above: skip words that are clearly too short
        if word.len() + 1 < term.chars.len() {
            continue;
        }
        let kind = if term.ascii && word.is_ascii() {
            typo_kind(term.text.as_bytes(), word.as_bytes(), w)
        } else {
            chars.clear();
            chars.extend(word.chars());
            typo_kind(&term.chars, &chars, w)
        };
        match kind {
            Some(k) if k >= w.typo_word => return Some(k),
            Some(k) => best = Some(k),
            None => {}
        }
    }
    best
}

fn typo_kind<T: PartialEq>(term: &[T], word: &[T], w: &TaskWeights) -> Option<f64> {
    if !may_be_within_one_edit(term, word) {
        return None;
    }
    if within_one_edit(term, word) {
        return Some(w.typo_word);
    }
    let n = term.len();
    let prefix_hit =
        word.len() > n + 1 && (n - 1..=n + 1).any(|len| within_one_edit(term, &word[..len]));
    prefix_hit.then_some(w.typo_prefix)
}

/// Orders ids with digit runs compared by value, so `T2` comes before `T10`.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let xn = x.iter().take_while(|c| c.is_ascii_digit()).count();
                let yn = y.iter().take_while(|c| c.is_ascii_digit()).count();
                let xd = trim_zeros(&x[..xn]);
                let yd = trim_zeros(&y[..yn]);
                let ord = xd.len().cmp(&yd.len()).then_with(|| xd.cmp(yd));
                if ord != Ordering::Equal {
                    return ord;
                }
                x = &x[xn..];
                y = &y[yn..];
            }
            (Some(c), Some(d)) => {
                if c != d {
                    return c.cmp(d);
                }
                x = &x[1..];
                y = &y[1..];
            }
        }
    }
}

fn trim_zeros(digits: &[u8]) -> &[u8] {
    let zeros = digits.iter().take_while(|&&c| c == b'0').count();
    &digits[zeros.min(digits.len().saturating_sub(1))..]
}

pub(crate) fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order_of_ids() {
        let mut ids = vec!["T10", "T2", "T1", "a", "T02"];
        ids.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(ids, ["T1", "T02", "T2", "T10", "a"]);
    }

    #[test]
    fn id_patterns() {
        assert_eq!(IdPattern::parse("T37").score("t37"), Some(1.0));
        assert!(IdPattern::parse("37").score("t376").is_some());
        assert!(IdPattern::parse("*76").score("t376").is_some());
        assert!(IdPattern::parse("*37*").score("t1370").is_some());
        assert!(IdPattern::parse("38").score("t376").is_none());
        // zero padding: the whole number ranks just below the literal id
        assert_eq!(IdPattern::parse("37").score("t037"), Some(0.99));
        assert!(IdPattern::parse("37").score("t0370").is_some());
        assert!(IdPattern::parse("037").score("t037").is_some());
        assert!(IdPattern::parse("*7").score("t037").is_some());
    }
}
