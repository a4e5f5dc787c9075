//! An ASCII word found in bytes whatever the case of their ASCII letters, without folding
//! them first: two bytes of the word (its rarest by memchr's ranking) compared with the
//! bytes at their offsets, 64 starts at a time (16 without AVX2), a letter compared with
//! its lower case (the byte with bit `0x20` set), and a candidate where both match checked
//! whole. The first call's pass searched a lower-cased copy of every file
//! (`first_call/word_search.rs`): without the copy, the replay question's first call on
//! `/usr/include` took 2,440 page faults instead of 2,692 and 3-6 % less time, and on
//! Python's library 1,075 instead of 1,299 and 5-9 % less (`benches/cold_ab.sh`). Searching 32 starts at a time was slower than the copy and
//! `memmem`; 64, faster (`benches/examples/caseless_speed.rs`).

use memchr::arch::all::packedpair::Pair;

/// Finds one word, given in ASCII lower case, in bytes of any case.
#[derive(Clone, Debug)]
pub struct CaselessFinder {
    word: Vec<u8>,
    /// The two offsets in the word whose bytes are compared first, with each byte and the
    /// bit set on a text's byte before the compare (`0x20` for a letter, else none).
    first: (usize, u8, u8),
    second: (usize, u8, u8),
}

impl CaselessFinder {
    /// The finder of `word`, which must be ASCII in lower case (a byte that is not a
    /// lower-case letter is found as itself; an empty word, as `memmem` finds it, at the
    /// start of any haystack).
    pub fn new(word: &[u8]) -> CaselessFinder {
        assert!(
            word.iter().all(|b| b.is_ascii() && !b.is_ascii_uppercase()),
            "a caseless word is ASCII in lower case"
        );
        let (i1, i2) = Pair::new(word).map_or((0, 0), |pair| {
            (usize::from(pair.index1()), usize::from(pair.index2()))
        });
        let at = |i: usize| {
            let b = word.get(i).copied().unwrap_or(0);
            (i, b, if b.is_ascii_lowercase() { 0x20 } else { 0 })
        };
        CaselessFinder {
            word: word.to_vec(),
            first: at(i1),
            second: at(i2),
        }
    }

