//! Every engine of a run over the same selected cases, in (suite, id) order. The first
//! engine is the primary: its results are the run's `summary`, `suites` and `cases` (what
//! `--gate` and `--baseline` judge); every engine, primary included, gets an
//! [`EngineReport`] with its own metrics. A case of a mode an engine does not answer is
//! "n/a" for it: listed among its cases with the reason (status and outcome `n/a`),
//! counted, not run, judged nowhere; an engine whose tool is not installed is
//! reported once and runs nothing, and the others still run.

use super::external::{self, FixturePaths};
use super::{Engine, EngineReport};
use crate::case::{CaseResult, Status};
use crate::corpus::{Budget, Case, Corpus, FixtureKind, LoadedFixture};
use crate::error::{HarnessError, Result};
use crate::metrics;
use crate::results::RunResults;
use crate::runner::{self, RunConfig, RunOptions};
use findbench_engine::{Fixture, Mode};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The outcome of a case its engine does not answer.
pub const NOT_APPLICABLE: &str = "n/a";

/// Runs every engine on the selected cases of `corpora`. `builtin` is findbench's engine
/// (with the run's profile). `record_engines` writes the `engines` section (set when the
/// command line named engines); cases always carry their engine's name.
pub fn run_engines(
    engines: &[Engine],
    builtin: &findbench_engine::Engine,
    corpora: &[Corpus],
    config: &RunConfig,
    record_engines: bool,
) -> Result<RunResults> {
    let Some(primary) = engines.first() else {
        return Err(HarnessError::invalid("no engine to run"));
    };
    if let Some(why) = primary.missing() {
        let file = match primary {
            Engine::External(e) => e.file.clone(),
            Engine::Builtin => PathBuf::from(super::BUILTIN),
        };
        return Err(HarnessError::file(
            &file,
            format!(
                "engine `{}` (the first --engine, the one gated) cannot run: {why}",
                primary.name()
            ),
        ));
    }
    let listings = Listings::default();
    let mut others: Vec<(Vec<CaseResult>, usize, Option<String>)> = Vec::new();
    let mut primary_na = 0;
    let mut run = runner::run_corpora_with(
        corpora,
        config,
        &builtin.profile().name,
        |cases, options| {
            if !cases.iter().any(|c| primary.supports(c.mode)) {
                return Err(HarnessError::invalid(format!(
                    "engine `{}` answers none of the selected cases' modes ({})",
                    primary.name(),
                    modes_of(cases).join(", ")
                )));
            }
            let (results, na) = run_engine(primary, builtin, cases, options, &listings)?;
            primary_na = na;
            for engine in &engines[1..] {
                let missing = engine.missing();
                if missing.is_some() {
                    others.push((Vec::new(), 0, missing));
                    continue;
                }
                let (results, na) = run_engine(engine, builtin, cases, options, &listings)?;
                others.push((results, na, None));
            }
            Ok(results)
        },
    )?;
    if record_engines {
        let budgets: BTreeMap<String, Budget> = corpora
            .iter()
            .map(|c| (c.suite.clone(), c.budget))
            .collect();
        let mut reports = vec![report(
            primary, true, None, &run.cases, primary_na, &budgets, config,
        )];
        for (engine, (cases, na, missing)) in engines[1..].iter().zip(others) {
            let mut r = report(engine, false, missing, &cases, na, &budgets, config);
            r.cases = cases;
            reports.push(r);
        }
        run.engines = reports;
    }
    Ok(run)
}

fn modes_of(cases: &[&Case]) -> Vec<&'static str> {
    let mut modes: Vec<&'static str> = cases.iter().map(|c| c.mode.as_str()).collect();
    modes.sort();
    modes.dedup();
    modes
}

