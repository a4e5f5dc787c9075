//! A case as JSON: every field written, so a reader (jq, DuckDB, pandas) never derives one
//! nor needs findbench to decode a report. The same object is a line of `cases.jsonl` and
//! an item of results.json's `cases` (schemas/case.schema.json).
//!
//! A case of a corpus run writes the fields of a run case; a replayed case (one that
//! records an outcome) writes those and the replay's own (`recorded_*`, `transition`,
//! `fixture`, `timestamp`, `selected`, `input_index`). `explain` is written when the replay
//! was asked to explain. An absent value is `null`, an empty list `[]`: the columns are
//! the same on every line of a kind.

use crate::case::CaseResult;
use serde::ser::{Serialize, SerializeMap, Serializer};

/// The fields every case writes, in order.
pub const RUN_FIELDS: [&str; 27] = [
    "id",
    "engine",
    "suite",
    "mode",
    "query",
    "status",
    "outcome",
    "expected_outcome",
    "candidates",
    "ranked",
    "expected",
    "rank",
    "first_hit_bytes",
    "duration_ms",
    "output_bytes",
    "dump_bytes",
    "evidence_bytes",
    "items",
    "tools",
    "iterations",
    "failed_tools",
    "calls",
    "reason",
    "known_failure",
    "tags",
    "file",
    "line",
];

/// The fields a replayed case writes besides [`RUN_FIELDS`].
pub const REPLAY_FIELDS: [&str; 14] = [
    "recorded_outcome",
    "transition",
    "fixture",
    "timestamp",
    "recorded_candidates",
    "recorded_tools",
    "recorded_iterations",
    "recorded_duration_ms",
    "recorded_output_bytes",
    "recorded_first_hit_bytes",
    "recorded_searches_before_hit",
    "selected",
    "input_index",
    "explain",
];

impl Serialize for CaseResult {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut m = serializer.serialize_map(None)?;
        macro_rules! fields {
            ($($name:ident),* $(,)?) => {
                $( m.serialize_entry(stringify!($name), &self.$name)?; )*
            };
        }
        fields!(
            id,
            engine,
            suite,
            mode,
            query,
            status,
            outcome,
            expected_outcome,
            candidates,
            ranked,
            expected,
            rank,
            first_hit_bytes,
            duration_ms,
            output_bytes,
            dump_bytes,
            evidence_bytes,
            items,
            tools,
            iterations,
            failed_tools,
            calls,
            reason,
            known_failure,
            tags,
            file,
            line,
        );
        if self.recorded_outcome.is_some() {
            fields!(
                recorded_outcome,
                transition,
                fixture,
                timestamp,
                recorded_candidates,
                recorded_tools,
                recorded_iterations,
                recorded_duration_ms,
                recorded_output_bytes,
                recorded_first_hit_bytes,
                recorded_searches_before_hit,
                selected,
                input_index,
            );
            if self.explain.is_some() {
                fields!(explain);
            }
        }
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::{TraceOutcome, Transition};

    fn keys(case: &CaseResult) -> Vec<String> {
        match serde_json::to_value(case).unwrap() {
            serde_json::Value::Object(m) => m.keys().cloned().collect(),
            other => panic!("{other}"),
        }
    }

    #[test]
    fn a_run_case_writes_every_run_field_and_a_replayed_case_its_own_too() {
        let run = CaseResult {
            id: "a".into(),
            ..CaseResult::default()
        };
        assert_eq!(keys(&run), RUN_FIELDS);
        let replayed = CaseResult {
            recorded_outcome: Some(TraceOutcome::Success),
            transition: Some(Transition::Unchanged),
            ..run.clone()
        };
        let want: Vec<&str> = RUN_FIELDS
            .iter()
            .chain(REPLAY_FIELDS.iter().filter(|f| **f != "explain"))
            .copied()
            .collect();
        assert_eq!(keys(&replayed), want);
        // and every one reads back
        let back: CaseResult =
            serde_json::from_value(serde_json::to_value(&replayed).unwrap()).unwrap();
        assert_eq!(back, replayed);
    }
}
