//! `findbench replay TRACES...`: every recorded question through today's `ask`, recorded
//! beside replayed outcome, and the reports of `run` with `--out DIR`.

use super::OutputArgs;
use crate::output::Format;
use clap::Args;
use findbench_engine::{EngineError, Profile};
use findbench_eval::envelope::{self, round_ms, Meta};
use findbench_eval::results::{build_profile, git_revision, Machine, RESULTS_SCHEMA};
use findbench_traces::replay::{
    replay_stream, Explanation, ReplayOptions, Transition, TransitionGroup,
};
use findbench_traces::replay_report::{outcome_table, ReplayHeader, ReportWriter};
use findbench_traces::trace::{TraceOutcome, TraceStream};
use serde_json::json;
use std::fmt::Write as _;
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
    /// Worker threads (0: one per core).
    #[arg(long, short = 'j', default_value_t = 0)]
    pub jobs: usize,
    /// Write summary.md, summary.csv, cases.csv, results.json and junit.xml into DIR.
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
    /// A trace line that does not parse is fatal (exit 2) instead of counted and skipped.
    #[arg(long)]
    pub strict: bool,
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: ReplayArgs) -> i32 {
    let started = SystemTime::now();
    let clock = Instant::now();
    match replay(&args, started, clock) {
        Ok(code) => code,
        Err(err) => super::report_error(&args.output, "replay", started, clock, &err),
    }
}

fn replay(args: &ReplayArgs, started: SystemTime, clock: Instant) -> Result<i32, EngineError> {
    let profile = Profile::resolve(&args.profile)?;
    if let Some(root) = &args.root {
        if !root.is_dir() {
            return Err(EngineError::File {
                path: root.clone(),
                message: "--root is not a directory".into(),
                hint: None,
            });
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs)
        .build()
        .map_err(|e| EngineError::Internal(format!("cannot start worker threads: {e}")))?;
    let threads = pool.current_num_threads();
    let options = ReplayOptions {
        fixtures_dir: args.fixtures.clone(),
        root: args.root.clone(),
        profile,
        explain: args.explain,
        query: args.query.clone(),
        suite: "replay".into(),
    };
    let mut stream = TraceStream::open(&args.traces)?;
    let mut writer = match &args.out {
        Some(dir) => Some(ReportWriter::create(dir)?),
        None => None,
    };
    let strict = args.strict;
    let quiet = args.output.quiet;
    let totals = pool.install(|| {
        replay_stream(
            &mut stream,
            &options,
            |bad| {
                if strict {
                    return Err(bad.into_error());
                }
                if !quiet {
                    eprintln!("{bad}");
                }
                Ok(())
            },
            |case| match writer.as_mut() {
                Some(w) => w.push(case),
                None => Ok(()),
            },
        )
    })?;
    if totals.replayed == 0 {
        let what = match &args.query {
            Some(q) => format!("no trace asks `{q}`"),
            None => "no trace to replay".into(),
        };
        return Err(EngineError::invalid(what));
    }
    let header = ReplayHeader {
        schema: format!("{}{RESULTS_SCHEMA}", envelope::SCHEMA_BASE),
        kind: "replay",
        command: "replay",
        findbench_version: env!("CARGO_PKG_VERSION"),
        engine_version: findbench_engine::VERSION,
        git_revision: git_revision(),
        profile: options.profile.name.clone(),
        machine: Machine::current(),
        build: build_profile(),
        threads,
        started_at: humantime::format_rfc3339_millis(started).to_string(),
        duration_ms: round_ms(clock.elapsed()),
        inputs: args
            .traces
            .iter()
            .map(|p| p.display().to_string())
            .collect(),
        fixtures: match &args.root {
            Some(r) => r.display().to_string(),
            None => args.fixtures.display().to_string(),
        },
        query: args.query.clone(),
    };
    let written = match writer {
        Some(w) => w.finish(&header, &totals)?,
        None => Vec::new(),
    };
    let groups = totals.groups();
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
            });
            println!("{}", envelope::success("replay.schema.json", &meta, value));
        }
        _ => print!(
            "{}",
            text(&header, &totals, &groups, &written, args.explain, quiet)
        ),
    }
    Ok(0)
}

fn text(
    header: &ReplayHeader,
    totals: &findbench_traces::replay::ReplayTotals,
    groups: &[TransitionGroup],
    written: &[PathBuf],
    explain: bool,
    quiet: bool,
) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "replayed {} traces ({} file{}, {} bad line{}) with profile {} on {} threads in {:.0} ms\n",
        totals.replayed,
        totals.files,
        if totals.files == 1 { "" } else { "s" },
        totals.bad_lines,
        if totals.bad_lines == 1 { "" } else { "s" },
        header.profile,
        header.threads,
        header.duration_ms
    );
    t.push_str(&outcome_table(totals, &header.profile));
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
