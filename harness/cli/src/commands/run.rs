//! `findbench run PATH...`: loads corpora, runs every case in parallel, writes the reports,
//! prints the summary and, with `--gate` (or any threshold), gates.

use super::gate::ThresholdArgs;
use clap::Args;
use findbench_engine::{Engine, Profile};
use findbench_eval::baseline::{self, BaselineDiff};
use findbench_eval::corpus;
use findbench_eval::error::{HarnessError, Result};
use findbench_eval::gate;
use findbench_eval::metrics::CostModel;
use findbench_eval::report::{self, console, ReportContext};
use findbench_eval::results::{ResultsDocument, RunResults};
use findbench_eval::runner::{self, RunConfig, RunOptions};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Corpus files, directories (every *.yaml / *.yml inside) or glob patterns.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Worker threads; 0 uses every CPU.
    #[arg(long, short = 'j', default_value_t = 0, value_name = "N")]
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
    /// A results.json (or its directory) to compare against; with --gate a regression fails.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Gate: exit 1 when a threshold (here or in a corpus's `gate`) is not met.
    #[arg(long)]
    pub gate: bool,
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
    /// Never draw a progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// Print only the gate lines and errors.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

pub fn run(args: RunArgs) -> i32 {
    match run_command(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

fn load_profile(name: &str) -> Result<Profile> {
    Profile::resolve(name).map_err(|e| {
        let message = format!("profile `{name}`: {e}");
        match e.exit_code() {
            3 => HarnessError::file(Path::new(name), message),
            _ => HarnessError::invalid(message),
        }
    })
}

fn run_command(args: &RunArgs) -> Result<i32> {
    // Everything that can be wrong with the input is checked before any case runs.
    let thresholds = args.thresholds.thresholds()?;
    if !(args.price_per_mtok >= 0.0 && args.calls_per_day >= 0.0) {
        return Err(HarnessError::invalid(
            "--price-per-mtok and --calls-per-day must be positive",
        ));
    }
    let profile = load_profile(&args.profile)?;
    let paths = corpus::expand_paths(&args.paths)?;
    let corpora = corpus::load_corpora(&paths)?;
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
    };
    let engine = Engine::new(profile);
    let run = runner::run_corpora(&engine, &corpora, &config)?;
    let diff: Option<BaselineDiff> = match (&baseline_run, &args.baseline) {
        (Some(b), Some(path)) => Some(baseline::diff(
            b,
            &path.display().to_string(),
            &ResultsDocument::from_run(&run),
        )),
        _ => None,
    };
    let context = ReportContext {
        baseline: diff.as_ref(),
    };
    let written = report::write_reports(&args.out, &run, &context)?;
    append_step_summary(&run, &context);
    let mut stdout = std::io::stdout().lock();
    if !args.quiet {
        let _ = write!(stdout, "{}", console::render(&run, diff.as_ref()));
        let names: Vec<String> = written
            .iter()
            .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().to_string()))
            .collect();
        let _ = writeln!(
            stdout,
            "\nReports: {} ({})",
            args.out.display(),
            names.join(", ")
        );
    }
    let mut code = 0;
    if args.gate || args.thresholds.any() {
        let verdict = gate::evaluate(&run, &thresholds, diff.as_ref());
        let _ = writeln!(stdout);
        for line in verdict.lines() {
            let _ = writeln!(stdout, "{line}");
        }
        code = verdict.exit_code();
    }
    let _ = stdout.flush();
    Ok(code)
}

/// Appends summary.md to `$GITHUB_STEP_SUMMARY` when it is set (GitHub Actions).
fn append_step_summary(run: &RunResults, context: &ReportContext<'_>) {
    let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty()) else {
        return;
    };
    let text = report::markdown::render(run, context);
    let result = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| f.write_all(text.as_bytes()));
    if let Err(e) = result {
        eprintln!(
            "warning: cannot append to GITHUB_STEP_SUMMARY ({}): {e}",
            Path::new(&path).display()
        );
    }
}
