//! Every CSV document: a run's `cases.csv` (one row per case) and `summary.csv` (one row
//! per group: the run, each suite, mode and tag); a replay's cases.csv rows and
//! `metric,value` summary; compare's report CSV. Timing columns end in `_ms` (plus
//! `within_budget`).

use super::exporter::{CaseStreamExporter, Exporter, ReportContext};
use super::replay_document::{read_spool, rename_spool_into_place, ReplayReport};
use crate::case::CaseResult;
use crate::compare::Comparison;
use crate::error::{HarnessError, Result};
use crate::metrics::GroupMetrics;
use crate::results::RunResults;
use std::borrow::Cow;
use std::path::Path;

pub struct CasesCsv;
pub struct SummaryCsv;

/// The one CSV dialect of every findbench CSV (`run`, `replay`, `compare`): RFC 4180
/// quoting where needed, `\n` line ends.
fn csv_writer<W: std::io::Write>(w: W) -> csv::Writer<W> {
    csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(w)
}

fn writer() -> csv::Writer<Vec<u8>> {
    csv_writer(Vec::new())
}

fn finish(w: csv::Writer<Vec<u8>>) -> Result<Vec<u8>> {
    w.into_inner()
        .map_err(|e| HarnessError::Internal(format!("writing csv: {e}")))
}

fn csv_err(e: csv::Error) -> HarnessError {
    HarnessError::Internal(format!("writing csv: {e}"))
}

pub const CASE_COLUMNS: &[&str] = &[
    "suite",
    "id",
    "mode",
    "status",
    "outcome",
    "expected_outcome",
    "candidates",
    "returned",
    "top",
    "rank",
    "output_bytes",
    "dump_bytes",
    "items",
    "tools",
    "iterations",
    "failed_tools",
    "duration_ms",
    "reason",
    "known_failure",
    "tags",
    "query",
    "file",
    "line",
    "engine",
    "evidence_bytes",
];

impl Exporter for CasesCsv {
    fn file_name(&self) -> &'static str {
        "cases.csv"
    }

    fn render(&self, run: &RunResults, _: &ReportContext<'_>) -> Result<Vec<u8>> {
        let mut w = writer();
        w.write_record(CASE_COLUMNS).map_err(csv_err)?;
        for c in run.all_cases() {
            let row: Vec<String> = vec![
                c.suite.clone(),
                c.id.clone(),
                c.mode.clone(),
                c.status.to_string(),
                c.outcome.clone(),
                c.expected_outcome.clone().unwrap_or_default(),
                c.candidates.to_string(),
                c.ranked.len().to_string(),
                c.ranked.first().cloned().unwrap_or_default(),
                c.rank.map(|r| r.to_string()).unwrap_or_default(),
                c.output_bytes.to_string(),
                c.dump_bytes.to_string(),
                c.items.to_string(),
                c.tools.join(" "),
                c.iterations.to_string(),
                c.failed_tools.to_string(),
                format!("{:.3}", c.duration_ms),
                c.reason.clone().unwrap_or_default(),
                c.known_failure.clone().unwrap_or_default(),
                c.tags.join(" "),
                c.query.clone(),
                c.file.clone(),
                c.line.to_string(),
                c.engine.clone(),
                c.evidence_bytes.map(|b| b.to_string()).unwrap_or_default(),
            ];
            w.write_record(&row).map_err(csv_err)?;
        }
        finish(w)
    }
}

pub const SUMMARY_COLUMNS: &[&str] = &[
    "group",
    "name",
    "total",
    "passed",
    "failed",
    "xfail",
    "xpass",
    "pass_rate",
    "insufficient_evidence_rate",
    "success_rate",
    "no_match_rate",
    "failure_rate",
    "candidates_mean",
    "candidates_median",
    "candidates_zero_rate",
    "tools_per_query",
    "iterations",
    "duplicate_tools",
    "failed_tools",
    "judged",
    "hit_at_1",
    "hit_at_k",
    "mrr",
    "output_bytes_mean",
    "dump_bytes_mean",
    "reduction_pct",
    "tokens_per_call",
    "daily_cost_dump_usd",
    "daily_cost_find_usd",
    "daily_saved_usd",
    "over_byte_budget",
    "mean_ms",
    "p50_ms",
    "p95_ms",
    "p99_ms",
    "max_ms",
    "per_1000_items_ms",
    "within_budget",
];

