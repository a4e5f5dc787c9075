//! The release report of `compare` as markdown (`report.md`): the two runs, the headline,
//! every metric with its verdict, the flips, latency intervals and the cases that changed.

use super::exporter::{Exporter, ReportContext};
use super::numbers::{fmt_delta, fmt_value};
use super::table::{Align, Table};
use crate::compare::{fmt_p, Comparison};
use crate::error::Result;
use crate::stats::BOOTSTRAP_RESAMPLES;
use std::fmt::Write;

use Align::{Left as L, Right as R};

/// The release report of `compare`, at `--out FILE` (or on stdout).
pub struct CompareMarkdown;

impl Exporter<Comparison> for CompareMarkdown {
    fn file_name(&self) -> &'static str {
        "report.md"
    }

    fn render(&self, c: &Comparison, _: &ReportContext<'_>) -> Result<Vec<u8>> {
        Ok(compare(c).into_bytes())
    }
}

fn compare(c: &Comparison) -> String {
    let mut m = String::new();
    let _ = writeln!(m, "# findbench release report\n");
    let mut t = Table::new(&[("", L), ("results", L), ("run", L), ("cases", L)]);
    t.row([
        "before".to_string(),
        format!("`{}`", c.before_path),
        c.before_label.clone(),
        c.before_cases.to_string(),
    ]);
    t.row([
        "after".to_string(),
        format!("`{}`", c.after_path),
        c.after_label.clone(),
        c.after_cases.to_string(),
    ]);
    m.push_str(&t.markdown());
    let _ = writeln!(
        m,
        "\n{} cases are in both runs; tests at the {:.0}% level: exact McNemar on paired flips, paired bootstrap ({} resamples, fixed seed) on latency quantiles.\n",
        c.paired_cases,
        c.alpha * 100.0,
        BOOTSTRAP_RESAMPLES
    );

    let _ = writeln!(m, "## Headline\n");
    for line in super::console::compare_headline(c).lines() {
        let _ = writeln!(m, "- {line}");
    }

    let _ = writeln!(m, "\n## Metrics\n");
    let mut t = Table::new(&[
        ("metric", L),
        ("before", R),
        ("after", R),
        ("delta", R),
        ("verdict", L),
    ]);
    for r in &c.metrics {
        t.row([
            r.name.clone(),
            fmt_value(&r.name, r.before),
            fmt_value(&r.name, r.after),
            fmt_delta(&r.name, r.delta),
            r.verdict.clone(),
        ]);
    }
    m.push_str(&t.markdown());

    let _ = writeln!(m, "\n## Pass/fail and outcome flips (exact McNemar)\n");
    let mut t = Table::new(&[
        ("property", L),
        ("worsened", R),
        ("improved", R),
        ("p-value", R),
        ("verdict", L),
    ]);
    for f in &c.flips {
        t.row([
            f.property.clone(),
            f.worsened.to_string(),
            f.improved.to_string(),
            fmt_p(f.p_value),
            f.verdict.clone(),
        ]);
    }
    m.push_str(&t.markdown());

    let _ = writeln!(
        m,
        "\n## Latency (paired bootstrap, 95% interval of after − before)\n"
    );
    if let Some(note) = &c.latency_note {
        let _ = writeln!(m, "Note: {note}.\n");
    }
    if c.latency.is_empty() {
        let _ = writeln!(m, "No paired case has a `duration_ms` in both runs.");
    } else {
        let mut t = Table::new(&[
            ("quantile", L),
            ("before ms", R),
            ("after ms", R),
            ("difference ms", R),
            ("95% CI ms", L),
            ("verdict", L),
        ]);
        for l in &c.latency {
            t.row([
                l.quantile.clone(),
                format!("{:.3}", l.before_ms),
                format!("{:.3}", l.after_ms),
                format!("{:+.3}", l.diff_ms),
                format!("[{:+.3}, {:+.3}]", l.ci_low_ms, l.ci_high_ms),
                l.verdict.clone(),
            ]);
        }
        m.push_str(&t.markdown());
    }

    m.push_str(&super::compare_ranking::markdown(c));
    if !c.clusters.is_empty() {
        let _ = writeln!(m, "\n## Clusters\n");
        let mut t = Table::new(&[
            ("change", L),
            ("question", L),
            ("cases", R),
            ("before", L),
            ("after", L),
        ]);
        for k in &c.clusters {
            t.row([
                k.kind.as_str().to_string(),
                k.question.clone(),
                k.cases.to_string(),
                k.before.clone(),
                k.after.clone(),
            ]);
        }
        m.push_str(&t.markdown());
    }

    let _ = writeln!(m, "\n## Cases whose status changed\n");
    if c.changes.is_empty() {
        let _ = writeln!(m, "None.");
    } else {
        let mut t = Table::new(&[
            ("change", L),
            ("case", L),
            ("question", L),
            ("before", L),
            ("after", L),
            ("reason", L),
        ]);
        for x in &c.changes {
            t.row([
                x.kind.as_str().to_string(),
                x.label(),
                x.query.clone().unwrap_or_default(),
                x.before.clone().unwrap_or_else(|| "–".into()),
                x.after.clone().unwrap_or_else(|| "–".into()),
                x.reason.clone().unwrap_or_default(),
            ]);
        }
        m.push_str(&t.markdown());
    }
    m
}
