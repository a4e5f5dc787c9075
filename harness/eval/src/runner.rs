//! Runs cases in parallel (rayon, `--jobs` threads) against their shared fixtures and judges
//! each against its expectations. Results come back in the order the cases were given,
//! whatever the thread count; the caller sorts cases by (suite, id) first.

use crate::corpus::{Case, ExpectedOutcome};
use crate::error::{HarnessError, Result};
use crate::results::{Call, CaseResult, Status};
use findbench_engine::modes::ask::Tool;
use findbench_engine::{Engine, EngineError, Mode, Outcome, Response};
use findbench_tools::envelope::{self, Meta};
pub use indicatif::ProgressBar;
use indicatif::{ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use std::time::Instant;

/// How to run.
#[derive(Debug, Clone, Copy)]
pub struct RunOptions {
    /// Worker threads; 0 means one per CPU.
    pub jobs: usize,
    /// Draw a progress bar on stderr.
    pub progress: bool,
}

/// Runs every case and judges it. Fails only if the thread pool cannot start.
pub fn run_cases(engine: &Engine, cases: &[&Case], options: RunOptions) -> Result<Vec<CaseResult>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs)
        .build()
        .map_err(|e| {
            HarnessError::Internal(format!("cannot start {} threads: {e}", options.jobs))
        })?;
    let bar = progress_bar(
        options.progress,
        Some(cases.len() as u64),
        "{spinner} {bar:40} {pos}/{len} cases  {elapsed}  {msg}",
    );
    let results = pool.install(|| {
        cases
            .par_iter()
            .map(|case| {
                let r = run_case(engine, case);
                bar.inc(1);
                r
            })
            .collect()
    });
    bar.finish_and_clear();
    Ok(results)
}

