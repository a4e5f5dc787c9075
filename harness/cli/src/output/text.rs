//! Aligned, human-readable text for each mode's response.

use findbench_engine::modes::ask::AskResponse;
use findbench_engine::modes::code::CodeResponse;
use findbench_engine::modes::get::{ChildNode, GetResponse};
use findbench_engine::modes::grep::GrepResponse;
use findbench_engine::modes::name::{MatchQuality, NameResponse};
use findbench_engine::modes::outline::OutlineResponse;
use findbench_engine::modes::path::PathResponse;
use findbench_engine::modes::task::TaskResponse;
use findbench_engine::Response;
use std::fmt::Write;

/// Renders a response as text lines; `quiet` drops the summary line.
pub fn render(response: &Response, quiet: bool) -> String {
    match response {
        Response::Task(r) => task(r, quiet),
        Response::Name(r) => name(r, quiet),
        Response::Outline(r) => outline(r, quiet),
        Response::Get(r) => get(r),
        Response::Code(r) => code(r, quiet),
        Response::Path(r) => path(r, quiet),
        Response::Grep(r) => grep(r, quiet),
        Response::Ask(r) => ask(r, quiet),
    }
}

fn width<'a>(paths: impl Iterator<Item = &'a str>) -> usize {
    paths.map(|p| p.chars().count()).max().unwrap_or(0)
}

/// One line per match of a file mode, then (unless quiet) the summary line.
fn file_matches(
    lines: impl Iterator<Item = String>,
    total: usize,
    returned: usize,
    noun: &str,
    quiet: bool,
) -> String {
    let mut out = String::new();
    for line in lines {
        out.push_str(&line);
        out.push('\n');
    }
    if !quiet {
        summary_line(&mut out, total, returned, noun);
    }
    out
}

fn code(r: &CodeResponse, quiet: bool) -> String {
    let w = width(r.matches.iter().map(|m| m.path.as_str()));
    let lines = r
        .matches
        .iter()
        .map(|m| format!("{:<w$}  {:>5.1}  {}", m.path, m.score, m.reason));
    let s = &r.summary;
    file_matches(lines, s.total_matches, s.returned, "file", quiet)
}

fn path(r: &PathResponse, quiet: bool) -> String {
    let w = width(r.matches.iter().map(|m| m.path.as_str()));
    let lines = r
        .matches
        .iter()
        .map(|m| format!("{:<w$}  {:.3}  {}", m.path, m.score, m.reason));
    let s = &r.summary;
    file_matches(lines, s.total_matches, s.returned, "path", quiet)
}

fn grep(r: &GrepResponse, quiet: bool) -> String {
    let w = width(r.matches.iter().map(|m| m.path.as_str()));
    let cw = r
        .matches
        .iter()
        .map(|m| m.count.to_string().len())
        .max()
        .unwrap_or(0);
    let lines = r.matches.iter().map(|m| {
        format!(
            "{:<w$}  {:>cw$}  {}: {}",
            m.path, m.count, m.first.number, m.first.text
        )
    });
    let s = &r.summary;
    file_matches(lines, s.total_matches, s.returned, "file", quiet)
}

fn ask(r: &AskResponse, quiet: bool) -> String {
    let mut out = String::new();
    match &r.plan {
        Some(p) => {
            let _ = writeln!(
                out,
                "plan      term `{}`{}",
                p.term,
                if p.impl_query { ", impl" } else { "" }
            );
            if let Some(cut) = &p.truncated {
                let _ = writeln!(
                    out,
                    "cut       question too long: planned from its first {} distinct words, \
                     {} more left out{}",
                    cut.terms_kept,
                    cut.terms_dropped,
                    cut.bytes_read
                        .map(|b| format!(", only its first {b} bytes read"))
                        .unwrap_or_default()
                );
            }
        }
        None => {
            let _ = writeln!(out, "plan      none");
        }
    }
    let tools: Vec<&str> = r.tools.iter().map(|t| t.as_str()).collect();
    let _ = writeln!(
        out,
        "tools     {} ({} iteration{})",
        if tools.is_empty() {
            "none".to_string()
        } else {
            tools.join(" -> ")
        },
        r.iterations,
        if r.iterations == 1 { "" } else { "s" }
    );
    if !quiet {
        // each call with its input and what it found
        let w = width(r.calls.iter().map(|c| c.input.as_str()));
        for c in &r.calls {
            let found = match (c.tool, c.candidates) {
                (findbench_engine::modes::ask::Tool::Read, 0) => "no evidence".to_string(),
                (findbench_engine::modes::ask::Tool::Read, _) => "evidence".to_string(),
                (_, 1) => "1 candidate".to_string(),
                (_, n) => format!("{n} candidates"),
            };
            let _ = writeln!(
                out,
                "call      {:<4}  {:<w$}  {found}",
                c.tool.as_str(),
                c.input
            );
        }
    }
    let w = width(r.matches.iter().map(|m| m.path.as_str()));
    for m in &r.matches {
        let _ = writeln!(
            out,
            "candidate {:<w$}  {:>5.1}  {}",
            m.path, m.score, m.reason
        );
    }
    let _ = writeln!(out, "selected  {}", r.selected.as_deref().unwrap_or("none"));
    match &r.evidence {
        Some(e) => {
            let w = e
                .lines
                .iter()
                .map(|l| l.number)
                .max()
                .unwrap_or(0)
                .to_string()
                .len();
            for l in &e.lines {
                let _ = writeln!(out, "evidence  {:>w$}: {}", l.number, l.text);
            }
        }
        None => {
            for read in &r.reads {
                let _ = writeln!(out, "read      {}: {}", read.path, read.note);
            }
        }
    }
    if let Some(e) = &r.error {
        let _ = writeln!(out, "error     {e}");
    }
    if !quiet {
        let _ = writeln!(
            out,
            "outcome   {} ({} candidate{}, {:.1} ms, profile {})",
            r.outcome.as_str(),
            r.candidates,
            if r.candidates == 1 { "" } else { "s" },
            r.duration_ms,
            r.profile
        );
    } else {
        let _ = writeln!(out, "outcome   {}", r.outcome.as_str());
    }
    out
}

