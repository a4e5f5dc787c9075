//! The ends of a text's lines found sixty-four bytes at a time: the `\n`s of a block held
//! as the bits of one word, each line's end read from it. A symbol scan cuts every file
//! into its lines (`tree/symbols/mod.rs`); a `memchr` call per line, each set up for a
//! haystack it leaves after forty bytes, was 13 % of the CPU of a names-only scan of
//! `/usr/include`'s headers (docs/index.md).

/// A text's line ends, found from any offset on (a scan may pass over runs of lines).
pub struct LineEnds<'t> {
    bytes: &'t [u8],
    /// The offset of the block whose `\n`s `mask` holds (bit `i`: a `\n` at `block + i`);
    /// the text's length when no block is held yet.
    block: usize,
    mask: u64,
}

impl<'t> LineEnds<'t> {
    pub fn new(bytes: &'t [u8]) -> LineEnds<'t> {
        LineEnds {
            bytes,
            block: bytes.len(),
            mask: 0,
        }
    }

    /// The offset just past the first `\n` at or after `from`, or the text's length when
    /// none is: where the line holding `from` ends, as `memchr` finds it.
    #[inline]
    pub fn end_from(&mut self, mut from: usize) -> usize {
        let len = self.bytes.len();
        loop {
            if from >= len {
                return len;
            }
            if (self.block..self.block + 64).contains(&from) {
                let ahead = self.mask >> (from - self.block);
                if ahead != 0 {
                    return from + ahead.trailing_zeros() as usize + 1;
                }
                from = self.block + 64;
                continue;
            }
            self.block = from;
            self.mask = newlines_at(self.bytes, from);
        }
    }
}

/// The `\n`s of the 64 bytes from `at` (fewer at the text's end) as bits.
#[inline]
fn newlines_at(bytes: &[u8], at: usize) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if at + 64 <= bytes.len() {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86-64 baseline; the four loads read the 64 bytes at
        // `at`, within the text by the condition above
        unsafe {
            let newline = _mm_set1_epi8(b'\n' as i8);
            let p = bytes.as_ptr().add(at);
            let part = |k: usize| {
                let x = _mm_loadu_si128(p.add(16 * k) as *const __m128i);
                _mm_movemask_epi8(_mm_cmpeq_epi8(x, newline)) as u16 as u64
            };
            return part(0) | part(1) << 16 | part(2) << 32 | part(3) << 48;
        }
    }
    bytes[at..bytes.len().min(at + 64)]
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .fold(0, |mask, (i, _)| mask | 1 << i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What `end_from` must give: `memchr`'s answer.
    fn by_memchr(bytes: &[u8], from: usize) -> usize {
        memchr::memchr(b'\n', &bytes[from.min(bytes.len())..]).map_or(bytes.len(), |k| from + k + 1)
    }

    /// Every line end in order, then from offsets jumped to and back.
    fn agrees(bytes: &[u8], jumps: &[usize]) {
        let mut ends = LineEnds::new(bytes);
        let mut at = 0;
        while at < bytes.len() {
            let end = ends.end_from(at);
            assert_eq!(end, by_memchr(bytes, at), "from {at}");
            at = end;
        }
        for &from in jumps {
            assert_eq!(ends.end_from(from), by_memchr(bytes, from), "from {from}");
        }
    }

    #[test]
    fn the_ends_are_memchrs_on_real_sources_and_edges() {
        let mut texts: Vec<Vec<u8>> = vec![
            Vec::new(),
            b"\n".to_vec(),
            b"no newline".to_vec(),
            vec![b'\n'; 200],
            [
                vec![b'x'; 63],
                b"\n".to_vec(),
                vec![b'y'; 64],
                b"\n".to_vec(),
            ]
            .concat(),
            [vec![b'x'; 300], b"\nz".to_vec()].concat(),
        ];
        texts.extend(
            crate::own_sources::own_sources()
                .into_iter()
                .map(|(_, bytes)| bytes),
        );
        assert!(texts.len() > 100, "{}", texts.len());
        for text in &texts {
            let jumps: Vec<usize> = (0..text.len() + 70).step_by(37).rev().collect();
            agrees(text, &jumps);
        }
    }

    proptest! {
        #[test]
        fn the_ends_are_memchrs_on_any_bytes(
            bytes in proptest::collection::vec(prop_oneof![Just(b'\n'), Just(b'a'), any::<u8>()], 0..400),
            jumps in proptest::collection::vec(0usize..420, 0..20),
        ) {
            agrees(&bytes, &jumps);
        }
    }
}
