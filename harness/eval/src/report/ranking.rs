//! Ranking within a context budget as rows both summary.md and report.html draw: hit@1,
//! hit@k, MRR and recall at 1, 2, 4 and 8 KB of the judged cases (for a run, recall@5 and
//! nDCG@10 of those naming several expected keys too), per suite and pooled for
//! a run (and per engine when engines ran side by side), findbench beside the agent's own
//! searches for a replay. Each cell keeps its results.json path, so the page can carry it.

use super::numbers::pct;
use super::svg::palette::SERIES;
use super::svg::recall_curve::RecallSeries;
use crate::metrics::recall::BUDGETS;
use crate::metrics::GroupMetrics;
use crate::results::RunResults;
use serde_json::Value;

/// One cell: the value (none: not measured for this row), its results.json path, and the
/// text shown.
pub struct Cell {
    pub value: Option<f64>,
    pub metric: String,
    pub shown: String,
}

impl Cell {
    fn of(value: Option<f64>, metric: String, show: impl Fn(f64) -> String) -> Cell {
        Cell {
            shown: value.map_or_else(|| "–".to_string(), show),
            value,
            metric,
        }
    }
}

/// A labelled row, and the path its cells are under.
pub struct Row {
    pub label: String,
    pub path: String,
    pub cells: Vec<Cell>,
}

/// The budget columns' titles, `≤ 1 KB` ...
fn budget_titles() -> Vec<String> {
    BUDGETS
        .iter()
        .map(|(name, _)| format!("≤ {}", name.replace("kb", " KB")))
        .collect()
}

/// The columns of a run's table: the group, then [`run_rows`]' cells.
pub fn run_header(k: usize) -> Vec<String> {
    let mut h = vec![
        "group".to_string(),
        "judged".into(),
        "hit@1".into(),
        format!("hit@{k}"),
        "MRR".into(),
    ];
    h.extend(budget_titles());
    h.push("several: judged".into());
    h.push("recall@5".into());
    h.push("nDCG@10".into());
    h
}

fn count(n: usize) -> impl Fn(f64) -> String {
    move |_| n.to_string()
}

fn group_row(label: String, path: String, g: &GroupMetrics) -> Row {
    let r = &g.rank;
    let at = |field: &str| format!("{path}.rank.{field}");
    let mut cells = vec![
        Cell::of(Some(r.judged as f64), at("judged"), count(r.judged)),
        Cell::of(Some(r.hit_at_1), at("hit_at_1"), pct),
        Cell::of(Some(r.hit_at_k), at("hit_at_k"), pct),
        Cell::of(Some(r.mrr), at("mrr"), |v| format!("{v:.3}")),
    ];
    for ((name, _), v) in BUDGETS.iter().zip(r.recall.values()) {
        cells.push(Cell::of(Some(v), at(&format!("recall_at_{name}")), pct));
    }
    // recall@5 and nDCG@10 of the cases naming several expected keys, when there are some
    let several = r.several.several_judged;
    let measured = |v: f64| Some(v).filter(|_| several > 0);
    cells.push(Cell::of(
        Some(several as f64),
        at("several_judged"),
        count(several),
    ));
    cells.push(Cell::of(
        measured(r.several.recall_at_5),
        at("recall_at_5"),
        pct,
    ));
    cells.push(Cell::of(
        measured(r.several.ndcg_at_10),
        at("ndcg_at_10"),
        |v| format!("{v:.3}"),
    ));
    Row {
        label,
        path: format!("{path}.rank"),
        cells,
    }
}

/// A run's rows: each suite with judged cases, all of them, and each engine that ran
/// (`engines` side by side).
pub fn run_rows(run: &RunResults) -> Vec<Row> {
    let mut rows: Vec<Row> = run
        .suites
        .iter()
        .filter(|(_, g)| g.rank.judged > 0)
        .map(|(name, g)| group_row(name.clone(), format!("suites.{name}"), g))
        .collect();
    if run.summary.rank.judged > 0 {
        rows.push(group_row("all".into(), "summary".into(), &run.summary));
    }
    rows.extend(run.engines.iter().enumerate().filter_map(|(i, e)| {
        let g = e.summary.as_ref().filter(|g| g.rank.judged > 0)?;
        Some(group_row(
            format!("engine {}", e.name),
            format!("engines.{i}.summary"),
            g,
        ))
    }));
    rows
}

