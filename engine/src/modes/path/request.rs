//! The request and response of `find path`.

use crate::rank::Summary;
use serde::{Deserialize, Serialize};

/// A `find path` request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PathRequest {
    pub query: String,
    pub limit: usize,
}

impl PathRequest {
    pub fn new(query: impl Into<String>) -> PathRequest {
        PathRequest {
            query: query.into(),
            limit: 10,
        }
    }
}

/// One ranked path.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PathMatch {
    pub path: String,
    /// 0-1: true subsequence matches in `[0.5, 1]`, typo matches below 0.5.
    pub score: f64,
    /// Character (not byte) offsets of the matched characters in `path`.
    pub positions: Vec<u32>,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PathResponse {
    pub query: PathRequest,
    pub summary: Summary,
    pub matches: Vec<PathMatch>,
}
