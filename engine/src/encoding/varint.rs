//! LEB128 varints: how the tree index, the kept ranking statistics and the store's word
//! index write their gaps and counts (a byte for most).

/// Appends `value` as a LEB128 varint.
pub(crate) fn put_varint(out: &mut Vec<u8>, mut value: u32) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Reads a LEB128 varint at `*at`; `None` past the end or on an overlong value.
pub(crate) fn get_varint(bytes: &[u8], at: &mut usize) -> Option<u32> {
    let mut value: u32 = 0;
    for shift in (0..35).step_by(7) {
        let b = *bytes.get(*at)?;
        *at += 1;
        value |= u32::from(b & 0x7f).checked_shl(shift)?;
        if b < 0x80 {
            return Some(value);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_varint_reads_back_and_a_cut_or_overlong_one_is_refused() {
        let values = [0, 1, 127, 128, 300, 16_383, 16_384, u32::MAX];
        let mut bytes = Vec::new();
        for v in values {
            put_varint(&mut bytes, v);
        }
        // one byte below 128, two below 16384, five for u32::MAX
        assert_eq!(bytes.len(), 1 + 1 + 1 + 2 + 2 + 2 + 3 + 5);
        let mut at = 0;
        for v in values {
            assert_eq!(get_varint(&bytes, &mut at), Some(v));
        }
        assert_eq!(get_varint(&bytes, &mut at), None);
        // cut short
        assert_eq!(get_varint(&[0x80], &mut 0), None);
        // six bytes of continuation: overlong
        assert_eq!(get_varint(&[0x80; 6], &mut 0), None);
    }
}
