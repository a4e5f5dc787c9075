//! `findbench tune PATH...`: searches the profile's tunable numbers on the cases of the
//! train projects, reports the objective on train and held-out projects before and after
//! (with the held-out gain's bootstrap interval), and writes the tuned profile with
//! `--out`. The work is `findbench_tune::tune`; this file is its arguments and printing.

use crate::output::{outln, Format};
use clap::Args;
use findbench_eval::atomic_file::write_atomic;
use findbench_eval::corpus;
use findbench_eval::envelope::{self, Meta};
use findbench_eval::error::{HarnessError, Result};
use findbench_tune::split::{Holdout, DEFAULT_HOLDOUT};
use findbench_tune::traces::{load_traces, replay_options};
use findbench_tune::{tune_inputs, Inputs, Objective, TuneOptions};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

#[derive(Debug, Args)]
pub struct TuneArgs {
    /// Corpus files, directories (every *.yaml / *.yml inside) or glob patterns; trace
    /// files (`*.jsonl`, `*.jsonl.gz`, as `findbench import` writes them), whose traces
    /// naming `expected` files are cases.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Hold out this input (a corpus or trace file, as PATH takes them) and tune on the
    /// others; repeat for more. A project with cases on both sides is refused (exit 2).
    #[arg(long, value_name = "PATH", conflicts_with_all = ["holdout", "holdout_project"])]
    pub holdout_input: Vec<PathBuf>,
    /// Where trace fixtures live (`fixture: agent-cpp` is DIR/agent-cpp), as for replay.
    #[arg(long, default_value = "corpora/fixtures", value_name = "DIR")]
    pub fixtures: PathBuf,
    /// A tree or repository a trace names under OLD is read under NEW, as for replay.
    #[arg(long, value_name = "OLD=NEW")]
    pub map: Vec<findbench_traces::trace::PathMap>,
    /// The profile to start from: a built-in name, or a JSON file of one.
    #[arg(long, default_value = "default", value_name = "NAME")]
    pub profile: String,
    /// What to maximise: mrr, hit@1, hit@5, recall@4kb or pass_rate.
    #[arg(long, default_value = "mrr", value_name = "NAME", value_parser = Objective::parse)]
    pub objective: Objective,
    /// Search only this number (a JSON path such as `task_ranking.k1`) or section
    /// (`code`, `task_ranking.path`); repeat for more. Every tunable number by default.
    #[arg(long = "param", value_name = "PATH")]
    pub params: Vec<String>,
    /// Evaluations of a profile on the train cases the search may spend (200 when
    /// neither this nor --time is given).
    #[arg(long, value_name = "N")]
    pub budget: Option<usize>,
    /// Seconds the search may take (then it stops where it is: not deterministic).
    #[arg(long, value_name = "SECS")]
    pub time: Option<f64>,
    /// Seed of the search's random restarts: the same seed, inputs and budget give the
    /// same profile whatever --jobs.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub seed: u64,
    /// Share of the projects held out (the first by a hash of their names; at least one
    /// and never all when there are two or more).
    #[arg(long, value_name = "FRACTION", conflicts_with = "holdout_project")]
    pub holdout: Option<f64>,
    /// Hold out this project: its fixture path as the corpus resolves it, or the first or
    /// last part of that path; repeat for more.
    #[arg(long, value_name = "NAME")]
    pub holdout_project: Vec<String>,
    /// Write the tuned profile (with its provenance) to this JSON file, which --profile
    /// of any command takes.
    #[arg(long, value_name = "PROFILE.json")]
    pub out: Option<PathBuf>,
    /// Worker threads; 0 uses every CPU.
    #[arg(long, short = 'j', default_value_t = 0, value_name = "N", value_parser = super::shared_args::parse_jobs)]
    pub jobs: usize,
    /// Never draw a progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// `text` (the default) prints the table and the verdict; `json` one envelope with the
    /// report (`schemas/tune.schema.json`); `auto` is text on a terminal and JSON otherwise.
    #[arg(long, short = 'f', value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(args: TuneArgs, cache: &super::shared_args::CacheArgs) -> i32 {
    let started = SystemTime::now();
    let clock = Instant::now();
    match run_command(&args, cache, started, clock) {
        Ok(code) => code,
        Err(e) => {
            super::report_error::report_harness_error(args.format, "tune", started, clock, &e)
        }
    }
}

