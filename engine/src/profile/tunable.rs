//! The search space of `findbench tune`: every number of the profile is declared once,
//! beside its section's `Default`, either as tunable (its range and whether it is an
//! integer) or as not tunable (and why). This file joins the sections' tables under their
//! JSON paths (`task_ranking.k1`, `task_ranking.path.weight`) and reads and writes a
//! number of a profile's JSON by such a path.

use super::code::CodeWeights;
use super::grep::GrepWeights;
use super::name::NameWeights;
use super::outline::OutlineWeights;
use super::path::PathWeights;
use super::planner::PlannerRules;
use super::range::{NotTunable, Tunable};
use super::sections::Profile;
use super::task::TaskWeights;
use super::task_ranking::TaskRankingWeights;
use serde_json::Value;

/// A tunable number of the whole profile, by its full JSON path.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// `task_ranking.k1`, `outline.matching.title`.
    pub path: String,
    pub min: f64,
    pub max: f64,
    pub integer: bool,
}

impl Param {
    /// `value` brought into the range, and rounded when the number is an integer.
    pub fn clamp(&self, value: f64) -> f64 {
        let v = value.clamp(self.min, self.max);
        if self.integer {
            v.round()
        } else {
            v
        }
    }
}

/// Each section's JSON key (a nested one with a dot) and its two tables.
type SectionTables = (&'static str, &'static [Tunable], &'static [NotTunable]);

const SECTIONS: &[SectionTables] = &[
    ("task", TaskWeights::TUNABLE, TaskWeights::NOT_TUNABLE),
    (
        "name_filter",
        NameWeights::TUNABLE,
        NameWeights::NOT_TUNABLE,
    ),
    (
        "outline",
        OutlineWeights::TUNABLE,
        OutlineWeights::NOT_TUNABLE,
    ),
    (
        "outline.matching",
        TaskWeights::TUNABLE,
        TaskWeights::NOT_TUNABLE,
    ),
    ("code", CodeWeights::TUNABLE, CodeWeights::NOT_TUNABLE),
    ("path", PathWeights::TUNABLE, PathWeights::NOT_TUNABLE),
    ("grep", GrepWeights::TUNABLE, GrepWeights::NOT_TUNABLE),
    ("planner", PlannerRules::TUNABLE, PlannerRules::NOT_TUNABLE),
    (
        "task_ranking",
        TaskRankingWeights::TUNABLE,
        TaskRankingWeights::NOT_TUNABLE,
    ),
];

impl Profile {
    /// Every tunable number of a profile, in the sections' order.
    pub fn tunables() -> Vec<Param> {
        SECTIONS
            .iter()
            .flat_map(|(section, tunable, _)| {
                tunable.iter().map(move |t| Param {
                    path: format!("{section}.{}", t.field),
                    min: t.min,
                    max: t.max,
                    integer: t.integer,
                })
            })
            .collect()
    }

    /// Every number of a profile that is not searched, by full JSON path, with the reason.
    pub fn not_tunable() -> Vec<(String, &'static str)> {
        SECTIONS
            .iter()
            .flat_map(|(section, _, fixed)| {
                fixed
                    .iter()
                    .map(move |f| (format!("{section}.{}", f.field), f.reason))
            })
            .collect()
    }
}

/// The number at a dotted JSON `path` of `value`, when there is one.
pub fn number_at(value: &Value, path: &str) -> Option<f64> {
    path.split('.')
        .try_fold(value, |v, key| v.get(key))
        .and_then(Value::as_f64)
}

/// Sets the number at a dotted JSON `path` of `value` (an integer written as one, so a
/// count still reads back); false when the path names no number.
pub fn set_number_at(value: &mut Value, path: &str, number: f64, integer: bool) -> bool {
    let slot = path
        .split('.')
        .try_fold(value, |v, key| v.get_mut(key))
        .filter(|v| v.is_number());
    let Some(slot) = slot else {
        return false;
    };
    let written = if integer && number >= 0.0 {
        Some(Value::from(number.round() as u64))
    } else {
        serde_json::Number::from_f64(number).map(Value::Number)
    };
    match written {
        Some(w) => {
            *slot = w;
            true
        }
        None => false,
    }
}

/// Every number of `value` with its dotted JSON path. Numbers inside lists are not
/// weights: the only lists of numbers are `ask`'s calibration maps
/// (`profile/calibration.rs`), fitted on answered questions rather than searched.
pub fn numeric_paths(value: &Value) -> Vec<String> {
    fn walk(v: &Value, prefix: &str, out: &mut Vec<String>) {
        match v {
            Value::Number(_) => out.push(prefix.to_string()),
            Value::Object(map) => {
                for (k, child) in map {
                    let path = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    walk(child, &path, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(value, "", &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn default_json() -> Value {
        serde_json::to_value(Profile::default()).unwrap()
    }

    #[test]
    fn every_declared_path_is_a_number_of_the_profile_with_its_default_in_range() {
        let json = default_json();
        let params = Profile::tunables();
        assert!(params.len() > 50, "{} tunables", params.len());
        for p in &params {
            let default = number_at(&json, &p.path)
                .unwrap_or_else(|| panic!("`{}` names no number of the profile", p.path));
            assert!(
                p.min < p.max && p.min <= default && default <= p.max,
                "`{}`: default {default} outside [{}, {}]",
                p.path,
                p.min,
                p.max
            );
            if p.integer {
                assert_eq!(default.fract(), 0.0, "`{}` is declared integer", p.path);
            }
        }
        for (path, reason) in Profile::not_tunable() {
            assert!(
                number_at(&json, &path).is_some(),
                "not-tunable `{path}` names no number of the profile"
            );
            assert!(!reason.is_empty(), "`{path}` gives no reason");
        }
    }

    #[test]
    fn every_number_of_the_profile_is_declared_once() {
        let declared: Vec<String> = Profile::tunables()
            .into_iter()
            .map(|p| p.path)
            .chain(Profile::not_tunable().into_iter().map(|(p, _)| p))
            .collect();
        let mut seen = std::collections::BTreeSet::new();
        for path in &declared {
            assert!(seen.insert(path.clone()), "`{path}` is declared twice");
        }
        let undeclared: Vec<String> = numeric_paths(&default_json())
            .into_iter()
            .filter(|p| !seen.contains(p))
            .collect();
        assert!(
            undeclared.is_empty(),
            "numbers of the profile neither tunable nor listed as not tunable (declare each \
             beside its section's Default): {undeclared:?}"
        );
    }

    #[test]
    fn a_number_set_by_path_reads_back_and_loads() {
        let mut json = default_json();
        assert!(set_number_at(
            &mut json,
            "task_ranking.path.weight",
            4.5,
            false
        ));
        assert!(set_number_at(
            &mut json,
            "task_ranking.rerank_depth",
            12.4,
            true
        ));
        assert!(!set_number_at(&mut json, "task_ranking.nope", 1.0, false));
        assert!(!set_number_at(
            &mut json,
            "task_ranking.stop_words",
            1.0,
            false
        ));
        let p: Profile = serde_json::from_value(json).unwrap();
        assert_eq!(p.task_ranking.path.weight, 4.5);
        assert_eq!(p.task_ranking.rerank_depth, 12);
        let int = super::super::range::integer("x", 1.0, 9.0);
        let param = Param {
            path: "x".into(),
            min: int.min,
            max: int.max,
            integer: int.integer,
        };
        assert_eq!(
            (param.clamp(3.6), param.clamp(-2.0), param.clamp(99.0)),
            (4.0, 1.0, 9.0)
        );
    }
}
