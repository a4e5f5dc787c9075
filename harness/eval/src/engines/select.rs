//! `compare` of engines: one engine of a results document as a document of its own, and
//! two engines of one run paired on the cases both ran.

use crate::case::CaseResult;
use crate::corpus::Budget;
use crate::metrics::{CostModel, GroupMetrics};
use crate::results::ResultsDocument;
use serde_json::{Map, Value};

/// The engines a document holds, primary first (`findbench` alone for a run without
/// engines).
pub fn engine_names(doc: &ResultsDocument) -> Vec<String> {
    if doc.engines.is_empty() {
        let name = doc
            .cases
            .first()
            .map(|c| c.engine.clone())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| super::BUILTIN.to_string());
        vec![name]
    } else {
        doc.engines.iter().map(|e| e.name.clone()).collect()
    }
}

/// `doc` reduced to engine `name`: its cases and summary, its name in the label.
pub fn select(doc: &ResultsDocument, name: &str) -> Result<ResultsDocument, String> {
    let names = engine_names(doc);
    if !names.iter().any(|n| n == name) {
        return Err(format!(
            "no engine `{name}` in these results (engines: {})",
            names.join(", ")
        ));
    }
    let mut out = ResultsDocument {
        engines: Vec::new(),
        command: Some(format!(
            "{} engine {name}",
            doc.command.clone().or(doc.kind.clone()).unwrap_or_default()
        )),
        ..doc.clone()
    };
    if let Some(e) = doc.engines.iter().find(|e| e.name == name && !e.primary) {
        if let Some(why) = &e.missing {
            return Err(format!("engine `{name}` did not run: {why}"));
        }
        out.cases = e.cases.clone();
        out.summary = e.summary.clone().unwrap_or_default();
    }
    Ok(out)
}

/// Engines `a` and `b` of one run, each restricted to the cases both ran (a case of a mode
/// one of them does not answer is n/a, not a change), summaries recomputed on those cases.
pub fn pair(
    doc: &ResultsDocument,
    a: &str,
    b: &str,
) -> Result<(ResultsDocument, ResultsDocument), String> {
    if a == b {
        return Err(format!("`--engines {a},{b}` names one engine twice"));
    }
    let (mut before, mut after) = (select(doc, a)?, select(doc, b)?);
    let keys = |d: &ResultsDocument| {
        d.cases
            .iter()
            .filter(|c| !c.not_applicable())
            .map(CaseResult::key)
            .collect::<std::collections::HashSet<_>>()
    };
    let (kb, ka) = (keys(&before), keys(&after));
    for (d, other) in [(&mut before, &ka), (&mut after, &kb)] {
        d.cases.retain(|c| other.contains(&c.key()));
        d.summary = summary_of(&d.cases);
    }
    if before.cases.is_empty() {
        return Err(format!("engines `{a}` and `{b}` ran no case in common"));
    }
    Ok((before, after))
}

fn summary_of(cases: &[CaseResult]) -> Map<String, Value> {
    let refs: Vec<&CaseResult> = cases.iter().collect();
    let m = GroupMetrics::of(&refs, &Budget::default(), &CostModel::default());
    match serde_json::to_value(m) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::Status;
    use crate::results::EngineDocument;

    fn case(engine: &str, id: &str, status: Status) -> CaseResult {
        CaseResult {
            engine: engine.into(),
            id: id.into(),
            suite: "s".into(),
            status,
            outcome: "success".into(),
            ..CaseResult::default()
        }
    }

    #[test]
    fn pairs_two_engines_on_the_cases_both_ran() {
        let doc = ResultsDocument {
            kind: Some("run".into()),
            cases: vec![
                case("findbench", "a", Status::Pass),
                case("findbench", "b", Status::Pass),
                case("findbench", "c", Status::Pass),
            ],
            engines: vec![
                EngineDocument {
                    name: "findbench".into(),
                    primary: true,
                    ..EngineDocument::default()
                },
                EngineDocument {
                    name: "rg".into(),
                    cases: vec![case("rg", "a", Status::Fail), case("rg", "b", Status::Pass)],
                    ..EngineDocument::default()
                },
            ],
            ..ResultsDocument::default()
        };
        let (before, after) = pair(&doc, "findbench", "rg").unwrap();
        assert_eq!(before.cases.len(), 2);
        assert_eq!(after.cases.len(), 2);
        assert_eq!(before.summary["pass_rate"], 1.0);
        assert_eq!(after.summary["pass_rate"], 0.5);
        assert_eq!(after.command.as_deref(), Some("run engine rg"));
        let e = pair(&doc, "findbench", "fzf").unwrap_err();
        assert_eq!(
            e,
            "no engine `fzf` in these results (engines: findbench, rg)"
        );
        assert_eq!(engine_names(&ResultsDocument::default()), ["findbench"]);
    }
}
