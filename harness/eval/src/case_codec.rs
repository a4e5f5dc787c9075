//! The compact form of results.json cases, as `replay` (and `merge` of replay shards)
//! writes them, and the one reader of both forms.
//!
//! A replayed case repeats a lot: the suite, mode and fixture of the run, the same answer
//! for the same question, fields that follow from others. The compact form writes each of
//! these once, and a reader gets back exactly the [`CaseResult`] the replay held:
//!
//! - `case_defaults` (beside `cases`, and the mark of the compact form): `suite`, `mode`,
//!   `fixture`, `items` and `dump_bytes` of the first case; a case that differs says so.
//! - `answers`: what the engine answered (`outcome`, `candidates`, `ranked`, `calls`,
//!   `reason`, `failed_tools`, `explain`, and `status`, `tools`, `iterations`, `selected`
//!   when they do not follow), each distinct answer once, in order of first use; a case
//!   names its own by index (`"answer": 3`). The table holds up to [`ANSWER_TABLE_BYTES`];
//!   past that, a new answer is written inside its case.
//! - Omitted, so derived: `status` (`pass` when `outcome` is `success`, else `fail`),
//!   `tools` (the tools of `calls`), `iterations` (the number of `tools`),
//!   `recorded_iterations` (the number of `recorded_tools`), `transition` (recorded
//!   against replayed outcome), `selected` (the input of the last `read` call that held
//!   evidence), `input_index` (the previous case's plus one, the first's 1). A case whose
//!   value differs writes it (`null` included).
//! - Omitted, so their default: empty strings and lists, zeros, nulls.
//!
//! Output bytes and timing stay in each case: they vary between two replays of one trace.
//! A results.json without `case_defaults` (a `run`'s, or one written before this form) is
//! read as it always was: every absent field is its default.

use crate::case::{Call, CaseResult, Explanation, Status, TraceOutcome, Transition};
use serde::ser::{SerializeMap, Serializer as _};
use serde::{Deserialize, Deserializer};
use std::collections::HashMap;

/// Bytes of distinct answers the table holds (first come, first kept); later answers are
/// written inside their cases. Bounds the writer's memory whatever the trace set.
pub const ANSWER_TABLE_BYTES: usize = 8 << 20;

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
        selected: String,
        explain: Explanation,
        input_index: u64,
    }
}

// What omitted fields are derived from: one definition for the writer and the reader.

fn derived_status(outcome: &str) -> Status {
    if outcome == TraceOutcome::Success.as_str() {
        Status::Pass
    } else {
        Status::Fail
    }
}

fn tools_follow_calls(tools: &[String], calls: &[Call]) -> bool {
    tools.len() == calls.len() && tools.iter().zip(calls).all(|(t, c)| *t == c.tool)
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

/// The values `case_defaults` gives every case that leaves them out.
#[derive(Debug, Clone, PartialEq)]
struct Defaults {
    suite: String,
    mode: String,
    fixture: Option<String>,
    items: usize,
    dump_bytes: u64,
}

impl Defaults {
    fn of(case: &CaseResult) -> Defaults {
        Defaults {
            suite: case.suite.clone(),
            mode: case.mode.clone(),
            fixture: case.fixture.clone(),
            items: case.items,
            dump_bytes: case.dump_bytes,
        }
    }
}

/// Which fields of a case an object holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    /// The case's own fields, its answer named by index.
    Case,
    /// The answer's fields alone (an entry of `answers`).
    Answer,
    /// Both: the answer did not fit in the table.
    Whole,
}

/// Writes cases in the compact form, in order; [`CaseEncoder::defaults`] and
/// [`CaseEncoder::answers`] are the document fields they need.
#[derive(Debug, Default)]
pub struct CaseEncoder {
    defaults: Option<Defaults>,
    answers: HashMap<Box<[u8]>, usize>,
    table_bytes: usize,
    previous_index: Option<u64>,
    buf: Vec<u8>,
}

impl CaseEncoder {
    pub fn new() -> CaseEncoder {
        CaseEncoder::default()
    }

