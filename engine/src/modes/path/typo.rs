//! One-letter typos: a query matches with a typo when the query less one byte is a
//! subsequence of the path. Which bytes can be dropped, and whether any can.

use super::pattern::Pat;

/// Longest query (in bytes) the typo pass handles.
pub(super) const MAX_TYPO_QUERY: usize = 64;

/// True when the query without some one byte is a subsequence of `path`: [`droppable`] has
/// an element, found without building its tables, from the greedy prefix `pre` of
/// [`greedy_prefix`](super::prefilter::greedy_prefix) (`matched` bytes long) and one greedy pass from the right.
pub(super) fn typo_matches(
    pattern: &[Pat],
    path: &[u8],
    pre: &[u32; MAX_TYPO_QUERY + 1],
    matched: usize,
) -> bool {
    // `end`: the start of the latest greedy match of the query after byte k
    let mut end = path.len();
    for k in (0..pattern.len()).rev() {
        if k <= matched && pre[k] as usize <= end {
            return true;
        }
        match pattern[k].rfind(path, end) {
            Some(j) => end = j,
            None => return false,
        }
    }
    false
}

/// Indices `k` such that `q` without byte `k` is a subsequence of `path`: the greedy
/// prefix end from the left must come before the greedy suffix start from the right.
pub(super) fn droppable(q: &[u8], path: &[u8]) -> impl Iterator<Item = usize> {
    let m = q.len();
    // pre[k]: path bytes consumed matching q[..k] greedily (None once it fails)
    let mut pre = [usize::MAX; MAX_TYPO_QUERY + 1];
    pre[0] = 0;
    for k in 0..m {
        if pre[k] == usize::MAX {
            break;
        }
        pre[k + 1] = memchr::memchr(q[k], &path[pre[k]..]).map_or(usize::MAX, |i| pre[k] + i + 1);
    }
    // suf[k]: the start of the latest greedy match of q[k..]
    let mut suf = [usize::MAX; MAX_TYPO_QUERY + 1];
    suf[m] = path.len();
    for k in (0..m).rev() {
        if suf[k + 1] == usize::MAX {
            break;
        }
        suf[k] = memchr::memrchr(q[k], &path[..suf[k + 1]]).unwrap_or(usize::MAX);
    }
    (0..m)
        .filter(move |&k| pre[k] != usize::MAX && suf[k + 1] != usize::MAX && pre[k] <= suf[k + 1])
}
