//! Aligned, human-readable text for each mode's response.

use findbench_engine::modes::task::TaskResponse;
use findbench_engine::Response;
use std::fmt::Write;

/// Renders a response as text lines; `quiet` drops the summary line.
pub fn render(response: &Response, quiet: bool) -> String {
    match response {
        Response::Task(r) => task(r, quiet),
    }
}

fn task(r: &TaskResponse, quiet: bool) -> String {
    let mut out = String::new();
    let id_w = r
        .matches
        .iter()
        .map(|m| m.id.chars().count())
        .max()
        .unwrap_or(0);
    let status_w = r
        .matches
        .iter()
        .map(|m| m.status.as_deref().unwrap_or("-").chars().count())
        .max()
        .unwrap_or(0);
    let prio_w = r
        .matches
        .iter()
        .map(|m| m.priority.as_deref().unwrap_or("-").chars().count())
        .max()
        .unwrap_or(0);
    for m in &r.matches {
        let _ = write!(
            out,
            "{:<id_w$}  {:.3}  {:<status_w$}  {:<prio_w$}  {}",
            m.id,
            m.score,
            m.status.as_deref().unwrap_or("-"),
            m.priority.as_deref().unwrap_or("-"),
            m.title,
        );
        if let Some(phase) = &m.phase {
            let _ = write!(out, "  [{phase}]");
        }
        let _ = writeln!(out, "  ({})", m.matched_in.join(","));
        if let Some(d) = &m.description {
            let _ = writeln!(out, "{:id_w$}  {d}", "");
        }
        if let Some(labels) = m.labels.as_ref().filter(|l| !l.is_empty()) {
            let _ = writeln!(out, "{:id_w$}  labels: {}", "", labels.join(", "));
        }
    }
    if !quiet {
        summary_line(
            &mut out,
            r.summary.total_matches,
            r.summary.returned,
            "task",
        );
    }
    out
}

fn summary_line(out: &mut String, total: usize, returned: usize, noun: &str) {
    let plural = if total == 1 { "" } else { "s" };
    if total == 0 {
        let _ = writeln!(out, "no {noun} matches");
    } else if returned < total {
        let _ = writeln!(
            out,
            "{returned} of {total} {noun} match{}",
            if total == 1 { "" } else { "es" }
        );
    } else {
        let _ = writeln!(
            out,
            "{total} {noun} match{}",
            if plural.is_empty() { "" } else { "es" }
        );
    }
}