fn summary_row(group: &str, name: &str, m: &GroupMetrics) -> Vec<String> {
    vec![
        group.to_string(),
        name.to_string(),
        m.total.to_string(),
        m.passed.to_string(),
        m.failed.to_string(),
        m.xfail.to_string(),
        m.xpass.to_string(),
        m.pass_rate.to_string(),
        m.insufficient_evidence_rate.to_string(),
        m.outcomes.success_rate.to_string(),
        m.outcomes.no_match_rate.to_string(),
        m.outcomes.failure_rate.to_string(),
        m.candidates.mean.to_string(),
        m.candidates.median.to_string(),
        m.candidates.zero_rate.to_string(),
        m.tools.per_query.to_string(),
        m.tools.iterations.to_string(),
        m.tools.duplicate.to_string(),
        m.tools.failed.to_string(),
        m.rank.judged.to_string(),
        m.rank.hit_at_1.to_string(),
        m.rank.hit_at_k.to_string(),
        m.rank.mrr.to_string(),
        m.context.output_bytes_mean.to_string(),
        m.context.dump_bytes_mean.to_string(),
        m.context.reduction_pct.to_string(),
        m.context.tokens_per_call.to_string(),
        m.context.daily_cost_dump_usd.to_string(),
        m.context.daily_cost_find_usd.to_string(),
        m.context.daily_saved_usd.to_string(),
        m.context.over_budget.to_string(),
        m.latency.mean_ms.to_string(),
        m.latency.p50_ms.to_string(),
        m.latency.p95_ms.to_string(),
        m.latency.p99_ms.to_string(),
        m.latency.max_ms.to_string(),
        m.latency.per_1000_items_ms.to_string(),
        m.latency.within_budget.to_string(),
    ]
}

impl Exporter for SummaryCsv {
    fn file_name(&self) -> &'static str {
        "summary.csv"
    }

    fn render(&self, run: &RunResults, _: &ReportContext<'_>) -> Result<Vec<u8>> {
        let mut w = writer();
        w.write_record(SUMMARY_COLUMNS).map_err(csv_err)?;
        w.write_record(summary_row("all", "all", &run.summary))
            .map_err(csv_err)?;
        for (kind, groups) in [
            ("suite", &run.suites),
            ("mode", &run.modes),
            ("tag", &run.tags),
        ] {
            for (name, m) in groups {
                w.write_record(summary_row(kind, name, m))
                    .map_err(csv_err)?;
            }
        }
        finish(w)
    }
}

/// A replay's cases.csv: one row per case, spooled as the cases stream by (the header
/// first; gzipped as it is written with `compress`), then moved into place whole.
pub struct ReplayCasesCsv {
    pub compress: bool,
}

impl ReplayCasesCsv {
    /// The columns of a replay's cases.csv: the recorded beside the replayed.
    pub const COLUMNS: [&str; 18] = [
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

    /// One replayed case as its cases.csv row (spooled as the cases stream by); the case's
    /// texts are borrowed, not copied.
    pub fn row(case: &CaseResult) -> [Cow<'_, str>; 18] {
        fn opt(o: Option<&str>) -> Cow<'_, str> {
            Cow::Borrowed(o.unwrap_or_default())
        }
        let num = |n: &dyn std::fmt::Display| Cow::Owned(n.to_string());
        [
            Cow::Borrowed(case.id.as_str()),
            Cow::Borrowed(case.suite.as_str()),
            Cow::Borrowed(case.mode.as_str()),
            Cow::Borrowed(case.status.as_str()),
            Cow::Borrowed(case.outcome.as_str()),
            opt(case.recorded_outcome.map(|o| o.as_str())),
            opt(case.transition.map(|t| t.as_str())),
            num(&case.candidates),
            case.recorded_candidates
                .map_or(Cow::Borrowed(""), |n| num(&n)),
            Cow::Owned(case.tools.join(" ")),
            case.recorded_tools
                .as_ref()
                .map_or(Cow::Borrowed(""), |t| Cow::Owned(t.join(" "))),
            num(&case.iterations),
            opt(case.selected.as_deref()),
            num(&case.duration_ms),
            case.recorded_duration_ms
                .map_or(Cow::Borrowed(""), |d| num(&d)),
            num(&case.output_bytes),
            Cow::Borrowed(case.query.as_str()),
            opt(case.reason.as_deref()),
        ]
    }
}

impl Exporter<ReplayReport> for ReplayCasesCsv {
    fn file_name(&self) -> &'static str {
        super::gzip::file_name("cases.csv", self.compress)
    }

    fn render(&self, r: &ReplayReport, _: &ReportContext<'_>) -> Result<Vec<u8>> {
        read_spool(&r.spools.cases_csv)
    }

    /// The spool already is the whole file: synced and renamed into place.
    fn publish(&self, r: &ReplayReport, _: &ReportContext<'_>, path: &Path) -> Result<()> {
        rename_spool_into_place(&r.spools.cases_csv, path)
    }
}

