//! A 64-bit set of the characters a text contains, for rejecting items before any search.

/// Bit for a (folded) character: `a`-`z` and `0`-`9` get their own bits, everything else
/// shares the remaining 28 by hash. Whitespace and punctuation are ignored: queries split on
/// them, and they never decide a match.
fn bit(c: char) -> u64 {
    match c {
        'a'..='z' => 1 << (c as u32 - 'a' as u32),
        '0'..='9' => 1 << (26 + c as u32 - '0' as u32),
        c if c.is_alphanumeric() => 1 << (36 + (c as u32).wrapping_mul(2_654_435_761) % 28),
        _ => 0,
    }
}

/// [`bit`] of each ASCII byte, looked up rather than matched (every path of a tree is
/// put in a bag on a first call: a third less time in `char_bag` by `perf report`).
const ASCII_BITS: [u64; 128] = {
    let mut bits = [0u64; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        bits[b] = match c {
            b'a'..=b'z' => 1 << (c - b'a'),
            b'0'..=b'9' => 1 << (26 + c - b'0'),
            // an ASCII letter or digit outside the ranges above: `bit`'s hashed share
            b'A'..=b'Z' => 1 << (36 + (c as u32).wrapping_mul(2_654_435_761) % 28),
            _ => 0,
        };
        b += 1;
    }
    bits
};

/// The set of characters of `text`.
pub fn char_bag(text: &str) -> u64 {
    if text.is_ascii() {
        text.bytes()
            .fold(0, |bag, b| bag | ASCII_BITS[usize::from(b & 0x7f)])
    } else {
        text.chars().fold(0, |bag, c| bag | bit(c))
    }
}

/// How many distinct characters of `needle` are absent from `hay`. A substring match needs
/// 0; a match with one wrong or extra letter needs at most 1.
pub fn missing(needle: u64, hay: u64) -> u32 {
    (needle & !hay).count_ones()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table gives every ASCII character the bit [`bit`] gives it.
    #[test]
    fn the_ascii_table_is_the_rule() {
        for b in 0u8..128 {
            assert_eq!(ASCII_BITS[usize::from(b)], bit(b as char), "{b}");
        }
        assert_ne!(ASCII_BITS[usize::from(b'Q')], 0);
    }

    #[test]
    fn substring_has_nothing_missing() {
        assert_eq!(missing(char_bag("ware"), char_bag("middleware")), 0);
        assert_eq!(missing(char_bag("wxre"), char_bag("middleware")), 1);
        assert_eq!(missing(char_bag("kubernetes"), char_bag("middleware")), 6);
        assert_eq!(missing(char_bag("straße"), char_bag("straße ok")), 0);
    }
}
