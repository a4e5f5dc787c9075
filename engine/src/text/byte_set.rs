//! The first byte of a text that is one of a few bytes, found sixteen bytes at a compare:
//! what the byte loops of the symbol scanner (`tree/symbols/scanner.rs`) and of the field
//! split (`retrieval/fields.rs`) pass over code with, to the next byte that may open a
//! string or a comment. Looked up a byte at a time in a table, that search was a seventh
//! of the time a ranked first `ask` spent counting its length sample and scored files.

/// The most bytes a set holds.
const MAX: usize = 12;

/// A set of at most [`MAX`] bytes.
#[derive(Clone, Copy, Debug)]
pub struct ByteSet {
    /// The members, in `..len`.
    members: [u8; MAX],
    len: usize,
    table: [bool; 256],
    /// For a set of ASCII bytes, the bits of the members' high nibbles (bit `h` for high
    /// nibble `h`) by low nibble, and each high nibble's bit: a byte is a member when the
    /// two lookups of its nibbles share a bit. Sixteen bytes are then classified with two
    /// table lookups (`pshufb`) whatever the set's size. `None` when a member is not ASCII.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    nibbles: Option<([u8; 16], [u8; 16])>,
}

impl ByteSet {
    /// The set of `bytes` (a byte listed twice counts once). Panics, at compile time when
    /// made in a constant, on more than [`MAX`] bytes or none.
    pub const fn new(bytes: &[u8]) -> ByteSet {
        assert!(
            !bytes.is_empty() && bytes.len() <= MAX,
            "a byte set holds 1 to 12 bytes"
        );
        let mut members = [0; MAX];
        let mut table = [false; 256];
        let mut by_low = [0u8; 16];
        let mut high_bit = [0u8; 16];
        let mut ascii = true;
        let mut k = 0;
        while k < bytes.len() {
            let b = bytes[k];
            members[k] = b;
            table[b as usize] = true;
            if b < 0x80 {
                by_low[(b & 0x0f) as usize] |= 1 << (b >> 4);
                high_bit[(b >> 4) as usize] = 1 << (b >> 4);
            } else {
                ascii = false;
            }
            k += 1;
        }
        ByteSet {
            members,
            len: bytes.len(),
            table,
            nibbles: if ascii {
                Some((by_low, high_bit))
            } else {
                None
            },
        }
    }

    /// Where the first byte of `haystack` in the set is.
    pub fn find(&self, haystack: &[u8]) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        {
            match self.nibbles {
                Some(nibbles)
                    if haystack.len() >= 16 && std::arch::is_x86_feature_detected!("ssse3") =>
                {
                    // SAFETY: SSSE3 is present (checked just above; the check is cached)
                    unsafe { find_by_nibbles(nibbles, haystack) }
                }
                _ => self.find_sse2(haystack),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.find_byte_by_byte(haystack)
        }
    }

    /// [`ByteSet::find`] a byte at a time (the table lookup the loops made before).
    pub fn find_byte_by_byte(&self, haystack: &[u8]) -> Option<usize> {
        haystack.iter().position(|&b| self.table[b as usize])
    }

    /// Sixteen bytes at a time: each compared with every member (SSE2, which every x86-64
    /// processor has), the tail of fewer than sixteen bytes by the table.
    #[cfg(target_arch = "x86_64")]
    fn find_sse2(&self, haystack: &[u8]) -> Option<usize> {
        use std::arch::x86_64::*;
        // most lines a scanner hands over are short: no compare is set up for fewer than
        // sixteen bytes
        if haystack.len() < 16 {
            return self.find_byte_by_byte(haystack);
        }
        let mut i = 0;
        // SAFETY: SSE2 is part of the x86-64 baseline; each load reads the 16 bytes at
        // `i..i + 16`, within `haystack` by the loop's condition (unaligned loads).
        unsafe {
            let mut needles = [_mm_setzero_si128(); MAX];
            for (needle, &member) in needles.iter_mut().zip(&self.members[..self.len]) {
                *needle = _mm_set1_epi8(member as i8);
            }
            let needles = &needles[..self.len];
            while i + 16 <= haystack.len() {
                let x = _mm_loadu_si128(haystack.as_ptr().add(i) as *const __m128i);
                let mut hit = _mm_cmpeq_epi8(x, needles[0]);
                for needle in &needles[1..] {
                    hit = _mm_or_si128(hit, _mm_cmpeq_epi8(x, *needle));
                }
                let mask = _mm_movemask_epi8(hit) as u32;
                if mask != 0 {
                    return Some(i + mask.trailing_zeros() as usize);
                }
                i += 16;
            }
        }
        self.find_byte_by_byte(&haystack[i..]).map(|k| i + k)
    }
}

