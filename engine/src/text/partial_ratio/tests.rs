//! Tests of `partial_ratio` against rapidfuzz's results.

use super::*;

/// `fuzz.ratio` for an Indel distance `dist` between strings whose
/// lengths add up to `lensum`, computed the way rapidfuzz does.
fn ratio(dist: usize, lensum: usize) -> f64 {
    (1.0 - dist as f64 / lensum as f64) * 100.0
}

#[test]
fn empty_strings() {
    assert_eq!(partial_ratio("", ""), 100.0);
    assert_eq!(partial_ratio("", "abc"), 0.0);
    assert_eq!(partial_ratio("abc", ""), 0.0);
}

#[test]
fn needle_inside_haystack_scores_100() {
    assert_eq!(partial_ratio("this is a test", "this is a test!"), 100.0);
    assert_eq!(partial_ratio("aaaa", "aaaaaaab"), 100.0);
    // Argument order does not matter when lengths differ.
    assert_eq!(partial_ratio("Read emails today", "emails"), 100.0);
}

#[test]
fn rapidfuzz_docs_example() {
    // "cetain" vs the window "certai": LCS 5 ("cetai"), distance 2 over 12.
    let a = partial_ratio_alignment("a certain string", "cetain");
    assert_eq!(a.score, ratio(2, 12));
    assert_eq!(a.score, 83.33333333333334);
    assert_eq!(
        (a.src_start, a.src_end, a.dest_start, a.dest_end),
        (2, 8, 0, 6)
    );
}

#[test]
fn equal_lengths_take_best_prefix_window() {
    // "abcd" in "bcda": best window is the prefix "bcd" (LCS 3, 4 + 3).
    let a = partial_ratio_alignment("abcd", "bcda");
    assert_eq!(a.score, ratio(1, 7));
    assert_eq!(
        (a.src_start, a.src_end, a.dest_start, a.dest_end),
        (0, 4, 0, 3)
    );
}

#[test]
fn equal_lengths_search_both_directions() {
    // "bba" as needle in "bca" reaches only 66.67 (window "bca", LCS 2
    // over 6), but "bca" as needle in "bba" finds the suffix "ba" (LCS 2
    // over 5), which wins; the alignment is reported as (s1, s2).
    let a = partial_ratio_alignment("bba", "bca");
    assert_eq!(a.score, 80.0);
    assert_eq!(
        (a.src_start, a.src_end, a.dest_start, a.dest_end),
        (1, 3, 0, 3)
    );
    assert_eq!(partial_ratio("bca", "bba"), 80.0);
}

#[test]
fn long_haystack_does_not_pin_memory() {
    let hay = "ab".repeat(50_000) + "needle";
    assert_eq!(partial_ratio("needle", &hay), 100.0);
    assert_eq!(partial_ratio("needle", "a needle"), 100.0);
}

#[test]
fn case_is_significant() {
    // "Read" vs window "read": LCS 3, distance 2 over 8.
    assert_eq!(partial_ratio("Read", "read emails"), 75.0);
}

#[test]
fn needle_overhanging_the_end_uses_suffix_window() {
    // "cleanup" vs "clea" at the end: LCS 4, distance 3 over 11.
    assert_eq!(partial_ratio("cleanup", "Calendar clea"), ratio(3, 11));
}

#[test]
fn non_ascii_and_emoji() {
    assert_eq!(partial_ratio("café", "le café noir"), 100.0);
    assert_eq!(partial_ratio("🙂", "a🙂b"), 100.0);
    assert_eq!(partial_ratio("ΑΒΓ", "αβγδ"), 0.0);
    // "東京" vs "東都大阪": the full window "東都" has LCS 1, distance 2
    // over 4 (50), but the one-char prefix window "東" does better:
    // distance 1 over 3.
    let a = partial_ratio_alignment("東京", "東都大阪");
    assert_eq!(a.score, ratio(1, 3));
    assert_eq!((a.dest_start, a.dest_end), (0, 1));
}

#[test]
fn no_common_chars_scores_0() {
    assert_eq!(partial_ratio("xyz", "abcdefgh"), 0.0);
    assert_eq!(partial_ratio("xyz", "abc"), 0.0);
}

#[test]
fn long_needle_matches_short_needle_logic() {
    // 70 chars: the multi-word path. Needle found verbatim.
    let needle: String = "abcdefghij".repeat(7);
    let hay = format!("xx{needle}yy");
    assert_eq!(partial_ratio(&needle, &hay), 100.0);
    // One char changed in the middle: LCS 69, distance 2 over 140.
    let mut changed: Vec<char> = needle.chars().collect();
    changed[35] = '#';
    let changed: String = changed.into_iter().collect();
    assert_eq!(partial_ratio(&changed, &hay), ratio(2, 140));
}

#[test]
fn chars_api_agrees_with_str_api() {
    let a: Vec<char> = "Fix auth".chars().collect();
    let b: Vec<char> = "Fix auth middleware timeout".chars().collect();
    assert_eq!(partial_ratio_chars(&a, &b), 100.0);
    assert_eq!(
        partial_ratio_chars(&a, &b),
        partial_ratio("Fix auth", "Fix auth middleware timeout")
    );
}
