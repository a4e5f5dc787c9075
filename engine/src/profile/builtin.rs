//! The built-in profiles: `default` (today's ranking) and `legacy` (the code retrieval the
//! spec started from, for before/after runs).

use super::code::CodeWeights;
use super::grep::GrepWeights;
use super::planner::PlannerRules;
use super::sections::Profile;
use super::task_ranking::TaskRankingWeights;

impl Profile {
    /// The built-in profiles by name: `default` (today's ranking) and `legacy` (the code
    /// retrieval the spec started from, for before/after runs).
    pub fn builtin(name: &str) -> Option<Profile> {
        match name {
            "default" => Some(Profile::default()),
            "legacy" => Some(Profile {
                name: "legacy".into(),
                code: CodeWeights::legacy(),
                grep: GrepWeights::legacy(),
                planner: PlannerRules::legacy(),
                task_ranking: TaskRankingWeights::legacy(),
                ..Profile::default()
            }),
            _ => None,
        }
    }

    pub fn builtin_names() -> &'static [&'static str] {
        &["default", "legacy"]
    }
}
