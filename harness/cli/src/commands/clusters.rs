//! `findbench clusters TRACES...`: recurring failures by normalised question, the command
//! that replays each, and `--export DIR` to turn them into regression corpora.

use super::shared_args::OutputArgs;
use crate::output::Format;
use clap::Args;
use findbench_eval::error::HarnessError;
use findbench_tools::cli_values::WholeNumber;
use findbench_tools::envelope::{self, Meta};
use findbench_traces::clusters::{cluster_traces, export_clusters, replay_command, ClusterOptions};
use findbench_traces::error::TracesError;
use findbench_traces::trace::{TraceOutcome, TraceStream};
use serde_json::json;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};

#[derive(Debug, Args)]
pub struct ClustersArgs {
    /// Trace files (.jsonl, .jsonl.gz), directories or glob patterns.
    #[arg(required = true, value_name = "TRACES")]
    pub traces: Vec<PathBuf>,
    /// Recorded outcomes to cluster (comma-separated): success, insufficient_evidence,
    /// failure, or any. Default: insufficient_evidence,failure.
    #[arg(long, value_delimiter = ',', value_name = "OUTCOME")]
    pub outcome: Vec<String>,
    /// List only clusters seen at least this many times.
    #[arg(long, default_value_t = 3, value_parser = WholeNumber::zero_or_more())]
    pub min: usize,
    /// Write each listed cluster as a YAML corpus (`findbench run` accepts it) into DIR.
    #[arg(long, value_name = "DIR")]
    pub export: Option<PathBuf>,
    /// Where trace fixtures live (`fixture: agent-cpp` is DIR/agent-cpp).
    #[arg(long, default_value = "corpora/fixtures", value_name = "DIR")]
    pub fixtures: PathBuf,
    /// Count every search as an occurrence (by default the searches of one user question,
    /// an imported turn, are seen once).
    #[arg(long)]
    pub per_search: bool,
    /// Exported cases expect success with no `known_failure` marker (they fail until fixed).
    #[arg(long)]
    pub expect_pass: bool,
    /// A trace line that does not parse is fatal (exit 2) instead of counted and skipped.
    #[arg(long)]
    pub strict: bool,
    /// What the trace files hold: findbench JSONL, or OpenTelemetry OTLP/JSON (GenAI
    /// `execute_tool` spans); `auto` decides per file by its first line.
    #[arg(long, value_enum, default_value_t = super::shared_args::TraceFrom::Auto, value_name = "FORMAT")]
    pub from: super::shared_args::TraceFrom,
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: ClustersArgs) -> i32 {
    let started = SystemTime::now();
    let clock = Instant::now();
    match clusters(&args) {
        Ok((text, value)) => {
            let meta = Meta::new("clusters", started, clock.elapsed());
            match args.output.format.resolve() {
                Format::Json | Format::Jsonl => {
                    crate::output::outln!(
                        "{}",
                        envelope::success("clusters.schema.json", &meta, value)
                    )
                }
                _ => crate::output::out!("{text}"),
            }
            0
        }
        Err(err) => {
            super::report_error::report_error(&args.output, "clusters", started, clock, &err)
        }
    }
}

fn parse_outcomes(values: &[String]) -> Result<Vec<TraceOutcome>, TracesError> {
    if values.is_empty() {
        return Ok(ClusterOptions::default().outcomes);
    }
    let mut out = Vec::new();
    for v in values {
        let v = v.trim();
        if v == "any" || v == "all" {
            return Ok(Vec::new());
        }
        let o = TraceOutcome::parse(v).ok_or_else(|| {
            TracesError::invalid_with_hint(
                format!("unknown outcome `{v}`"),
                "outcomes are: success, insufficient_evidence, failure, any",
            )
        })?;
        if !out.contains(&o) {
            out.push(o);
        }
    }
    Ok(out)
}

