//! `findbench merge DIR...`: the results of N `--shard K/N` runs joined into the results
//! one machine would have produced. Every metric is recomputed from the cases (see
//! docs/arch-harness.md, "Mergeable results"), so the merged reports equal an unsharded
//! run's outside the timing columns.
//!
//! Shards join only when they are the same run split N ways: one kind, engine and findbench
//! version, git revision, profile and the same corpora (path and sha256) or trace inputs;
//! each of 1..=N present exactly once. Anything else is an error naming the directories
//! and what differs.

use crate::case::CaseResult;
use crate::error::{HarnessError, Result};
use crate::results::RunResults;
use crate::shard::Shard;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The `kind` of a results directory (`run` or `replay`), read from its results.json.
pub fn results_kind(dir: &Path) -> Result<String> {
    let file = dir.join("results.json");
    let reader = std::fs::File::open(&file)
        .map(|f| std::io::BufReader::with_capacity(256 * 1024, f))
        .map_err(|e| HarnessError::file(&file, format!("cannot read shard results: {e}")))?;
    #[derive(serde::Deserialize)]
    struct Kind {
        kind: Option<String>,
    }
    // read through, the rest skipped: a replay shard's results.json may be hundreds of MB
    let kind: Kind = serde_json::from_reader(reader).map_err(|e| {
        if e.is_io() {
            HarnessError::file(&file, format!("cannot read shard results: {e}"))
        } else {
            crate::results::not_results(&file, &e)
        }
    })?;
    Ok(kind.kind.unwrap_or_else(|| "run".into()))
}

/// Checks that `shards` are 1..=N of one N, each once; returns N.
pub fn check_shards(shards: &[(PathBuf, Option<Shard>)]) -> Result<u32> {
    let mut count = None;
    let mut seen: BTreeMap<u32, &Path> = BTreeMap::new();
    for (dir, shard) in shards {
        let Some(shard) = shard else {
            return Err(HarnessError::invalid(format!(
                "{} is not a shard (it ran without --shard K/N)",
                dir.display()
            )));
        };
        match count {
            None => count = Some((shard.count, dir.as_path())),
            Some((n, first)) if n != shard.count => {
                return Err(HarnessError::invalid(format!(
                    "shards of different splits: {} is a shard of {n}, {} is {shard}",
                    first.display(),
                    dir.display()
                )))
            }
            Some(_) => {}
        }
        if let Some(other) = seen.insert(shard.index, dir) {
            return Err(HarnessError::invalid(format!(
                "duplicate shard {shard}: {} and {}",
                other.display(),
                dir.display()
            )));
        }
    }
    let Some((n, _)) = count else {
        return Err(HarnessError::invalid(
            "merge needs at least one shard directory",
        ));
    };
    let missing: Vec<String> = (1..=n)
        .filter(|k| !seen.contains_key(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(HarnessError::invalid(format!(
            "missing shard{} {} of {n}",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", ")
        )));
    }
    Ok(n)
}

/// Checks that every shard has the same `what` (its value per directory); an error names
/// the first two directories that differ and their values.
pub fn check_same(what: &str, values: &[(PathBuf, String)]) -> Result<()> {
    if let Some((first_dir, first)) = values.first() {
        if let Some((dir, value)) = values.iter().find(|(_, v)| v != first) {
            return Err(HarnessError::invalid(format!(
                "shards differ in {what}: {} has {first}, {} has {value}",
                first_dir.display(),
                dir.display()
            )));
        }
    }
    Ok(())
}

