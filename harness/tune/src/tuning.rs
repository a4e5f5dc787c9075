//! A whole tuning run: the cases the objective scores, split by project; the search on the
//! train cases; the base and the tuned profile scored on both sides; the held-out gain's
//! paired bootstrap interval; the tuned profile with its provenance.

use crate::evaluate::{Evaluator, Item};
use crate::objective::{mean, Objective};
use crate::report::{
    self, Change, HeldOut, Input, Provenance, Scores, Speed, SplitInfo, TuneReport,
};
use crate::search::{coordinate_ascent, SearchSettings};
use crate::space::Space;
use crate::split::{split, split_by_inputs, Holdout};
use crate::traces::TraceInputs;
use findbench_engine::Profile;
use findbench_eval::corpus::{Case, Corpus};
use findbench_eval::error::{HarnessError, Result};
use findbench_eval::runner::progress_bar;
use findbench_eval::stats::{bootstrap_mean_diff, BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Everything a run is given besides the corpora.
#[derive(Debug, Clone)]
pub struct TuneOptions {
    pub base: Profile,
    /// `--profile` as given.
    pub base_name: String,
    /// The name the tuned profile carries.
    pub name: String,
    pub objective: Objective,
    /// `--param`: paths or prefixes; empty for every tunable number.
    pub params: Vec<String>,
    pub budget: Option<usize>,
    pub time: Option<Duration>,
    pub seed: u64,
    /// Worker threads; 0 for one per CPU.
    pub jobs: usize,
    pub holdout: Holdout,
    pub progress: bool,
}

/// The tuned profile (its provenance filled in) and the report.
#[derive(Debug, Clone)]
pub struct Tuned {
    pub profile: Profile,
    pub report: TuneReport,
}

/// What a run reads: corpora and trace files, and which of them (by path as loaded) are
/// held out (`--holdout-input`; none: the split of `options.holdout`).
pub struct Inputs<'a> {
    pub corpora: &'a [Corpus],
    pub traces: &'a TraceInputs,
    pub held_out: &'a [PathBuf],
}

/// Tunes `options.base` on the cases of `corpora`.
pub fn tune(corpora: &[Corpus], options: &TuneOptions) -> Result<Tuned> {
    let none = TraceInputs::none();
    tune_inputs(
        &Inputs {
            corpora,
            traces: &none,
            held_out: &[],
        },
        options,
    )
}