fn run_command(
    args: &TuneArgs,
    cache: &super::shared_args::CacheArgs,
    started: SystemTime,
    clock: Instant,
) -> Result<i32> {
    let time = match args.time {
        Some(t) if !(t.is_finite() && t > 0.0) => {
            return Err(HarnessError::invalid(
                "--time must be a positive number of seconds",
            ))
        }
        Some(t) => Some(Duration::from_secs_f64(t)),
        None => None,
    };
    let budget = match (args.budget, time) {
        (None, None) => Some(200),
        (b, _) => b,
    };
    let holdout = if args.holdout_project.is_empty() {
        Holdout::Fraction(args.holdout.unwrap_or(DEFAULT_HOLDOUT))
    } else {
        Holdout::Projects(args.holdout_project.clone())
    };
    let base = super::run::load_profile(&args.profile)?;
    let name = args.out.as_ref().and_then(|p| p.file_stem()).map_or_else(
        || format!("{}-tuned", base.name),
        |s| s.to_string_lossy().into_owned(),
    );
    let (corpus_paths, trace_paths) = inputs(&args.paths)?;
    let (held_corpora, held_traces) = inputs(&args.holdout_input)?;
    let held_out: Vec<PathBuf> = held_traces.iter().chain(&held_corpora).cloned().collect();
    let corpus_files: Vec<PathBuf> = corpus_paths.into_iter().chain(held_corpora).collect();
    let corpora = if corpus_files.is_empty() {
        Vec::new()
    } else {
        corpus::load_corpora_with(&corpus_files, &cache.tree_options())?
    };
    for warning in corpora.iter().flat_map(|c| &c.warnings) {
        eprintln!("warning: {warning}");
    }
    let trace_files: Vec<PathBuf> = trace_paths.into_iter().chain(held_traces).collect();
    let replay = replay_options(
        args.fixtures.clone(),
        args.map.clone(),
        cache.tree_options(),
    );
    let traces = load_traces(&trace_files, replay)?;
    let options = TuneOptions {
        base,
        base_name: args.profile.clone(),
        name,
        objective: args.objective,
        params: args.params.clone(),
        budget,
        time,
        seed: args.seed,
        jobs: args.jobs,
        holdout,
        progress: !args.no_progress && std::io::stderr().is_terminal(),
    };
    let tuned = tune_inputs(
        &Inputs {
            corpora: &corpora,
            traces: &traces,
            held_out: &held_out,
        },
        &options,
    )?;
    if let Some(out) = &args.out {
        let mut bytes = serde_json::to_vec_pretty(&tuned.profile)
            .map_err(|e| HarnessError::Internal(format!("cannot encode the profile: {e}")))?;
        bytes.push(b'\n');
        write_atomic(out, &bytes)?;
    }
    match args.format.resolve() {
        Format::Json | Format::Jsonl => {
            let meta = Meta::new("tune", started, clock.elapsed());
            let mut value = serde_json::to_value(&tuned.report)
                .map_err(|e| HarnessError::Internal(format!("cannot encode the report: {e}")))?;
            value["out"] = serde_json::json!(args.out);
            outln!("{}", envelope::success("tune.schema.json", &meta, value));
        }
        _ => {
            crate::output::out!("{}", tuned.report.text());
            if let Some(out) = &args.out {
                outln!(
                    "\nProfile: {} (use it with --profile {})",
                    out.display(),
                    out.display()
                );
            }
        }
    }
    Ok(0)
}

/// Whether `path` names a trace file rather than a corpus.
fn is_trace_file(path: &Path) -> bool {
    let name = path.to_string_lossy();
    name.ends_with(".jsonl") || name.ends_with(".jsonl.gz")
}

/// `paths` as corpus files (directories and globs expanded to their YAML files) and trace
/// files (as given).
fn inputs(paths: &[PathBuf]) -> Result<(Vec<PathBuf>, Vec<PathBuf>)> {
    let (traces, corpora): (Vec<PathBuf>, Vec<PathBuf>) =
        paths.iter().cloned().partition(|p| is_trace_file(p));
    let corpora = if corpora.is_empty() {
        Vec::new()
    } else {
        corpus::expand_paths(&corpora)?
    };
    Ok((corpora, traces))
}
