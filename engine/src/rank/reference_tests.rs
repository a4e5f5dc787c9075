//! The small formulas every item ranking shares, against values worked out by hand: a
//! field's weight is the profile's number for that field, scores round half away from zero
//! to three decimals, and ids order with their digit runs compared by value.

use super::natural::natural_cmp;
use super::score::round3;
use crate::profile::TaskWeights;
use crate::store::TaskField;
use std::cmp::Ordering::{Equal, Greater, Less};

#[test]
fn each_field_weighs_its_own_profile_number() {
    let w = TaskWeights {
        title: 3.5,
        description: 0.25,
        labels: -2.0,
        notes: 7.0,
        ..TaskWeights::default()
    };
    assert_eq!(TaskField::Title.weight(&w), 3.5);
    assert_eq!(TaskField::Description.weight(&w), 0.25);
    assert_eq!(TaskField::Labels.weight(&w), -2.0);
    assert_eq!(TaskField::Notes.weight(&w), 7.0);
}

#[test]
fn scores_round_to_three_decimals() {
    assert_eq!(round3(0.123_456), 0.123);
    assert_eq!(round3(2.718_6), 2.719);
    assert_eq!(round3(-1.234_56), -1.235);
    // 1.2345 * 1000 is 1234.5 in floating point: half rounds away from zero
    assert_eq!(round3(1.2345), 1.235);
    assert_eq!(round3(-0.0125), -0.013);
    assert_eq!(round3(12.0), 12.0);
    assert_eq!(round3(0.0004), 0.0);
}

#[test]
fn ids_order_by_the_value_of_their_digit_runs() {
    // digit runs by value, whatever their length or leading zeros
    assert_eq!(natural_cmp("T2", "T10"), Less);
    assert_eq!(natural_cmp("T10", "T2"), Greater);
    assert_eq!(natural_cmp("T10", "T9"), Greater);
    // equal values: the plain order of the strings
    assert_eq!(natural_cmp("T007", "T7"), Less);
    assert_eq!(natural_cmp("T7", "T007"), Greater);
    assert_eq!(natural_cmp("T007", "T8"), Less);
    assert_eq!(natural_cmp("T100", "T099"), Greater);
    assert_eq!(natural_cmp("T0", "T00"), Less);
    assert_eq!(natural_cmp("T12", "T12"), Equal);
    assert_eq!(natural_cmp("T12a", "T12b"), Less);
    assert_eq!(natural_cmp("T12b", "T12a"), Greater);
    // equal digit runs go on to what follows them
    assert_eq!(natural_cmp("v2.10", "v2.9"), Greater);
    assert_eq!(natural_cmp("a1b2", "a1b10"), Less);
    // a digit against a letter: the bytes' order, not a value
    assert_eq!(natural_cmp("T1", "Ta"), Less);
    assert_eq!(natural_cmp("Ta", "T1"), Greater);
    assert_eq!(natural_cmp("1", "a"), Less);
    // letters byte by byte; a prefix comes first
    assert_eq!(natural_cmp("abc", "abd"), Less);
    assert_eq!(natural_cmp("abd", "abc"), Greater);
    assert_eq!(natural_cmp("ab", "abc"), Less);
    assert_eq!(natural_cmp("abc", "ab"), Greater);
    assert_eq!(natural_cmp("", ""), Equal);
    assert_eq!(natural_cmp("T", "T1"), Less);
    // letters after equal digit runs
    assert_eq!(natural_cmp("T1x", "T1"), Greater);
}
