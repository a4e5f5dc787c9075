//! Trace replay: every recorded question through today's `ask` cascade against its fixture,
//! recorded outcome beside replayed outcome, and the transition (fixed, regressed,
//! unchanged).
//!
//! Memory stays bounded whatever the size of the trace set: traces are read as a stream
//! and replayed in batches (in parallel inside a batch, in input order across batches, the
//! next batch read while one is replayed); each batch of replayed cases goes on to the
//! report writer, and only aggregates stay in memory (counts, per-question transition
//! groups, and one `f32` per trace for the latency and candidate quantiles).
//!
//! The parts: [`options`] and [`fixtures`] (what a replay runs with, each fixture loaded
//! once), [`question`] and [`call`] (a trace's question through `ask`, or its recorded tool
//! call; [`case`] what both fill alike), [`judge`], [`rank`] and [`memo`] (a trace with
//! `expected` files judged, its totals, identical requests answered once), [`totals`]
//! (aggregates as cases go by), [`report`] and [`spool`] (the `--out DIR` reports,
//! streamed).

mod answer_bytes;
pub mod call;
mod case;
pub mod fixtures;
mod judge;
pub mod memo;
pub mod options;
pub mod question;
pub mod rank;
pub mod report;
mod spool;
pub mod totals;

use crate::error::TracesError;
use crate::trace::{BadLine, Trace, TraceItem, TraceStream};
use findbench_engine::Engine;
use findbench_eval::case::CaseResult;
use findbench_eval::question::normalise_question;
use findbench_eval::tools::FixtureKind;
use fixtures::Fixtures;
use memo::Memo;
use options::{ReplayFixture, ReplayOptions};
use rayon::prelude::*;
use totals::ReplayTotals;

/// Traces replayed per parallel batch: big enough to keep every core busy, small enough
/// that a batch's results are a few hundred kilobytes.
pub const BATCH: usize = 2048;

/// Replays one trace against an already loaded fixture (or the reason it could not load):
/// a recorded call as that call, any other trace's question through `ask`; an answer given
/// before in this replay is reused from `memo`.
pub fn replay_trace(
    engine: &Engine,
    fixture: &Result<ReplayFixture, String>,
    trace: &Trace,
    options: &ReplayOptions,
    memo: &Memo,
) -> CaseResult {
    match &trace.call {
        Some(call) => call::replay_call(engine, fixture, trace, call, options, memo),
        None => question::replay_ask(engine, fixture, trace, options, memo),
    }
}

/// Bad lines kept verbatim for the report; the rest are counted.
const BAD_EXAMPLES: usize = 50;

/// How far a replay is, as each batch is handed on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReplayProgress {
    /// Traces replayed so far.
    pub replayed: usize,
    /// Bytes read from the trace files, and their sizes summed (none when one is stdin).
    pub bytes_read: u64,
    pub bytes_total: Option<u64>,
}

/// Traces read for one batch, each with its fixture and its position in the input.
type Batch = Vec<(Trace, Result<ReplayFixture, String>, u64)>;

/// Reads batches of traces: filtered (`--query`, `--shard`), bad lines handed to `on_bad`
/// (the first kept as examples), fixtures loaded once each.
struct BatchReader<'a, B> {
    stream: &'a mut TraceStream,
    options: &'a ReplayOptions,
    filter: Option<String>,
    fixtures: Fixtures,
    on_bad: B,
    bad_examples: Vec<String>,
    /// Traces read so far, filtered or not: the next one's position in the input (an
    /// OTLP file yields its traces after reading it whole, so the stream's own count is
    /// ahead of them).
    read: u64,
}

impl<B: FnMut(BadLine) -> Result<(), TracesError>> BatchReader<'_, B> {
    /// The next batch of up to [`BATCH`] traces; empty at the end of the input.
    fn next_batch(&mut self) -> Result<Batch, TracesError> {
        let mut batch = Vec::with_capacity(BATCH);
        while batch.len() < BATCH {
            let items = self.stream.next_chunk(BATCH - batch.len());
            if items.is_empty() {
                break;
            }
            for item in items {
                match item? {
                    TraceItem::Bad(bad) => {
                        if self.bad_examples.len() < BAD_EXAMPLES {
                            self.bad_examples.push(bad.to_string());
                        }
                        (self.on_bad)(bad)?;
                    }
                    TraceItem::Trace(trace) => {
                        // every shard reads every line, so positions agree across shards
                        self.read += 1;
                        let position = self.read;
                        if self
                            .filter
                            .as_ref()
                            .is_some_and(|f| *f != normalise_question(&trace.query))
                            || self
                                .options
                                .shard
                                .is_some_and(|s| !s.holds_trace(&trace.trace_id))
                        {
                            continue;
                        }
                        // fixtures load here, on one thread, once each
                        let kind = trace
                            .call
                            .as_ref()
                            .and_then(|c| c.fixture_kind)
                            .unwrap_or(FixtureKind::Root);
                        let fixture = self.fixtures.resolve(self.options, &trace, kind)?;
                        batch.push((*trace, fixture, position));
                    }
                }
            }
        }
        Ok(batch)
    }
}

