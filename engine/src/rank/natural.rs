//! The natural order of ids: the tie-break of every item ranking.

use std::cmp::Ordering;

/// Orders ids with digit runs compared by value, so `T2` comes before `T10`.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let xn = x.iter().take_while(|c| c.is_ascii_digit()).count();
                let yn = y.iter().take_while(|c| c.is_ascii_digit()).count();
                let xd = trim_zeros(&x[..xn]);
                let yd = trim_zeros(&y[..yn]);
                let ord = xd.len().cmp(&yd.len()).then_with(|| xd.cmp(yd));
                if ord != Ordering::Equal {
                    return ord;
                }
                x = &x[xn..];
                y = &y[yn..];
            }
            (Some(c), Some(d)) => {
                if c != d {
                    return c.cmp(d);
                }
                x = &x[1..];
                y = &y[1..];
            }
        }
    }
}

fn trim_zeros(digits: &[u8]) -> &[u8] {
    let zeros = digits.iter().take_while(|&&c| c == b'0').count();
    &digits[zeros.min(digits.len().saturating_sub(1))..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order_of_ids() {
        let mut ids = vec!["T10", "T2", "T1", "a", "T02"];
        ids.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(ids, ["T1", "T02", "T2", "T10", "a"]);
    }
}
