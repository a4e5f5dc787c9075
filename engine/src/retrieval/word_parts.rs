//! Where the parts of a text's words start and end, found 64 bytes at a time: what
//! [`super::tokens::for_each_part`] and [`super::tokens::for_each_term`] walk, over every
//! file a ranking counts (the counting of the first ranked `ask` on a root spent most of
//! its time cutting words byte by byte).
//!
//! A part is a run of ASCII letters and digits, cut where a CamelCase hump starts a new
//! one: an upper-case letter after a lower-case letter or a digit (`parseArgs`, `utf8Str`),
//! or the last capital of a run of them before a lower-case letter (`HTTPServer`). `_`,
//! any other byte and any byte outside ASCII end a part. Each block of 64 bytes is turned
//! into bit masks (which bytes are upper case, lower case, digits) and the parts' starts
//! and ends are read from the masks, so the time goes by part, not by byte.

/// Calls `each(start, end)` for every part of `bytes`, in order (byte offsets, `end`
/// exclusive); parts of one byte and of digits only included.
pub(crate) fn part_ranges(bytes: &[u8], mut each: impl FnMut(usize, usize)) {
    // the part running at the end of the last block
    let mut running: Option<usize> = None;
    for_each_block(bytes, |block| {
        let mut events = block.starts | block.ends;
        while events != 0 {
            let i = events.trailing_zeros() as usize;
            let bit = 1u64 << i;
            events &= events - 1;
            if block.ends & bit != 0 {
                if let Some(start) = running.take() {
                    each(start, block.base + i);
                }
            }
            if block.starts & bit != 0 {
                running = Some(block.base + i);
            }
        }
    });
    if let Some(start) = running {
        each(start, bytes.len());
    }
}

/// Calls `each(base, starts)` for every block of 64 bytes of `bytes` (fewer for the last),
/// `starts` holding bit `i` when a part that is a term starts at `base + i`: of two bytes
/// or more, not of digits only (what `super::tokens::for_each_part` gives). What counts a
/// field's terms without making each part ([`part_end`] finds a part's end when it is
/// wanted).
pub(crate) fn term_starts(bytes: &[u8], mut each: impl FnMut(usize, u64)) {
    for_each_block(bytes, |block| {
        let BlockMasks {
            base,
            n,
            starts,
            ends,
            digit,
        } = *block;
        // a part of one byte ends where the next begins: within the block from the ends'
        // mask, at its last byte from the byte after it
        let mut one_byte = starts & (ends >> 1);
        if starts >> (n - 1) & 1 == 1 && !continues(bytes, base + n) {
            one_byte |= 1 << (n - 1);
        }
        // a part that starts with a digit holds a letter when the first byte past its
        // digits is a lower-case one (a capital there starts a part of its own)
        let mut digits_only = 0u64;
        let mut from_digit = starts & digit;
        while from_digit != 0 {
            let i = from_digit.trailing_zeros() as usize;
            from_digit &= from_digit - 1;
            let mut k = base + i + 1;
            while k < bytes.len() && bytes[k].is_ascii_digit() {
                k += 1;
            }
            // the digit mask says the same of the bytes within the block
            if !(k < bytes.len() && bytes[k].is_ascii_lowercase()) {
                digits_only |= 1 << i;
            }
        }
        each(base, starts & !one_byte & !digits_only);
    });
}

/// Where the part that starts at `start` of `bytes` ends (exclusive), as [`part_ranges`]
/// cuts it.
pub(crate) fn part_end(bytes: &[u8], start: usize) -> usize {
    let mut end = start + 1;
    while continues(bytes, end) {
        end += 1;
    }
    end
}

/// True when byte `i` of `bytes` goes on the part its previous byte is in (which must be
/// a part's byte): it is a letter or a digit and starts no hump of a CamelCase word.
fn continues(bytes: &[u8], i: usize) -> bool {
    let Some(&b) = bytes.get(i) else {
        return false;
    };
    if !b.is_ascii_alphanumeric() {
        return false;
    }
    if !b.is_ascii_uppercase() {
        return true;
    }
    let prev = bytes[i - 1];
    let next_lower = bytes.get(i + 1).is_some_and(u8::is_ascii_lowercase);
    !(prev.is_ascii_lowercase()
        || prev.is_ascii_digit()
        || (prev.is_ascii_uppercase() && next_lower))
}

