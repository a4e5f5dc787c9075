//! The reports of a replay (`--out DIR`): `summary.md`, `summary.csv`, `cases.csv`,
//! `results.json` and `junit.xml`, written as the cases stream by.
//!
//! Cases go to spool files beside the reports as they are replayed; the documents that need
//! totals first (results.json, junit.xml) are assembled from the spools at the end. Every
//! file is written under a temporary name and renamed, so a reader never sees half a report.

use crate::replay::{ReplayTotals, TransitionGroup};
use crate::trace::TraceOutcome;
use findbench_engine::EngineError;
use findbench_eval::atomic_file::{temp_name, write_atomic, write_atomic_with};
use findbench_eval::report::csv::csv_writer;
use findbench_eval::report::junit::escape_xml as xml;
use findbench_eval::results::{CaseResult, Machine};
use serde::Serialize;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

/// What results.json says about the run besides its cases.
#[derive(Debug, Clone, Serialize)]
pub struct ReplayHeader {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub kind: &'static str,
    pub command: &'static str,
    pub findbench_version: &'static str,
    pub engine_version: &'static str,
    pub git_revision: Option<String>,
    pub profile: String,
    pub machine: Machine,
    /// `debug` or `release`: timings of the two are not comparable.
    pub build: &'static str,
    pub threads: usize,
    pub started_at: String,
    pub duration_ms: f64,
    pub inputs: Vec<String>,
    pub fixtures: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
}

fn io_err(path: &Path) -> impl Fn(std::io::Error) -> EngineError + '_ {
    move |e| EngineError::File {
        path: path.to_path_buf(),
        message: format!("cannot write: {e}"),
        hint: None,
    }
}

/// Spools cases as they come; [`ReportWriter::finish`] writes the reports.
pub struct ReportWriter {
    dir: PathBuf,
    cases_json: (PathBuf, BufWriter<File>),
    cases_csv: (PathBuf, csv::Writer<BufWriter<File>>),
    junit: (PathBuf, BufWriter<File>),
}

const CASES_CSV_HEADER: [&str; 18] = [
    "id",
    "suite",
    "mode",
    "status",
    "outcome",
    "recorded_outcome",
    "transition",
    "candidates",
    "recorded_candidates",
    "tools",
    "recorded_tools",
    "iterations",
    "selected",
    "duration_ms",
    "recorded_duration_ms",
    "output_bytes",
    "query",
    "reason",
];

fn csv_err(path: &Path) -> impl Fn(csv::Error) -> EngineError + '_ {
    move |e| io_err(path)(e.into())
}

impl ReportWriter {
    pub fn create(dir: &Path) -> Result<ReportWriter, EngineError> {
        std::fs::create_dir_all(dir).map_err(io_err(dir))?;
        let open = |name: &str| -> Result<(PathBuf, BufWriter<File>), EngineError> {
            let path = temp_name(&dir.join(format!("{name}.spool")));
            let f = File::create(&path).map_err(io_err(&path))?;
            Ok((path, BufWriter::with_capacity(256 * 1024, f)))
        };
        let (csv_path, csv_file) = open("cases.csv")?;
        let mut cases_csv = csv_writer(csv_file);
        cases_csv
            .write_record(CASES_CSV_HEADER)
            .map_err(csv_err(&csv_path))?;
        Ok(ReportWriter {
            dir: dir.to_path_buf(),
            cases_json: open("cases.jsonl")?,
            cases_csv: (csv_path, cases_csv),
            junit: open("junit")?,
        })
    }

    /// Spools one replayed case: its results.json line (the shared case model), its
    /// cases.csv row and its junit.xml test case.
    pub fn push(&mut self, case: &CaseResult) -> Result<(), EngineError> {
        let (p, w) = &mut self.cases_json;
        serde_json::to_writer(&mut *w, case).map_err(|e| io_err(p)(e.into()))?;
        writeln!(w).map_err(io_err(p))?;

        let opt = |o: Option<String>| o.unwrap_or_default();
        let recorded = opt(case.recorded_outcome.map(|o| o.as_str().to_string()));
        let transition = opt(case.transition.map(|t| t.as_str().to_string()));
        let row = [
            case.id.clone(),
            case.suite.clone(),
            case.mode.clone(),
            case.status.to_string(),
            case.outcome.clone(),
            recorded.clone(),
            transition.clone(),
            case.candidates.to_string(),
            opt(case.recorded_candidates.map(|n| n.to_string())),
            case.tools.join(" "),
            opt(case.recorded_tools.as_ref().map(|t| t.join(" "))),
            case.iterations.to_string(),
            opt(case.selected.clone()),
            format!("{}", case.duration_ms),
            opt(case.recorded_duration_ms.map(|d| format!("{d}"))),
            case.output_bytes.to_string(),
            case.query.clone(),
            opt(case.reason.clone()),
        ];
        let (p, w) = &mut self.cases_csv;
        w.write_record(&row).map_err(csv_err(p))?;

        let (p, w) = &mut self.junit;
        let name = xml(&format!("{} {}", case.id, case.query));
        let time = case.duration_ms / 1000.0;
        let reason = xml(case.reason.as_deref().unwrap_or(""));
        if case.status.held() {
            writeln!(w, "    <testcase classname=\"{}\" name=\"{name}\" time=\"{time:.6}\"/>", xml(&case.suite))
        } else {
            writeln!(
                w,
                "    <testcase classname=\"{}\" name=\"{name}\" time=\"{time:.6}\">\n      <failure message=\"{}\" type=\"{}\">recorded {}, replayed {} ({}): {}</failure>\n    </testcase>",
                xml(&case.suite),
                reason,
                xml(&case.outcome),
                recorded,
                xml(&case.outcome),
                transition,
                reason,
            )
        }
        .map_err(io_err(p))
    }

