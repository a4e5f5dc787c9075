//! The one reader of results.json cases, in either form: the verbose one findbench writes
//! (every field of every case, [`crate::case_json`]), and the compact one replays wrote
//! before it, which a reader still meets in older results.json files:
//!
//! - `case_defaults` (beside `cases`, and the mark of the compact form): `suite`, `mode`,
//!   `fixture`, `items` and `dump_bytes` of the first case; a case that differs says so.
//! - `answers`: what the engine answered (`outcome`, `candidates`, `ranked`, `calls`,
//!   `reason`, `failed_tools`, `explain`, and `status`, `tools`, `iterations`, `selected`
//!   when they do not follow), each distinct answer once; a case names its own by index
//!   (`"answer": 3`).
//! - Omitted, so derived: `status` (`pass` when `outcome` is `success`, else `fail`),
//!   `tools` (the tools of `calls`), `iterations` (the number of `tools`),
//!   `recorded_iterations` (the number of `recorded_tools`), `transition` (recorded
//!   against replayed outcome), `selected` (the input of the last `read` call that held
//!   evidence), `input_index` (the previous case's plus one, the first's 1). A case whose
//!   value differed wrote it (`null` included).
//! - Omitted, so their default: empty strings and lists, zeros, nulls.
//!
//! A results.json without `case_defaults` is read as written: every absent field is its
//! default.

use crate::case::{Call, CaseResult, Explanation, Status, TraceOutcome, Transition};
use serde::{Deserialize, Deserializer};

/// `null` is a value here (`Some(None)`), an absent field is `None`.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

