//! The rank metrics against trec_eval on the same run: `tests/data/metrics_reference.json`
//! holds judged cases and the values trec_eval gives each of them and their mean (written by
//! `python3 scripts/metrics_reference.py`, through pytrec_eval); these tests compute the
//! same from the cases and compare, with no Python.

use super::rank::{first_relevant_rank, RankMetrics, RANK_K};
use super::several::{ndcg_at, recall_at, SeveralMetrics, NDCG_K, RECALL_K};
use crate::case::{CaseResult, Status};
use crate::metrics::tests::case;
use serde_json::Value;

const REFERENCE: &str = include_str!("../../tests/data/metrics_reference.json");

fn reference() -> Value {
    serde_json::from_str(REFERENCE).unwrap()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// The reference's cases, as case results, with trec_eval's values of each.
fn cases() -> Vec<(CaseResult, Value)> {
    reference()["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let mut r = case(c["id"].as_str().unwrap(), Status::Pass, "success", 1.0);
            r.expected = strings(&c["expected"]);
            r.ranked = strings(&c["ranked"]);
            (r, c["trec_eval"].clone())
        })
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    // the reference keeps twelve decimals
    (a - b).abs() < 1e-11
}

#[test]
fn each_case_scores_what_trec_eval_gives_it() {
    let cases = cases();
    assert_eq!(cases.len(), 16);
    assert_eq!((RANK_K, RECALL_K, NDCG_K), (5, 5, 10));
    for (c, t) in &cases {
        let r = first_relevant_rank(c);
        let want = |name: &str| t[name].as_f64().unwrap();
        let got = [
            ("hit_at_1", f64::from(u8::from(r == Some(1)))),
            ("hit_at_5", f64::from(u8::from(r.is_some_and(|r| r <= 5)))),
            ("reciprocal_rank", r.map_or(0.0, |r| 1.0 / r as f64)),
            ("recall_at_5", recall_at(c, RECALL_K)),
            ("ndcg_at_10", ndcg_at(c, NDCG_K)),
        ];
        for (name, value) in got {
            assert!(
                close(value, want(name)),
                "{}: {name} {value} vs trec_eval {}",
                c.id,
                want(name)
            );
        }
    }
}

#[test]
fn the_means_are_trec_evals_rounded_to_four_decimals() {
    let reference = reference();
    let cases = cases();
    let refs: Vec<&CaseResult> = cases.iter().map(|(c, _)| c).collect();
    let m = RankMetrics::of(&refs);
    let round4 = |v: &Value| (v.as_f64().unwrap() * 1e4).round() / 1e4;
    let mean = &reference["mean"];
    assert_eq!(m.judged, 16);
    assert_eq!(m.hit_at_1, round4(&mean["hit_at_1"]));
    assert_eq!(m.hit_at_k, round4(&mean["hit_at_5"]));
    assert_eq!(m.mrr, round4(&mean["reciprocal_rank"]));
    let several = &reference["mean_of_several"];
    assert_eq!(
        m.several,
        SeveralMetrics {
            several_judged: several["cases"].as_u64().unwrap() as usize,
            recall_at_5: round4(&several["recall_at_5"]),
            ndcg_at_10: round4(&several["ndcg_at_10"]),
        }
    );
    // the figures themselves, so a reference file rewritten wrongly is noticed too
    assert_eq!((m.hit_at_1, m.hit_at_k, m.mrr), (0.3125, 0.5625, 0.4432));
    assert_eq!(
        (m.several.recall_at_5, m.several.ndcg_at_10),
        (0.4833, 0.5407)
    );
    // cases naming one key, and unjudged ones, take no part in the several-key means
    let one: Vec<&CaseResult> = refs
        .iter()
        .copied()
        .filter(|c| c.expected.len() == 1)
        .collect();
    assert_eq!(SeveralMetrics::of(&one), SeveralMetrics::default());
    let unjudged = case("u", Status::Pass, "success", 1.0);
    let mut with_unjudged = refs.clone();
    with_unjudged.push(&unjudged);
    assert_eq!(RankMetrics::of(&with_unjudged), m);
}

/// Two small cases worked by hand, apart from trec_eval.
#[test]
fn recall_and_ndcg_by_hand() {
    let mut c = case("h", Status::Pass, "success", 1.0);
    c.expected = vec!["x".into(), "y".into(), "z".into()];
    c.ranked = ["x", "p", "y", "q", "r", "z"].map(String::from).to_vec();
    // x and y in the first five: 2 / 3
    assert!(close(recall_at(&c, 5), 2.0 / 3.0));
    assert!(close(recall_at(&c, 6), 1.0));
    assert!(close(recall_at(&c, 1), 1.0 / 3.0));
    // (1/log2(2) + 1/log2(4) + 1/log2(7)) / (1/log2(2) + 1/log2(3) + 1/log2(4))
    let dcg = 1.0 + 0.5 + 1.0 / 7f64.log2();
    let ideal = 1.0 + 1.0 / 3f64.log2() + 0.5;
    assert!(close(ndcg_at(&c, 10), dcg / ideal), "{}", ndcg_at(&c, 10));
    // cut at 3: z is past it, the ideal still has three keys
    assert!(close(ndcg_at(&c, 3), 1.5 / ideal));
    // at 2 the ideal holds two keys
    assert!(close(ndcg_at(&c, 2), 1.0 / (1.0 + 1.0 / 3f64.log2())));
    let none = case("n", Status::Pass, "success", 1.0);
    assert_eq!((recall_at(&none, 5), ndcg_at(&none, 10)), (0.0, 0.0));
}