    /// Writes every report and removes the spools; returns the files written.
    pub fn finish(
        self,
        header: &ReplayHeader,
        totals: &ReplayTotals,
    ) -> Result<Vec<PathBuf>, EngineError> {
        let ReportWriter {
            dir,
            cases_json,
            cases_csv,
            junit,
        } = self;
        let close = |(p, w): (PathBuf, BufWriter<File>)| -> Result<PathBuf, EngineError> {
            w.into_inner()
                .map_err(|e| io_err(&p)(e.into_error()))?
                .sync_all()
                .map_err(io_err(&p))?;
            Ok(p)
        };
        let cases_json = close(cases_json)?;
        let (csv_spool, csv_writer) = cases_csv;
        let csv_file = csv_writer
            .into_inner()
            .map_err(|e| io_err(&csv_spool)(e.into_error()))?;
        let cases_csv = close((csv_spool, csv_file))?;
        let junit = close(junit)?;
        let summary = totals.summary(&header.profile);
        let groups = totals.groups();
        let mut written = Vec::new();

        // results.json: header fields, summary, groups, bad lines, then the spooled cases
        let results = dir.join("results.json");
        let mut head =
            serde_json::to_value(header).map_err(|e| EngineError::Internal(e.to_string()))?;
        head["summary"] = summary.clone();
        head["clusters"] = serde_json::to_value(&groups).unwrap_or_default();
        head["bad_lines"] = serde_json::to_value(&totals.bad_examples).unwrap_or_default();
        let head = serde_json::to_string_pretty(&head)
            .map_err(|e| EngineError::Internal(e.to_string()))?;
        let head = head.trim_end().trim_end_matches('}').trim_end();
        write_atomic_with(&results, |w| {
            w.write_all(head.as_bytes())?;
            w.write_all(b",\n  \"cases\": [")?;
            let mut first = true;
            for line in BufReader::new(File::open(&cases_json)?).lines() {
                let line = line?;
                w.write_all(if first { b"\n    " } else { b",\n    " })?;
                w.write_all(line.as_bytes())?;
                first = false;
            }
            w.write_all(b"\n  ]\n}\n")
        })?;
        written.push(results);

        let csv = dir.join("cases.csv");
        std::fs::rename(&cases_csv, &csv).map_err(io_err(&csv))?;
        written.push(csv);

        let junit_path = dir.join("junit.xml");
        let failures = totals.replayed - totals.outcome_count(TraceOutcome::Success);
        write_atomic_with(&junit_path, |w| {
            writeln!(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
            writeln!(
                w,
                "<testsuites name=\"findbench replay\" tests=\"{}\" failures=\"{failures}\">",
                totals.replayed
            )?;
            writeln!(
                w,
                "  <testsuite name=\"replay ({})\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\">",
                xml(&header.profile),
                totals.replayed
            )?;
            std::io::copy(&mut File::open(&junit)?, w)?;
            writeln!(w, "  </testsuite>\n</testsuites>")
        })?;
        written.push(junit_path);

        let summary_csv = dir.join("summary.csv");
        write_atomic(&summary_csv, summary_csv_text(&summary).as_bytes())?;
        written.push(summary_csv);

        let md = dir.join("summary.md");
        write_atomic(&md, summary_markdown(header, totals, &groups).as_bytes())?;
        written.push(md);

        for spool in [cases_json, junit] {
            let _ = std::fs::remove_file(spool);
        }
        Ok(written)
    }
}

/// `metric,value` rows of the summary's numeric fields (nested as dotted names).
fn summary_csv_text(summary: &serde_json::Value) -> String {
    fn walk(prefix: &str, v: &serde_json::Value, out: &mut csv::Writer<Vec<u8>>) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, v) in m {
                    let name = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    walk(&name, v, out);
                }
            }
            serde_json::Value::Number(n) => {
                let _ = out.write_record([prefix, &n.to_string()]);
            }
            serde_json::Value::String(s) => {
                let _ = out.write_record([prefix, s]);
            }
            _ => {}
        }
    }
    let mut out = csv_writer(Vec::new());
    let _ = out.write_record(["metric", "value"]);
    walk("", summary, &mut out);
    String::from_utf8(out.into_inner().unwrap_or_default()).unwrap_or_default()
}

