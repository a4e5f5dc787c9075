//! The heads of several sorted streams of strings, merged k ways: what the index's
//! segment merge (`tree/segments/`), the kept statistics' run merge
//! (`retrieval/kept_runs.rs`) and the index walk's runs (`tree/found_runs.rs`) pop their
//! next string, and the streams that hold it, from.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The next string of each stream not yet merged, smallest first, with its stream's
/// number: equal strings pop by stream number, ascending.
pub(crate) type Heads = BinaryHeap<Reverse<(Vec<u8>, usize)>>;

/// Pops the smallest string left and every stream holding it into `holders` (cleared
/// first), in stream order (the heap breaks a tie by stream number); `None` when none is
/// left.
pub(crate) fn pop_holders(heads: &mut Heads, holders: &mut Vec<usize>) -> Option<Vec<u8>> {
    let Reverse((string, first)) = heads.pop()?;
    holders.clear();
    holders.push(first);
    while heads
        .peek()
        .is_some_and(|Reverse((next, _))| *next == string)
    {
        if let Some(Reverse((_, i))) = heads.pop() {
            holders.push(i);
        }
    }
    Some(string)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Strings pop smallest first, each with every stream holding it in stream order,
    /// whatever order they were pushed in.
    #[test]
    fn strings_pop_in_order_with_their_streams_in_order() {
        let mut heads = Heads::new();
        for (s, i) in [("b", 3), ("a", 2), ("b", 0), ("a", 5), ("c", 1), ("b", 1)] {
            heads.push(Reverse((s.as_bytes().to_vec(), i)));
        }
        let mut holders = vec![9];
        let mut popped = Vec::new();
        while let Some(s) = pop_holders(&mut heads, &mut holders) {
            popped.push((String::from_utf8(s).unwrap(), holders.clone()));
        }
        let expected = [("a", vec![2, 5]), ("b", vec![0, 1, 3]), ("c", vec![1])];
        let expected: Vec<(String, Vec<usize>)> = expected
            .into_iter()
            .map(|(s, h)| (s.to_string(), h))
            .collect();
        assert_eq!(popped, expected);
    }
}