/// The progress bar of `run` and `replay`: drawn on stderr (never stdout) with `template`
/// when `shown` (the commands show it only when stderr is a terminal, without `-q` or
/// `--no-progress`), hidden otherwise; `len` none for a spinner.
pub fn progress_bar(shown: bool, len: Option<u64>, template: &str) -> ProgressBar {
    if !shown {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(len, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}

/// Runs one case: executes the request, measures it, judges it.
pub fn run_case(engine: &Engine, case: &Case) -> CaseResult {
    let clock = Instant::now();
    let result = engine.execute(&case.fixture.fixture, &case.request);
    let elapsed = clock.elapsed();
    let document = envelope_document(case.mode, &result);
    let output_bytes = document.len() as u64;
    let trace = ToolTrace::of(case.mode, &case.query, &result);
    let (outcome, candidates, ranked) = match &result {
        Ok(r) => (
            r.outcome().as_str().to_string(),
            r.candidates(),
            r.ranked_keys().into_iter().map(str::to_string).collect(),
        ),
        Err(_) => ("error".to_string(), 0, Vec::new()),
    };
    let expected = case.expect.relevant();
    let rank = ranked
        .iter()
        .position(|k| expected.contains(k))
        .map(|i| i + 1);
    let first_hit_bytes = crate::metrics::recall::first_hit_bytes(&document, &expected, None);
    let result_record = CaseResult {
        id: case.id.clone(),
        suite: case.suite.clone(),
        mode: case.mode.as_str().to_string(),
        query: case.query.clone(),
        status: Status::Pass,
        outcome,
        expected_outcome: case.expect.outcome.map(|o| o.as_str().to_string()),
        candidates,
        ranked,
        expected,
        rank,
        first_hit_bytes,
        duration_ms: envelope::round_ms(elapsed),
        output_bytes,
        dump_bytes: case.fixture.dump_bytes as u64,
        items: case.fixture.item_count,
        tools: trace.tools,
        iterations: trace.iterations,
        failed_tools: trace.failed,
        calls: trace.calls,
        reason: None,
        known_failure: case.known_failure.clone(),
        tags: case.tags.clone(),
        file: case.file.display().to_string(),
        line: case.line,
        ..CaseResult::default()
    };
    let limit = crate::corpus::args::result_limit(&case.request, engine.profile());
    let error = result.as_ref().err().map(|e| format!("engine error: {e}"));
    let quality = result.as_ref().ok().and_then(quality_of);
    judged(
        case,
        limit,
        result_record,
        error.as_deref(),
        quality.as_deref(),
    )
}

/// Judges `record` (what an engine returned for `case`) against the case's expectations
/// and sets its status and reason. `limit` is the window `contains` is checked in when the
/// case names none (the mode's limit under the run's profile); `error` is why the engine
/// gave no answer (an error outcome); `quality` is `find name`'s fuzzy_match_quality, when
/// the answer reports one.
pub fn judged(
    case: &Case,
    limit: usize,
    mut record: CaseResult,
    error: Option<&str>,
    quality: Option<&str>,
) -> CaseResult {
    let problems = judge(case, limit, &record, error, quality);
    let (status, reason) = match (problems.is_empty(), &case.known_failure) {
        (true, None) => (Status::Pass, None),
        (false, None) => (Status::Fail, Some(problems.join("; "))),
        (false, Some(_)) => (Status::Xfail, Some(problems.join("; "))),
        (true, Some(why)) => (
            Status::Xpass,
            Some(format!("passed although marked known_failure: {why}")),
        ),
    };
    record.status = status;
    record.reason = reason;
    record
}

/// Every expectation of `case` that `result` breaks, as readable sentences.
fn judge(
    case: &Case,
    limit: usize,
    record: &CaseResult,
    error: Option<&str>,
    quality: Option<&str>,
) -> Vec<String> {
    let e = &case.expect;
    let mut problems = Vec::new();
    let ranked = &record.ranked;
    let rank_of = |key: &str| ranked.iter().position(|k| k == key).map(|i| i + 1);
    let expected_error = e.outcome == Some(ExpectedOutcome::Error);
    if let Some(err) = error.filter(|_| !expected_error) {
        problems.push(err.to_string());
        return problems;
    }
    if let Some(want) = e.outcome {
        let got = record.outcome.as_str();
        let ok = match want {
            ExpectedOutcome::Error => got == "error" || got == "failure",
            other => other.as_str() == got,
        };
        if !ok {
            problems.push(format!("expected outcome {}, got {got}", want.as_str()));
        }
    }
    if let Some(top) = &e.top {
        match ranked.first() {
            Some(first) if first == top => {}
            Some(first) => problems.push(match rank_of(top) {
                Some(r) => format!("expected top `{top}`, got `{first}` (`{top}` at rank {r})"),
                None => format!("expected top `{top}`, got `{first}` (`{top}` not returned)"),
            }),
            None => problems.push(format!("expected top `{top}`, got nothing")),
        }
    }
    let within = e.within.unwrap_or(limit);
    for key in &e.contains {
        match rank_of(key) {
            Some(r) if r <= within => {}
            Some(r) => problems.push(format!("`{key}` at rank {r}, not within {within}")),
            None => problems.push(format!("`{key}` not returned (wanted within {within})")),
        }
    }
    for key in &e.excludes {
        if let Some(r) = rank_of(key) {
            problems.push(format!("excluded `{key}` returned at rank {r}"));
        }
    }
    if let Some(want) = &e.quality {
        match quality {
            Some(got) if got == want => {}
            Some(got) => problems.push(format!("expected quality {want}, got {got}")),
            None => problems.push(format!("expected quality {want}, response reports none")),
        }
    }
    if let Some(max) = e.max_bytes {
        if record.output_bytes > max {
            problems.push(format!(
                "output {} bytes, over the maximum of {max}",
                record.output_bytes
            ));
        }
    }
    problems
}

/// `find name`'s fuzzy_match_quality, for modes that report one.
fn quality_of(response: &Response) -> Option<String> {
    match response {
        Response::Name(r) => r.fuzzy_match_quality.map(|q| q.as_str().to_string()),
        _ => None,
    }
}

/// The tools a response used: the `ask` cascade reports its own calls; a direct mode is one
/// call on the case's query.
struct ToolTrace {
    tools: Vec<String>,
    calls: Vec<Call>,
    iterations: u32,
    failed: u32,
}

impl ToolTrace {
    /// For `ask`: its calls and iterations; a failed tool is a read that yielded no
    /// evidence, or the cascade itself when it could not run (the failure outcome). A
    /// search that found nothing is not a failed tool: the cascade moves on to the next.
    /// A direct mode fails only when the engine refused the request.
    fn of(
        mode: Mode,
        query: &str,
        result: &std::result::Result<Response, EngineError>,
    ) -> ToolTrace {
        match result {
            Ok(Response::Ask(r)) => {
                let failed_reads = r
                    .calls
                    .iter()
                    .filter(|c| c.tool == Tool::Read && c.candidates == 0)
                    .count();
                let cascade_failed = usize::from(r.outcome == Outcome::Failure);
                ToolTrace {
                    tools: r.tools.iter().map(|t| t.as_str().to_string()).collect(),
                    calls: r
                        .calls
                        .iter()
                        .map(|c| Call::new(c.tool.as_str(), c.input.as_str(), c.candidates))
                        .collect(),
                    iterations: r.iterations as u32,
                    failed: (failed_reads + cascade_failed) as u32,
                }
            }
            Ok(r) => ToolTrace {
                tools: vec![mode.as_str().to_string()],
                calls: vec![Call::new(mode.as_str(), query, r.candidates())],
                iterations: 1,
                failed: 0,
            },
            Err(_) => ToolTrace {
                tools: vec![mode.as_str().to_string()],
                calls: vec![Call::new(mode.as_str(), query, 0)],
                iterations: 1,
                failed: 1,
            },
        }
    }
}

/// The command and `$schema` file of the envelope `findbench` prints for a mode.
fn cli_names(mode: Mode) -> (String, String) {
    match mode {
        Mode::Grep | Mode::Ask | Mode::Get => (
            mode.as_str().to_string(),
            format!("{}.schema.json", mode.as_str()),
        ),
        _ => (
            format!("find {}", mode.as_str()),
            format!("find-{}.schema.json", mode.as_str()),
        ),
    }
}

/// The `_meta` stand-in of a measured envelope: a fixed timestamp and duration of the same
/// width as real ones, so output bytes do not depend on the clock.
fn placeholder_meta(mode: Mode) -> Meta {
    Meta {
        command: cli_names(mode).0,
        version: findbench_engine::VERSION,
        timestamp: "2000-01-01T00:00:00.000Z".to_string(),
        duration_ms: 12.345,
    }
}

/// The JSON envelope (and its newline) `findbench find <mode> --format json` prints for
/// this result: what a case's output bytes count and its first hit is found in.
pub fn envelope_document(
    mode: Mode,
    result: &std::result::Result<Response, EngineError>,
) -> Vec<u8> {
    let meta = placeholder_meta(mode);
    let value = match result {
        Ok(response) => {
            let mut fields = serde_json::to_value(response).unwrap_or(serde_json::Value::Null);
            // a response that times itself (`ask`) gets the placeholder's duration too
            if let Some(d) = fields.get_mut("duration_ms") {
                *d = serde_json::json!(meta.duration_ms);
            }
            envelope::success(
                &format!("find-{}.schema.json", mode.as_str()),
                &meta,
                fields,
            )
        }
        Err(err) => envelope::engine_failure(&meta, err),
    };
    let mut bytes = serde_json::to_vec(&value).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

/// Everything a corpus run needs besides the corpora.
#[derive(Debug, Clone)]
pub struct RunConfig {
    pub options: RunOptions,
    /// Keep only cases whose id, `suite/id`, suite or one of whose tags is one of these.
    pub filters: Vec<String>,
    pub cost: crate::metrics::CostModel,
    /// `--shard K/N`: run only the cases of this shard (see [`crate::shard`]).
    pub shard: Option<crate::shard::Shard>,
}

/// Whether a case passes the `--filter` list (an empty list keeps everything).
pub fn selected(case: &Case, filters: &[String]) -> bool {
    filters.is_empty()
        || filters.iter().any(|f| {
            *f == case.id
                || *f == case.suite
                || case.tags.iter().any(|t| t == f)
                || f.split_once('/')
                    .is_some_and(|(s, i)| s == case.suite && i == case.id)
        })
}

/// Runs the selected cases of `corpora` in (suite, id) order and assembles the results.
pub fn run_corpora(
    engine: &Engine,
    corpora: &[crate::corpus::Corpus],
    config: &RunConfig,
) -> Result<crate::results::RunResults> {
    run_corpora_with(corpora, config, &engine.profile().name, |cases, options| {
        run_cases(engine, cases, options)
    })
}

/// [`run_corpora`] with the cases run by `run_selected` (given the selected cases in
/// (suite, id) order and the resolved thread count): how `--engine` runs other tools.
pub fn run_corpora_with(
    corpora: &[crate::corpus::Corpus],
    config: &RunConfig,
    profile: &str,
    run_selected: impl FnOnce(&[&Case], RunOptions) -> Result<Vec<CaseResult>>,
) -> Result<crate::results::RunResults> {
    use crate::results::{CorpusInfo, FixtureInfo, Machine, RunResults, RESULTS_SCHEMA};
    let started = std::time::SystemTime::now();
    let clock = Instant::now();
    let mut cases: Vec<&Case> = corpora
        .iter()
        .flat_map(|c| c.cases.iter())
        .filter(|c| selected(c, &config.filters))
        .filter(|c| config.shard.is_none_or(|s| s.holds_case(&c.suite, &c.id)))
        .collect();
    // a shard may hold no case of a small corpus; its empty results still merge
    if cases.is_empty() && config.shard.is_none() {
        return Err(HarnessError::invalid(if config.filters.is_empty() {
            "no case to run".to_string()
        } else {
            format!(
                "no case matches --filter {} (filters match a case id, suite/id, suite or tag)",
                config.filters.join(", ")
            )
        }));
    }
    cases.sort_by(|a, b| (&a.suite, &a.id).cmp(&(&b.suite, &b.id)));
    let threads = if config.options.jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        config.options.jobs
    };
    let options = RunOptions {
        jobs: threads,
        ..config.options
    };
    let results = run_selected(&cases, options)?;
    let budgets: std::collections::BTreeMap<String, crate::corpus::Budget> = corpora
        .iter()
        .map(|c| (c.suite.clone(), c.budget))
        .collect();
    let metrics = crate::metrics::compute(&results, &budgets, &config.cost);
    let corpora_info = corpora
        .iter()
        .map(|c| CorpusInfo {
            path: c.path.display().to_string(),
            suite: c.suite.clone(),
            sha256: c.sha256.clone(),
            cases: c
                .cases
                .iter()
                .filter(|x| selected(x, &config.filters))
                .count(),
            fixture: FixtureInfo {
                kind: c.fixture.kind.as_str().to_string(),
                path: c.fixture.path.display().to_string(),
                items: c.fixture.item_count,
                dump_bytes: c.fixture.dump_bytes as u64,
            },
            budget: c.budget,
            gate: c.gate.clone(),
        })
        .collect();
    Ok(RunResults {
        schema: format!("{}{RESULTS_SCHEMA}", envelope::SCHEMA_BASE),
        kind: "run".to_string(),
        findbench_version: env!("CARGO_PKG_VERSION").to_string(),
        engine_version: findbench_engine::VERSION.to_string(),
        git_revision: crate::results::git_revision(),
        profile: profile.to_string(),
        machine: Machine::current(),
        build: Some(crate::results::build_profile().to_string()),
        threads,
        started_at: humantime::format_rfc3339_millis(started).to_string(),
        duration_ms: envelope::round_ms(clock.elapsed()),
        filters: config.filters.clone(),
        shard: config.shard,
        gate: None,
        cost_model: config.cost,
        corpora: corpora_info,
        summary: metrics.summary,
        suites: metrics.suites,
        modes: metrics.modes,
        tags: metrics.tags,
        cases_file: Some(crate::cases_file::name(false).to_string()),
        cases: results,
        engines: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use findbench_engine::modes::ask::{self, AskRequest};
    use findbench_engine::{Profile, Tree};

    fn asked(question: &str, files: &[(&str, &str)]) -> ToolTrace {
        let tree = Tree::from_memory("t", files.iter().copied());
        let r = ask::ask(&tree, &AskRequest::new(question), &Profile::default()).unwrap();
        ToolTrace::of(Mode::Ask, question, &Ok(Response::Ask(r)))
    }

    fn record(trace: ToolTrace) -> CaseResult {
        CaseResult {
            mode: "ask".into(),
            tools: trace.tools,
            calls: trace.calls,
            iterations: trace.iterations,
            failed_tools: trace.failed,
            ..CaseResult::default()
        }
    }

    #[test]
    fn the_per_word_finds_of_ask_are_not_duplicates() {
        let c = record(asked(
            "find cursor binary",
            &[("NOTES.md", "The cursor binary is built from tools.\n")],
        ));
        assert_eq!(c.tools, ["find", "find", "find", "grep", "read"]);
        let inputs: Vec<&str> = c.calls.iter().map(|c| c.input.as_str()).collect();
        assert_eq!(
            inputs,
            [
                "cursor[ _-]?binary",
                "cursor",
                "binary",
                "cursor[ _-]?binary",
                "NOTES.md"
            ]
        );
        assert_eq!((c.duplicate_tools(), c.failed_tools), (0, 0));
    }

    #[test]
    fn a_failed_tool_is_a_read_without_evidence() {
        // two reads, neither of which mentions the term; the searches that found nothing
        // are not failed tools
        let c = record(asked(
            "where is replay implemented",
            &[
                ("src/replay/policy.cpp", "int limit = 3;\n"),
                ("src/replay/notes.txt", "todo\n"),
            ],
        ));
        assert_eq!(c.tools, ["find", "read", "read"]);
        assert_eq!((c.duplicate_tools(), c.failed_tools), (0, 2));
        let c = record(asked("where is kubernetes implemented", &[("a.md", "x\n")]));
        assert!(c.calls.iter().all(|c| c.candidates == 0));
        assert_eq!(c.failed_tools, 0);
    }
}