/// [`ByteSet::find`] for a set of ASCII bytes given as its nibble tables
/// ([`ByteSet::nibbles`]), sixteen bytes at a time: each byte's low and high nibble looked
/// up (`pshufb`), a member where the two share a bit (a byte outside ASCII has a high nibble
/// no member has). The last bytes are read as the sixteen that end the haystack, the ones
/// already read masked off. The haystack holds at least sixteen bytes.
///
/// # Safety
///
/// The processor must have SSSE3.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "ssse3")]
unsafe fn find_by_nibbles(
    (by_low, high_bit): ([u8; 16], [u8; 16]),
    haystack: &[u8],
) -> Option<usize> {
    use std::arch::x86_64::*;
    debug_assert!(haystack.len() >= 16);
    let by_low = _mm_loadu_si128(by_low.as_ptr() as *const __m128i);
    let high_bit = _mm_loadu_si128(high_bit.as_ptr() as *const __m128i);
    let nibble = _mm_set1_epi8(0x0f);
    // the bits of the members among the sixteen bytes at `at` (within the haystack)
    let members_at = |at: usize| {
        let x = _mm_loadu_si128(haystack.as_ptr().add(at) as *const __m128i);
        let low = _mm_and_si128(x, nibble);
        let high = _mm_and_si128(_mm_srli_epi16(x, 4), nibble);
        let shared = _mm_and_si128(
            _mm_shuffle_epi8(by_low, low),
            _mm_shuffle_epi8(high_bit, high),
        );
        !(_mm_movemask_epi8(_mm_cmpeq_epi8(shared, _mm_setzero_si128())) as u32) & 0xffff
    };
    let mut i = 0;
    while i + 16 <= haystack.len() {
        let found = members_at(i);
        if found != 0 {
            return Some(i + found.trailing_zeros() as usize);
        }
        i += 16;
    }
    if i < haystack.len() {
        let last = haystack.len() - 16;
        // the bytes before `i` were read by the loop
        let found = members_at(last) >> (i - last);
        if found != 0 {
            return Some(i + found.trailing_zeros() as usize);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const CODE: ByteSet = ByteSet::new(b"\"`'/@$");

    #[test]
    fn the_first_member_is_found_in_any_block() {
        assert_eq!(CODE.find(b""), None);
        assert_eq!(CODE.find(b"let x = 1;"), None);
        assert_eq!(CODE.find(b"let s = \"x\";"), Some(8));
        // past the first block of sixteen, and in the tail after the last
        let long = format!("{}@{}", "a".repeat(37), "b".repeat(40));
        assert_eq!(CODE.find(long.as_bytes()), Some(37));
        let tail = format!("{}$", "a".repeat(33));
        assert_eq!(CODE.find(tail.as_bytes()), Some(33));
        // a byte outside ASCII compares as itself, not as a member
        assert_eq!(CODE.find("é€ 'x".as_bytes()), Some(6));
    }

    proptest! {
        /// The blocks find what the table finds, for sets of every size and texts of
        /// every length, drawn from few bytes so that members are met.
        #[test]
        fn blocks_find_what_the_table_finds(
            members in proptest::collection::vec(any::<u8>(), 1..=MAX),
            text in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'/'), Just(0xffu8), any::<u8>()], 0..200),
        ) {
            let set = ByteSet::new(&members);
            prop_assert_eq!(set.find(&text), set.find_byte_by_byte(&text));
            // the same members without their high bit: a set of ASCII bytes (found by
            // their nibbles where the processor allows)
            let ascii: Vec<u8> = members.iter().map(|b| b & 0x7f).collect();
            let set_ascii = ByteSet::new(&ascii);
            prop_assert_eq!(set_ascii.find(&text), set_ascii.find_byte_by_byte(&text));
            for from in 0..text.len().min(20) {
                prop_assert_eq!(set_ascii.find(&text[from..]), set_ascii.find_byte_by_byte(&text[from..]));
            }
            for from in 0..text.len().min(20) {
                prop_assert_eq!(set.find(&text[from..]), set.find_byte_by_byte(&text[from..]));
            }
        }
    }
}
