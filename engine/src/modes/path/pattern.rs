//! How a query byte is looked for in a path as listed (case-blind for letters, eight bytes a
//! step), and which path bytes start a word.

/// The bytes before which a path character is at a boundary.
#[inline]
pub(super) fn is_separator(b: u8) -> bool {
    matches!(b, b'/' | b'_' | b'-' | b'.' | b' ')
}

/// One query byte as the scan matches it: a path byte `b` matches when `b | mask == byte`.
/// The mask is `0x20` for a letter (so `b` may be either case: an ASCII path's folding,
/// read without folding it) and 0 for anything else; folded bytes hold no capitals, so the
/// same test holds for them.
#[derive(Debug, Clone, Copy)]
pub(super) struct Pat {
    pub(super) byte: u8,
    pub(super) mask: u8,
}

impl Pat {
    pub(super) fn of(byte: u8) -> Pat {
        Pat {
            byte,
            mask: if byte.is_ascii_lowercase() { 0x20 } else { 0 },
        }
    }

    #[inline]
    pub(super) fn matches(self, b: u8) -> bool {
        b | self.mask == self.byte
    }

    /// The bytes of `word` this byte matches: the high bit of each, exactly (no false
    /// positives, unlike the usual zero-byte trick, so the last match is found too).
    #[inline]
    pub(super) fn matches8(self, word: u64) -> u64 {
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        let y = (word | u64::from_le_bytes([self.mask; 8])) ^ u64::from_le_bytes([self.byte; 8]);
        !((y & LOW7).wrapping_add(LOW7) | y | LOW7)
    }

    /// The first offset at or after `from` in `path` this byte matches, eight bytes a step.
    #[inline]
    pub(super) fn find(self, path: &[u8], from: usize) -> Option<usize> {
        let hay = &path[from..];
        let mut words = hay.chunks_exact(8);
        let mut at = from;
        for word in &mut words {
            let hits = self.matches8(u64::from_le_bytes(word.try_into().expect("8 bytes")));
            if hits != 0 {
                return Some(at + (hits.trailing_zeros() / 8) as usize);
            }
            at += 8;
        }
        words
            .remainder()
            .iter()
            .position(|&b| self.matches(b))
            .map(|i| at + i)
    }

    /// The last offset before `end` in `path` this byte matches, eight bytes a step.
    #[inline]
    pub(super) fn rfind(self, path: &[u8], end: usize) -> Option<usize> {
        let hay = &path[..end];
        let mut words = hay.rchunks_exact(8);
        let mut top = end;
        for word in &mut words {
            let hits = self.matches8(u64::from_le_bytes(word.try_into().expect("8 bytes")));
            top -= 8;
            if hits != 0 {
                return Some(top + 7 - (hits.leading_zeros() / 8) as usize);
            }
        }
        words.remainder().iter().rposition(|&b| self.matches(b))
    }
}