fn clusters(args: &ClustersArgs) -> Result<(String, serde_json::Value), TracesError> {
    let options = ClusterOptions {
        outcomes: parse_outcomes(&args.outcome)?,
        min: args.min,
        per_search: args.per_search,
    };
    let mut stream = TraceStream::open(&args.traces)?.with_format(args.from.into());
    let strict = args.strict;
    let report = cluster_traces(&mut stream, &options, |bad| {
        if strict {
            return Err(bad.into_error());
        }
        eprintln!("{bad}");
        Ok(())
    })?;
    // one rule for empty input (docs/traces.md): nothing to work on is invalid input
    if report.traces == 0 {
        let inputs: Vec<String> = args
            .traces
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        let read = match report.bad_lines {
            0 => "no trace line".to_string(),
            n => format!("only {n} bad line{}", plural(n)),
        };
        return Err(TracesError::invalid_with_hint(
            format!("no trace to cluster: {} held {read}", inputs.join(", ")),
            "pass a file of trace lines (findbench JSONL or OTLP/JSON); `findbench import` makes them from agent logs",
        ));
    }
    let exported = match &args.export {
        Some(dir) => export_clusters(&report, &args.fixtures, dir, !args.expect_pass)?,
        None => Vec::new(),
    };
    let fixtures = (args.fixtures != Path::new("corpora/fixtures")).then_some(&args.fixtures);
    let commands: Vec<String> = report
        .clusters
        .iter()
        .map(|c| replay_command(&args.traces, fixtures.map(|p| p.as_path()), c))
        .collect();

    let mut t = String::new();
    let outcomes = if report.outcomes.is_empty() {
        "any outcome".to_string()
    } else {
        report.outcomes.join(", ")
    };
    let _ = writeln!(
        t,
        "{} cluster{} seen at least {} times, among {} {outcomes} traces of {} ({} file{}, {} bad line{})",
        report.clusters.len(),
        plural(report.clusters.len()),
        report.min,
        report.selected,
        report.traces,
        report.files,
        plural(report.files),
        report.bad_lines,
        plural(report.bad_lines),
    );
    for (cluster, command) in report.clusters.iter().zip(&commands) {
        let outcomes: Vec<String> = cluster
            .outcomes
            .iter()
            .map(|(o, n)| format!("{o} {n}"))
            .collect();
        let _ = writeln!(t);
        let _ = writeln!(
            t,
            "{:>4}x  {}   [{}]",
            cluster.occurrences,
            cluster.question,
            outcomes.join(", ")
        );
        let _ = writeln!(
            t,
            "       seen {} .. {}   fixture {}",
            cluster.first_seen,
            cluster.last_seen,
            cluster.fixtures.join(", ")
        );
        if cluster.variants.len() > 1 {
            let v: Vec<String> = cluster
                .variants
                .iter()
                .map(|v| format!("\"{}\" x{}", v.value, v.count))
                .collect();
            let _ = writeln!(t, "       asked as {}", v.join(", "));
        }
        for seq in &cluster.tool_sequences {
            let _ = writeln!(t, "       tools {}   x{}", seq.value, seq.count);
        }
        let _ = writeln!(t, "       replay: {command}");
    }
    if report.below_min > 0 && !args.output.quiet {
        let _ = writeln!(
            t,
            "\n{} more question{} below --min {} ({} trace{}); --min 1 lists them",
            report.below_min,
            plural(report.below_min),
            report.min,
            report.below_min_traces,
            plural(report.below_min_traces)
        );
    }
    for e in &exported {
        let _ = writeln!(
            t,
            "wrote {} ({} case{})",
            e.path.display(),
            e.cases,
            plural(e.cases)
        );
    }

    let mut value = serde_json::to_value(&report)
        .map_err(|e| TracesError::Eval(HarnessError::Internal(e.to_string())))?;
    if let Some(list) = value.get_mut("clusters").and_then(|v| v.as_array_mut()) {
        for (c, cmd) in list.iter_mut().zip(&commands) {
            c["replay_command"] = json!(cmd);
        }
    }
    value["exported"] = json!(exported
        .iter()
        .map(|e| json!({"path": e.path, "cases": e.cases}))
        .collect::<Vec<_>>());
    Ok((t, value))
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
