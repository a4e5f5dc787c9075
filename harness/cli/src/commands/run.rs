//! `findbench run PATH...`: loads corpora, runs every case in parallel, writes the reports,
//! prints the summary and the gate's verdict, and exits 1 when the gate fails (any
//! unexpected failure, a corpus's `gate` section, a threshold given here, a baseline
//! regression) unless `--exit-zero`.

use super::gate::ThresholdArgs;
use crate::output::{outln, Format};
use clap::Args;
use findbench_engine::Profile;
use findbench_eval::baseline::{self, BaselineDiff};
use findbench_eval::corpus;
use findbench_eval::engines::run::run_engines;
use findbench_eval::engines::Engine;
use findbench_eval::envelope::{self, Meta};
use findbench_eval::error::{exit, HarnessError, Result};
use findbench_eval::gate;
use findbench_eval::gate_settings::GateSettings;
use findbench_eval::metrics::CostModel;
use findbench_eval::report::markdown::SummaryMarkdown;
use findbench_eval::report::{self, console, Exporter, ReportContext};
use findbench_eval::results::{ResultsDocument, RunResults};
use findbench_eval::runner::{RunConfig, RunOptions};
use serde_json::json;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Corpus files, directories (every *.yaml / *.yml inside) or glob patterns.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Worker threads; 0 uses every CPU.
    #[arg(long, short = 'j', default_value_t = 0, value_name = "N", value_parser = super::shared_args::parse_jobs)]
    pub jobs: usize,
    /// Directory the reports are written to.
    #[arg(
        long,
        short = 'o',
        default_value = "reports/latest",
        value_name = "DIR"
    )]
    pub out: PathBuf,
    /// Run only cases with this id, suite/id, suite or tag (repeat or comma-separate).
    #[arg(long, value_delimiter = ',', value_name = "TAG|ID")]
    pub filter: Vec<String>,
    /// A results.json (or its directory) to compare against: a case that held there and
    /// does not now fails the gate.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Gate latency against --baseline even when it was recorded on another machine
    /// instance or build (by default such timings are reported, not gated; the budgets'
    /// `p95_ms` and --max-p95-ms always gate).
    #[arg(long)]
    pub gate_latency: bool,
    /// Accepted for older scripts: the gate (unexpected failures, each corpus's `gate`
    /// section, the thresholds below) applies on every run.
    #[arg(long)]
    pub gate: bool,
    /// Report, and exit 0 even when cases fail or the gate fails (errors still exit 2 or 3).
    #[arg(long)]
    pub exit_zero: bool,
    #[command(flatten)]
    pub thresholds: ThresholdArgs,
    /// Ranking profile: a built-in name, or a JSON file of one.
    #[arg(long, default_value = "default", value_name = "NAME")]
    pub profile: String,
    /// Price in US dollars per million input tokens, for the daily cost saved.
    #[arg(long, default_value_t = CostModel::default().price_per_million_tokens, value_name = "USD")]
    pub price_per_mtok: f64,
    /// Find calls a day, for the daily cost saved.
    #[arg(long, default_value_t = CostModel::default().calls_per_day, value_name = "N")]
    pub calls_per_day: f64,
    /// Run only shard K of N (a stable hash of suite and case id picks each case's shard);
    /// `findbench merge` joins the N result directories.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<findbench_eval::shard::Shard>,
    /// Engine to run the cases with: `findbench` (built in, the default), a NAME of
    /// engines/NAME.yaml, or an engine file. Repeat to put engines side by side; the first
    /// is the one gated and compared with --baseline.
    #[arg(long = "engine", value_name = "NAME|FILE")]
    pub engines: Vec<String>,
    /// Write the case files (cases.jsonl, cases.csv, junit.xml) gzipped, as
    /// cases.jsonl.gz, cases.csv.gz and junit.xml.gz.
    #[arg(long)]
    pub out_compress: bool,
    /// Never draw a progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// Print only the gate lines and errors.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// `text` (the default: a CI log is read by a person) prints the summary and the gate
    /// lines; `json` one envelope with the summary, the reports written and the gate's
    /// verdict; `auto` is text on a terminal and JSON otherwise.
    #[arg(long, short = 'f', value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(args: RunArgs, cache: &super::shared_args::CacheArgs) -> i32 {
    let started = SystemTime::now();
    let clock = Instant::now();
    match run_command(&args, cache, started, clock) {
        Ok(code) => code,
        Err(e) => super::report_error::report_harness_error(args.format, "run", started, clock, &e),
    }
}

/// The profile `--profile` names: a built-in, or a JSON file (exit 2 for an unknown name or a
/// bad file, 3 for one that cannot be read).
pub fn load_profile(name: &str) -> Result<Profile> {
    Profile::resolve(name).map_err(|e| {
        let message = format!("profile `{name}`: {e}");
        match e.exit_code() {
            exit::FILE => HarnessError::file(Path::new(name), message),
            _ => HarnessError::invalid(message),
        }
    })
}

