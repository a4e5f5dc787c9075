//! Tests of the profile's data shape: built-ins and JSON with defaults.

use super::{PathWeights, PlannerRules, Profile};

#[test]
fn legacy_differs_only_in_code_switches() {
    let legacy = Profile::builtin("legacy").unwrap();
    let today = Profile::default();
    assert_eq!(legacy.task, today.task);
    assert_eq!(legacy.path, today.path);
    assert_eq!(legacy.code.exact_stem, today.code.exact_stem);
    assert!(!legacy.code.camel_case && !legacy.code.symbol_scan);
    assert!(Profile::builtin("nope").is_none());
}

#[test]
fn a_profile_round_trips_through_json_with_defaults() {
    let p: Profile = serde_json::from_str(r#"{"name":"mine","code":{"impl_boost":3}}"#).unwrap();
    assert_eq!(p.code.impl_boost, 3.0);
    assert_eq!(p.code.exact_stem, 20.0);
    assert_eq!(p.planner, PlannerRules::default());
}

#[test]
fn the_bound_slack_is_a_path_weight_with_its_old_value() {
    // a profile written before the field existed gets the default
    let p: Profile = serde_json::from_str(r#"{"path":{"gap":0.2}}"#).unwrap();
    assert_eq!(p.path.bound_slack, 1e-4);
    // the alignment runs in f32: the default is exactly the constant it replaces
    assert_eq!(PathWeights::default().bound_slack as f32, 1e-4_f32);
    let json = serde_json::to_value(&p).unwrap();
    assert_eq!(json["path"]["bound_slack"], serde_json::json!(1e-4));
    let back: Profile = serde_json::from_value(json).unwrap();
    assert_eq!(back, p);
}

#[test]
fn a_profile_keeps_its_provenance_and_ranks_as_without_it() {
    let p: Profile = serde_json::from_str(
        r#"{"name":"tuned","code":{"test_penalty":1.5},"provenance":{"objective":"mrr","seed":7}}"#,
    )
    .unwrap();
    assert_eq!(p.provenance.as_ref().unwrap()["seed"], 7);
    let json = serde_json::to_value(&p).unwrap();
    assert_eq!(json["provenance"]["objective"], "mrr");
    // the built-ins carry none, and write none
    assert!(serde_json::to_value(Profile::default())
        .unwrap()
        .get("provenance")
        .is_none());
    // any other unknown key is still refused
    assert!(serde_json::from_str::<Profile>(r#"{"provenanse":{}}"#).is_err());
}