/// One block of at most 64 bytes of a text, as bit masks (bit `i` for the byte at
/// `base + i`): where parts start, where they end (the byte after a part's last), and which
/// bytes are digits.
#[derive(Debug, Clone, Copy)]
struct BlockMasks {
    base: usize,
    n: usize,
    starts: u64,
    ends: u64,
    digit: u64,
}

/// Calls `each` with every block of `bytes`, in order.
fn for_each_block(bytes: &[u8], mut each: impl FnMut(&BlockMasks)) {
    // the last block's last byte's classes, at bit 63
    let mut last = Classes::default();
    let mut base = 0;
    while base < bytes.len() {
        let n = (bytes.len() - base).min(64);
        let c = classes(&bytes[base..base + n]);
        let part = c.part();
        // each byte's previous and next byte's classes, across the blocks' edges
        let before = |mask: u64, last: u64| (mask << 1) | last;
        let prev_part = before(part, last.part() >> 63);
        let prev_lower = before(c.lower, last.lower >> 63);
        let prev_digit = before(c.digit, last.digit >> 63);
        let prev_upper = before(c.upper, last.upper >> 63);
        let next_lower = match bytes.get(base + 64) {
            Some(b) if n == 64 && b.is_ascii_lowercase() => (c.lower >> 1) | 1 << 63,
            _ => c.lower >> 1,
        };
        let hump = c.upper & prev_part & (prev_lower | prev_digit | (prev_upper & next_lower));
        each(&BlockMasks {
            base,
            n,
            starts: part & (!prev_part | hump),
            ends: ((!part & prev_part) | hump) & valid(n),
            digit: c.digit,
        });
        // the last byte's classes at bit 63, where the next block looks for them
        last = c.shifted_to_top(n);
        base += n;
    }
}

/// The bits of the first `n` bytes of a block.
fn valid(n: usize) -> u64 {
    if n == 64 {
        !0
    } else {
        (1 << n) - 1
    }
}

/// Which bytes of a block of at most 64 are ASCII upper-case letters, lower-case letters
/// and digits (bit `i` for byte `i`; none past the block's end).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Classes {
    upper: u64,
    lower: u64,
    digit: u64,
}

impl Classes {
    /// The bytes a part is made of.
    fn part(&self) -> u64 {
        self.upper | self.lower | self.digit
    }

    /// These classes moved so that byte `n - 1`'s are at bit 63.
    fn shifted_to_top(&self, n: usize) -> Classes {
        let up = |mask: u64| mask << (64 - n);
        Classes {
            upper: up(self.upper),
            lower: up(self.lower),
            digit: up(self.digit),
        }
    }
}

/// Which bytes of a block of at most 64 (bit `i` for byte `i`) are one of `wanted`, sixteen
/// bytes at a compare per wanted byte (SSE2, which every x86-64 processor has).
pub(crate) fn bytes_among(block: &[u8], wanted: &[u8]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        let mut padded = [0u8; 64];
        let bytes = whole_block(block, &mut padded);
        let mut mask = 0u64;
        // SSE2 is part of x86-64
        unsafe {
            for k in 0..4 {
                let x = _mm_loadu_si128(bytes.as_ptr().add(16 * k) as *const __m128i);
                let mut hit = _mm_setzero_si128();
                for &w in wanted {
                    hit = _mm_or_si128(hit, _mm_cmpeq_epi8(x, _mm_set1_epi8(w as i8)));
                }
                mask |= (_mm_movemask_epi8(hit) as u16 as u64) << (16 * k);
            }
        }
        mask & valid(block.len())
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        bytes_among_one_by_one(block, wanted)
    }
}

/// `block` (at most 64 bytes) as 64 bytes to load sixteen at a time: itself when whole,
/// else copied into `padded` (zeros after it; the caller masks off what they give).
#[cfg(target_arch = "x86_64")]
fn whole_block<'b>(block: &'b [u8], padded: &'b mut [u8; 64]) -> &'b [u8] {
    if block.len() == 64 {
        return block;
    }
    padded[..block.len()].copy_from_slice(block);
    padded
}

/// [`bytes_among`] a byte at a time.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn bytes_among_one_by_one(block: &[u8], wanted: &[u8]) -> u64 {
    block
        .iter()
        .enumerate()
        .filter(|(_, b)| wanted.contains(b))
        .fold(0, |mask, (i, _)| mask | 1 << i)
}

