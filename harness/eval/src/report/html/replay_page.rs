//! report.html of a replay: the headline, recorded against replayed outcomes, recall
//! within a context budget (findbench beside the agent, when traces name expected files),
//! the top failure clusters and the latency histogram.

use super::elements::{html_table, num, ranking_section, stat};
use super::page::page;
use crate::replay_summary::ReplaySummary;
use crate::report::escape::esc;
use crate::report::numbers::pct;
use crate::report::ranking;
use crate::report::svg::count_bars::count_bars;
use crate::report::svg::latency_histogram::latency_histogram;
use crate::report::svg::palette::{BarGroup, BEFORE, FAIL, IE, PASS};
use crate::report::table::Align;
use std::fmt::Write;

/// report.html of a replay; `latencies_ms` are the replayed cases' times.
pub(super) fn replay(r: &ReplaySummary, latencies_ms: &[f64]) -> String {
    let mut b = String::new();
    let n = r.replayed;
    let rate = |k: &str| r.number(k);
    b.push_str("<div class=\"headline\">");
    b.push_str(&stat(
        "",
        "traces replayed",
        "summary.total",
        n as f64,
        &n.to_string(),
    ));
    for (label, key, class) in [
        (
            "recorded insufficient evidence",
            "recorded_insufficient_evidence_rate",
            "",
        ),
        (
            "replayed insufficient evidence",
            "insufficient_evidence_rate",
            "good",
        ),
        ("replayed success", "success_rate", ""),
    ] {
        b.push_str(&stat(
            class,
            label,
            &format!("summary.{key}"),
            rate(key),
            &pct(rate(key)),
        ));
    }
    for (label, key, class) in [
        ("fixed", "fixed", "good"),
        ("regressed", "regressed", "bad"),
    ] {
        let v = r.summary["transitions"][key].as_f64().unwrap_or(0.0);
        b.push_str(&stat(
            if v > 0.0 { class } else { "" },
            label,
            &format!("summary.transitions.{key}"),
            v,
            &format!("{v}"),
        ));
    }
    b.push_str("</div>\n");

    b.push_str("<section>\n<h2>Recorded against replayed outcomes</h2>\n");
    let color = |o: &str| match o {
        "success" => PASS,
        "insufficient_evidence" => IE,
        _ => FAIL,
    };
    let groups: Vec<BarGroup> = r
        .outcomes
        .iter()
        .map(|c| {
            let o = c.outcome.as_str();
            (
                o.to_string(),
                vec![
                    (
                        c.recorded as f64,
                        BEFORE,
                        format!("summary.recorded_outcomes.{o}"),
                    ),
                    (c.replayed as f64, color(o), format!("summary.outcomes.{o}")),
                ],
            )
        })
        .collect();
    b.push_str(&count_bars(
        &groups,
        &[
            (BEFORE, "recorded (grey)"),
            (PASS, "replayed, coloured by outcome"),
        ],
        "recorded and replayed outcomes",
        false,
    ));
    let rows: Vec<Vec<String>> = r
        .outcomes
        .iter()
        .map(|c| {
            let o = c.outcome.as_str();
            vec![
                esc(o),
                num(
                    &format!("summary.recorded_outcomes.{o}"),
                    c.recorded as f64,
                    &c.recorded.to_string(),
                ),
                num(
                    &format!("summary.outcomes.{o}"),
                    c.replayed as f64,
                    &c.replayed.to_string(),
                ),
            ]
        })
        .collect();
    b.push_str(&html_table(
        &[
            ("outcome", Align::Left),
            ("recorded", Align::Right),
            ("replayed", Align::Right),
        ],
        &rows,
        false,
    ));
    b.push_str("</section>\n");

    let ranked = ranking::replay_rows(&r.summary);
    if !ranked.is_empty() {
        b.push_str(&ranking_section(
            &ranking::replay_header(&r.summary),
            &ranked,
            &ranking::replay_series(&r.summary),
            "Traces that name the files the agent went on to read or edit. ≤ N KB: the share \
             whose first expected file ends within the first N KB of findbench's answer; for \
             the agent, of what it searched and read up to the read of an expected file (an \
             imported trace's later calls), else up to its first search that returned \
             anything.",
        ));
    }

    b.push_str("<section>\n<h2>Top failure clusters</h2>\n");
    let listed: Vec<_> = r.groups.iter().filter(|g| g.notable()).take(10).collect();
    if listed.is_empty() {
        b.push_str("<p>None: every trace succeeded, as recorded.</p>\n");
    } else {
        let rows: Vec<Vec<String>> = listed
            .iter()
            .map(|g| {
                vec![
                    esc(g.transition.as_str()),
                    esc(&crate::report::shown_question::shown_question(&g.question)),
                    g.traces.to_string(),
                    esc(g.recorded_outcome.as_str()),
                    esc(g.outcome.as_str()),
                    esc(&g.example_trace_id),
                ]
            })
            .collect();
        b.push_str(&html_table(
            &[
                ("transition", Align::Left),
                ("question", Align::Left),
                ("traces", Align::Right),
                ("recorded", Align::Left),
                ("replayed", Align::Left),
                ("example", Align::Left),
            ],
            &rows,
            false,
        ));
    }
    b.push_str("</section>\n");

    b.push_str("<section>\n<h2>Latency</h2>\n");
    // a replay states no budget
    b.push_str(&latency_histogram(
        latencies_ms,
        None,
        None,
        "replayed latency histogram",
    ));
    // null when no trace recorded its time (an imported log): shown as unknown
    let recorded_ms = |k: &str| match r.summary[k].as_f64() {
        Some(v) => num(&format!("summary.{k}"), v, &format!("{v:.3}")),
        None => "–".to_string(),
    };
    let _ = writeln!(
        b,
        "<p>replayed p50 {} ms · p95 {} ms; recorded p50 {} ms · p95 {} ms (the production agent's whole retrieval).</p>",
        num("summary.latency_p50_ms", rate("latency_p50_ms"), &format!("{:.3}", rate("latency_p50_ms"))),
        num("summary.latency_p95_ms", rate("latency_p95_ms"), &format!("{:.3}", rate("latency_p95_ms"))),
        recorded_ms("recorded_latency_p50_ms"),
        recorded_ms("recorded_latency_p95_ms"),
    );
    b.push_str("</section>\n");
    let h = &r.header;
    let meta = format!(
        "{} traces from {} ({} bad line{}) against {} · engine {} · profile {}{}",
        n,
        h.inputs.join(", "),
        r.bad_lines,
        if r.bad_lines == 1 { "" } else { "s" },
        h.fixtures,
        h.engine_version,
        h.profile,
        h.shard.map(|s| format!(" · shard {s}")).unwrap_or_default()
    );
    page(
        &format!("findbench replay: profile {}", h.profile),
        &meta,
        &b,
    )
}
