//! A corpus's stated latency budget: reported by default, a gate when asked
//! (`--gate-budgets`, or `gate_budgets: true` in the corpus's gate section).

mod common;

use common::findbench_in;

const STORE: &str = r#"{"tasks": [
  {"id": "T001", "title": "Implement fuzzy find command", "status": "active", "priority": "high"}
]}
"#;

/// A corpus whose budget no call can meet (a nanosecond at the 95th percentile), and one
/// whose budget every call meets; `gate` is the corpus's gate section.
fn corpus(p95_ms: &str, gate: &str) -> String {
    format!(
        "suite: mini\nfixture: {{store: todo.json}}\nbudget: {{p95_ms: {p95_ms}}}\n{gate}cases:\n  \
         - id: fuzzy\n    query: fuzzy find\n    mode: task\n    expect: {{top: T001}}\n"
    )
}

fn run(corpus: &str, extra: &[&str]) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("todo.json"), STORE).unwrap();
    std::fs::write(dir.path().join("corpus.yaml"), corpus).unwrap();
    let mut args = vec!["run", "corpus.yaml", "--out", "out", "--no-progress"];
    args.extend_from_slice(extra);
    let out = findbench_in(dir.path(), &args);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn a_budget_is_reported_by_default_and_gates_when_asked() {
    let over = corpus("0.000001", "");
    let (code, stdout) = run(&over, &[]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(!stdout.contains("over its stated budget"), "{stdout}");

    let (code, stdout) = run(&over, &["--gate-budgets"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("gate: FAIL mini: latency over its stated budget: p95 ")
            && stdout.contains("> budget.p95_ms 0.000001 ms"),
        "{stdout}"
    );

    let (code, stdout) = run(&corpus("0.000001", "gate: {gate_budgets: true}\n"), &[]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("over its stated budget"), "{stdout}");

    let (code, stdout) = run(&corpus("100000", ""), &["--gate-budgets"]);
    assert_eq!(code, Some(0), "{stdout}");
}