/// The lines of a run's recall chart: all cases pooled, or each engine when engines ran
/// side by side.
pub(crate) fn run_series(run: &RunResults) -> Vec<RecallSeries> {
    run_rows(run)
        .into_iter()
        .filter(|r| {
            if run.engines.is_empty() {
                r.label == "all"
            } else {
                r.label.starts_with("engine ")
            }
        })
        .enumerate()
        .map(|(i, r)| series(i, r))
        .collect()
}

fn series(i: usize, row: Row) -> RecallSeries {
    let mut values = [0.0; 4];
    for (v, cell) in values.iter_mut().zip(&row.cells[4..]) {
        *v = cell.value.unwrap_or(0.0);
    }
    RecallSeries {
        label: row.label,
        color: SERIES[i % SERIES.len()],
        values,
        metric: row.path,
    }
}

/// The columns of a replay's table: who answered, then [`replay_rows`]' cells (`summary`'s
/// `rank.k` names the hit@k column).
pub fn replay_header(summary: &Value) -> Vec<String> {
    let k = summary["rank"]["k"]
        .as_u64()
        .unwrap_or(crate::metrics::rank::RANK_K as u64);
    let mut h = vec![
        "answered by".to_string(),
        "traces judged".into(),
        "hit@1".into(),
        format!("hit@{k}"),
        "MRR".into(),
    ];
    h.extend(budget_titles());
    h.push("bytes returned (mean)".into());
    h.push("searches before the first useful one (mean)".into());
    h
}

/// A replay's rows: findbench's answers, and the agent's own searches and reads (the traces
/// whose tool output sizes are recorded). Empty when no trace names expected files.
pub fn replay_rows(summary: &Value) -> Vec<Row> {
    let rank = &summary["rank"];
    let judged = rank["judged"].as_u64().unwrap_or(0) as usize;
    if judged == 0 {
        return Vec::new();
    }
    let row = |label: &str, path: &str, v: &Value, ranked: bool, searches: bool| {
        let at = |field: &str| format!("{path}.{field}");
        let n = v["judged"].as_u64().unwrap_or(0) as usize;
        let get = |field: &str| v[field].as_f64();
        let mut cells = vec![Cell::of(Some(n as f64), at("judged"), count(n))];
        for field in ["hit_at_1", "hit_at_k"] {
            cells.push(Cell::of(get(field).filter(|_| ranked), at(field), pct));
        }
        cells.push(Cell::of(get("mrr").filter(|_| ranked), at("mrr"), |x| {
            format!("{x:.3}")
        }));
        for (name, _) in BUDGETS {
            let field = format!("recall_at_{name}");
            cells.push(Cell::of(get(&field), at(&field), pct));
        }
        cells.push(Cell::of(
            get("output_bytes_mean"),
            at("output_bytes_mean"),
            |x| format!("{x:.1}"),
        ));
        cells.push(Cell::of(
            get("searches_before_hit_mean").filter(|_| searches),
            at("searches_before_hit_mean"),
            |x| format!("{x:.2}"),
        ));
        Row {
            label: label.to_string(),
            path: path.to_string(),
            cells,
        }
    };
    vec![
        row("findbench", "summary.rank", rank, true, false),
        row(
            "the agent's own searches and reads",
            "summary.rank.recorded",
            &rank["recorded"],
            false,
            true,
        ),
    ]
}

/// The lines of a replay's recall chart: findbench and the agent.
pub(crate) fn replay_series(summary: &Value) -> Vec<RecallSeries> {
    replay_rows(summary)
        .into_iter()
        .filter(|r| r.cells[0].value.is_some_and(|n| n > 0.0))
        .enumerate()
        .map(|(i, r)| series(i, r))
        .collect()
}

/// The rows as a markdown table under `header` (the label column left, numbers right).
pub fn markdown(header: &[String], rows: &[Row]) -> String {
    use super::table::{Align, Table};
    let columns: Vec<(&str, Align)> = header
        .iter()
        .enumerate()
        .map(|(i, h)| (h.as_str(), if i == 0 { Align::Left } else { Align::Right }))
        .collect();
    let mut t = Table::new(&columns);
    for r in rows {
        t.row(std::iter::once(r.label.clone()).chain(r.cells.iter().map(|c| c.shown.clone())));
    }
    t.markdown()
}
