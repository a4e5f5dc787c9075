//! The ranking part of `compare`'s documents: the headline lines of the ranking metrics
//! whose change is larger than the noise, and the release report's section with every
//! ranking test and the cases whose expected file moved.

use super::table::{Align, Table};
use crate::compare::{fmt_p, Comparison};
use crate::compare_rank::RankTest;
use std::fmt::Write;

use Align::{Left as L, Right as R};

/// Moved cases the headline names; the report lists them all.
const HEADLINE_MOVES: usize = 5;

/// The test's numbers in words: `12 lost, 0 gained` or `-0.667, 95% CI [-0.80, -0.50]`.
fn evidence(t: &RankTest) -> String {
    match (t.worsened, t.improved, t.ci_low, t.ci_high) {
        (Some(w), Some(i), _, _) => format!("{w} lost, {i} gained"),
        (_, _, Some(lo), Some(hi)) => format!("{:+.4}, 95% CI [{lo:+.4}, {hi:+.4}]", t.diff),
        _ => format!("{:+.4}", t.diff),
    }
}

/// The headline's ranking lines: each ranking metric whose change is larger than the noise,
/// and how many judged cases' expected file moved (the first few named).
pub fn headline(c: &Comparison) -> String {
    let mut t = String::new();
    for r in c.rank_tests.iter().filter(|r| r.significant) {
        let _ = writeln!(
            t,
            "{}: {} over {} judged cases: {}",
            r.metric,
            evidence(r),
            r.paired,
            r.verdict
        );
    }
    if !c.rank_moves.is_empty() {
        let shown: Vec<String> = c
            .rank_moves
            .iter()
            .take(HEADLINE_MOVES)
            .map(|m| format!("{} {}", m.id, m.shown()))
            .collect();
        let _ = writeln!(
            t,
            "expected file moved in {} judged case{}: {}{}",
            c.rank_moves.len(),
            if c.rank_moves.len() == 1 { "" } else { "s" },
            shown.join(", "),
            if c.rank_moves.len() > HEADLINE_MOVES {
                ", ..."
            } else {
                ""
            }
        );
    }
    t
}

/// The release report's ranking section; empty when no judged case is in both runs.
pub fn markdown(c: &Comparison) -> String {
    let mut m = String::new();
    if c.rank_tests.is_empty() {
        return m;
    }
    let _ = writeln!(
        m,
        "\n## Ranking of the judged cases (exact McNemar on hits, paired bootstrap on MRR and recall)\n"
    );
    let mut t = Table::new(&[
        ("metric", L),
        ("test", L),
        ("cases", R),
        ("change", L),
        ("p-value", R),
        ("verdict", L),
    ]);
    for r in &c.rank_tests {
        t.row([
            r.metric.clone(),
            r.test.clone(),
            r.paired.to_string(),
            evidence(r),
            r.p_value.map(fmt_p).unwrap_or_else(|| "–".into()),
            r.verdict.clone(),
        ]);
    }
    m.push_str(&t.markdown());
    let _ = writeln!(m, "\n### Cases whose expected file moved\n");
    if c.rank_moves.is_empty() {
        let _ = writeln!(m, "None.");
        return m;
    }
    let mut t = Table::new(&[("case", L), ("question", L), ("rank", L)]);
    for x in &c.rank_moves {
        let case = if x.suite.is_empty() {
            x.id.clone()
        } else {
            format!("{}/{}", x.suite, x.id)
        };
        t.row([case, x.query.clone(), x.shown()]);
    }
    m.push_str(&t.markdown());
    m
}