    /// Appends `case` as one compact JSON object (no line break) to `out`.
    pub fn encode(&mut self, case: &CaseResult, out: &mut Vec<u8>) -> serde_json::Result<()> {
        let defaults = self.defaults.get_or_insert_with(|| Defaults::of(case));
        let previous = self.previous_index;
        self.previous_index = case.input_index;
        self.buf.clear();
        write_part(&mut self.buf, case, defaults, previous, Part::Answer, None)?;
        let answer = match self.answers.get(self.buf.as_slice()) {
            Some(&i) => Some(i),
            None if self.table_bytes + self.buf.len() <= ANSWER_TABLE_BYTES => {
                let i = self.answers.len();
                self.table_bytes += self.buf.len();
                self.answers.insert(self.buf.clone().into_boxed_slice(), i);
                Some(i)
            }
            None => None,
        };
        let part = if answer.is_some() {
            Part::Case
        } else {
            Part::Whole
        };
        write_part(out, case, defaults, previous, part, answer)
    }

    /// `case_defaults`: an object (empty before the first case), which also marks the form.
    pub fn defaults(&self) -> serde_json::Value {
        let mut map = serde_json::Map::new();
        if let Some(d) = &self.defaults {
            map.insert("suite".into(), d.suite.clone().into());
            map.insert("mode".into(), d.mode.clone().into());
            map.insert("fixture".into(), d.fixture.clone().into());
            map.insert("items".into(), d.items.into());
            map.insert("dump_bytes".into(), d.dump_bytes.into());
        }
        serde_json::Value::Object(map)
    }

    /// `answers`: each a compact JSON object, in index order.
    pub fn answers(&self) -> Vec<&[u8]> {
        let mut v: Vec<(&[u8], usize)> = self.answers.iter().map(|(k, i)| (&**k, *i)).collect();
        v.sort_unstable_by_key(|(_, i)| *i);
        v.into_iter().map(|(k, _)| k).collect()
    }
}

