//! Tests of the profile's data shape: built-ins and JSON with defaults.

use super::{PlannerRules, Profile};

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
