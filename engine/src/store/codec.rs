//! The binary encoding of the store cache: little-endian integers, length-prefixed byte
//! runs and arrays. Reading never trusts the input: every length is checked against what
//! is left, and any inconsistency reads as `None` (the cache is then rebuilt).
//!
//! Hand-rolled rather than a serde format: the index is a few dozen flat arrays, which this
//! writes and reads in bulk (one bounds check and one copy per array, not per element), and
//! the engine gains no dependency for it.

/// Appends values to a byte buffer.
#[derive(Default)]
pub(crate) struct Writer {
    pub(crate) buf: Vec<u8>,
}

impl Writer {
    pub(crate) fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }

    pub(crate) fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    pub(crate) fn u64(&mut self, v: u64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    pub(crate) fn bytes(&mut self, v: &[u8]) {
        self.u64(v.len() as u64);
        self.buf.extend_from_slice(v);
    }

    pub(crate) fn u32s(&mut self, v: &[u32]) {
        self.u64(v.len() as u64);
        self.buf.reserve(v.len() * 4);
        for x in v {
            self.buf.extend_from_slice(&x.to_le_bytes());
        }
    }

    pub(crate) fn u64s(&mut self, v: &[u64]) {
        self.u64(v.len() as u64);
        self.buf.reserve(v.len() * 8);
        for x in v {
            self.buf.extend_from_slice(&x.to_le_bytes());
        }
    }

    pub(crate) fn bools(&mut self, v: &[bool]) {
        self.u64(v.len() as u64);
        self.buf.extend(v.iter().map(|&b| u8::from(b)));
    }
}

/// Reads values back from a byte slice; `None` means truncated or malformed.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.bytes.len() {
            return None;
        }
        let (head, tail) = self.bytes.split_at(n);
        self.bytes = tail;
        Some(head)
    }

    pub(crate) fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }

    pub(crate) fn u64(&mut self) -> Option<u64> {
        self.take(8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
    }

    /// A length prefix, as a count of `unit`-byte elements that fit in what is left.
    fn len(&mut self, unit: usize) -> Option<usize> {
        let n = usize::try_from(self.u64()?).ok()?;
        (n.checked_mul(unit)? <= self.bytes.len()).then_some(n)
    }

    pub(crate) fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.len(1)?;
        self.take(n)
    }

    pub(crate) fn string(&mut self) -> Option<String> {
        String::from_utf8(self.bytes()?.to_vec()).ok()
    }

    pub(crate) fn u32s(&mut self) -> Option<Vec<u32>> {
        let n = self.len(4)?;
        let raw = self.take(n * 4)?;
        Some(
            raw.chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
                .collect(),
        )
    }

    pub(crate) fn u64s(&mut self) -> Option<Vec<u64>> {
        let n = self.len(8)?;
        let raw = self.take(n * 8)?;
        Some(
            raw.chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
                .collect(),
        )
    }

    pub(crate) fn bools(&mut self) -> Option<Vec<bool>> {
        let raw = self.bytes()?;
        raw.iter()
            .map(|&b| match b {
                0 => Some(false),
                1 => Some(true),
                _ => None,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_truncation() {
        let mut w = Writer::default();
        w.u8(7);
        w.u32s(&[1, 2, u32::MAX]);
        w.u64s(&[9]);
        w.bytes("héllo".as_bytes());
        w.bools(&[true, false]);
        let mut r = Reader::new(&w.buf);
        assert_eq!(r.u8(), Some(7));
        assert_eq!(r.u32s(), Some(vec![1, 2, u32::MAX]));
        assert_eq!(r.u64s(), Some(vec![9]));
        assert_eq!(r.string().as_deref(), Some("héllo"));
        assert_eq!(r.bools(), Some(vec![true, false]));
        assert!(r.is_empty());
        // every truncation of the buffer fails somewhere instead of panicking
        for cut in 0..w.buf.len() {
            let mut r = Reader::new(&w.buf[..cut]);
            let whole = r.u8().is_some()
                && r.u32s().is_some()
                && r.u64s().is_some()
                && r.string().is_some()
                && r.bools().is_some();
            assert!(!whole, "cut at {cut} read as whole");
        }
        // a length larger than the input is refused, not allocated
        let mut w = Writer::default();
        w.u64(u64::MAX);
        assert_eq!(Reader::new(&w.buf).u32s(), None);
    }
}
