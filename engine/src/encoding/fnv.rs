//! FNV-1a, 64 bits: stable hashes (std's hashers may change between releases) for the
//! names of kept files and the fingerprints of the sources that decide what they hold. Not
//! for security: a collision is harmless where they are used (a kept file's header names
//! what it is for in full).

const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0100_0000_01b3;

/// The hash of `bytes`: a store file's name in the store cache.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(OFFSET, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
}

/// The hash of several parts, each ended by a separator, so that ("ab", "c") and
/// ("a", "bc") differ: a tree index's name, stamp and fingerprint.
pub(crate) fn fnv(parts: &[&[u8]]) -> u64 {
    let mut hash = FnvParts::new();
    for part in parts {
        hash.bytes(part);
        hash.end_part();
    }
    hash.finish()
}

/// [`fnv`] fed a piece at a time: a part may come in several pieces (ended by
/// [`FnvParts::end_part`]), so that a stamp over every file of a tree is hashed without
/// gathering the parts first.
pub(crate) struct FnvParts(u64);

impl FnvParts {
    pub(crate) fn new() -> FnvParts {
        FnvParts(OFFSET)
    }

    /// Adds `bytes` to the part being hashed.
    pub(crate) fn bytes(&mut self, bytes: &[u8]) {
        self.0 = bytes
            .iter()
            .fold(self.0, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME));
    }

    /// Ends the part being hashed.
    pub(crate) fn end_part(&mut self) {
        self.0 = (self.0 ^ 0xff).wrapping_mul(PRIME);
    }

    pub(crate) fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hashes_are_fnv1a_and_parts_are_kept_apart() {
        // the published FNV-1a 64 test vectors
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
        assert_ne!(fnv(&[b"ab", b"c"]), fnv(&[b"a", b"bc"]));
        // one part is the plain hash followed by the separator byte
        let h = (fnv1a(b"foobar") ^ 0xff).wrapping_mul(PRIME);
        assert_eq!(fnv(&[b"foobar"]), h);
        // a part fed in pieces hashes as the part whole
        let mut pieces = FnvParts::new();
        pieces.bytes(b"ab");
        pieces.end_part();
        pieces.bytes(b"c");
        pieces.bytes(b"de");
        pieces.end_part();
        assert_eq!(pieces.finish(), fnv(&[b"ab", b"cde"]));
        assert_ne!(pieces.finish(), fnv(&[b"ab", b"c", b"de"]));
    }
}