/// Streams `stream` through `ask`, hands the cases to `sink` a batch at a time in input
/// order (counted in the totals first), and returns the totals. `on_bad` sees each bad
/// line (and may stop the replay, as `--strict` does). While one batch is replayed on the
/// pool, the one before it is counted and handed on and the next one read (`rayon::join`),
/// so neither takes a core from the replay for long.
pub fn replay_stream(
    stream: &mut TraceStream,
    options: &ReplayOptions,
    on_bad: impl FnMut(BadLine) -> Result<(), TracesError> + Send,
    mut sink: impl FnMut(Vec<CaseResult>, ReplayProgress) -> Result<(), TracesError> + Send,
) -> Result<ReplayTotals, TracesError> {
    let engine = Engine::new(options.profile.clone());
    let memo = Memo::new();
    let mut reader = BatchReader {
        stream,
        options,
        filter: options.query.as_deref().map(normalise_question),
        fixtures: Fixtures::new(),
        on_bad,
        bad_examples: Vec::new(),
        read: 0,
    };
    let mut totals = ReplayTotals::default();
    totals.per_search = options.per_search;
    totals.rank.k = Some(options.hit_k);
    let mut batch = reader.next_batch()?;
    // replayed, not yet counted nor handed on
    let mut replayed: Option<Vec<CaseResult>> = None;
    while !batch.is_empty() || replayed.is_some() {
        let (cases, next) = rayon::join(
            || {
                batch
                    .par_iter()
                    .map(|(trace, fixture, position)| {
                        let mut case = replay_trace(&engine, fixture, trace, options, &memo);
                        case.input_index = Some(*position);
                        case
                    })
                    .collect::<Vec<CaseResult>>()
            },
            || -> Result<Batch, TracesError> {
                if let Some(cases) = replayed.take() {
                    for case in &cases {
                        totals.add(case);
                    }
                    let (bytes_read, bytes_total) = reader.stream.bytes();
                    sink(
                        cases,
                        ReplayProgress {
                            replayed: totals.replayed,
                            bytes_read,
                            bytes_total,
                        },
                    )?;
                }
                if batch.is_empty() {
                    Ok(Vec::new())
                } else {
                    reader.next_batch()
                }
            },
        );
        batch = next?;
        replayed = Some(cases).filter(|c| !c.is_empty());
    }
    let counts = reader.stream.counts();
    totals.bad_examples = reader.bad_examples;
    totals.against = reader.fixtures.against.into_iter().collect();
    totals.files = counts.files;
    totals.lines = counts.lines;
    totals.traces = counts.traces;
    totals.bad_lines = counts.bad_lines;
    Ok(totals)
}

#[cfg(test)]
mod tests {
    use super::totals::replayed_outcome;
    use super::*;
    use crate::trace::TraceOutcome;
    use findbench_eval::case::Transition;

    #[test]
    fn transitions_compare_recorded_and_replayed_success() {
        use TraceOutcome::*;
        assert_eq!(
            Transition::of(InsufficientEvidence, Success),
            Transition::Fixed
        );
        assert_eq!(Transition::of(Failure, Success), Transition::Fixed);
        assert_eq!(
            Transition::of(Success, InsufficientEvidence),
            Transition::Regressed
        );
        assert_eq!(Transition::of(Success, Failure), Transition::Regressed);
        assert_eq!(Transition::of(Success, Success), Transition::Unchanged);
        assert_eq!(
            Transition::of(InsufficientEvidence, Failure),
            Transition::Unchanged
        );
    }

