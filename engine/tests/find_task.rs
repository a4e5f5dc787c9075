//! Ranking and filtering rules of `find task`, on small hand-made stores.

use findbench_engine::modes::task::{find_task, TaskField, TaskRequest, TaskResponse};
use findbench_engine::profile::TaskWeights;
use findbench_engine::{EngineError, Item, Store};

fn item(json: serde_json::Value) -> Item {
    serde_json::from_value(json).unwrap()
}

fn store(items: Vec<serde_json::Value>) -> Store {
    Store::from_items("test", items.into_iter().map(item).collect()).unwrap()
}

fn run(store: &Store, request: &TaskRequest) -> TaskResponse {
    find_task(store, request, &TaskWeights::default()).unwrap()
}

fn ids(r: &TaskResponse) -> Vec<&str> {
    r.matches.iter().map(|m| m.id.as_str()).collect()
}

fn score(r: &TaskResponse, id: &str) -> f64 {
    r.matches.iter().find(|m| m.id == id).unwrap().score
}

#[test]
fn whole_word_beats_word_prefix_beats_mid_word() {
    let s = store(vec![
        serde_json::json!({"id": "mid", "title": "Reauthorise clients"}),
        serde_json::json!({"id": "prefix", "title": "Authorise clients"}),
        serde_json::json!({"id": "word", "title": "Auth for clients"}),
    ]);
    let r = run(&s, &TaskRequest::new("auth"));
    assert_eq!(ids(&r), ["word", "prefix", "mid"]);
    assert!(score(&r, "word") > score(&r, "prefix"));
    assert!(score(&r, "prefix") > score(&r, "mid"));
}

#[test]
fn title_beats_description_beats_labels_and_notes() {
    let s = store(vec![
        serde_json::json!({"id": "n", "title": "x", "notes": ["cache"]}),
        serde_json::json!({"id": "l", "title": "y", "labels": ["cache"]}),
        serde_json::json!({"id": "d", "title": "z", "description": "the cache"}),
        serde_json::json!({"id": "t", "title": "cache"}),
        serde_json::json!({"id": "t2", "title": "Recache"}),
    ]);
    let mut request = TaskRequest::new("cache");
    request.fields = TaskField::ALL.to_vec();
    let r = run(&s, &request);
    // even a mid-word title match outranks a whole-word description match
    assert_eq!(ids(&r), ["t", "t2", "d", "l", "n"]);
    assert_eq!(r.matches[2].matched_in, ["description"]);
}

#[test]
fn default_fields_are_title_and_description() {
    let s = store(vec![
        serde_json::json!({"id": "l", "title": "y", "labels": ["cache"], "notes": ["cache"]}),
        serde_json::json!({"id": "d", "title": "z", "description": "cache"}),
    ]);
    let r = run(&s, &TaskRequest::new("cache"));
    assert_eq!(ids(&r), ["d"]);
    let mut only_labels = TaskRequest::new("cache");
    only_labels.fields = TaskField::parse_list("labels").unwrap();
    assert_eq!(ids(&run(&s, &only_labels)), ["l"]);
}

#[test]
fn terms_are_anded_across_fields() {
    let s = store(vec![
        serde_json::json!({"id": "both", "title": "Session cache", "description": "eviction"}),
        serde_json::json!({"id": "one", "title": "Session handling"}),
    ]);
    assert_eq!(
        ids(&run(&s, &TaskRequest::new("session eviction"))),
        ["both"]
    );
    assert!(run(&s, &TaskRequest::new("session kubernetes"))
        .matches
        .is_empty());
}

#[test]
fn exact_title_scores_one() {
    let s = store(vec![
        serde_json::json!({"id": "a", "title": "Fix login  bug"}),
        serde_json::json!({"id": "b", "title": "Fix login bug on mobile"}),
    ]);
    let r = run(&s, &TaskRequest::new("fix LOGIN bug"));
    assert_eq!(ids(&r), ["a", "b"]);
    assert_eq!(score(&r, "a"), 1.0);
    assert!(score(&r, "b") < 1.0);
}

#[test]
fn exact_flag_returns_only_full_title_matches() {
    let s = store(vec![
        serde_json::json!({"id": "a", "title": "Fix login bug"}),
        serde_json::json!({"id": "b", "title": "Fix login bug on mobile"}),
    ]);
    let mut request = TaskRequest::new("fix login bug");
    request.exact = true;
    assert_eq!(ids(&run(&s, &request)), ["a"]);
}

