//! report.html of run, replay and compare: an XHTML-compatible document that parses, whose
//! every inline SVG is well-formed on its own, that fetches nothing (no script, no remote
//! URL), and whose every number (`data-metric` / `data-value`) equals results.json's.

mod common;

use common::{assert_exit, findbench};
use serde_json::Value;
use std::path::Path;

fn parse(html: &str) -> roxmltree::Document<'_> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    roxmltree::Document::parse_with_options(html, options)
        .unwrap_or_else(|e| panic!("report.html does not parse: {e}"))
}

/// The structural checks every page passes; returns the (metric, value, shown text) of
/// every number it carries.
fn check_page(html: &str) -> Vec<(String, f64, String)> {
    let doc = parse(html);
    assert_eq!(doc.root_element().tag_name().name(), "html");
    assert!(!html.contains("<script"), "no script");
    for url in ["http://", "https://", "//fonts", "@import", "url("] {
        let outside_namespaces = html
            .replace("http://www.w3.org/1999/xhtml", "")
            .replace("http://www.w3.org/2000/svg", "");
        assert!(!outside_namespaces.contains(url), "fetches {url}");
    }
    // every SVG well-formed by itself (as an image would be)
    let mut svgs = 0;
    let mut rest = html;
    while let Some(start) = rest.find("<svg") {
        let end = rest[start..].find("</svg>").expect("svg closes") + start + "</svg>".len();
        let svg = roxmltree::Document::parse(&rest[start..end])
            .unwrap_or_else(|e| panic!("an svg is not well-formed: {e}"));
        assert_eq!(svg.root_element().tag_name().name(), "svg");
        assert_eq!(
            svg.root_element().tag_name().namespace(),
            Some("http://www.w3.org/2000/svg")
        );
        svgs += 1;
        rest = &rest[end..];
    }
    assert!(svgs >= 2, "{svgs} charts");
    doc.descendants()
        .filter_map(|n| {
            let metric = n.attribute("data-metric")?;
            let value: f64 = n
                .attribute("data-value")?
                .parse()
                .expect("data-value is a number");
            let text: String = n
                .descendants()
                .filter(|d| d.is_text())
                .filter_map(|d| d.text())
                .collect::<String>();
            Some((metric.to_string(), value, text))
        })
        .collect()
}

/// A dotted path (`suites.names.pass_rate`, `engines.1.summary.rank.mrr`) in a JSON
/// document.
fn lookup<'a>(doc: &'a Value, path: &str) -> &'a Value {
    path.split('.')
        .fold(doc, |v, key| match (v, key.parse::<usize>()) {
            (Value::Array(items), Ok(i)) => &items[i],
            _ => &v[key],
        })
}

/// The shown text says the same number: a rate in percent to one decimal, a time or a
/// count as printed.
fn assert_shown(metric: &str, value: f64, text: &str) {
    let t = text.trim().trim_end_matches(" ms");
    if let Some(p) = t.strip_suffix('%') {
        let shown: f64 = p.parse().unwrap();
        assert!(
            (shown - value * 100.0).abs() <= 0.05 + 1e-9,
            "{metric}: {text} vs {value}"
        );
    } else if let Ok(shown) = t.parse::<f64>() {
        assert!(
            (shown - value).abs() <= 0.051 + value.abs() * 1e-9,
            "{metric}: {text} vs {value}"
        );
    }
}

/// Every number of the page equals the one at its path in `results` and is shown as such.
fn assert_numbers_are(numbers: &[(String, f64, String)], results: &Value) {
    for (metric, value, text) in numbers {
        let expected = lookup(results, metric)
            .as_f64()
            .unwrap_or_else(|| panic!("{metric} is not a number of results.json"));
        assert_eq!(*value, expected, "{metric}");
        assert_shown(metric, *value, text);
    }
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn a_runs_page_parses_and_its_numbers_are_results_json() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    assert_exit(
        &findbench(&[
            "run",
            "corpora/names.yaml",
            "corpora/benchmark.yaml",
            "--no-progress",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]),
        0,
    );
    let results = read_json(&out.join("results.json"));
    let numbers = check_page(&std::fs::read_to_string(out.join("report.html")).unwrap());
    for suite in ["names", "benchmark"] {
        assert!(
            numbers
                .iter()
                .any(|(m, _, _)| m == &format!("suites.{suite}.pass_rate")),
            "{suite} pass rate drawn"
        );
    }
    assert!(numbers
        .iter()
        .any(|(m, _, _)| m == "summary.latency.budget_p95_ms"));
    // recall against the context budget: a curve and a table, per suite and pooled
    for m in [
        "summary.rank.recall_at_1kb",
        "summary.rank.recall_at_8kb",
        "suites.benchmark.rank.recall_at_4kb",
        // recall@5 and nDCG@10 of the cases naming several expected keys
        "summary.rank.several_judged",
        "summary.rank.recall_at_5",
        "suites.benchmark.rank.ndcg_at_10",
    ] {
        assert!(numbers.iter().any(|(x, _, _)| x == m), "{m} drawn");
    }
    assert!(results["suites"]["benchmark"]["rank"]["several_judged"].as_u64() > Some(0));
    assert!(numbers.len() > 30, "{}", numbers.len());
    assert_numbers_are(&numbers, &results);
}