/// The spool is the file: the header, then the rows of each chunk, every one written in
/// the one CSV dialect (rows written by separate writers, one after another, are the rows
/// of one file).
impl CaseStreamExporter for ReplayCasesCsv {
    fn spool_head(&self) -> Result<Vec<u8>> {
        let mut w = writer();
        w.write_record(Self::COLUMNS).map_err(csv_err)?;
        finish(w)
    }

    fn spool_cases(&self, cases: &[CaseResult], out: &mut Vec<u8>) -> Result<()> {
        // about 256 bytes a row: one allocation for the chunk
        out.reserve(cases.len() * 256);
        let mut w = csv_writer(out);
        for case in cases {
            w.write_record(Self::row(case).iter().map(|f| f.as_bytes()))
                .map_err(csv_err)?;
        }
        w.flush()
            .map_err(|e| HarnessError::Internal(format!("writing csv: {e}")))
    }

    fn spool_is_the_report(&self) -> bool {
        true
    }
}

/// A replay's summary.csv.
pub struct ReplaySummaryCsv;

impl Exporter<ReplayReport> for ReplaySummaryCsv {
    fn file_name(&self) -> &'static str {
        "summary.csv"
    }

    fn render(&self, r: &ReplayReport, _: &ReportContext<'_>) -> Result<Vec<u8>> {
        replay_summary(&r.summary.summary)
    }
}

/// The CSV of `compare`'s release report, beside its markdown.
pub struct CompareCsv;

impl Exporter<Comparison> for CompareCsv {
    fn file_name(&self) -> &'static str {
        "report.csv"
    }

    fn render(&self, c: &Comparison, _: &ReportContext<'_>) -> Result<Vec<u8>> {
        compare(c)
    }
}

/// A replay's summary.csv: `metric,value` rows of the summary's numeric and text fields
/// (nested objects as dotted names).
fn replay_summary(summary: &serde_json::Value) -> Result<Vec<u8>> {
    fn walk(prefix: &str, v: &serde_json::Value, out: &mut csv::Writer<Vec<u8>>) -> Result<()> {
        match v {
            serde_json::Value::Object(m) => {
                for (k, v) in m {
                    let name = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    walk(&name, v, out)?;
                }
            }
            serde_json::Value::Number(n) => out
                .write_record([prefix, &n.to_string()])
                .map_err(csv_err)?,
            serde_json::Value::String(s) => out.write_record([prefix, s]).map_err(csv_err)?,
            _ => {}
        }
        Ok(())
    }
    let mut w = writer();
    w.write_record(["metric", "value"]).map_err(csv_err)?;
    walk("", summary, &mut w)?;
    finish(w)
}

/// The release report of `compare` as CSV rows:
/// `section,name,before,after,delta,p_value,ci_low,ci_high,verdict`.
fn compare(c: &Comparison) -> Result<Vec<u8>> {
    let mut w = writer();
    w.write_record([
        "section", "name", "before", "after", "delta", "p_value", "ci_low", "ci_high", "verdict",
    ])
    .map_err(csv_err)?;
    let num = |v: Option<f64>| v.map(|v| format!("{v}")).unwrap_or_default();
    let mut rows: Vec<[String; 9]> = Vec::new();
    for r in &c.metrics {
        rows.push([
            "metric".into(),
            r.name.clone(),
            num(r.before),
            num(r.after),
            num(r.delta),
            String::new(),
            String::new(),
            String::new(),
            r.verdict.clone(),
        ]);
    }
    for f in &c.flips {
        rows.push([
            "flips".into(),
            f.property.clone(),
            String::new(),
            String::new(),
            format!("-{} +{}", f.worsened, f.improved),
            format!("{}", f.p_value),
            String::new(),
            String::new(),
            f.verdict.clone(),
        ]);
    }
    for l in &c.latency {
        rows.push([
            "latency".into(),
            format!("{}_ms", l.quantile),
            format!("{}", l.before_ms),
            format!("{}", l.after_ms),
            format!("{}", l.diff_ms),
            String::new(),
            format!("{}", l.ci_low_ms),
            format!("{}", l.ci_high_ms),
            l.verdict.clone(),
        ]);
    }
    for k in &c.clusters {
        rows.push([
            "cluster".into(),
            k.question.clone(),
            k.before.clone(),
            k.after.clone(),
            format!("{}", k.cases),
            String::new(),
            String::new(),
            String::new(),
            k.kind.as_str().into(),
        ]);
    }
    for x in &c.changes {
        rows.push([
            "case".into(),
            x.label(),
            x.before.clone().unwrap_or_default(),
            x.after.clone().unwrap_or_default(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            x.kind.as_str().into(),
        ]);
    }
    for row in rows {
        w.write_record(&row).map_err(csv_err)?;
    }
    finish(w)
}