#[test]
fn one_typo_matches_below_every_exact_match() {
    let s = store(vec![
        serde_json::json!({"id": "typo", "title": "User registration flow"}),
        serde_json::json!({"id": "exact_weak", "title": "x", "description": "preregistratonform"}),
    ]);
    let r = run(&s, &TaskRequest::new("registraton"));
    assert_eq!(ids(&r), ["exact_weak", "typo"]);
    assert!(score(&r, "typo") < score(&r, "exact_weak"));
}

#[test]
fn each_kind_of_typo_is_tolerated_for_long_terms_only() {
    let s = store(vec![
        serde_json::json!({"id": "m", "title": "Auth middleware timeout"}),
    ]);
    for q in [
        "midleware",
        "middlewarre",
        "middlewade",
        "imddleware",
        "middlew",
    ] {
        assert_eq!(ids(&run(&s, &TaskRequest::new(q))), ["m"], "query {q}");
    }
    // two edits, and typos in short terms, do not match
    assert!(run(&s, &TaskRequest::new("mdidlewear")).matches.is_empty());
    assert!(run(&s, &TaskRequest::new("atuh")).matches.is_empty());
}

#[test]
fn threshold_drops_low_scores() {
    let s = store(vec![
        serde_json::json!({"id": "m", "title": "Auth middleware"}),
    ]);
    let mut request = TaskRequest::new("midleware");
    request.threshold = Some(0.6);
    assert!(run(&s, &request).matches.is_empty());
    request.threshold = Some(0.3);
    assert_eq!(run(&s, &request).matches.len(), 1);
}

#[test]
fn ties_break_by_priority_then_natural_id() {
    let s = store(vec![
        serde_json::json!({"id": "T10", "title": "Cache a", "priority": "low"}),
        serde_json::json!({"id": "T9", "title": "Cache b", "priority": "low"}),
        serde_json::json!({"id": "T11", "title": "Cache c", "priority": "high"}),
    ]);
    assert_eq!(
        ids(&run(&s, &TaskRequest::new("cache"))),
        ["T11", "T9", "T10"]
    );
}

#[test]
fn limit_truncates_and_summary_says_so() {
    let s = store(
        (1..=15)
            .map(|i| serde_json::json!({"id": format!("T{i}"), "title": "cache"}))
            .collect(),
    );
    let mut request = TaskRequest::new("cache");
    request.limit = 4;
    let r = run(&s, &request);
    assert_eq!(r.matches.len(), 4);
    assert_eq!(r.summary.total_matches, 15);
    assert!(r.summary.truncated);
}

#[test]
fn status_filter_is_case_insensitive_and_multi() {
    let s = store(vec![
        serde_json::json!({"id": "a", "title": "cache", "status": "pending"}),
        serde_json::json!({"id": "b", "title": "cache", "status": "Done"}),
        serde_json::json!({"id": "c", "title": "cache", "status": "blocked"}),
    ]);
    let mut request = TaskRequest::new("cache");
    request.status = vec!["done".into(), "BLOCKED".into()];
    assert_eq!(ids(&run(&s, &request)), ["b", "c"]);
}

#[test]
fn archive_is_searched_only_when_asked() {
    let s = store(vec![
        serde_json::json!({"id": "a", "title": "cache"}),
        serde_json::json!({"id": "old", "title": "cache", "archived": true}),
    ]);
    let mut request = TaskRequest::new("cache");
    assert_eq!(ids(&run(&s, &request)), ["a"]);
    request.include_archive = true;
    assert_eq!(ids(&run(&s, &request)), ["a", "old"]);
}

#[test]
fn id_patterns_prefix_suffix_contains() {
    let s = store(vec![
        serde_json::json!({"id": "T376", "title": "a"}),
        serde_json::json!({"id": "T37", "title": "b"}),
        serde_json::json!({"id": "T137", "title": "c"}),
    ]);
    let by_id = |p: &str| {
        let mut r = TaskRequest::new("");
        r.id = Some(p.into());
        let mut got: Vec<String> = run(&s, &r).matches.into_iter().map(|m| m.id).collect();
        got.sort();
        got
    };
    assert_eq!(by_id("37"), ["T37", "T376"]);
    assert_eq!(by_id("*37"), ["T137", "T37"]);
    assert_eq!(by_id("*37*"), ["T137", "T37", "T376"]);
    assert_eq!(by_id("T376"), ["T376"]);
    // the whole id ranks first
    let mut r = TaskRequest::new("");
    r.id = Some("T37".into());
    assert_eq!(run(&s, &r).matches[0].id, "T37");
}