fn report(
    engine: &Engine,
    primary: bool,
    missing: Option<String>,
    cases: &[CaseResult],
    not_applicable: usize,
    budgets: &BTreeMap<String, Budget>,
    config: &RunConfig,
) -> EngineReport {
    let (kind, file, about, modes) = match engine {
        Engine::Builtin => (
            "builtin",
            None,
            Some("findbench's own engine, called in process".to_string()),
            Mode::ALL.iter().map(|m| m.as_str().to_string()).collect(),
        ),
        Engine::External(e) => (
            "external",
            Some(e.file.display().to_string()),
            e.about.clone(),
            e.modes.keys().map(|m| m.as_str().to_string()).collect(),
        ),
    };
    let ran = cases.iter().filter(|c| !c.not_applicable()).count();
    let computed = (ran > 0).then(|| metrics::compute(cases, budgets, &config.cost));
    EngineReport {
        name: engine.name().to_string(),
        kind: kind.to_string(),
        file,
        about,
        modes,
        primary,
        missing,
        cases_run: ran,
        not_applicable,
        summary: computed.as_ref().map(|m| m.summary.clone()),
        suites: computed.map(|m| m.suites).unwrap_or_default(),
        cases: Vec::new(),
    }
}

/// Runs the cases `engine` answers and lists the others as n/a with their reason, every
/// case in the order given; returns the results and how many were n/a.
fn run_engine(
    engine: &Engine,
    builtin: &findbench_engine::Engine,
    cases: &[&Case],
    options: RunOptions,
    listings: &Listings,
) -> Result<(Vec<CaseResult>, usize)> {
    let supported: Vec<&Case> = cases
        .iter()
        .copied()
        .filter(|c| engine.supports(c.mode))
        .collect();
    let na = cases.len() - supported.len();
    let mut results = match engine {
        Engine::Builtin => runner::run_cases(builtin, &supported, options)?,
        Engine::External(e) => {
            let mut fixtures: HashMap<usize, FixturePaths> = HashMap::new();
            for c in &supported {
                let key = fixture_key(&c.fixture);
                if let std::collections::hash_map::Entry::Vacant(slot) = fixtures.entry(key) {
                    slot.insert(listings.paths_of(&c.fixture)?);
                }
            }
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(options.jobs)
                .build()
                .map_err(|err| {
                    HarnessError::Internal(format!("cannot start {} threads: {err}", options.jobs))
                })?;
            pool.install(|| {
                supported
                    .par_iter()
                    .map(|c| {
                        let command = &e.modes[&c.mode];
                        external::run_case(e, command, c, &fixtures[&fixture_key(&c.fixture)])
                    })
                    .collect()
            })
        }
    };
    for (r, c) in results.iter_mut().zip(&supported) {
        r.engine = engine.name().to_string();
        r.evidence_bytes = evidence_bytes(r, &c.fixture);
    }
    if na == 0 {
        return Ok((results, 0));
    }
    let mut answered = results.into_iter();
    let mut all = Vec::with_capacity(cases.len());
    for c in cases {
        if engine.supports(c.mode) {
            all.extend(answered.next());
        } else {
            all.push(not_applicable(engine, c));
        }
    }
    Ok((all, na))
}

/// A case `engine` does not answer: listed with why, judged nowhere.
fn not_applicable(engine: &Engine, case: &Case) -> CaseResult {
    let answers = match engine {
        Engine::Builtin => Vec::new(),
        Engine::External(e) => e
            .modes
            .keys()
            .map(|m| format!("`{}`", m.as_str()))
            .collect(),
    };
    CaseResult {
        engine: engine.name().to_string(),
        id: case.id.clone(),
        suite: case.suite.clone(),
        mode: case.mode.as_str().to_string(),
        query: case.query.clone(),
        status: Status::NotApplicable,
        outcome: NOT_APPLICABLE.to_string(),
        expected_outcome: case.expect.outcome.map(|o| o.as_str().to_string()),
        expected: case.expect.relevant(),
        dump_bytes: case.fixture.dump_bytes as u64,
        items: case.fixture.item_count,
        reason: Some(format!(
            "`{}` does not answer `{}` (its engine file declares {})",
            engine.name(),
            case.mode.as_str(),
            answers.join(", ")
        )),
        known_failure: case.known_failure.clone(),
        tags: case.tags.clone(),
        file: case.file.display().to_string(),
        line: case.line,
        ..CaseResult::default()
    }
}

