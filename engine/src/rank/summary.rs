//! The summary every ranked answer carries.

use serde::{Deserialize, Serialize};

/// How many items matched and how many are returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    pub total_matches: usize,
    pub returned: usize,
    pub truncated: bool,
}

impl Summary {
    pub fn new(total_matches: usize, returned: usize) -> Summary {
        Summary {
            total_matches,
            returned,
            truncated: returned < total_matches,
        }
    }
}