    fn tree_dir() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let fx = dir.path().join("mini");
        std::fs::create_dir_all(fx.join("src")).unwrap();
        std::fs::write(
            fx.join("src/replay_service.cpp"),
            "class ReplayService {};\n",
        )
        .unwrap();
        std::fs::write(fx.join("README.md"), "The cursor binary lives in tools.\n").unwrap();
        dir
    }

    fn trace(id: &str, query: &str, outcome: TraceOutcome, fixture: &str) -> String {
        serde_json::json!({
            "trace_id": id, "timestamp": "2026-06-19T00:00:00Z", "query": query,
            "fixture": fixture, "tools": [], "outcome": outcome.as_str(), "iterations": 0,
            "duration_ms": 5.0
        })
        .to_string()
    }

    #[test]
    fn replays_in_input_order_with_transitions_and_missing_fixtures() {
        let dir = tree_dir();
        let file = dir.path().join("t.jsonl");
        let lines = [
            trace(
                "a",
                "where is replay implemented",
                TraceOutcome::InsufficientEvidence,
                "mini",
            ),
            trace(
                "b",
                "where is kubernetes autoscaler implemented",
                TraceOutcome::Success,
                "mini",
            ),
            "garbage".to_string(),
            trace(
                "c",
                "where is it implemented?",
                TraceOutcome::Failure,
                "mini",
            ),
        ];
        std::fs::write(&file, lines.join("\n")).unwrap();
        let options = ReplayOptions {
            explain: true,
            ..ReplayOptions::new(dir.path().to_path_buf())
        };
        let mut stream = TraceStream::open(&[file]).unwrap();
        let mut cases = Vec::new();
        let mut bad = Vec::new();
        let totals = replay_stream(
            &mut stream,
            &options,
            |b| {
                bad.push(b.line);
                Ok(())
            },
            |batch, progress| {
                cases.extend(batch);
                assert_eq!(progress.replayed, cases.len());
                Ok(())
            },
        )
        .unwrap();
        let got: Vec<(&str, TraceOutcome, Transition)> = cases
            .iter()
            .map(|c| (c.id.as_str(), replayed_outcome(c), c.transition.unwrap()))
            .collect();
        assert_eq!(
            got,
            [
                ("a", TraceOutcome::Success, Transition::Fixed),
                (
                    "b",
                    TraceOutcome::InsufficientEvidence,
                    Transition::Regressed
                ),
                // no term: `ask`'s no_match, which a trace records as insufficient_evidence
                (
                    "c",
                    TraceOutcome::InsufficientEvidence,
                    Transition::Unchanged
                ),
            ]
        );
        assert_eq!(bad, [3]);
        assert_eq!(totals.bad_lines, 1);
        let ex = cases[0].explain.as_ref().unwrap();
        assert_eq!(ex.term.as_deref(), Some("replay"));
        assert_eq!(ex.steps[0].tool, "find");
        // each step is the call as made, with its own input
        let steps: Vec<(&str, &str)> = ex
            .steps
            .iter()
            .map(|s| (s.tool.as_str(), s.input.as_str()))
            .collect();
        assert_eq!(
            steps,
            [
                ("find", "replay --impl"),
                ("read", "src/replay_service.cpp")
            ]
        );
        assert_eq!(cases[0].calls.len(), 2);
        assert_eq!(cases[0].calls[1].input, "src/replay_service.cpp");
        assert!(ex.candidates[0].path.ends_with("replay_service.cpp"));
        assert_eq!(cases[0].selected.as_deref(), Some("src/replay_service.cpp"));
        let summary = totals.summary("default");
        assert_eq!(summary["transitions"]["fixed"], 1);
        assert_eq!(summary["transitions"]["regressed"], 1);
        assert_eq!(summary["recorded_insufficient_evidence_rate"], 1.0 / 3.0);
        // `b`, and `c` whose no_match counts as insufficient evidence in a trace
        assert_eq!(summary["insufficient_evidence_rate"], 2.0 / 3.0);
    }

    #[test]
    fn a_missing_fixture_is_a_file_error_naming_its_directory() {
        let dir = tree_dir();
        let file = dir.path().join("t.jsonl");
        std::fs::write(
            &file,
            trace("d", "find replay", TraceOutcome::Success, "absent"),
        )
        .unwrap();
        let options = ReplayOptions::new(dir.path().to_path_buf());
        let mut stream = TraceStream::open(&[file]).unwrap();
        let err = replay_stream(&mut stream, &options, |_| Ok(()), |_, _| Ok(())).unwrap_err();
        assert_eq!(err.exit_code(), findbench_eval::error::exit::FILE);
        let message = err.to_string();
        assert!(message.contains("fixture `absent` not found"), "{message}");
        assert!(
            message.contains(&dir.path().join("absent").display().to_string()),
            "{message}"
        );
    }
}