/// The rows of the page's "Summary per suite" table: each suite's cells as text.
fn suite_rows(html: &str) -> Vec<Vec<String>> {
    let doc = parse(html);
    let section = doc
        .descendants()
        .find(|n| {
            n.has_tag_name("section")
                && n.children()
                    .any(|h| h.has_tag_name("h2") && h.text() == Some("Summary per suite"))
        })
        .expect("a summary per suite");
    section
        .descendants()
        .filter(|n| n.has_tag_name("tr"))
        .map(|tr| {
            tr.children()
                .filter(|c| c.has_tag_name("td"))
                .map(|td| {
                    td.descendants()
                        .filter(|d| d.is_text())
                        .filter_map(|d| d.text())
                        .collect::<String>()
                })
                .collect::<Vec<String>>()
        })
        .filter(|cells| !cells.is_empty())
        .collect()
}

/// A suite is over budget only when its corpus states a budget it exceeds, and the page
/// and summary.md say which; a suite that states none is neither within nor over. A
/// budget is reported, not gated (the latency gate is `max_p95_ms`).
#[test]
fn a_suite_is_over_budget_only_against_a_stated_budget_and_says_which() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpora/fixtures/todo.json"),
        tmp.path().join("todo.json"),
    )
    .unwrap();
    let corpus = |suite: &str, budget: &str| {
        let path = tmp.path().join(format!("{suite}.yaml"));
        std::fs::write(
            &path,
            format!(
                "suite: {suite}\nfixture: {{store: todo.json}}\n{budget}cases:\n  - id: a\n    \
                 query: auth middleware\n    mode: task\n    expect: {{outcome: success}}\n"
            ),
        )
        .unwrap();
        path.to_str().unwrap().to_string()
    };
    // no case of a task store answers in 0 ms per 1000 items; every one within a minute
    let over = corpus("over", "budget: {per_1000_items_ms: 0}\n");
    let within = corpus("within", "budget: {p95_ms: 60000}\n");
    let unstated = corpus("unstated", "");
    let out = tmp.path().join("run");
    let run = findbench(&[
        "run",
        &over,
        &within,
        &unstated,
        "--no-progress",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_exit(&run, 0);
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    check_page(&html);
    let rows = suite_rows(&html);
    let budget_of = |suite: &str| {
        rows.iter()
            .find(|r| r[0] == suite)
            .unwrap_or_else(|| panic!("no row {suite}: {rows:?}"))
            .last()
            .unwrap()
            .clone()
    };
    assert!(
        budget_of("over").starts_with("over: ")
            && budget_of("over").ends_with("> budget.per_1000_items_ms 0 ms"),
        "{rows:?}"
    );
    assert_eq!(budget_of("within"), "within");
    assert_eq!(budget_of("unstated"), "–");
    let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
    // the latency table's verdict: the last cell of the suite's last row
    let verdict = |suite: &str| {
        let row = md
            .lines()
            .rfind(|l| l.starts_with(&format!("| {suite} ")))
            .unwrap_or_else(|| panic!("no latency row {suite}:\n{md}"));
        row.trim_end_matches('|')
            .rsplit('|')
            .next()
            .unwrap()
            .trim()
            .to_string()
    };
    assert!(
        verdict("over").starts_with("**no**: ")
            && verdict("over").ends_with("> budget.per_1000_items_ms 0 ms"),
        "{}",
        verdict("over")
    );
    assert_eq!(verdict("within"), "yes");
    assert_eq!(verdict("unstated"), "–");
}

/// Imported agent traces name the files the agent went on to read: the replay's page and
/// summary.md show findbench's ranking and recall within a budget beside the agent's own.
#[test]
fn a_replay_of_imported_traces_shows_recall_beside_the_agents() {
    let tmp = tempfile::tempdir().unwrap();
    let traces = tmp.path().join("imported.jsonl");
    let import = findbench(&[
        "import",
        "claude-code",
        "corpora/fixtures/agent-logs/claude-code",
        "--root",
        "corpora/fixtures/agent-cpp",
        "--out",
        traces.to_str().unwrap(),
    ]);
    assert_exit(&import, 0);
    let out = tmp.path().join("replay");
    assert_exit(
        &findbench(&[
            "replay",
            traces.to_str().unwrap(),
            "-q",
            "--out",
            out.to_str().unwrap(),
        ]),
        0,
    );
    let results = read_json(&out.join("results.json"));
    let rank = &results["summary"]["rank"];
    assert!(rank["judged"].as_u64().unwrap() > 0, "{rank}");
    assert!(rank["recorded"]["judged"].as_u64().unwrap() > 0, "{rank}");
    let numbers = check_page(&std::fs::read_to_string(out.join("report.html")).unwrap());
    for m in [
        "summary.rank.hit_at_1",
        "summary.rank.mrr",
        "summary.rank.recall_at_2kb",
        "summary.rank.recorded.recall_at_2kb",
        "summary.rank.recorded.searches_before_hit_mean",
    ] {
        assert!(numbers.iter().any(|(x, _, _)| x == m), "{m} drawn");
    }
    assert_numbers_are(&numbers, &results);
    let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(md.contains("## Ranking within a context budget"), "{md}");
    assert!(md.contains("the agent's own searches"), "{md}");
}

#[test]
fn a_replays_page_shows_recorded_against_replayed_and_its_numbers_are_results_json() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("replay");
    assert_exit(
        &findbench(&[
            "replay",
            "traces/production.jsonl",
            "--format",
            "text",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]),
        0,
    );
    let results = read_json(&out.join("results.json"));
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    let numbers = check_page(&html);
    for m in [
        "summary.recorded_outcomes.insufficient_evidence",
        "summary.outcomes.insufficient_evidence",
        "summary.transitions.fixed",
    ] {
        assert!(numbers.iter().any(|(x, _, _)| x == m), "{m} drawn");
    }
    assert_numbers_are(&numbers, &results);
    // the top failure cluster is named
    assert!(html.contains("where is replay implemented"));
}

