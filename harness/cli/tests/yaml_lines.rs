//! A YAML mistake is reported at its own line in plain words: a tab used to indent line 5
//! at line 5, a quote opened and never closed on line 5 at line 5; and a `gate:` value out
//! of its range is named with its line, in a corpus and in a `replay --gate` file.

mod common;

use common::{assert_exit, findbench};
use std::path::Path;

fn output_text(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn run(dir: &Path, name: &str, text: &str) -> (String, String) {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let p = path.to_str().unwrap().to_string();
    let out = findbench(&[
        "run",
        &p,
        "--no-progress",
        "--out",
        dir.join("o").to_str().unwrap(),
    ]);
    assert_exit(&out, 2);
    (p, output_text(&out))
}

const HEAD: &str = "suite: s\nfixture: {root: corpora/fixtures/agent-cpp}\ncases:\n  - id: a\n";

#[test]
fn a_tab_and_an_open_quote_are_reported_at_their_own_line() {
    let dir = tempfile::tempdir().unwrap();
    let (p, said) = run(
        dir.path(),
        "tab.yaml",
        &format!("{HEAD}\tquery: x\n    mode: path\n    expect: {{contains: [a]}}\n"),
    );
    assert!(
        said.contains(&format!(
            "{p}:5: case `a`: this line is indented with a tab: YAML indents with spaces only"
        )),
        "{said}"
    );
    let (p, said) = run(
        dir.path(),
        "quote.yaml",
        &format!("{HEAD}    query: \"x\n    mode: path\n    expect: {{contains: [a]}}\n"),
    );
    assert!(
        said.contains(&format!(
            "{p}:5: case `a`: a value opened with \" on this line is never closed"
        )),
        "{said}"
    );
}

#[test]
fn gate_values_out_of_range_are_named_with_their_line() {
    let dir = tempfile::tempdir().unwrap();
    let (p, said) = run(
        dir.path(),
        "gate.yaml",
        &format!(
            "{HEAD}    query: x\n    mode: path\n    expect: {{contains: [a]}}\ngate:\n  min_pass_rate: 0.9\n  max_ie_rate: 5\n"
        ),
    );
    assert!(
        said.contains(&format!(
            "{p}:10: gate: `max_ie_rate` is 5: a rate from 0 to 1 (0.95 is 95%)"
        )),
        "{said}"
    );
    let gate = dir.path().join("g.yaml");
    std::fs::write(&gate, "gate:\n  min_mrr: 0.5\n  max_p95_ms: -3\n").unwrap();
    let g = gate.to_str().unwrap();
    let traces = dir.path().join("t.jsonl");
    std::fs::write(&traces, "").unwrap();
    let out = findbench(&[
        "replay",
        "--no-progress",
        traces.to_str().unwrap(),
        "--gate",
        g,
    ]);
    assert_exit(&out, 2);
    let said = output_text(&out);
    assert!(
        said.contains(&format!(
            "{g}:3: gate: `max_p95_ms` is -3: milliseconds, 0 or more"
        )),
        "{said}"
    );
}
