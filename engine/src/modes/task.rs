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
    run(store, request, weights, Scan::Candidates)
}

/// Which items a query scores.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scan {
    /// Only those the store's word index says can match (`TermQuery::candidates`).
    Candidates,
    /// Every item: what the candidates must agree with (tested below).
    #[cfg_attr(not(test), allow(dead_code))]
    All,
}

fn run(
    store: &Store,
    request: &TaskRequest,
    weights: &TaskWeights,
    scan: Scan,
) -> Result<TaskResponse> {
    request.validate(weights)?;
    let threshold = request.threshold.unwrap_or(weights.threshold);
    let mut query = TermQuery::new(&request.query);
    let id_pattern = request.id.as_deref().map(IdPattern::parse);
    let statuses: Vec<String> = request.status.iter().map(|s| fold(s.trim())).collect();

    // a query with terms scores only the items that hold words its terms can match (an
    // exact title holds every term in the title)
    let candidates = match scan {
        Scan::Candidates if !query.is_empty() => {
            let fields: &[TaskField] = if request.exact {
                &[TaskField::Title]
            } else {
                &request.fields
            };
            query.candidates(store.word_index(), store.len(), fields, weights)
        }
        _ => None,
    };
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
            item.title_collapsed_is(query.exact_title())
                .then(|| (weights.exact_title, vec![TaskField::Title]))?
        } else if query.is_empty() {
            (id_score?, Vec::new())
        } else {
            query.score(item, &request.fields, weights)?
        };
        (score >= threshold).then_some((score, index, fields))
    };
    // chunks in order, each scored in order: the same list whatever the thread count
    let mut scored: Vec<(f64, usize, Vec<TaskField>)> = match candidates {
        Some(list) if list.len() > PARALLEL_CHUNK => list
            .into_par_iter()
            .with_min_len(PARALLEL_CHUNK)
            .filter_map(|i| score(i as usize))
            .collect(),
        Some(list) => list.into_iter().filter_map(|i| score(i as usize)).collect(),
        None if store.len() > PARALLEL_CHUNK => (0..store.len())
            .into_par_iter()
            .with_min_len(PARALLEL_CHUNK)
            .filter_map(score)
            .collect(),
        None => (0..store.len()).filter_map(score).collect(),
    };

    let order = |a: &(f64, usize, Vec<TaskField>), b: &(f64, usize, Vec<TaskField>)| {
        let (x, y) = (store.item(a.1), store.item(b.1));
        b.0.partial_cmp(&a.0)
            .unwrap_or(Ordering::Equal)
            .then_with(|| x.priority_rank().cmp(&y.priority_rank()))
            .then_with(|| natural_cmp(x.id(), y.id()))
            .then_with(|| a.1.cmp(&b.1))
    };
    let total = scored.len();
    // ids are unique and the natural order ends on the bytes, so the order is total: the
    // first `limit` after selecting them are those a full sort would put first
    if request.limit < scored.len() {
        scored.select_nth_unstable_by(request.limit - 1, order);
        scored.truncate(request.limit);
    }
    scored.sort_by(order);
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

    /// A reproducible pseudo-random sequence (xorshift64*) for the generated stores below.
    struct Seq(u64);

    impl Seq {
        fn below(&mut self, n: usize) -> usize {
            let mut x = self.0;
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            self.0 = x;
            (x.wrapping_mul(0x2545_f491_4f6c_dd1d) % n as u64) as usize
        }

        fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
            from[self.below(from.len())]
        }

        fn chance(&mut self, percent: usize) -> bool {
            self.below(100) < percent
        }
    }

    /// Words of the generated stores: plain, sharing prefixes and infixes, one edit apart,
    /// Unicode that folds (case, diacritics, ß, final sigma, ligatures), digits, and
    /// punctuation inside and between words.
    const WORDS: &[&str] = &[
        "auth",
        "authorise",
        "reauth",
        "middleware",
        "midleware",
        "registration",
        "register",
        "registrations",
        "session",
        "sessions",
        "cache",
        "caches",
        "recache",
        "billing",
        "export",
        "search",
        "index",
        "reindex",
        "email",
        "e-mail",
        "digest",
        "calendar",
        "sync",
        "rate",
        "limiter",
        "csv",
        "importer",
        "dashboard",
        "webhook",
        "retries",
        "password",
        "reset",
        "audit",
        "log",
        "logs",
        "flags",
        "onboarding",
        "pdf",
        "queue",
        "backup",
        "api",
        "pagination",
        "dark",
        "mode",
        "v2",
        "v2.0",
        "c++",
        "auth-bug",
        "fix",
        "the",
        "a",
        "of",
        "Résumé",
        "resume",
        "STRASSE",
        "Straße",
        "ΟΔΟΣ",
        "οδος",
        "naïve",
        "Łódź",
        "ﬁle",
        "file",
        "日本語",
        "x9",
        "T37",
        "t037",
        "2026",
        "x",
        "ab",
        "abc",
        "abcd",
        "abcde",
        "abcdef",
        "bacde",
        "middlewares",
        "smiddleware",
    ];

    fn text(seq: &mut Seq, min: usize, max: usize) -> String {
        let n = min + seq.below(max - min + 1);
        let seps = [" ", " ", " ", "  ", ", ", "-", "/", "\n", ". "];
        let mut out = String::new();
        for k in 0..n {
            if k > 0 {
                out.push_str(seq.pick(&seps));
            }
            out.push_str(seq.pick(WORDS));
        }
        out
    }

    fn generated_store(seed: u64, n: usize) -> Store {
        let mut seq = Seq(seed);
        let items = (1..=n)
            .map(|i| {
                let mut item = serde_json::json!({
                    "id": format!("T{i}"),
                    "title": text(&mut seq, 1, 5),
                    "status": seq.pick(&["pending", "active", "done", "Blocked "]),
                    "priority": seq.pick(&["critical", "high", "medium", "low", "p9"]),
                    "archived": seq.chance(10),
                });
                if seq.chance(70) {
                    item["description"] = text(&mut seq, 0, 12).into();
                }
                let labels: Vec<String> = (0..seq.below(3)).map(|_| text(&mut seq, 1, 2)).collect();
                item["labels"] = labels.into();
                let notes: Vec<String> = (0..seq.below(3)).map(|_| text(&mut seq, 1, 6)).collect();
                item["notes"] = notes.into();
                serde_json::from_value(item).unwrap()
            })
            .collect();
        Store::from_items("generated", items).unwrap()
    }

    /// `word` with one random edit: a wrong, missing, extra or swapped letter.
    fn one_edit(seq: &mut Seq, word: &str) -> String {
        let mut chars: Vec<char> = word.chars().collect();
        if chars.is_empty() {
            return word.to_string();
        }
        let at = seq.below(chars.len());
        let letter = seq
            .pick(&["e", "a", "z", "s", "é", "ß", "1"])
            .chars()
            .next()
            .unwrap();
        match seq.below(4) {
            0 => chars[at] = letter,
            1 => {
                chars.remove(at);
            }
            2 => chars.insert(at, letter),
            _ if at + 1 < chars.len() => chars.swap(at, at + 1),
            _ => chars.push(letter),
        }
        chars.into_iter().collect()
    }

    fn query_term(seq: &mut Seq) -> String {
        let word = seq.pick(WORDS);
        let chars: Vec<char> = word.chars().collect();
        match seq.below(10) {
            0..=2 => word.to_string(),
            3 => word.to_uppercase(),
            4 | 5 => one_edit(seq, word),
            6 => {
                let once = one_edit(seq, word);
                one_edit(seq, &once)
            }
            7 => {
                // a part of a word: its start, its middle or its end
                let from = seq.below(chars.len());
                let to = from + 1 + seq.below(chars.len() - from);
                chars[from..to].iter().collect()
            }
            8 => seq
                .pick(&[
                    "-",
                    "++",
                    ".",
                    "--x",
                    "bug,",
                    "e-mai",
                    "v2.",
                    "kubernetes",
                    "qqqq",
                ])
                .to_string(),
            _ => format!("{}{}", word, seq.pick(WORDS)),
        }
    }

    fn random_request(seq: &mut Seq, store: &Store) -> TaskRequest {
        let mut request = if seq.chance(10) {
            // a whole title, sometimes spaced or cased otherwise
            let title = store.item(seq.below(store.len())).title().to_string();
            TaskRequest::new(if seq.chance(50) {
                format!("  {} ", title.to_uppercase().replace(' ', "   "))
            } else {
                title
            })
        } else if seq.chance(10) {
            // a phrase of a title: two or three of its words, in order
            let title = (0..50)
                .map(|_| store.item(seq.below(store.len())).title())
                .find(|t| t.split_whitespace().count() > 2)
                .unwrap_or("auth middleware")
                .to_string();
            let words: Vec<&str> = title.split_whitespace().collect();
            let from = seq.below(words.len() - 1);
            let to = (from + 2 + seq.below(2)).min(words.len());
            TaskRequest::new(words[from..to].join(" "))
        } else {
            let terms: Vec<String> = (0..1 + seq.below(3)).map(|_| query_term(seq)).collect();
            TaskRequest::new(terms.join(" "))
        };
        request.fields = match seq.below(4) {
            0 => TaskField::ALL.to_vec(),
            1 => vec![TaskField::Title],
            2 => vec![TaskField::Labels, TaskField::Notes],
            _ => request.fields,
        };
        request.threshold = [None, Some(0.0), Some(0.45), Some(0.9)][seq.below(4)];
        request.limit = [1, 3, 10, 1000][seq.below(4)];
        request.exact = seq.chance(8);
        request.include_archive = seq.chance(30);
        request.verbose = seq.chance(20);
        if seq.chance(10) {
            request.status = vec!["ACTIVE".into(), "blocked".into()];
        }
        if seq.chance(10) {
            request.id = Some(seq.pick(&["3", "*7", "*1*", "T37"]).to_string());
        }
        request
    }

    /// The word index only narrows the items a query scores: on generated stores, many
    /// random queries (typos, parts of words, several terms, exact titles and phrases of
    /// titles, ids, Unicode,
    /// punctuation, no match) answer byte for byte as when every item is scored, under the
    /// default weights, under weights that tolerate shorter typos and rank a typo at the
    /// start of a word above one on a whole word, and under weights that rank an
    /// occurrence inside a word above a whole word.
    #[test]
    fn candidates_answer_as_every_item_does() {
        let loose = TaskWeights {
            min_typo_len: 2,
            typo_prefix: 1.2,
            threshold: 0.0,
            ..TaskWeights::default()
        };
        let inverted = TaskWeights {
            whole_word: 0.7,
            word_prefix: 0.8,
            mid_word: 0.9,
            typo_prefix: 1.0,
            ..TaskWeights::default()
        };
        let mut narrowed = 0;
        let mut answered = 0;
        let mut queries = 0;
        for (seed, n) in [(7, 60), (42, 700), (2026, 5000)] {
            let store = generated_store(seed, n);
            let mut seq = Seq(seed * 31 + 1);
            for _ in 0..if n > 1000 { 150 } else { 400 } {
                let request = random_request(&mut seq, &store);
                for weights in [&TaskWeights::default(), &loose, &inverted] {
                    queries += 1;
                    let fast = run(&store, &request, weights, Scan::Candidates);
                    let plain = run(&store, &request, weights, Scan::All);
                    let (fast, plain) = match (fast, plain) {
                        (Ok(f), Ok(p)) => (f, p),
                        (Err(f), Err(p)) => {
                            assert_eq!(f.to_string(), p.to_string());
                            continue;
                        }
                        (f, p) => panic!("{request:?}: {f:?} against {p:?}"),
                    };
                    assert_eq!(
                        serde_json::to_string(&fast).unwrap(),
                        serde_json::to_string(&plain).unwrap(),
                        "{request:?} on {n} items"
                    );
                    answered += usize::from(fast.summary.total_matches > 0);
                    let mut query = TermQuery::new(&request.query);
                    let candidates =
                        query.candidates(store.word_index(), store.len(), &request.fields, weights);
                    narrowed += usize::from(candidates.is_some_and(|c| c.len() < n / 2));
                }
            }
        }
        eprintln!("{answered} of {queries} answered, {narrowed} narrowed");
        // the comparison is not vacuous: many queries find something (many others are
        // filtered by status, id, threshold or field), and most are narrowed to under half
        // the store
        assert!(answered * 3 > queries, "{answered} of {queries} answered");
        assert!(narrowed * 2 > queries, "{narrowed} of {queries} narrowed");
    }
}