/// Writes the fields of `case` that `part` holds and that do not follow from the defaults,
/// the derivations or their type's default, as one JSON object.
fn write_part(
    out: &mut Vec<u8>,
    case: &CaseResult,
    d: &Defaults,
    previous_index: Option<u64>,
    part: Part,
    answer: Option<usize>,
) -> serde_json::Result<()> {
    let own = part != Part::Answer;
    let answers = part != Part::Case;
    let mut ser = serde_json::Serializer::new(out);
    let mut m = ser.serialize_map(None)?;
    macro_rules! field {
        ($holds:expr, $name:ident, $write:expr) => {
            if $holds && $write {
                m.serialize_entry(stringify!($name), &case.$name)?;
            }
        };
    }
    field!(own, id, true);
    field!(own, engine, !case.engine.is_empty());
    field!(own, suite, case.suite != d.suite);
    field!(own, mode, case.mode != d.mode);
    field!(own, query, !case.query.is_empty());
    if let Some(i) = answer {
        m.serialize_entry("answer", &i)?;
    }
    field!(
        answers,
        status,
        case.status != derived_status(&case.outcome)
    );
    field!(answers, outcome, true);
    field!(own, expected_outcome, case.expected_outcome.is_some());
    field!(answers, candidates, case.candidates != 0);
    field!(answers, ranked, !case.ranked.is_empty());
    field!(own, expected, !case.expected.is_empty());
    field!(own, rank, case.rank.is_some());
    field!(own, duration_ms, true);
    field!(own, output_bytes, case.output_bytes != 0);
    field!(own, dump_bytes, case.dump_bytes != d.dump_bytes);
    field!(own, evidence_bytes, case.evidence_bytes.is_some());
    field!(own, items, case.items != d.items);
    field!(
        answers,
        tools,
        !tools_follow_calls(&case.tools, &case.calls)
    );
    field!(
        answers,
        iterations,
        case.iterations != derived_iterations(&case.tools)
    );
    field!(answers, failed_tools, case.failed_tools != 0);
    field!(answers, calls, !case.calls.is_empty());
    field!(answers, reason, case.reason.is_some());
    field!(own, known_failure, case.known_failure.is_some());
    field!(own, tags, !case.tags.is_empty());
    field!(own, file, !case.file.is_empty());
    field!(own, line, case.line != 0);
    field!(own, recorded_outcome, case.recorded_outcome.is_some());
    field!(
        own,
        transition,
        case.transition != derived_transition(case.recorded_outcome, &case.outcome)
    );
    field!(own, fixture, case.fixture != d.fixture);
    field!(own, timestamp, case.timestamp.is_some());
    field!(own, recorded_candidates, case.recorded_candidates.is_some());
    field!(own, recorded_tools, case.recorded_tools.is_some());
    field!(
        own,
        recorded_iterations,
        case.recorded_iterations != derived_recorded_iterations(case.recorded_tools.as_ref())
    );
    field!(
        own,
        recorded_duration_ms,
        case.recorded_duration_ms.is_some()
    );
    field!(
        answers,
        selected,
        case.selected.as_deref() != derived_selected(&case.calls)
    );
    field!(answers, explain, case.explain.is_some());
    field!(
        own,
        input_index,
        case.input_index != derived_input_index(previous_index)
    );
    m.end()
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
            explain: self.explain.flatten(),
            outcome,
            tools,
            calls,
        })
    }
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
    use crate::case::{ExplainCandidate, ExplainStep};

    fn replayed(id: &str, index: u64) -> CaseResult {
        let calls = vec![
            Call::new("find", "replay --impl", 4),
            Call::new("read", "src/replay_service.cpp", 1),
        ];
        CaseResult {
            id: id.into(),
            suite: "replay".into(),
            mode: "ask".into(),
            query: "where is replay implemented".into(),
            status: Status::Pass,
            outcome: "success".into(),
            candidates: 4,
            ranked: vec!["src/replay_service.cpp".into(), "README.md".into()],
            duration_ms: 0.088,
            output_bytes: 1657,
            dump_bytes: 22791,
            items: 39,
            tools: vec!["find".into(), "read".into()],
            iterations: 2,
            calls,
            reason: Some("find: definition".into()),
            recorded_outcome: Some(TraceOutcome::InsufficientEvidence),
            transition: Some(Transition::Fixed),
            fixture: Some("agent-cpp".into()),
            timestamp: Some("2026-06-19T03:26:29Z".into()),
            recorded_candidates: Some(0),
            recorded_tools: Some(vec!["find".into(), "grep".into()]),
            recorded_iterations: Some(2),
            recorded_duration_ms: Some(162.2),
            selected: Some("src/replay_service.cpp".into()),
            input_index: Some(index),
            ..CaseResult::default()
        }
    }

    /// Cases where each derivation and default does not hold, beside ones where it does.
    fn varied() -> Vec<CaseResult> {
        let plain = replayed("a", 1);
        let mut no_fixture = replayed("b", 2);
        no_fixture.items = 0;
        no_fixture.dump_bytes = 0;
        no_fixture.fixture = None;
        no_fixture.suite = "other".into();
        no_fixture.mode = "find_task".into();
        let mut unread = replayed("c", 7);
        unread.selected = None;
        unread.status = Status::Fail;
        unread.outcome = "insufficient_evidence".into();
        unread.transition = Some(Transition::Unchanged);
        let mut odd = replayed("d", 8);
        odd.tools = vec!["find_task".into()];
        odd.iterations = 1;
        odd.calls.clear();
        odd.selected = Some("elsewhere".into());
        odd.status = Status::Xpass;
        odd.transition = None;
        odd.recorded_iterations = Some(9);
        odd.input_index = None;
        odd.failed_tools = 1;
        odd.expected = vec!["x".into()];
        odd.rank = Some(2);
        odd.tags = vec!["t".into()];
        odd.known_failure = Some("k".into());
        odd.expected_outcome = Some("success".into());
        odd.evidence_bytes = Some(0);
        odd.engine = "rg".into();
        odd.file = "c.yaml".into();
        odd.line = 3;
        odd.explain = Some(Explanation {
            term: Some("replay".into()),
            impl_query: true,
            steps: vec![ExplainStep {
                tool: "find".into(),
                input: "replay".into(),
                candidates: 1,
                note: "n".into(),
            }],
            candidates: vec![ExplainCandidate {
                path: "p".into(),
                score: 1.5,
                reason: "r".into(),
            }],
        });
        let mut nothing = replayed("e", 1);
        nothing.recorded_outcome = None;
        nothing.transition = None;
        nothing.recorded_tools = None;
        nothing.recorded_iterations = None;
        nothing.reason = None;
        nothing.timestamp = None;
        let again = replayed("f", 2);
        vec![plain, no_fixture, unread, odd, nothing, again]
    }

    fn round_trip(cases: &[CaseResult], enc: &mut CaseEncoder) -> (Vec<CaseResult>, String) {
        let mut text = Vec::new();
        for c in cases {
            enc.encode(c, &mut text).unwrap();
            text.push(b'\n');
        }
        let defaults: CaseWire = serde_json::from_value(enc.defaults()).unwrap();
        let answers: Vec<CaseWire> = enc
            .answers()
            .iter()
            .map(|a| serde_json::from_slice(a).unwrap())
            .collect();
        let wires: Vec<CaseWire> = text
            .split(|b| *b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).unwrap())
            .collect();
        let back = decode_cases(Some(defaults), answers, wires).unwrap();
        (back, String::from_utf8(text).unwrap())
    }

    #[test]
    fn every_case_reads_back_as_written_whatever_holds_or_not() {
        let cases = varied();
        let (back, text) = round_trip(&cases, &mut CaseEncoder::new());
        assert_eq!(back, cases);
        // the first case: nothing the defaults, its answer or the derivations give
        let first = text.lines().next().unwrap();
        assert_eq!(
            first,
            r#"{"id":"a","query":"where is replay implemented","answer":0,"duration_ms":0.088,"output_bytes":1657,"recorded_outcome":"insufficient_evidence","timestamp":"2026-06-19T03:26:29Z","recorded_candidates":0,"recorded_tools":["find","grep"],"recorded_duration_ms":162.2}"#
        );
        // what differs is written, null included
        let second: serde_json::Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
        assert_eq!(second["fixture"], serde_json::Value::Null);
        assert_eq!(second["items"], 0);
        assert_eq!(second["suite"], "other");
        // the same answer again is named, not repeated
        let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        assert_eq!(last["answer"], 0);
        assert!(last.get("ranked").is_none());
    }

    #[test]
    fn answers_past_the_table_are_written_inside_their_cases() {
        let mut enc = CaseEncoder::new();
        enc.table_bytes = ANSWER_TABLE_BYTES;
        let cases = varied();
        let (back, text) = round_trip(&cases, &mut enc);
        assert_eq!(back, cases);
        assert!(enc.answers().is_empty());
        assert!(!text.contains("\"answer\""), "{text}");
        assert!(text.lines().all(|l| l.contains("\"outcome\"")), "{text}");
    }

    #[test]
    fn without_case_defaults_absent_fields_are_defaults_and_status_is_required() {
        let wire: CaseWire = serde_json::from_str(
            r#"{"id":"x","status":"fail","outcome":"success","duration_ms":1.0,"calls":[{"tool":"read","input":"f","candidates":1}]}"#,
        )
        .unwrap();
        let case = &decode_cases(None, Vec::new(), vec![wire]).unwrap()[0];
        assert_eq!(case.status, Status::Fail);
        assert!(case.tools.is_empty() && case.selected.is_none() && case.input_index.is_none());
        let wire: CaseWire =
            serde_json::from_str(r#"{"id":"y","outcome":"success","duration_ms":1.0}"#).unwrap();
        let err = decode_cases(None, Vec::new(), vec![wire]).unwrap_err();
        assert_eq!(err, "case 1 (`y`): missing field `status`");
        let wire: CaseWire =
            serde_json::from_str(r#"{"id":"z","answer":4,"duration_ms":1.0}"#).unwrap();
        let err = decode_cases(Some(CaseWire::default()), Vec::new(), vec![wire]).unwrap_err();
        assert_eq!(
            err,
            "case 1 (`z`): answer 4 is not in `answers` (0 of them)"
        );
    }
}
