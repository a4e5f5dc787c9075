//! `--shard K/N`: which of N CI jobs runs a corpus case or replays a trace.
//!
//! A case belongs to shard `1 + FNV-1a-64(suite, 0x1f, id) mod N`; a trace to
//! `1 + FNV-1a-64(trace_id) mod N`. FNV-1a (64-bit offset basis 0xcbf29ce484222325, prime
//! 0x100000001b3, over the UTF-8 bytes) is fixed by its definition, so the split is the
//! same on every machine, Rust version and findbench build (unlike std's `DefaultHasher`,
//! whose algorithm may change), and every case is in exactly one shard.

use crate::error::HarnessError;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Shard `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

/// FNV-1a, 64 bits.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        hash ^= u64::from(*b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The unit separator between suite and id: neither may be split differently and collide.
const SEPARATOR: u8 = 0x1f;

impl Shard {
    /// The shard (1-based) of a key among `count`.
    fn of(key: &[u8], count: u32) -> u32 {
        1 + (fnv1a64(key) % u64::from(count.max(1))) as u32
    }

    /// Whether this shard runs the case `id` of `suite`.
    pub fn holds_case(&self, suite: &str, id: &str) -> bool {
        let mut key = Vec::with_capacity(suite.len() + id.len() + 1);
        key.extend_from_slice(suite.as_bytes());
        key.push(SEPARATOR);
        key.extend_from_slice(id.as_bytes());
        Shard::of(&key, self.count) == self.index
    }

    /// Whether this shard replays the trace `trace_id`.
    pub fn holds_trace(&self, trace_id: &str) -> bool {
        Shard::of(trace_id.as_bytes(), self.count) == self.index
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = HarnessError;

    fn from_str(s: &str) -> Result<Shard, HarnessError> {
        let bad = || {
            HarnessError::invalid(format!(
                "--shard `{s}`: expected K/N with 1 <= K <= N (e.g. 2/4)"
            ))
        };
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        // from the FNV reference test suite (draft-eastlake-fnv)
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn every_key_is_in_exactly_one_shard() {
        for count in 1..=7 {
            let shards: Vec<Shard> = (1..=count).map(|index| Shard { index, count }).collect();
            for i in 0..500 {
                let id = format!("case-{i}");
                let holders = shards.iter().filter(|s| s.holds_case("suite", &id)).count();
                assert_eq!(holders, 1, "{id} of {count}");
                let holders = shards.iter().filter(|s| s.holds_trace(&id)).count();
                assert_eq!(holders, 1, "trace {id} of {count}");
            }
        }
    }

    #[test]
    fn shards_split_roughly_evenly() {
        let shards: Vec<Shard> = (1..=3).map(|index| Shard { index, count: 3 }).collect();
        for s in &shards {
            let n = (0..3000)
                .filter(|i| s.holds_trace(&format!("tr-{i:05}")))
                .count();
            assert!((800..1200).contains(&n), "shard {s}: {n} of 3000");
        }
    }

    #[test]
    fn parses_k_of_n_and_refuses_the_rest() {
        assert_eq!(
            "2/3".parse::<Shard>().unwrap(),
            Shard { index: 2, count: 3 }
        );
        assert_eq!("2/3".parse::<Shard>().unwrap().to_string(), "2/3");
        for bad in ["0/3", "4/3", "1/0", "3", "a/b", "1/3/4", ""] {
            let e = bad.parse::<Shard>().unwrap_err();
            assert!(e.to_string().contains("K/N"), "{bad}: {e}");
            assert_eq!(e.exit_code(), 2);
        }
    }
}