/// A fixture's identity: corpora share one loaded fixture per path, so its address.
fn fixture_key(fixture: &Arc<LoadedFixture>) -> usize {
    Arc::as_ptr(fixture) as usize
}

/// Bytes an agent reads to see the evidence of a case that names its items: the answer,
/// then, for modes that ask about a file's content (code, grep, ask), each returned file
/// in rank order up to and including the first expected one. When no expected item is
/// returned, the agent falls back to reading the whole fixture. The same rule for every
/// engine (an answer that quotes its evidence, as findbench's `ask` does, still pays for
/// the reads, so the figure is conservative for it). None for cases that name no items.
pub fn evidence_bytes(result: &CaseResult, fixture: &LoadedFixture) -> Option<u64> {
    if result.expected.is_empty() {
        return None;
    }
    let Some(rank) = result.rank else {
        return Some(result.output_bytes + result.dump_bytes);
    };
    let reads_files = matches!(result.mode.as_str(), "code" | "grep" | "ask");
    let Fixture::Tree(tree) = &fixture.fixture else {
        return Some(result.output_bytes);
    };
    if !reads_files {
        return Some(result.output_bytes);
    }
    let read: u64 = result.ranked[..rank]
        .iter()
        .map(|k| match tree.file(k) {
            Some(f) => f.size(),
            None => std::fs::metadata(fixture.path.join(k)).map_or(0, |m| m.len()),
        })
        .sum();
    Some(result.output_bytes + read)
}

/// Absolute fixture paths for placeholders, and a listing file of each source tree's paths
/// (`{paths}` for a root fixture), written once and removed when the run ends.
#[derive(Default)]
struct Listings {
    written: std::sync::Mutex<Vec<PathBuf>>,
    /// Each fixture's paths, by [`fixture_key`], shared by every engine of the run.
    known: std::sync::Mutex<HashMap<usize, FixturePaths>>,
}

impl Listings {
    fn paths_of(&self, fixture: &Arc<LoadedFixture>) -> Result<FixturePaths> {
        let key = fixture_key(fixture);
        if let Some(p) = self
            .known
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return Ok(p.clone());
        }
        let paths = self.resolve(fixture)?;
        self.known
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, paths.clone());
        Ok(paths)
    }

    fn resolve(&self, fixture: &LoadedFixture) -> Result<FixturePaths> {
        let absolute = fixture
            .path
            .canonicalize()
            .unwrap_or_else(|_| fixture.path.clone());
        Ok(match (&fixture.kind, &fixture.fixture) {
            (FixtureKind::Store, _) => FixturePaths {
                store: Some(absolute),
                ..FixturePaths::default()
            },
            (FixtureKind::Paths, _) => FixturePaths {
                paths: Some(absolute),
                ..FixturePaths::default()
            },
            (FixtureKind::Root, Fixture::Tree(tree)) => {
                let mut listing = String::new();
                for f in tree.files() {
                    listing.push_str(&f.path);
                    listing.push('\n');
                }
                let file = self.write(&listing)?;
                FixturePaths {
                    root: Some(absolute),
                    paths: Some(file),
                    ..FixturePaths::default()
                }
            }
            (FixtureKind::Root, _) => FixturePaths {
                root: Some(absolute),
                ..FixturePaths::default()
            },
        })
    }

    fn write(&self, text: &str) -> Result<PathBuf> {
        let mut written = self.written.lock().unwrap_or_else(|e| e.into_inner());
        let path = std::env::temp_dir().join(format!(
            "findbench-{}-paths-{}.txt",
            std::process::id(),
            written.len()
        ));
        std::fs::write(&path, text)
            .map_err(|e| HarnessError::file(&path, format!("cannot write path listing: {e}")))?;
        written.push(path.clone());
        Ok(path)
    }
}

impl Drop for Listings {
    fn drop(&mut self) {
        let written = self.written.get_mut().unwrap_or_else(|e| e.into_inner());
        for p in written.iter() {
            let _ = std::fs::remove_file(Path::new(p));
        }
    }
}
