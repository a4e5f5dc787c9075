//! `findbench replay TRACES...`: every recorded question through today's `ask`, recorded
//! beside replayed outcome, and the reports of `run` with `--out DIR`.

use super::shared_args::OutputArgs;
use crate::output::Format;
use clap::Args;
use findbench_engine::Profile;
use findbench_eval::case::{Explanation, Transition};
use findbench_eval::envelope::{self, round_ms, Meta};
use findbench_eval::error::exit;
use findbench_eval::gate_settings::{GateSettings, Verdict};
use findbench_eval::replay_summary::TransitionGroup;
use findbench_eval::report::{self, markdown::replay_outcome_table};
use findbench_eval::report_set::ReportSet;
use findbench_eval::results::{build_profile, git_revision, Machine, RESULTS_SCHEMA};
use findbench_eval::runner::{progress_bar, ProgressBar};
use findbench_traces::error::TracesError;
use findbench_traces::replay::options::ReplayOptions;
use findbench_traces::replay::replay_stream;
use findbench_traces::replay::report::{replay_summary, ReplayHeader, ReportWriter};
use findbench_traces::replay::totals::ReplayTotals;
use findbench_traces::trace::{TraceOutcome, TraceStream};
use serde_json::json;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Instant, SystemTime};

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// Trace files (.jsonl, .jsonl.gz), directories or glob patterns.
    #[arg(required = true, value_name = "TRACES")]
    pub traces: Vec<PathBuf>,
    /// Where trace fixtures live (`fixture: agent-cpp` is DIR/agent-cpp).
    #[arg(long, default_value = "corpora/fixtures", value_name = "DIR")]
    pub fixtures: PathBuf,
    /// Replay every trace against this source tree instead of its fixture.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// A tree or repository a trace names under OLD is read under NEW (repeatable): a
    /// recording replayed on another checkout of the same repository.
    #[arg(long, value_name = "OLD=NEW")]
    pub map: Vec<findbench_traces::trace::PathMap>,
    /// Worker threads (0: one per core).
    #[arg(long, short = 'j', default_value_t = 0, value_name = "N", value_parser = super::shared_args::parse_jobs)]
    pub jobs: usize,
    /// Write summary.md, summary.csv, cases.csv, results.json, junit.xml and report.html
    /// into DIR.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Ranking profile: `default`, `legacy` (the spec's before state), or a profile JSON file.
    #[arg(long, default_value = "default", value_name = "NAME")]
    pub profile: String,
    /// Replay only the traces asking this question (normalised: case, spaces, punctuation).
    #[arg(long, value_name = "QUESTION")]
    pub query: Option<String>,
    /// For each question: the plan, each cascade step, each candidate's score and reason.
    #[arg(long)]
    pub explain: bool,
    /// Replay only shard K of N (a stable hash of the trace id picks each trace's shard);
    /// `findbench merge` joins the N `--out` directories.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<findbench_eval::shard::Shard>,
    /// A trace line that does not parse is fatal (exit 2) instead of counted and skipped.
    #[arg(long)]
    pub strict: bool,
    /// What the trace files hold: findbench JSONL, or OpenTelemetry OTLP/JSON (GenAI
    /// `execute_tool` spans); `auto` decides per file by its first line.
    #[arg(long, value_enum, default_value_t = super::shared_args::TraceFrom::Auto, value_name = "FORMAT")]
    pub from: super::shared_args::TraceFrom,
    #[command(flatten)]
    pub thresholds: super::gate::ThresholdArgs,
    /// Thresholds from a YAML file's `gate:` section (the keys of a corpus's `gate:`);
    /// a threshold given on the command line wins.
    #[arg(long = "gate", value_name = "FILE")]
    pub gate_file: Option<PathBuf>,
    /// A trace naming expected files passes only when one of them is within the first K
    /// files of findbench's answer (and hit@k counts the same K).
    #[arg(long, default_value_t = findbench_eval::metrics::rank::RANK_K, value_name = "K",
          value_parser = parse_hit_k)]
    pub hit_k: usize,
    /// Count every search as a case of its own in the pass rate (by default the searches of
    /// one user question, an imported turn, count once).
    #[arg(long)]
    pub per_search: bool,
    /// Report, and exit 0 even when a threshold above is not met.
    #[arg(long)]
    pub exit_zero: bool,
    /// Write the case files (cases.jsonl, cases.csv, junit.xml) gzipped, as
    /// cases.jsonl.gz, cases.csv.gz and junit.xml.gz: a million-trace replay's reports
    /// shrink about tenfold.
    #[arg(long)]
    pub out_compress: bool,
    /// Never draw a progress bar (it is drawn on stderr, and only when stderr is a
    /// terminal and -q is not given).
    #[arg(long)]
    pub no_progress: bool,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `--hit-k`: a whole number from 1.