fn run_command(
    args: &RunArgs,
    cache: &super::shared_args::CacheArgs,
    started: SystemTime,
    clock: Instant,
) -> Result<i32> {
    // Everything that can be wrong with the input is checked before any case runs.
    let thresholds = args.thresholds.thresholds()?;
    if !(args.price_per_mtok >= 0.0 && args.calls_per_day >= 0.0) {
        return Err(HarnessError::invalid(
            "--price-per-mtok and --calls-per-day must be positive",
        ));
    }
    let profile = load_profile(&args.profile)?;
    let engines = args
        .engines
        .iter()
        .map(|e| Engine::resolve(e))
        .collect::<Result<Vec<_>>>()?;
    if let Some(dup) = engines
        .iter()
        .enumerate()
        .find(|(i, e)| engines[..*i].iter().any(|x| x.name() == e.name()))
    {
        return Err(HarnessError::invalid(format!(
            "engine `{}` is given twice (engine names must differ)",
            dup.1.name()
        )));
    }
    let paths = corpus::expand_paths(&args.paths)?;
    let corpora = corpus::load_corpora_with(&paths, &cache.tree_options())?;
    for warning in corpora.iter().flat_map(|c| &c.warnings) {
        eprintln!("warning: {warning}");
    }
    let baseline_run = match &args.baseline {
        Some(path) => Some(ResultsDocument::read(path)?),
        None => None,
    };
    let config = RunConfig {
        options: RunOptions {
            jobs: args.jobs,
            progress: !args.no_progress && !args.quiet && std::io::stderr().is_terminal(),
        },
        filters: args.filter.clone(),
        cost: CostModel {
            price_per_million_tokens: args.price_per_mtok,
            calls_per_day: args.calls_per_day,
            ..CostModel::default()
        },
        shard: args.shard,
    };
    let record_engines = !engines.is_empty();
    let engines = if engines.is_empty() {
        vec![Engine::Builtin]
    } else {
        engines
    };
    let builtin = findbench_engine::Engine::new(profile);
    let mut run = run_engines(&engines, &builtin, &corpora, &config, record_engines)?;
    run.gate = Some(GateSettings {
        thresholds: thresholds.clone(),
        exit_zero: args.exit_zero,
        baseline: args.baseline.as_ref().map(|p| p.display().to_string()),
        gate_latency: args.gate_latency,
        hit_k: None,
    });
    let output = RunOutput {
        out: &args.out,
        compress: args.out_compress,
        format: args.format,
        quiet: args.quiet,
        step_summary: true,
        heading: "",
        command: "run",
        started,
        clock,
    };
    finish_run(&run, baseline_run.as_ref(), &output)
}

/// Where and how the reports and verdict of a run go.
pub struct RunOutput<'a> {
    pub out: &'a Path,
    /// `--out-compress`.
    pub compress: bool,
    pub format: Format,
    pub quiet: bool,
    /// Append summary.md to `$GITHUB_STEP_SUMMARY` (a merge job appends its own).
    pub step_summary: bool,
    /// Printed before the summary in text (`merge` says what it joined).
    pub heading: &'a str,
    pub command: &'a str,
    pub started: SystemTime,
    pub clock: Instant,
}

/// Writes the reports of `run` (a run, or the shards of one merged), gates it as its
/// recorded gate settings say (against `baseline_run` when they name a baseline), prints
/// the summary and the gate lines, and returns the exit code: what `run` does after its
/// cases ran, and what `merge` does with the joined shards.
pub fn finish_run(
    run: &RunResults,
    baseline_run: Option<&ResultsDocument>,
    o: &RunOutput<'_>,
) -> Result<i32> {
    let (out, format, quiet) = (o.out, o.format, o.quiet);
    let settings = run.gate.clone().unwrap_or_default();
    let thresholds = &settings.thresholds;
    let diff: Option<BaselineDiff> = match (baseline_run, &settings.baseline) {
        (Some(b), Some(path)) => Some(baseline::diff(
            b,
            path,
            &ResultsDocument::from_run(run),
            settings.gate_latency,
        )),
        _ => None,
    };
    let context = ReportContext {
        baseline: diff.as_ref(),
        compress: o.compress,
    };
    let written = report::write_reports(out, run, &context)?;
    if o.step_summary {
        append_step_summary(run, &context);
    }
    let verdict = gate::evaluate(run, thresholds, diff.as_ref());
    match format.resolve() {
        Format::Json | Format::Jsonl => {
            let meta = Meta::new(o.command, o.started, o.clock.elapsed());
            let value = json!({
                "suites": run.suites.keys().collect::<Vec<_>>(),
                "profile": run.profile,
                "threads": run.threads,
                "summary": run.summary,
                "reports": {"dir": out, "files": written},
                "gate": super::gate::verdict_json(&verdict),
            });
            outln!("{}", envelope::success("run.schema.json", &meta, value));
        }
        _ => {
            if !quiet {
                crate::output::out!("{}{}", o.heading, console::render(run, diff.as_ref()));
                if !run.engines.is_empty() {
                    crate::output::out!("\n{}", report::engines::console(run));
                }
                let names: Vec<String> = written
                    .iter()
                    .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().to_string()))
                    .collect();
                outln!("\nReports: {} ({})", out.display(), names.join(", "));
            }
            outln!();
            for line in verdict.lines() {
                outln!("{line}");
            }
        }
    }
    Ok(settings.exit_code(&verdict))
}

/// Appends summary.md to `$GITHUB_STEP_SUMMARY` when it is set (GitHub Actions).
fn append_step_summary(run: &RunResults, context: &ReportContext<'_>) {
    let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty()) else {
        return;
    };
    let text = match SummaryMarkdown.render(run, context) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("warning: cannot render summary.md for GITHUB_STEP_SUMMARY: {e}");
            return;
        }
    };
    let result = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| f.write_all(&text));
    if let Err(e) = result {
        eprintln!(
            "warning: cannot append to GITHUB_STEP_SUMMARY ({}): {e}",
            Path::new(&path).display()
        );
    }
}