macro_rules! case_wire {
    (plain { $($p:ident: $pt:ty),* $(,)? } nullable { $($n:ident: $nt:ty),* $(,)? }) => {
        /// One case as results.json holds it, in either form: every field may be absent
        /// (a nullable field's `null` is `Some(None)`), to be filled from the answer, the
        /// defaults, or derived ([`decode_cases`]).
        #[derive(Debug, Clone, Default, Deserialize)]
        pub struct CaseWire {
            $( #[serde(default)] pub $p: Option<$pt>, )*
            $( #[serde(default, deserialize_with = "present")] pub $n: Option<Option<$nt>>, )*
            /// Compact form: this case's answer in `answers`.
            #[serde(default)]
            pub answer: Option<usize>,
        }

        impl CaseWire {
            /// Takes from `under` every field `self` leaves out.
            fn fill_from(&mut self, under: &CaseWire) {
                $( if self.$p.is_none() { self.$p.clone_from(&under.$p); } )*
                $( if self.$n.is_none() { self.$n.clone_from(&under.$n); } )*
            }
        }
    };
}

case_wire! {
    plain {
        id: String,
        engine: String,
        suite: String,
        mode: String,
        query: String,
        status: Status,
        outcome: String,
        candidates: usize,
        ranked: Vec<String>,
        expected: Vec<String>,
        duration_ms: f64,
        output_bytes: u64,
        dump_bytes: u64,
        items: usize,
        tools: Vec<String>,
        iterations: u32,
        failed_tools: u32,
        calls: Vec<Call>,
        tags: Vec<String>,
        file: String,
        line: usize,
    }
    nullable {
        expected_outcome: String,
        rank: usize,
        first_hit_bytes: u64,
        evidence_bytes: u64,
        reason: String,
        known_failure: String,
        recorded_outcome: TraceOutcome,
        transition: Transition,
        fixture: String,
        timestamp: String,
        recorded_candidates: u64,
        recorded_tools: Vec<String>,
        recorded_iterations: u32,
        recorded_duration_ms: f64,
        recorded_output_bytes: u64,
        recorded_first_hit_bytes: u64,
        recorded_searches_before_hit: u32,
        selected: String,
        explain: Explanation,
        input_index: u64,
    }
}

// What the compact form's omitted fields derive from.

fn derived_status(outcome: &str) -> Status {
    if outcome == TraceOutcome::Success.as_str() {
        Status::Pass
    } else {
        Status::Fail
    }
}

fn derived_transition(recorded: Option<TraceOutcome>, outcome: &str) -> Option<Transition> {
    Some(Transition::of(recorded?, TraceOutcome::parse(outcome)?))
}

fn derived_recorded_iterations(recorded_tools: Option<&Vec<String>>) -> Option<u32> {
    recorded_tools.map(|t| u32::try_from(t.len()).unwrap_or(u32::MAX))
}

fn derived_iterations(tools: &[String]) -> u32 {
    u32::try_from(tools.len()).unwrap_or(u32::MAX)
}

/// The file `ask` read as evidence: the last `read` that found it.
fn derived_selected(calls: &[Call]) -> Option<&str> {
    calls
        .iter()
        .rev()
        .find(|c| c.tool == "read" && c.candidates > 0)
        .map(|c| c.input.as_str())
}

fn derived_input_index(previous: Option<u64>) -> Option<u64> {
    Some(previous.unwrap_or(0) + 1)
}

fn missing(field: &str) -> String {
    format!("missing field `{field}`")
}

impl CaseWire {
    /// The case, every absent field filled: derived when `compact`, else its default (the
    /// fields every form requires are `id`, `outcome`, `duration_ms`, and `status` outside
    /// the compact form).
    fn into_case(self, compact: bool, previous_index: Option<u64>) -> Result<CaseResult, String> {
        let outcome = self.outcome.ok_or_else(|| missing("outcome"))?;
        let calls = self.calls.unwrap_or_default();
        let tools = match self.tools {
            Some(t) => t,
            None if compact => calls.iter().map(|c| c.tool.clone()).collect(),
            None => Vec::new(),
        };
        let status = match self.status {
            Some(s) => s,
            None if compact => derived_status(&outcome),
            None => return Err(missing("status")),
        };
        let recorded_outcome = self.recorded_outcome.flatten();
        let recorded_tools = self.recorded_tools.flatten();
        fn derive<T>(field: Option<Option<T>>, compact: bool, derived: Option<T>) -> Option<T> {
            match field {
                Some(v) => v,
                None if compact => derived,
                None => None,
            }
        }
        Ok(CaseResult {
            id: self.id.ok_or_else(|| missing("id"))?,
            engine: self.engine.unwrap_or_default(),
            suite: self.suite.unwrap_or_default(),
            mode: self.mode.unwrap_or_default(),
            query: self.query.unwrap_or_default(),
            status,
            expected_outcome: self.expected_outcome.flatten(),
            candidates: self.candidates.unwrap_or_default(),
            ranked: self.ranked.unwrap_or_default(),
            expected: self.expected.unwrap_or_default(),
            rank: self.rank.flatten(),
            duration_ms: self.duration_ms.ok_or_else(|| missing("duration_ms"))?,
            output_bytes: self.output_bytes.unwrap_or_default(),
            dump_bytes: self.dump_bytes.unwrap_or_default(),
            evidence_bytes: self.evidence_bytes.flatten(),
            items: self.items.unwrap_or_default(),
            iterations: match self.iterations {
                Some(n) => n,
                None if compact => derived_iterations(&tools),
                None => 0,
            },
            failed_tools: self.failed_tools.unwrap_or_default(),
            reason: self.reason.flatten(),
            known_failure: self.known_failure.flatten(),
            tags: self.tags.unwrap_or_default(),
            file: self.file.unwrap_or_default(),
            line: self.line.unwrap_or_default(),
            transition: derive(
                self.transition,
                compact,
                derived_transition(recorded_outcome, &outcome),
            ),
            recorded_iterations: derive(
                self.recorded_iterations,
                compact,
                derived_recorded_iterations(recorded_tools.as_ref()),
            ),
            selected: derive(
                self.selected,
                compact,
                derived_selected(&calls).map(str::to_string),
            ),
            input_index: derive(
                self.input_index,
                compact,
                derived_input_index(previous_index),
            ),
            recorded_outcome,
            recorded_tools,
            fixture: self.fixture.flatten(),
            timestamp: self.timestamp.flatten(),
            recorded_candidates: self.recorded_candidates.flatten(),
            recorded_duration_ms: self.recorded_duration_ms.flatten(),
            recorded_output_bytes: self.recorded_output_bytes.flatten(),
            recorded_first_hit_bytes: self.recorded_first_hit_bytes.flatten(),
            recorded_searches_before_hit: self.recorded_searches_before_hit.flatten(),
            first_hit_bytes: self.first_hit_bytes.flatten(),
            explain: self.explain.flatten(),
            outcome,
            tools,
            calls,
        })
    }
}

/// One case written out whole (a line of cases.jsonl, or a results.json without
/// `case_defaults`): an error names the missing field.
pub fn decode_case(wire: CaseWire) -> Result<CaseResult, String> {
    wire.into_case(false, None)
}

/// The cases of a results.json of either form: the compact form when `defaults` (the
/// document's `case_defaults`) is present, each case filled from its answer in `answers`,
/// the defaults and the derivations. An error names the case by position (1-based) and id.
pub fn decode_cases(
    defaults: Option<CaseWire>,
    answers: Vec<CaseWire>,
    cases: Vec<CaseWire>,
) -> Result<Vec<CaseResult>, String> {
    let compact = defaults.is_some();
    let defaults = defaults.unwrap_or_default();
    let mut previous = None;
    let mut out = Vec::with_capacity(cases.len());
    for (n, mut wire) in cases.into_iter().enumerate() {
        let label = match &wire.id {
            Some(id) => format!("case {} (`{id}`)", n + 1),
            None => format!("case {}", n + 1),
        };
        if let Some(i) = wire.answer {
            let answer = answers.get(i).ok_or_else(|| {
                format!(
                    "{label}: answer {i} is not in `answers` ({} of them)",
                    answers.len()
                )
            })?;
            wire.fill_from(answer);
        }
        if compact {
            wire.fill_from(&defaults);
        }
        let case = wire
            .into_case(compact, previous)
            .map_err(|e| format!("{label}: {e}"))?;
        previous = case.input_index;
        out.push(case);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wire(json: &str) -> CaseWire {
        serde_json::from_str(json).unwrap()
    }

    /// A compact document as replays wrote it: the defaults, one answer named by two
    /// cases, and a case that differs from what derives.
    #[test]
    fn a_compact_document_reads_back_with_defaults_answers_and_derivations() {
        let defaults = wire(
            r#"{"suite":"replay","mode":"ask","fixture":"agent-cpp","items":39,"dump_bytes":22791}"#,
        );
        let answers = vec![wire(
            r#"{"outcome":"success","candidates":4,"ranked":["src/replay_service.cpp"],"calls":[{"tool":"find","input":"replay --impl","candidates":4},{"tool":"read","input":"src/replay_service.cpp","candidates":1}],"reason":"find: definition"}"#,
        )];
        let cases = vec![
            wire(
                r#"{"id":"a","query":"where is replay implemented","answer":0,"duration_ms":0.088,"output_bytes":1657,"recorded_outcome":"insufficient_evidence","timestamp":"2026-06-19T03:26:29Z","recorded_candidates":0,"recorded_tools":["find","grep"],"recorded_duration_ms":162.2}"#,
            ),
            wire(
                r#"{"id":"b","suite":"other","fixture":null,"answer":0,"duration_ms":1.0,"recorded_outcome":"success","transition":null,"input_index":7}"#,
            ),
        ];
        let back = decode_cases(Some(defaults), answers, cases).unwrap();
        let a = &back[0];
        assert_eq!((a.suite.as_str(), a.mode.as_str()), ("replay", "ask"));
        assert_eq!((a.items, a.dump_bytes), (39, 22791));
        assert_eq!(a.status, Status::Pass);
        assert_eq!(a.tools, ["find", "read"]);
        assert_eq!(a.iterations, 2);
        assert_eq!(a.recorded_iterations, Some(2));
        assert_eq!(a.transition, Some(Transition::Fixed));
        assert_eq!(a.selected.as_deref(), Some("src/replay_service.cpp"));
        assert_eq!(a.input_index, Some(1));
        assert_eq!(a.first_hit_bytes, None);
        let b = &back[1];
        assert_eq!((b.suite.as_str(), b.fixture.as_deref()), ("other", None));
        assert_eq!(b.transition, None);
        assert_eq!(b.input_index, Some(7));
        assert_eq!(b.candidates, 4);
    }

    #[test]
    fn without_case_defaults_absent_fields_are_defaults_and_status_is_required() {
        let w = wire(
            r#"{"id":"x","status":"fail","outcome":"success","duration_ms":1.0,"calls":[{"tool":"read","input":"f","candidates":1}]}"#,
        );
        let case = &decode_cases(None, Vec::new(), vec![w]).unwrap()[0];
        assert_eq!(case.status, Status::Fail);
        assert!(case.tools.is_empty() && case.selected.is_none() && case.input_index.is_none());
        let w = wire(r#"{"id":"y","outcome":"success","duration_ms":1.0}"#);
        let err = decode_cases(None, Vec::new(), vec![w]).unwrap_err();
        assert_eq!(err, "case 1 (`y`): missing field `status`");
        let w = wire(r#"{"id":"z","answer":4,"duration_ms":1.0}"#);
        let err = decode_cases(Some(CaseWire::default()), Vec::new(), vec![w]).unwrap_err();
        assert_eq!(
            err,
            "case 1 (`z`): answer 4 is not in `answers` (0 of them)"
        );
    }

    #[test]
    fn a_case_as_findbench_writes_it_reads_back_as_it_was() {
        let case = CaseResult {
            id: "t".into(),
            outcome: "success".into(),
            recorded_outcome: Some(TraceOutcome::Success),
            transition: Some(Transition::Unchanged),
            first_hit_bytes: Some(120),
            recorded_output_bytes: Some(4000),
            recorded_first_hit_bytes: Some(4000),
            recorded_searches_before_hit: Some(2),
            calls: vec![Call::new("read", "f", 1)],
            input_index: Some(3),
            explain: Some(Explanation {
                term: None,
                impl_query: false,
                steps: Vec::new(),
                candidates: Vec::new(),
            }),
            ..CaseResult::default()
        };
        let w: CaseWire = serde_json::from_value(serde_json::to_value(&case).unwrap()).unwrap();
        assert_eq!(decode_cases(None, Vec::new(), vec![w]).unwrap(), [case]);
    }
}