#[test]
fn id_and_query_combine() {
    let s = store(vec![
        serde_json::json!({"id": "T1", "title": "cache"}),
        serde_json::json!({"id": "X1", "title": "cache"}),
    ]);
    let mut r = TaskRequest::new("cache");
    r.id = Some("T".into());
    assert_eq!(ids(&run(&s, &r)), ["T1"]);
}

#[test]
fn verbose_adds_labels_and_description_only_then() {
    let s = store(vec![serde_json::json!({
        "id": "a", "title": "cache", "description": "d", "labels": ["x"], "phase": "core"
    })]);
    let mut r = TaskRequest::new("cache");
    let plain = run(&s, &r);
    assert_eq!(plain.matches[0].phase.as_deref(), Some("core"));
    assert!(plain.matches[0].labels.is_none() && plain.matches[0].description.is_none());
    r.verbose = true;
    let verbose = run(&s, &r);
    assert_eq!(
        verbose.matches[0].labels.as_deref(),
        Some(&["x".to_string()][..])
    );
    assert_eq!(verbose.matches[0].description.as_deref(), Some("d"));
}

#[test]
fn unicode_case_folding() {
    let s = store(vec![
        serde_json::json!({"id": "a", "title": "Straße address normalisation"}),
        serde_json::json!({"id": "b", "title": "ΟΔΟΣ index"}),
    ]);
    assert_eq!(ids(&run(&s, &TaskRequest::new("STRASSE"))), ["a"]);
    assert_eq!(ids(&run(&s, &TaskRequest::new("οδος"))), ["b"]);
}

#[test]
fn invalid_requests_are_rejected() {
    let s = store(vec![serde_json::json!({"id": "a", "title": "cache"})]);
    let bad = |r: TaskRequest| {
        matches!(
            find_task(&s, &r, &TaskWeights::default()),
            Err(EngineError::InvalidInput { .. })
        )
    };
    assert!(bad(TaskRequest::new("   ")));
    let mut r = TaskRequest::new("cache");
    r.limit = 0;
    assert!(bad(r));
    for t in [-0.1, 1.5, f64::NAN] {
        let mut r = TaskRequest::new("cache");
        r.threshold = Some(t);
        assert!(bad(r), "threshold {t}");
    }
    assert!(TaskField::parse_list("title,owner").is_err());
}

#[test]
fn empty_store_finds_nothing() {
    let s = store(vec![]);
    let r = run(&s, &TaskRequest::new("cache"));
    assert!(r.matches.is_empty());
    assert_eq!(r.summary.total_matches, 0);
}

#[test]
fn ten_matches_fit_in_5kb() {
    let s = store(
        (1..=30)
            .map(|i| serde_json::json!({
                "id": format!("T{i:03}"),
                "title": format!("Refactor the session cache eviction policy for large projects {i}"),
                "status": "pending", "priority": "medium", "phase": "core",
                "description": "x".repeat(400),
            }))
            .collect(),
    );
    let r = run(&s, &TaskRequest::new("session cache"));
    assert_eq!(r.matches.len(), 10);
    let bytes = serde_json::to_vec(&r).unwrap().len();
    assert!(bytes < 5 * 1024, "{bytes} bytes");
}

#[test]
fn duplicate_ids_are_rejected() {
    let err = Store::from_items(
        "dup",
        vec![
            item(serde_json::json!({"id": "a", "title": "x"})),
            item(serde_json::json!({"id": "a", "title": "y"})),
        ],
    )
    .unwrap_err();
    assert!(err.to_string().contains("duplicate id `a`"), "{err}");
}

#[test]
fn accents_are_ignored_both_ways() {
    let s = store(vec![
        serde_json::json!({"id": "a", "title": "Résumé parser accents"}),
    ]);
    assert_eq!(ids(&run(&s, &TaskRequest::new("resume"))), ["a"]);
    assert_eq!(ids(&run(&s, &TaskRequest::new("RÉSUMÉ"))), ["a"]);
}

#[test]
fn numeric_id_pattern_matches_zero_padded_ids_whole_number_first() {
    let s = store(vec![
        serde_json::json!({"id": "T370", "title": "a"}),
        serde_json::json!({"id": "T037", "title": "b"}),
        serde_json::json!({"id": "T0371", "title": "c"}),
    ]);
    let mut r = TaskRequest::new("");
    r.id = Some("37".into());
    let got = run(&s, &r);
    assert_eq!(got.matches[0].id, "T037");
    assert_eq!(got.matches.len(), 3);
}
