//! The whole profile: a section per mode, each in its own file beside this one.

use super::code::CodeWeights;
use super::grep::GrepWeights;
use super::name::NameWeights;
use super::outline::OutlineWeights;
use super::path::PathWeights;
use super::planner::PlannerRules;
use super::task::TaskWeights;
use super::task_ranking::TaskRankingWeights;
use serde::{Deserialize, Serialize};

/// All tunable ranking data, one section per mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Profile {
    /// Name shown in reports (`default`, `legacy`, or a user's own).
    pub name: String,
    pub task: TaskWeights,
    /// `find name`; not called `name`, which is the profile's own name above.
    pub name_filter: NameWeights,
    pub outline: OutlineWeights,
    pub code: CodeWeights,
    pub path: PathWeights,
    pub grep: GrepWeights,
    pub planner: PlannerRules,
    /// `ask` for a task rather than a symbol: ranking files by every word.
    pub task_ranking: TaskRankingWeights,
    /// Where a profile written by `findbench tune` came from (its inputs, objective, seed,
    /// split and scores; `schemas/tune.schema.json`, `provenance`): kept as read, never
    /// ranked with. Absent from the built-ins.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provenance: Option<serde_json::Value>,
}

impl Default for Profile {
    fn default() -> Self {
        Profile {
            name: "default".into(),
            task: TaskWeights::default(),
            name_filter: NameWeights::default(),
            outline: OutlineWeights::default(),
            code: CodeWeights::default(),
            path: PathWeights::default(),
            grep: GrepWeights::default(),
            planner: PlannerRules::default(),
            task_ranking: TaskRankingWeights::default(),
            provenance: None,
        }
    }
}