#[test]
fn a_compares_page_shows_before_after_and_the_flipped_cases() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = |n: &str| tmp.path().join(n);
    for (name, profile) in [("before", "legacy"), ("after", "default")] {
        assert_exit(
            &findbench(&[
                "run",
                "corpora/benchmark.yaml",
                "--no-progress",
                "--quiet",
                "--exit-zero",
                "--profile",
                profile,
                "--out",
                dir(name).to_str().unwrap(),
            ]),
            0,
        );
    }
    let md = dir("cmp").join("report.md");
    let cmp = findbench(&[
        "compare",
        dir("before").join("results.json").to_str().unwrap(),
        dir("after").join("results.json").to_str().unwrap(),
        "--out",
        md.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_exit(&cmp, 0);
    let comparison = common::stdout_json(&cmp);
    let html = std::fs::read_to_string(dir("cmp").join("report.html")).unwrap();
    let numbers = check_page(&html);
    let before = read_json(&dir("before").join("results.json"));
    let after = read_json(&dir("after").join("results.json"));
    assert!(numbers
        .iter()
        .any(|(m, _, _)| m == "before.summary.pass_rate"));
    for (metric, value, text) in &numbers {
        let expected = if let Some(path) = metric.strip_prefix("before.") {
            lookup(&before, path).as_f64()
        } else if let Some(path) = metric.strip_prefix("after.") {
            lookup(&after, path).as_f64()
        } else {
            // latency.p95.before_ms: the comparison's paired quantiles
            let parts: Vec<&str> = metric.split('.').collect();
            comparison["latency"]
                .as_array()
                .unwrap()
                .iter()
                .find(|l| l["quantile"] == parts[1])
                .and_then(|l| l[parts[2]].as_f64())
                .map(|v| (v * 1000.0).round() / 1000.0)
        }
        .unwrap_or_else(|| panic!("{metric} has no number to match"));
        assert_eq!(*value, expected, "{metric}");
        assert_shown(metric, *value, text);
    }
    // every flipped case is listed
    for change in comparison["changes"].as_array().unwrap() {
        let label = format!(
            "{}/{}",
            change["suite"].as_str().unwrap(),
            change["id"].as_str().unwrap()
        );
        assert!(html.contains(&label), "{label} listed");
    }
    assert!(!comparison["changes"].as_array().unwrap().is_empty());
}