/// Joins the results of `run --shard K/N` directories.
pub fn merge_runs(dirs: &[PathBuf]) -> Result<RunResults> {
    let runs: Vec<(PathBuf, RunResults)> = dirs
        .iter()
        .map(|d| RunResults::read(d).map(|r| (d.clone(), r)))
        .collect::<Result<_>>()?;
    check_shards(
        &runs
            .iter()
            .map(|(d, r)| (d.clone(), r.shard))
            .collect::<Vec<_>>(),
    )?;
    // a shard whose cases are not all there would merge into a smaller run
    if let Some((dir, r)) = runs
        .iter()
        .find(|(_, r)| r.cases.len() != r.summary.cases())
    {
        return Err(crate::cases_file::incomplete(
            crate::error::Origin::file(&dir.join("results.json")),
            format!(
                "{} cases where its summary counts {}",
                r.cases.len(),
                r.summary.cases()
            ),
        ));
    }
    let field = |f: &dyn Fn(&RunResults) -> String| -> Vec<(PathBuf, String)> {
        runs.iter().map(|(d, r)| (d.clone(), f(r))).collect()
    };
    check_same("kind", &field(&|r| r.kind.clone()))?;
    check_same("engine version", &field(&|r| r.engine_version.clone()))?;
    check_same(
        "findbench version",
        &field(&|r| r.findbench_version.clone()),
    )?;
    check_same(
        "git revision",
        &field(&|r| r.git_revision.clone().unwrap_or_else(|| "unknown".into())),
    )?;
    check_same("profile", &field(&|r| r.profile.clone()))?;
    check_same(
        "corpora",
        &field(&|r| {
            r.corpora
                .iter()
                .map(|c| {
                    format!(
                        "{} (sha256 {})",
                        c.path,
                        &c.sha256[..c.sha256.len().min(12)]
                    )
                })
                .collect::<Vec<_>>()
                .join(", ")
        }),
    )?;
    check_same("--filter", &field(&|r| r.filters.join(",")))?;
    check_same(
        "cost model",
        &field(&|r| serde_json::to_string(&r.cost_model).unwrap_or_default()),
    )?;
    check_same(
        "gate (thresholds, --exit-zero, --baseline)",
        &field(&|r| gate_of(r.gate.as_ref())),
    )?;
    check_same(
        "--engine",
        &field(&|r| {
            r.engines
                .iter()
                .map(|e| e.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        }),
    )?;
    check_same(
        "--out-compress (cases file)",
        &field(&|r| r.cases_file.clone().unwrap_or_default()),
    )?;

    let mut iter = runs.into_iter().map(|(_, r)| r);
    let mut merged = iter.next().expect("check_shards saw one");
    for r in iter {
        merged.threads = merged.threads.max(r.threads);
        merged.duration_ms = merged.duration_ms.max(r.duration_ms);
        merged.started_at = merged.started_at.min(r.started_at);
        merged.cases.extend(r.cases);
        for (mine, theirs) in merged.engines.iter_mut().zip(r.engines) {
            mine.cases.extend(theirs.cases);
            mine.cases_run += theirs.cases_run;
            mine.not_applicable += theirs.not_applicable;
        }
    }
    // the order of an unsharded run: (suite, id)
    let by_key = |a: &CaseResult, b: &CaseResult| (&a.suite, &a.id).cmp(&(&b.suite, &b.id));
    merged.cases.sort_by(by_key);
    let budgets: BTreeMap<String, crate::corpus::Budget> = merged
        .corpora
        .iter()
        .map(|c| (c.suite.clone(), c.budget))
        .collect();
    let metrics = crate::metrics::compute(&merged.cases, &budgets, &merged.cost_model);
    merged.summary = metrics.summary;
    merged.suites = metrics.suites;
    merged.modes = metrics.modes;
    merged.tags = metrics.tags;
    for engine in &mut merged.engines {
        engine.cases.sort_by(by_key);
        // the primary's cases are the run's own, as an unsharded run records them
        let cases = if engine.primary {
            &merged.cases
        } else {
            &engine.cases
        };
        let computed = cases
            .iter()
            .any(|c| !c.not_applicable())
            .then(|| crate::metrics::compute(cases, &budgets, &merged.cost_model));
        engine.summary = computed.as_ref().map(|m| m.summary.clone());
        engine.suites = computed.map(|m| m.suites).unwrap_or_default();
    }
    merged.shard = None;
    Ok(merged)
}

/// The gate settings of a shard as text, to compare (a shard written before they were
/// recorded reads as gated by default).
fn gate_of(gate: Option<&crate::gate_settings::GateSettings>) -> String {
    serde_json::to_string(&gate.cloned().unwrap_or_default()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shards(list: &[(&str, Option<(u32, u32)>)]) -> Vec<(PathBuf, Option<Shard>)> {
        list.iter()
            .map(|(d, s)| {
                (
                    PathBuf::from(d),
                    s.map(|(index, count)| Shard { index, count }),
                )
            })
            .collect()
    }

    #[test]
    fn a_complete_set_of_shards_is_accepted() {
        let set = shards(&[
            ("a", Some((2, 3))),
            ("b", Some((1, 3))),
            ("c", Some((3, 3))),
        ]);
        assert_eq!(check_shards(&set).unwrap(), 3);
    }

    #[test]
    fn missing_duplicate_unsharded_and_mixed_splits_are_named() {
        let err = |list: &[(&str, Option<(u32, u32)>)]| {
            check_shards(&shards(list)).unwrap_err().to_string()
        };
        assert_eq!(
            err(&[("a", Some((1, 3))), ("c", Some((3, 3)))]),
            "missing shard 2/3 of 3"
        );
        assert_eq!(
            err(&[("a", Some((1, 2))), ("b", Some((1, 2)))]),
            "duplicate shard 1/2: a and b"
        );
        assert_eq!(
            err(&[("a", Some((1, 2))), ("full", None)]),
            "full is not a shard (it ran without --shard K/N)"
        );
        assert_eq!(
            err(&[("a", Some((1, 2))), ("b", Some((2, 3)))]),
            "shards of different splits: a is a shard of 2, b is 2/3"
        );
    }

    #[test]
    fn a_difference_names_both_directories() {
        let values = vec![
            (PathBuf::from("s1"), "default".to_string()),
            (PathBuf::from("s2"), "default".to_string()),
            (PathBuf::from("s3"), "legacy".to_string()),
        ];
        let e = check_same("profile", &values).unwrap_err();
        assert_eq!(
            e.to_string(),
            "shards differ in profile: s1 has default, s3 has legacy"
        );
        assert_eq!(e.exit_code(), crate::error::exit::INVALID);
    }
}