fn pct(n: usize, of: usize) -> String {
    if of == 0 {
        "–".into()
    } else {
        format!("{:.1}%", n as f64 * 100.0 / of as f64)
    }
}

/// The outcome table: recorded beside replayed, as the spec's metrics table shows them.
pub fn outcome_table(totals: &ReplayTotals, profile: &str) -> String {
    let n = totals.replayed;
    let mut t = String::new();
    let _ = writeln!(t, "| outcome | recorded | % | replayed ({profile}) | % |");
    let _ = writeln!(t, "|---|---:|---:|---:|---:|");
    for o in TraceOutcome::ALL {
        let (r, p) = (totals.recorded_count(o), totals.outcome_count(o));
        let _ = writeln!(
            t,
            "| {} | {r} | {} | {p} | {} |",
            o.as_str(),
            pct(r, n),
            pct(p, n)
        );
    }
    let _ = writeln!(t, "| total | {n} | | {n} | |");
    t
}

fn summary_markdown(
    header: &ReplayHeader,
    totals: &ReplayTotals,
    groups: &[TransitionGroup],
) -> String {
    let s = totals.summary(&header.profile);
    let mut m = String::new();
    let _ = writeln!(m, "# findbench replay: profile `{}`\n", header.profile);
    let _ = writeln!(
        m,
        "{} traces replayed from {} ({} file{}, {} bad line{}) against `{}`; engine {}, {} threads{}.\n",
        totals.replayed,
        header.inputs.join(", "),
        totals.files,
        if totals.files == 1 { "" } else { "s" },
        totals.bad_lines,
        if totals.bad_lines == 1 { "" } else { "s" },
        header.fixtures,
        header.engine_version,
        header.threads,
        header.git_revision.as_deref().map(|g| format!(", git {}", &g[..g.len().min(10)])).unwrap_or_default()
    );
    let _ = writeln!(m, "## Outcomes\n");
    m.push_str(&outcome_table(totals, &header.profile));
    let _ = writeln!(
        m,
        "\ninsufficient_evidence rate: **{} recorded → {} replayed**.\n",
        pct(
            totals.recorded_count(TraceOutcome::InsufficientEvidence),
            totals.replayed
        ),
        pct(
            totals.outcome_count(TraceOutcome::InsufficientEvidence),
            totals.replayed
        )
    );
    let _ = writeln!(m, "## Transitions\n");
    let _ = writeln!(m, "| transition | traces |\n|---|---:|");
    for t in ["fixed", "regressed", "unchanged"] {
        let _ = writeln!(m, "| {t} | {} |", s["transitions"][t]);
    }
    let _ = writeln!(m, "\n## Questions that changed or still fail\n");
    let listed: Vec<&TransitionGroup> = groups
        .iter()
        .filter(|g| {
            g.transition != crate::replay::Transition::Unchanged
                || g.outcome != TraceOutcome::Success
        })
        .collect();
    if listed.is_empty() {
        let _ = writeln!(m, "None: every trace succeeded, as recorded.");
    } else {
        let _ = writeln!(
            m,
            "| transition | question | traces | recorded | replayed | example |"
        );
        let _ = writeln!(m, "|---|---|---:|---|---|---|");
        for g in listed {
            let _ = writeln!(
                m,
                "| {} | {} | {} | {} | {} | {} |",
                g.transition.as_str(),
                g.question.replace('|', "\\|"),
                g.traces,
                g.recorded_outcome.as_str(),
                g.outcome.as_str(),
                g.example_trace_id
            );
        }
    }
    let _ = writeln!(m, "\n## Retrieval\n");
    let _ = writeln!(m, "| metric | value |\n|---|---:|");
    for k in [
        "candidates_mean",
        "candidates_median",
        "zero_candidate_rate",
        "tools_per_query",
        "iterations_mean",
        "output_bytes_mean",
        "latency_p50_ms",
        "latency_p95_ms",
        "latency_p99_ms",
        "latency_max_ms",
        "recorded_latency_p50_ms",
        "recorded_latency_p95_ms",
    ] {
        let v = s[k].as_f64().unwrap_or(0.0);
        let shown = if k.ends_with("rate") {
            format!("{:.1}%", v * 100.0)
        } else {
            format!("{v:.3}")
        };
        let _ = writeln!(m, "| {k} | {shown} |");
    }
    let _ = writeln!(
        m,
        "\nRecorded latencies are the production agent's whole retrieval; replayed latencies are the engine's cascade alone."
    );
    if !totals.bad_examples.is_empty() {
        let _ = writeln!(m, "\n## Bad trace lines ({})\n", totals.bad_lines);
        for b in &totals.bad_examples {
            let _ = writeln!(m, "- `{}`", b.replace('`', "'"));
        }
    }
    m
}
