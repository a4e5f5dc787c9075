//! One-edit typo tolerance: a wrong, missing, extra or swapped letter.

/// True when `a` and `b` are within one edit of each other, counting an adjacent
/// transposition as one edit (optimal string alignment distance <= 1). Works on chars, or on
/// bytes when both sides are ASCII.
pub fn within_one_edit<T: PartialEq>(a: &[T], b: &[T]) -> bool {
    let (la, lb) = (a.len(), b.len());
    if la.abs_diff(lb) > 1 {
        return false;
    }
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    if prefix == la && prefix == lb {
        return true;
    }
    let (ra, rb) = (&a[prefix..], &b[prefix..]);
    match la.cmp(&lb) {
        // substitution, or a swap of the first two differing characters
        std::cmp::Ordering::Equal => {
            ra[1..] == rb[1..]
                || (ra.len() >= 2 && ra[0] == rb[1] && ra[1] == rb[0] && ra[2..] == rb[2..])
        }
        // one extra character in `a`
        std::cmp::Ordering::Greater => ra[1..] == *rb,
        std::cmp::Ordering::Less => *ra == rb[1..],
    }
}

/// Optimal string alignment distance: insertions, deletions, substitutions and adjacent
/// transpositions, each one edit. Quadratic; meant for short strings such as ids.
pub fn edit_distance(a: &[char], b: &[char]) -> usize {
    if a.is_empty() || b.is_empty() {
        return a.len().max(b.len());
    }
    // three rolling rows: two back (for transpositions), previous, current
    let width = b.len() + 1;
    let mut two_back = vec![0usize; width];
    let mut prev: Vec<usize> = (0..width).collect();
    let mut cur = vec![0usize; width];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(two_back[j - 2] + 1);
            }
            cur[j] = d;
        }
        std::mem::swap(&mut two_back, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// A necessary condition for [`within_one_edit`] between a term and a word (or a prefix of
/// it), on their first two elements: whichever single edit is made, one of the word's first
/// two elements equals one of the term's first two. Rejects most words at the cost of four
/// comparisons.
pub fn may_be_within_one_edit<T: PartialEq>(term: &[T], word: &[T]) -> bool {
    match (term, word) {
        ([t0, t1, ..], [w0, w1, ..]) => w0 == t0 || w0 == t1 || w1 == t0 || w1 == t1,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(a: &str, b: &str) -> bool {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        within_one_edit(&a, &b)
    }

    #[test]
    fn each_edit_kind() {
        assert!(ok("middleware", "middleware"));
        assert!(ok("midleware", "middleware")); // missing
        assert!(ok("middlewware", "middleware")); // extra
        assert!(ok("middlewara", "middleware")); // wrong
        assert!(ok("imddleware", "middleware")); // swapped
        assert!(ok("middlewaer", "middleware")); // swapped at end
    }

    #[test]
    fn prefilter_never_rejects_a_one_edit_pair() {
        let word: Vec<char> = "middleware".chars().collect();
        for term in [
            "iddleware",
            "xmiddleware",
            "imddleware",
            "xiddleware",
            "middleware",
        ] {
            let term: Vec<char> = term.chars().collect();
            assert!(within_one_edit(&term, &word));
            assert!(may_be_within_one_edit(&term, &word));
        }
        let far: Vec<char> = "kubernetes".chars().collect();
        assert!(!may_be_within_one_edit(&far, &word));
    }

    #[test]
    fn two_edits_are_rejected() {
        assert!(!ok("midlewar", "middleware"));
        assert!(!ok("mdidelware", "middleware"));
        assert!(!ok("abc", "abcde"));
    }

    fn dist(a: &str, b: &str) -> usize {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        edit_distance(&a, &b)
    }

    #[test]
    fn edit_distances() {
        assert_eq!(dist("", ""), 0);
        assert_eq!(dist("", "abc"), 3);
        assert_eq!(dist("T37", "T37"), 0);
        assert_eq!(dist("T37", "T73"), 1);
        assert_eq!(dist("T37", "T376"), 1);
        assert_eq!(dist("kitten", "sitting"), 3);
        assert_eq!(dist("ca", "abc"), 3);
        assert_eq!(dist("é1", "e1"), 1);
    }
}