/// [`Classes`] of `block` (at most 64 bytes), sixteen bytes at a compare (SSE2, which every
/// x86-64 processor has).
#[cfg(target_arch = "x86_64")]
fn classes(block: &[u8]) -> Classes {
    use std::arch::x86_64::*;
    let mut padded = [0u8; 64];
    let bytes = whole_block(block, &mut padded);
    let mut c = Classes::default();
    // SAFETY: SSE2 is part of the x86-64 baseline, and each load reads 16 bytes of the 64
    // `bytes` holds (unaligned loads).
    unsafe {
        let range = |x: __m128i, low: u8, high: u8| {
            // bytes above 0x7f compare as negative: below every bound, in no range
            _mm_movemask_epi8(_mm_and_si128(
                _mm_cmpgt_epi8(x, _mm_set1_epi8(low as i8 - 1)),
                _mm_cmplt_epi8(x, _mm_set1_epi8(high as i8 + 1)),
            )) as u16 as u64
        };
        for k in 0..4 {
            let x = _mm_loadu_si128(bytes.as_ptr().add(16 * k) as *const __m128i);
            c.upper |= range(x, b'A', b'Z') << (16 * k);
            c.lower |= range(x, b'a', b'z') << (16 * k);
            c.digit |= range(x, b'0', b'9') << (16 * k);
        }
    }
    c
}

#[cfg(not(target_arch = "x86_64"))]
fn classes(block: &[u8]) -> Classes {
    classes_byte_by_byte(block)
}