/// Tunes `options.base` on the cases of `inputs`. Errors (exit 2) for a bad option, an
/// unknown parameter, no case the objective scores, or a project on both sides of a split
/// by inputs.
pub fn tune_inputs(inputs: &Inputs, options: &TuneOptions) -> Result<Tuned> {
    if options.budget.is_none() && options.time.is_none() {
        return Err(HarnessError::invalid("give --budget N or --time SECS"));
    }
    if options.budget == Some(0) {
        return Err(HarnessError::invalid(
            "--budget must be at least 1 evaluation",
        ));
    }
    let space = Space::new(&options.base, &options.params).map_err(HarnessError::invalid)?;
    // each case with its input's path; corpus cases by suite and id, then the traces in
    // the order of their files
    let mut corpus_cases: Vec<(&Case, &PathBuf)> = inputs
        .corpora
        .iter()
        .flat_map(|c| c.cases.iter().map(move |case| (case, &c.path)))
        .filter(|(c, _)| options.objective.scores(c))
        .collect();
    corpus_cases.sort_by(|(a, _), (b, _)| (&a.suite, &a.id).cmp(&(&b.suite, &b.id)));
    let mut cases: Vec<(Item, &PathBuf)> = corpus_cases
        .into_iter()
        .map(|(c, p)| (Item::Corpus(c), p))
        .collect();
    for set in &inputs.traces.sets {
        cases.extend(set.cases.iter().map(|t| (Item::Trace(t), &set.path)));
    }
    if cases.is_empty() {
        return Err(HarnessError::invalid(format!(
            "no case has an expectation the objective {} scores{}",
            options.objective.as_str(),
            match options.objective {
                Objective::PassRate => " (a trace scores when it names `expected` files)",
                _ => " (a `top` or `contains` of a corpus case, a trace's `expected` files)",
            }
        )));
    }
    let holdout = if inputs.held_out.is_empty() {
        options.holdout.clone()
    } else {
        Holdout::Inputs
    };
    let sides = match &holdout {
        Holdout::Inputs => {
            let members: Vec<(String, String, bool)> = cases
                .iter()
                .map(|(c, p)| {
                    (
                        c.project(),
                        p.display().to_string(),
                        inputs.held_out.contains(p),
                    )
                })
                .collect();
            split_by_inputs(&members)
        }
        how => {
            let projects: BTreeSet<String> = cases.iter().map(|(c, _)| c.project()).collect();
            split(&projects, how)
        }
    }
    .map_err(HarnessError::invalid)?;
    let (held, train): (Vec<Item>, Vec<Item>) = cases
        .iter()
        .map(|(c, _)| *c)
        .partition(|c| sides.is_held_out(&c.project()));
    let threads = match options.jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| HarnessError::Internal(format!("cannot start {threads} threads: {e}")))?;
    let replay = &inputs.traces.options;
    let train_eval = Evaluator::new(train, options.objective, &pool, replay);
    let held_eval = Evaluator::new(held, options.objective, &pool, replay);

    let bar = progress_bar(
        options.progress,
        options.budget.map(|b| b as u64),
        "{spinner} {bar:40} {pos}/{len} evaluations  {elapsed}  {msg}",
    );
    let clock = Instant::now();
    let settings = SearchSettings {
        budget: options.budget,
        deadline: options.time.map(|t| clock + t),
        seed: options.seed,
        ..SearchSettings::default()
    };
    let mut best_seen = f64::NEG_INFINITY;
    let found = coordinate_ascent(&space.params, space.base_point(), settings, |points| {
        let profiles: Vec<Profile> = points.iter().map(|p| space.profile_at(p)).collect();
        let scores = train_eval.batch_objective(&profiles);
        best_seen = scores.iter().copied().fold(best_seen, f64::max);
        bar.inc(points.len() as u64);
        bar.set_message(format!(
            "best {} {best_seen:.4}",
            options.objective.as_str()
        ));
        scores
    });
    bar.finish_and_clear();
    let seconds = clock.elapsed().as_secs_f64();

    let kept_start = found.best == space.base_point();
    let mut tuned = if kept_start {
        options.base.clone()
    } else {
        space.profile_at(&found.best)
    };
    tuned.name = options.name.clone();
    tuned.provenance = None;
    let base = Profile {
        provenance: None,
        ..options.base.clone()
    };
    let pair = [base, tuned.clone()];
    let train_scores = train_eval.batch_case_scores(&pair);
    let held_scores = held_eval.batch_case_scores(&pair);
    let held_out = (!held_eval.is_empty()).then(|| {
        let pairs: Vec<(f64, f64)> = held_scores[0]
            .iter()
            .copied()
            .zip(held_scores[1].iter().copied())
            .collect();
        let d = bootstrap_mean_diff(&pairs, BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED)
            .expect("held-out cases are not empty");
        HeldOut {
            before: mean(&held_scores[0]),
            after: mean(&held_scores[1]),
            gain: d.diff,
            ci_low: d.ci_low,
            ci_high: d.ci_high,
            resamples: d.resamples,
            clear_of_zero: d.significant(),
        }
    });
    let tuned_json = serde_json::to_value(&tuned).unwrap_or_default();
    let changes: Vec<Change> = space
        .params
        .iter()
        .zip(space.base_values())
        .filter_map(|(p, before)| {
            let after = findbench_engine::profile::tunable::number_at(&tuned_json, &p.path)?;
            (after != before).then(|| Change {
                param: p.path.clone(),
                before,
                after,
            })
        })
        .collect();
    let provenance = Provenance {
        generator: "findbench tune".into(),
        findbench_version: env!("CARGO_PKG_VERSION").into(),
        engine_version: findbench_engine::VERSION.into(),
        base_profile: options.base_name.clone(),
        inputs: inputs
            .corpora
            .iter()
            .map(|c| Input {
                kind: "corpus".into(),
                path: c.path.display().to_string(),
                sha256: c.sha256.clone(),
            })
            .chain(inputs.traces.sets.iter().map(|t| Input {
                kind: "traces".into(),
                path: t.path.display().to_string(),
                sha256: t.sha256.clone(),
            }))
            .collect(),
        objective: options.objective.as_str().into(),
        seed: options.seed,
        budget: options.budget,
        time_secs: options.time.map(|t| t.as_secs_f64()),
        evaluations: found.evaluations,
        params: space.params.iter().map(|p| p.path.clone()).collect(),
        split: SplitInfo {
            rule: match holdout {
                Holdout::Fraction(_) => "hash",
                Holdout::Projects(_) => "named",
                Holdout::Inputs => "inputs",
            }
            .into(),
            holdout: match holdout {
                Holdout::Fraction(f) => Some(f),
                Holdout::Projects(_) | Holdout::Inputs => None,
            },
            train_projects: sides.train.clone(),
            held_out_projects: sides.held_out.clone(),
            train_cases: train_eval.len(),
            held_out_cases: held_eval.len(),
        },
        train: Scores {
            before: mean(&train_scores[0]),
            after: mean(&train_scores[1]),
        },
        held_out,
    };
    let report = TuneReport {
        verdict: report::verdict(provenance.held_out.as_ref(), !changes.is_empty()),
        speed: Speed {
            evaluations: found.evaluations,
            seconds,
            evaluations_per_second: if seconds > 0.0 {
                found.evaluations as f64 / seconds
            } else {
                0.0
            },
            cases_per_evaluation: train_eval.len(),
            restarts: found.restarts,
        },
        changes,
        provenance,
    };
    tuned.provenance = serde_json::to_value(&report.provenance).ok();
    Ok(Tuned {
        profile: tuned,
        report,
    })
}
