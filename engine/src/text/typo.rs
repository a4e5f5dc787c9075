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
pub fn edit_distance<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    EditDistance::default()
        .within(a, b, usize::MAX)
        .expect("no bound")
}

/// [`edit_distance`] with its three rows kept between calls, and a bound past which it stops
/// early: ranking many ids against one allocates nothing per id.
#[derive(Debug, Default)]
pub struct EditDistance {
    two_back: Vec<usize>,
    prev: Vec<usize>,
    cur: Vec<usize>,
}

impl EditDistance {
    /// The distance if it is at most `max`, else `None`.
    pub fn within<T: PartialEq>(&mut self, a: &[T], b: &[T], max: usize) -> Option<usize> {
        // every edit changes the length by at most one
        if a.len().abs_diff(b.len()) > max {
            return None;
        }
        if a.is_empty() || b.is_empty() {
            return Some(a.len().max(b.len()));
        }
        let width = b.len() + 1;
        for row in [&mut self.two_back, &mut self.prev, &mut self.cur] {
            row.clear();
            row.resize(width, 0);
        }
        for (j, v) in self.prev.iter_mut().enumerate() {
            *v = j;
        }
        for i in 1..=a.len() {
            self.cur[0] = i;
            let mut row_min = i;
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut d = (self.prev[j] + 1)
                    .min(self.cur[j - 1] + 1)
                    .min(self.prev[j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d = d.min(self.two_back[j - 2] + 1);
                }
                self.cur[j] = d;
                row_min = row_min.min(d);
            }
            // rows never shrink below their minimum, and a transposition looks back only one
            // row further, so two rows past the bound cannot come back under it
            if row_min > max && self.prev.iter().min().is_some_and(|&m| m > max) {
                return None;
            }
            std::mem::swap(&mut self.two_back, &mut self.prev);
            std::mem::swap(&mut self.prev, &mut self.cur);
        }
        let d = self.prev[b.len()];
        (d <= max).then_some(d)
    }
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

    #[test]
    fn bounded_distance_agrees_with_the_full_one() {
        let words = [
            "", "a", "ab", "ba", "abc", "acb", "T37", "T376", "t73", "kitten", "sitting",
        ];
        let mut ed = EditDistance::default();
        for a in words {
            for b in words {
                let (x, y): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
                let full = edit_distance(&x, &y);
                for max in 0..8 {
                    let want = (full <= max).then_some(full);
                    assert_eq!(ed.within(&x, &y, max), want, "{a} {b} {max}");
                }
            }
        }
    }
}