fn parse_hit_k(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(k) if k >= 1 => Ok(k),
        _ => Err(format!(
            "`{s}` is not a whole number from 1 (the files counted from the top)"
        )),
    }
}

pub fn run(args: ReplayArgs, cache: &super::shared_args::CacheArgs) -> i32 {
    let started = SystemTime::now();
    let clock = Instant::now();
    match replay(&args, cache, started, clock) {
        Ok(code) => code,
        Err(err) => super::report_error::report_error(&args.output, "replay", started, clock, &err),
    }
}

fn replay(
    args: &ReplayArgs,
    cache: &super::shared_args::CacheArgs,
    started: SystemTime,
    clock: Instant,
) -> Result<i32, TracesError> {
    let mut thresholds = args
        .thresholds
        .thresholds()
        .map_err(|e| TracesError::invalid(e.to_string()))?;
    if let Some(file) = &args.gate_file {
        thresholds = thresholds.or(&findbench_eval::gate::read_gate_file(file)?);
    }
    let profile = Profile::resolve(&args.profile)?;
    if let Some(root) = &args.root {
        if !root.is_dir() {
            return Err(TracesError::file(root, "--root is not a directory"));
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs)
        .build()
        .map_err(|e| {
            findbench_eval::error::HarnessError::Internal(format!(
                "cannot start worker threads: {e}"
            ))
        })?;
    let threads = pool.current_num_threads();
    let options = ReplayOptions {
        fixtures_dir: args.fixtures.clone(),
        root: args.root.clone(),
        map: args.map.clone(),
        profile,
        explain: args.explain,
        query: args.query.clone(),
        suite: "replay".into(),
        shard: args.shard,
        tree: cache.tree_options(),
        hit_k: args.hit_k,
        per_search: args.per_search,
    };
    let mut stream = TraceStream::open(&args.traces)?.with_format(args.from.into());
    // the reports are one unit: staged beside --out, swapped in when complete
    let set = match &args.out {
        Some(dir) => Some(ReportSet::begin(dir, &report::REPORT_FILE_NAMES)?),
        None => None,
    };
    let mut writer = match &set {
        Some(set) => Some(ReportWriter::create(set.path(), args.out_compress)?),
        None => None,
    };
    let strict = args.strict;
    let quiet = args.output.quiet;
    let progress = Progress(replay_bar(
        !args.no_progress && !quiet && std::io::stderr().is_terminal(),
        stream.bytes().1,
    ));
    let bar = &progress.0;
    let replayed = pool.install(|| {
        replay_stream(
            &mut stream,
            &options,
            |bad| {
                if strict {
                    return Err(bad.into_error());
                }
                if !quiet {
                    bar.suspend(|| eprintln!("{bad}"));
                }
                Ok(())
            },
            |cases, progress| {
                bar.set_message(format!("{} traces", progress.replayed));
                bar.set_position(progress.bytes_read);
                match writer.as_mut() {
                    Some(w) => w.push(cases),
                    None => Ok(()),
                }
            },
        )
    });
    let totals = replayed?;
    // a shard may hold none of a small input's traces; its empty reports still merge
    if totals.replayed == 0 && args.shard.is_none() {
        let what = match &args.query {
            Some(q) => format!("no trace asks `{q}`"),
            None => "no trace to replay".into(),
        };
        // name what was read, so an empty or all-bad file is told apart from a wrong path
        let inputs: Vec<String> = args
            .traces
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        let read = match totals.bad_lines {
            0 => "no trace line".to_string(),
            n => format!("only {n} bad line{}", if n == 1 { "" } else { "s" }),
        };
        return Err(TracesError::invalid_with_hint(
            format!("{what}: {} held {read}", inputs.join(", ")),
            "pass a file of trace lines (findbench JSONL or OTLP/JSON); `findbench import` makes them from agent logs",
        ));
    }
    let header = ReplayHeader {
        schema: format!("{}{RESULTS_SCHEMA}", envelope::SCHEMA_BASE),
        kind: "replay".into(),
        command: "replay".into(),
        findbench_version: env!("CARGO_PKG_VERSION").into(),
        engine_version: findbench_engine::VERSION.into(),
        git_revision: git_revision(),
        profile: options.profile.name.clone(),
        machine: Machine::current(),
        build: build_profile().into(),
        threads,
        started_at: humantime::format_rfc3339_millis(started).to_string(),
        duration_ms: round_ms(clock.elapsed()),
        inputs: args
            .traces
            .iter()
            .map(|p| p.display().to_string())
            .collect(),
        input_files: totals.files,
        fixtures: totals.against_text(&match &args.root {
            Some(r) => r.display().to_string(),
            None => args.fixtures.display().to_string(),
        }),
        query: args.query.clone(),
        shard: args.shard,
        gate: Some(GateSettings {
            thresholds,
            exit_zero: args.exit_zero,
            baseline: None,
            gate_latency: false,
            hit_k: (args.hit_k != findbench_eval::metrics::rank::RANK_K).then_some(args.hit_k),
        }),
    };
    let written = match (writer, set) {
        (Some(w), Some(set)) => {
            bar.set_message(format!("{} traces; writing the reports", totals.replayed));
            let staged = w.finish(&header, &totals);
            bar.finish_and_clear();
            let written = staged?.iter().map(|p| set.final_path(p)).collect();
            set.commit()?;
            written
        }
        _ => {
            bar.finish_and_clear();
            Vec::new()
        }
    };
    let groups = totals.groups();
    let verdict = replay_verdict(&header, &totals);
    match args.output.format.resolve() {
        Format::Json | Format::Jsonl => {
            let meta = Meta::new("replay", started, clock.elapsed());
            let value = json!({
                "profile": header.profile,
                "threads": threads,
                "files": totals.files,
                "traces": totals.traces,
                "bad_lines": totals.bad_lines,
                "summary": totals.summary(&header.profile),
                "clusters": groups,
                "written": written,
                "gate": verdict.as_ref().map(super::gate::verdict_json),
            });
            crate::output::outln!("{}", envelope::success("replay.schema.json", &meta, value));
        }
        _ => {
            crate::output::out!(
                "{}",
                text(&header, &totals, &groups, &written, args.explain, quiet)
            );
            if let Some(verdict) = &verdict {
                crate::output::outln!();
                for line in verdict.lines() {
                    crate::output::outln!("{line}");
                }
            }
        }
    }
    Ok(replay_exit_code(&header, verdict.as_ref()))
}

/// The gate of a replay: only the thresholds it was given (a trace that does not succeed
/// is a finding of the replay, not a broken case), judged on its summary; none without
/// thresholds. `merge` gates joined replay shards with it too.
pub fn replay_verdict(header: &ReplayHeader, totals: &ReplayTotals) -> Option<Verdict> {
    let thresholds = &header.gate.as_ref()?.thresholds;
    thresholds.any().then(|| {
        let summary = match totals.summary(&header.profile) {
            serde_json::Value::Object(map) => map,
            _ => Default::default(),
        };
        let doc = findbench_eval::results::ResultsDocument {
            summary,
            ..Default::default()
        };
        findbench_eval::gate::evaluate_document(&doc, thresholds, None)
    })
}

/// A replay's exit code: its verdict's, unless it ran without thresholds or with
/// `--exit-zero`.
pub fn replay_exit_code(header: &ReplayHeader, verdict: Option<&Verdict>) -> i32 {
    match (verdict, &header.gate) {
        (Some(v), Some(g)) => g.exit_code(v),
        _ => exit::OK,
    }
}

/// A progress bar cleared from the terminal however the command ends.
struct Progress(ProgressBar);

impl Drop for Progress {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

/// The progress bar of a replay (hidden unless `shown`): bytes of the trace files read
/// against their size, or a spinner and the traces replayed when one input is stdin.
fn replay_bar(shown: bool, total_bytes: Option<u64>) -> ProgressBar {
    let template = match total_bytes {
        Some(_) => "{spinner} {bar:40} {bytes}/{total_bytes}  {msg}  {elapsed}",
        None => "{spinner} {msg}  {elapsed}",
    };
    progress_bar(shown, total_bytes, template)
}

/// What a replay prints in text: the counts, the outcome table, the transitions, the
/// notable groups and the files written.
pub fn text(
    header: &ReplayHeader,
    totals: &ReplayTotals,
    groups: &[TransitionGroup],
    written: &[PathBuf],
    explain: bool,
    quiet: bool,
) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "replayed {} traces ({} file{}, {} bad line{}) against {} with profile {} on {} threads in {:.0} ms\n",
        totals.replayed,
        totals.files,
        if totals.files == 1 { "" } else { "s" },
        totals.bad_lines,
        if totals.bad_lines == 1 { "" } else { "s" },
        header.fixtures,
        header.profile,
        header.threads,
        header.duration_ms
    );
    t.push_str(&replay_outcome_table(&replay_summary(header, totals)));
    let n = totals.replayed as f64;
    let ie = |c: usize| c as f64 * 100.0 / n;
    let _ = writeln!(
        t,
        "\ninsufficient_evidence rate: {:.1}% recorded -> {:.1}% replayed",
        ie(totals.recorded_count(TraceOutcome::InsufficientEvidence)),
        ie(totals.outcome_count(TraceOutcome::InsufficientEvidence))
    );
    let _ = writeln!(
        t,
        "transitions: {} fixed, {} regressed, {} unchanged",
        totals.transition_count(Transition::Fixed),
        totals.transition_count(Transition::Regressed),
        totals.transition_count(Transition::Unchanged)
    );
    if let Some(line) = totals.dirty_note() {
        let _ = writeln!(t, "{line}");
    }
    let summary = totals.summary(&header.profile);
    let count = |k: &str| summary[k].as_u64().unwrap_or(0);
    let pass_rate = summary["pass_rate"].as_f64().unwrap_or(0.0) * 100.0;
    let _ = if totals.per_search {
        writeln!(
            t,
            "passed: {} of {} searches ({pass_rate:.1}%)",
            totals.passed, totals.replayed
        )
    } else {
        writeln!(
            t,
            "passed: {} of {} questions ({pass_rate:.1}%; {} of {} searches)",
            count("passed"),
            count("passed") + count("failed"),
            totals.passed,
            totals.replayed
        )
    };
    t.push_str(&ranking_text(&totals.summary(&header.profile)));
    let shown: Vec<&TransitionGroup> = groups
        .iter()
        .filter(|g| {
            explain || g.transition != Transition::Unchanged || g.outcome != TraceOutcome::Success
        })
        .collect();
    if !shown.is_empty() {
        let _ = writeln!(t);
    }
    for g in shown {
        let _ = writeln!(
            t,
            "{:>10} {:>5}x  {}   ({} -> {})",
            g.transition.as_str(),
            g.traces,
            g.question,
            g.recorded_outcome.as_str(),
            g.outcome.as_str()
        );
        if let Some(e) = &g.explain {
            explain_text(&mut t, e);
        }
    }
    if !quiet {
        for w in written {
            let _ = writeln!(t, "wrote {}", w.display());
        }
    }
    t
}

/// The ranking of the traces that name expected files, findbench beside the agent's own
/// searches, as summary.md draws it; empty when no trace is judged.
fn ranking_text(summary: &serde_json::Value) -> String {
    use findbench_eval::report::ranking;
    let rows = ranking::replay_rows(summary);
    if rows.is_empty() {
        return String::new();
    }
    format!(
        "\nranking of the traces naming expected files (≤ N KB: the first expected file \
         within the first N KB returned):\n{}",
        ranking::markdown(&ranking::replay_header(summary), &rows)
    )
}

fn explain_text(t: &mut String, e: &Explanation) {
    let _ = writeln!(
        t,
        "             plan: term {}{}",
        e.term
            .as_deref()
            .map_or("(none)".to_string(), |s| format!("`{s}`")),
        if e.impl_query { ", impl" } else { "" }
    );
    for (i, s) in e.steps.iter().enumerate() {
        let _ = writeln!(
            t,
            "             {}. {} `{}`: {}",
            i + 1,
            s.tool,
            s.input,
            s.note
        );
    }
    for c in &e.candidates {
        let _ = writeln!(
            t,
            "                {:>6.2}  {}  {}",
            c.score, c.path, c.reason
        );
    }
}