/// [`Classes`] of `block`, a byte at a time.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn classes_byte_by_byte(block: &[u8]) -> Classes {
    let mut c = Classes::default();
    for (i, b) in block.iter().enumerate() {
        c.upper |= u64::from(b.is_ascii_uppercase()) << i;
        c.lower |= u64::from(b.is_ascii_lowercase()) << i;
        c.digit |= u64::from(b.is_ascii_digit()) << i;
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parts of `text` cut a byte at a time: runs of word bytes, cut at `_` and at
    /// humps (what the tokens were cut by before the masks).
    fn parts_byte_by_byte(text: &[u8]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        let mut i = 0;
        while i < text.len() {
            if !word(text[i]) {
                i += 1;
                continue;
            }
            let from = i;
            while i < text.len() && word(text[i]) {
                i += 1;
            }
            let b = &text[from..i];
            let mut start = 0;
            for k in 0..b.len() {
                if b[k] == b'_' {
                    if k > start {
                        out.push((from + start, from + k));
                    }
                    start = k + 1;
                    continue;
                }
                if k > start && b[k].is_ascii_uppercase() {
                    let prev = b[k - 1];
                    let next_lower = b.get(k + 1).is_some_and(u8::is_ascii_lowercase);
                    if prev.is_ascii_lowercase()
                        || prev.is_ascii_digit()
                        || (prev.is_ascii_uppercase() && next_lower)
                    {
                        out.push((from + start, from + k));
                        start = k;
                    }
                }
            }
            if start < b.len() {
                out.push((from + start, from + b.len()));
            }
        }
        out
    }

    fn parts(text: &[u8]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        part_ranges(text, |s, e| out.push((s, e)));
        out
    }

    #[test]
    fn humps_underscores_and_other_bytes_cut_parts() {
        let text = b"parseArgs HTTPServer utf8Str x1Y a__b _A ABc ab-cd \xc3\xa9A A";
        let cut: Vec<&str> = parts(text)
            .into_iter()
            .map(|(s, e)| std::str::from_utf8(&text[s..e]).unwrap())
            .collect();
        assert_eq!(
            cut,
            [
                "parse", "Args", "HTTP", "Server", "utf8", "Str", "x1", "Y", "a", "b", "A", "A",
                "Bc", "ab", "cd", "A", "A"
            ]
        );
        assert!(parts(b"").is_empty() && parts(b"-- _ \xff").is_empty());
    }

    /// Every text made of bytes of every class, at every length across the blocks' edges
    /// (a part ending, a hump and a capital run at byte 63, 64 and 65), is cut as the byte
    /// loop cuts it.
    /// Twenty texts of each length up to 200 and around the blocks' edges further on, drawn
    /// from `alphabet` by a fixed generator started at `seed` (the same texts on every run).
    fn generated_texts(alphabet: &[u8], seed: u64) -> Vec<Vec<u8>> {
        let mut state = seed;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut texts = Vec::new();
        for len in (0..200).chain([255, 256, 257, 1000]) {
            for _ in 0..20 {
                texts.push(
                    (0..len)
                        .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                        .collect(),
                );
            }
        }
        texts
    }

    #[test]
    fn the_masks_cut_as_the_byte_loop() {
        for text in generated_texts(b"aZ9_ -\xc3\xa9bcXY", 0x9e37_79b9_7f4a_7c15) {
            assert_eq!(parts(&text), parts_byte_by_byte(&text), "{text:?}");
        }
        for edge in [62usize, 63, 64, 65, 127, 128] {
            for tail in ["Ab", "aB", "ABc", "_x", "9Z", "zz"] {
                let text = format!("{}{tail} HTTPServer", "x".repeat(edge));
                assert_eq!(
                    parts(text.as_bytes()),
                    parts_byte_by_byte(text.as_bytes()),
                    "{text}"
                );
            }
        }
    }

    /// The parts that are terms (two bytes or more, not digits only), by the byte loop.
    fn term_parts_byte_by_byte(text: &[u8]) -> Vec<(usize, usize)> {
        parts_byte_by_byte(text)
            .into_iter()
            .filter(|&(s, e)| e - s >= 2 && !text[s..e].iter().all(u8::is_ascii_digit))
            .collect()
    }

    /// The term parts read from [`term_starts`]' masks and [`part_end`].
    fn term_parts(text: &[u8]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        term_starts(text, |base, mut starts| {
            while starts != 0 {
                let s = base + starts.trailing_zeros() as usize;
                starts &= starts - 1;
                out.push((s, part_end(text, s)));
            }
        });
        out
    }

    /// The starts of the parts that are terms, and their ends, are those of the byte loop's
    /// parts of two bytes or more that are not digits only: on texts of every class of
    /// byte (digits before letters of either case, one-byte parts at the blocks' edges)
    /// and on this crate's own sources.
    #[test]
    fn term_starts_are_those_of_the_term_parts() {
        let mut terms = 0;
        for text in generated_texts(b"aZ9_ -\xc3\xa9bcXY07x", 0x2545_f491_4f6c_dd1d) {
            let want = term_parts_byte_by_byte(&text);
            terms += want.len();
            assert_eq!(term_parts(&text), want, "{text:?}");
        }
        assert!(terms > 10_000, "{terms}");
        for edge in [62usize, 63, 64, 65, 127, 128] {
            for tail in ["Ab", "aB", "ABc", "_x", "9Z", "9z", "1 ", "x", "X", "7"] {
                for head in ["", "a", "1", " "] {
                    let text = format!("{}{head}{tail}", " ".repeat(edge));
                    let want = term_parts_byte_by_byte(text.as_bytes());
                    assert_eq!(term_parts(text.as_bytes()), want, "{text:?}");
                }
            }
        }
        for (path, bytes) in crate::own_sources::own_sources() {
            let want = term_parts_byte_by_byte(&bytes);
            assert_eq!(term_parts(&bytes), want, "{}", path.display());
        }
    }

    /// The bytes among a few are those a byte at a time finds, in every block length.
    #[test]
    fn bytes_among_a_few_are_found_in_every_block() {
        let text: Vec<u8> = (0..64u32).map(|i| (i * 37 % 251) as u8).collect();
        for wanted in [&b""[..], b"a", b"aA", b"\x00\xff", b"gGhHpP"] {
            for len in 0..=64 {
                let block = &text[..len];
                assert_eq!(
                    bytes_among(block, wanted),
                    bytes_among_one_by_one(block, wanted)
                );
            }
        }
        let some = b"xaxAxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxa";
        assert_eq!(bytes_among(some, b"aA"), 0b1010 | 1 << 63);
    }

    /// This crate's own sources are cut as the byte loop cuts them.
    #[test]
    fn real_sources_are_cut_as_the_byte_loop() {
        let mut files = 0;
        for (path, bytes) in crate::own_sources::own_sources() {
            assert_eq!(
                parts(&bytes),
                parts_byte_by_byte(&bytes),
                "{}",
                path.display()
            );
            files += 1;
        }
        assert!(files > 100, "{files}");
    }

    /// The classes of every byte value at every place of a block are the byte loop's.
    #[test]
    fn the_block_classes_are_the_byte_loops() {
        for value in 0..=255u8 {
            for len in [1usize, 17, 63, 64] {
                let block: Vec<u8> = (0..len)
                    .map(|i| {
                        if i % 3 == 0 {
                            value
                        } else {
                            b'a' + (i % 26) as u8
                        }
                    })
                    .collect();
                assert_eq!(
                    classes(&block),
                    classes_byte_by_byte(&block),
                    "{value} {len}"
                );
            }
        }
    }
}