    /// Where the first occurrence of the word in `haystack` starts, ASCII letters matched
    /// whatever their case: what `memmem::find` gives on the haystack in ASCII lower case.
    pub fn find(&self, haystack: &[u8]) -> Option<usize> {
        if haystack.len() < self.word.len() {
            return None;
        }
        if self.word.is_empty() {
            return Some(0);
        }
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 is present (checked just above; the check is cached)
                return unsafe { self.find_avx2(haystack) };
            }
            self.find_sse2(haystack)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.find_from(haystack, 0)
        }
    }

    /// True when the word starts at `at` (which leaves room for it).
    #[inline]
    fn is_at(&self, haystack: &[u8], at: usize) -> bool {
        haystack[at..at + self.word.len()].eq_ignore_ascii_case(&self.word)
    }

    /// The candidate starts of one block (bit `i` of `starts` for the start `at + i`),
    /// looked at in order: `Some` with the answer once it is known (the first start where
    /// the word is, or none when a candidate lies past the last start the word fits at, as
    /// every later one does), `None` when the block holds no start of the word.
    #[inline]
    fn in_block(&self, haystack: &[u8], at: usize, mut starts: u64) -> Option<Option<usize>> {
        let last = haystack.len() - self.word.len();
        while starts != 0 {
            let start = at + starts.trailing_zeros() as usize;
            if start > last {
                return Some(None);
            }
            if self.is_at(haystack, start) {
                return Some(Some(start));
            }
            starts &= starts - 1;
        }
        None
    }

    /// The first occurrence starting at `from` or after, a start at a time (the tail
    /// after the last block).
    fn find_from(&self, haystack: &[u8], from: usize) -> Option<usize> {
        let (i1, b1, m1) = self.first;
        let (i2, b2, m2) = self.second;
        let last = haystack.len() - self.word.len();
        (from..=last).find(|&at| {
            haystack[at + i1] | m1 == b1 && haystack[at + i2] | m2 == b2 && self.is_at(haystack, at)
        })
    }

    /// Sixteen starts at a time (SSE2, which every x86-64 processor has).
    #[cfg(target_arch = "x86_64")]
    fn find_sse2(&self, haystack: &[u8]) -> Option<usize> {
        use std::arch::x86_64::*;
        let (i1, b1, m1) = self.first;
        let (i2, b2, m2) = self.second;
        let reach = i1.max(i2) + 16;
        let mut at = 0;
        // SAFETY: SSE2 is part of the x86-64 baseline; the loads read the 16 bytes at
        // `at + i1` and `at + i2`, within the haystack by the loop's condition.
        unsafe {
            let (b1, m1) = (_mm_set1_epi8(b1 as i8), _mm_set1_epi8(m1 as i8));
            let (b2, m2) = (_mm_set1_epi8(b2 as i8), _mm_set1_epi8(m2 as i8));
            let p = haystack.as_ptr();
            while at + reach <= haystack.len() {
                let x1 = _mm_or_si128(_mm_loadu_si128(p.add(at + i1) as *const __m128i), m1);
                let x2 = _mm_or_si128(_mm_loadu_si128(p.add(at + i2) as *const __m128i), m2);
                let both = _mm_and_si128(_mm_cmpeq_epi8(x1, b1), _mm_cmpeq_epi8(x2, b2));
                let starts = _mm_movemask_epi8(both) as u16 as u64;
                if let Some(found) = self.in_block(haystack, at, starts) {
                    return found;
                }
                at += 16;
            }
        }
        self.find_from(haystack, at)
    }

    /// Sixty-four starts at a time, then thirty-two.
    ///
    /// # Safety
    ///
    /// The processor must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn find_avx2(&self, haystack: &[u8]) -> Option<usize> {
        use std::arch::x86_64::*;
        let (i1, b1, m1) = self.first;
        let (i2, b2, m2) = self.second;
        let reach = i1.max(i2) + 32;
        let mut at = 0;
        let (b1, m1) = (_mm256_set1_epi8(b1 as i8), _mm256_set1_epi8(m1 as i8));
        let (b2, m2) = (_mm256_set1_epi8(b2 as i8), _mm256_set1_epi8(m2 as i8));
        let p = haystack.as_ptr();
        // the loads read the 32 bytes at `at + i1` and `at + i2` (and at 32 more in the
        // first loop), within the haystack by the loops' conditions; the first takes 64
        // starts at a time and looks at their candidates only when there are some
        let hits = |at: usize| {
            let x1 = _mm256_or_si256(_mm256_loadu_si256(p.add(at + i1) as *const __m256i), m1);
            let x2 = _mm256_or_si256(_mm256_loadu_si256(p.add(at + i2) as *const __m256i), m2);
            _mm256_and_si256(_mm256_cmpeq_epi8(x1, b1), _mm256_cmpeq_epi8(x2, b2))
        };
        while at + 32 + reach <= haystack.len() {
            let (low, high) = (hits(at), hits(at + 32));
            if _mm256_testz_si256(_mm256_or_si256(low, high), _mm256_set1_epi8(-1)) == 0 {
                let starts = (_mm256_movemask_epi8(low) as u32 as u64)
                    | ((_mm256_movemask_epi8(high) as u32 as u64) << 32);
                if let Some(found) = self.in_block(haystack, at, starts) {
                    return found;
                }
            }
            at += 64;
        }
        while at + reach <= haystack.len() {
            let starts = _mm256_movemask_epi8(hits(at)) as u32 as u64;
            if let Some(found) = self.in_block(haystack, at, starts) {
                return found;
            }
            at += 32;
        }
        self.find_from(haystack, at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use memchr::memmem;
    use proptest::prelude::*;

    /// What the finder must give: the word in the haystack folded to ASCII lower case.
    fn folded_find(haystack: &[u8], word: &[u8]) -> Option<usize> {
        memmem::find(&haystack.to_ascii_lowercase(), word)
    }

    /// Every finder this machine can run, on the same haystack.
    fn every_way(finder: &CaselessFinder, haystack: &[u8]) -> Vec<Option<usize>> {
        let mut found = vec![finder.find(haystack)];
        if haystack.len() >= finder.word.len() {
            found.push(finder.find_from(haystack, 0));
            #[cfg(target_arch = "x86_64")]
            found.push(finder.find_sse2(haystack));
        }
        found
    }

    #[test]
    fn a_word_is_found_in_any_case_where_it_starts() {
        let finder = CaselessFinder::new(b"replay");
        assert_eq!(finder.find(b""), None);
        assert_eq!(CaselessFinder::new(b"").find(b""), Some(0));
        assert_eq!(finder.find(b"REPLA"), None);
        assert_eq!(finder.find(b"fn RePlay_cursor"), Some(3));
        // a byte that is one bit from a letter is no letter: `[` is not `{`, `@` not `` ` ``
        let bracket = CaselessFinder::new(b"a{b");
        assert_eq!(bracket.find(b"a[b A{B"), Some(4));
        let digits = CaselessFinder::new(b"x1_");
        assert_eq!(digits.find(b"X\x11_ x1\x7f X1_"), Some(8));
        // past several blocks, the first of two, in the tail
        let long = [&b"ab".repeat(40)[..], b"REPLAY replay", &b"c".repeat(5)].concat();
        for found in every_way(&finder, &long) {
            assert_eq!(found, Some(80));
        }
        // bytes outside ASCII never match a letter
        assert_eq!(finder.find("réplay rÉplay \u{fe52}eplay".as_bytes()), None);
    }

    /// A word is found at every place of haystacks of every length up to a few blocks,
    /// the last place (the word ending the haystack) included, and a near miss there is not.
    #[test]
    fn a_word_is_found_at_every_place_up_to_the_end() {
        for word in [&b"y"[..], b"gz", b"yaml", b"header_parsed"] {
            let finder = CaselessFinder::new(word);
            let upper = word.to_ascii_uppercase();
            for len in word.len()..200 {
                for at in [0, (len - word.len()) / 3, len - word.len()] {
                    let mut haystack = vec![b'-'; len];
                    haystack[at..at + word.len()].copy_from_slice(&upper);
                    for found in every_way(&finder, &haystack) {
                        assert_eq!(found, Some(at), "{word:?} at {at} of {len}");
                    }
                    // the last byte one bit off (`Y` against `y` is a match, `9` is not)
                    let end = at + word.len() - 1;
                    haystack[end] ^= 0x40;
                    let want = folded_find(&haystack, word);
                    for found in every_way(&finder, &haystack) {
                        assert_eq!(found, want, "{word:?} near miss at {at} of {len}");
                    }
                }
            }
        }
    }

    proptest! {
        /// The blocks find what `memmem` finds in the folded haystack, for words and
        /// haystacks of every length drawn from few bytes (letters of both cases, their
        /// one-bit neighbours, a digit, a byte outside ASCII) so that near misses abound.
        #[test]
        fn blocks_find_what_memmem_finds_in_the_folding(
            word in proptest::collection::vec(
                proptest::sample::select(b"ab_[1{".to_vec()), 1..40),
            haystack in proptest::collection::vec(
                proptest::sample::select(b"abAB_[{@`1\x21\xc1".to_vec()), 0..200),
        ) {
            let finder = CaselessFinder::new(&word);
            let want = folded_find(&haystack, &word);
            for found in every_way(&finder, &haystack) {
                prop_assert_eq!(found, want);
            }
        }
    }

    /// On this crate's sources, for words cut out of them at many places (found at once
    /// or far in, with their case changed), the finder finds what `memmem` finds in the
    /// folding.
    #[test]
    fn words_of_real_sources_are_found_where_memmem_finds_them() {
        let mut checked = 0;
        for (path, bytes) in crate::own_sources::own_sources() {
            let folded = bytes.to_ascii_lowercase();
            for (k, at) in (0..bytes.len()).step_by(997).enumerate() {
                let len = 1 + k % 12;
                let Some(word) = folded.get(at..at + len).filter(|w| w.is_ascii()) else {
                    continue;
                };
                let finder = CaselessFinder::new(word);
                let want = memmem::find(&folded, word);
                assert!(want.is_some_and(|w| w <= at));
                let mut shouted = bytes.clone();
                shouted.make_ascii_uppercase();
                for haystack in [&bytes, &shouted] {
                    for found in every_way(&finder, haystack) {
                        assert_eq!(found, want, "{path:?} at {at}: {word:?}");
                    }
                }
                checked += 1;
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}