/// One line per result (id, score, status, title), then the quality and what was left out.
fn name(r: &NameResponse, quiet: bool) -> String {
    let mut out = String::new();
    let id_w = r
        .results
        .iter()
        .map(|m| m.id.chars().count())
        .max()
        .unwrap_or(0);
    let status_w = r
        .results
        .iter()
        .map(|m| m.status.as_deref().unwrap_or("-").chars().count())
        .max()
        .unwrap_or(0);
    for m in &r.results {
        let score = m
            .score
            .map_or_else(|| "-".to_string(), |s| format!("{s:.1}"));
        let _ = writeln!(
            out,
            "{:<id_w$}  {score:>5}  {:<status_w$}  {}",
            m.id,
            m.status.as_deref().unwrap_or("-"),
            m.title,
        );
    }
    if quiet {
        return out;
    }
    let noun = r.query.domain.as_str();
    let mut line = match r.fuzzy_match_quality {
        None => format!(
            "{} of {} {noun} items (no query)",
            r.summary.returned, r.summary.total_matches
        ),
        Some(MatchQuality::Good) => format!(
            "quality good: {} of {} {noun} items at or above {}",
            r.summary.returned, r.summary.total_matches, r.query.threshold
        ),
        Some(MatchQuality::Weak) => format!(
            "quality weak: no {noun} item reaches {}; these are guesses, ask before acting",
            r.query.threshold
        ),
    };
    if r.excluded.excluded() {
        let _ = write!(
            line,
            "; {} finished or archived left out (--include-done to search them)",
            r.excluded_count
        );
    }
    let _ = writeln!(out, "{line}");
    out
}

/// One line per match: indicators, breadcrumb, id.
fn outline(r: &OutlineResponse, quiet: bool) -> String {
    let mut out = String::new();
    let ind_w = r
        .matches
        .iter()
        .map(|m| m.indicators.chars().count())
        .max()
        .unwrap_or(0);
    for m in &r.matches {
        let _ = writeln!(out, "{:<ind_w$}  {}  {}", m.indicators, m.breadcrumb, m.id);
    }
    if !quiet {
        summary_line(
            &mut out,
            r.summary.total_matches,
            r.summary.returned,
            "outline",
        );
    }
    out
}

/// The item's fields, then its notes, comments and subtree, indented by depth.
fn get(r: &GetResponse) -> String {
    let mut out = String::new();
    let Some(item) = &r.item else {
        let _ = writeln!(out, "no item `{}`", r.query.id);
        if let Some(hint) = &r.hint {
            let _ = writeln!(out, "hint: {hint}");
        }
        return out;
    };
    let _ = write!(out, "{}  {}", item.id, item.title);
    if !item.indicators.is_empty() {
        let _ = write!(out, "  {}", item.indicators);
    }
    out.push('\n');
    let _ = writeln!(out, "path: {}", item.breadcrumb);
    let fields = [
        ("status", item.status.as_deref()),
        ("priority", item.priority.as_deref()),
        ("phase", item.phase.as_deref()),
        ("list", item.list.as_deref()),
        ("parent", item.parent.as_deref()),
    ];
    let shown: Vec<String> = fields
        .iter()
        .filter_map(|(k, v)| v.map(|v| format!("{k}: {v}")))
        .collect();
    if !shown.is_empty() {
        let _ = writeln!(out, "{}", shown.join("  "));
    }
    if !item.labels.is_empty() {
        let _ = writeln!(out, "labels: {}", item.labels.join(", "));
    }
    if item.archived {
        let _ = writeln!(out, "archived");
    }
    if let Some(d) = item.description.as_deref().filter(|d| !d.is_empty()) {
        let _ = writeln!(out, "\n{d}");
    }
    for (heading, texts) in [("notes", &item.notes), ("comments", &item.comments)] {
        if !texts.is_empty() {
            let _ = writeln!(out, "\n{heading}:");
            for t in texts {
                let _ = writeln!(out, "  - {t}");
            }
        }
    }
    if let Some(children) = &item.children {
        let _ = writeln!(out, "\nchildren:");
        if children.is_empty() {
            let _ = writeln!(out, "  (none)");
        }
        // an explicit stack: the subtree's depth is bounded, but the renderer need not rely on it
        let mut stack: Vec<(&ChildNode, usize)> = children.iter().rev().map(|c| (c, 1)).collect();
        while let Some((node, depth)) = stack.pop() {
            let _ = write!(
                out,
                "{:indent$}{}  {}",
                "",
                node.id,
                node.title,
                indent = depth * 2
            );
            if let Some(status) = &node.status {
                let _ = write!(out, "  ({status})");
            }
            if !node.indicators.is_empty() {
                let _ = write!(out, "  {}", node.indicators);
            }
            if node.cycle {
                let _ = write!(out, "  (cycle)");
            }
            out.push('\n');
            if let Some(kids) = &node.children {
                stack.extend(kids.iter().rev().map(|c| (c, depth + 1)));
            }
        }
        if r.truncated == Some(true) {
            let _ = writeln!(out, "  … (more children than shown)");
        }
    }
    out
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
