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

/// Reads values back from a byte stream of known length; `None` means truncated or
/// malformed. Arrays are read straight into their own buffers (no copy of the whole input
/// is held), and no length is believed beyond what is left to read.
pub(crate) struct Reader<R> {
    inner: R,
    left: u64,
    scratch: Vec<u8>,
}

#[cfg(test)]
impl<'a> Reader<&'a [u8]> {
    pub(crate) fn new(bytes: &'a [u8]) -> Reader<&'a [u8]> {
        Reader::from_stream(bytes, bytes.len() as u64)
    }
}

impl<R: std::io::Read> Reader<R> {
    /// Reads `len` bytes of `inner`.
    pub(crate) fn from_stream(inner: R, len: u64) -> Reader<R> {
        Reader {
            inner,
            left: len,
            scratch: Vec::new(),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.left == 0
    }

    fn fill(&mut self, out: &mut [u8]) -> Option<()> {
        if out.len() as u64 > self.left {
            return None;
        }
        self.inner.read_exact(out).ok()?;
        self.left -= out.len() as u64;
        Some(())
    }

    /// `n` bytes into the scratch buffer.
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        scratch.resize(n, 0);
        let ok = self.fill(&mut scratch);
        self.scratch = scratch;
        ok.map(|()| self.scratch.as_slice())
    }

    pub(crate) fn u8(&mut self) -> Option<u8> {
        let mut b = [0u8; 1];
        self.fill(&mut b)?;
        Some(b[0])
    }

    pub(crate) fn u64(&mut self) -> Option<u64> {
        let mut b = [0u8; 8];
        self.fill(&mut b)?;
        Some(u64::from_le_bytes(b))
    }

    /// Exactly these bytes come next.
    pub(crate) fn expect(&mut self, bytes: &[u8]) -> Option<()> {
        (self.take(bytes.len())? == bytes).then_some(())
    }

    /// A length prefix, as a count of `unit`-byte elements that fit in what is left.
    fn len(&mut self, unit: u64) -> Option<usize> {
        let n = self.u64()?;
        if n.checked_mul(unit)? > self.left {
            return None;
        }
        usize::try_from(n).ok()
    }

    pub(crate) fn bytes(&mut self) -> Option<Vec<u8>> {
        let n = self.len(1)?;
        let mut out = vec![0u8; n];
        self.fill(&mut out)?;
        Some(out)
    }

    pub(crate) fn string(&mut self) -> Option<String> {
        String::from_utf8(self.bytes()?).ok()
    }

    pub(crate) fn u32s(&mut self) -> Option<Vec<u32>> {
        let n = self.len(4)?;
        Some(
            self.take(n * 4)?
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
                .collect(),
        )
    }

    pub(crate) fn u64s(&mut self) -> Option<Vec<u64>> {
        let n = self.len(8)?;
        Some(
            self.take(n * 8)?
                .chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
                .collect(),
        )
    }

    pub(crate) fn bools(&mut self) -> Option<Vec<bool>> {
        self.bytes()?
            .iter()
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
