//! Evaluating profiles: every case of a set run with the profile over its fixture, loaded
//! once and shared by every evaluation (a fixture's tree, store, kept index and ranking
//! statistics are read once), and scored by the objective. The cases of a batch of profiles
//! run in parallel on one rayon pool; scores come back in the order given, whatever the
//! number of threads.

use crate::objective::{mean, Objective};
use findbench_engine::{Engine, Profile};
use findbench_eval::corpus::Case;
use findbench_eval::runner::run_case;
use rayon::prelude::*;

/// The cases an objective scores, and the pool they run on.
pub struct Evaluator<'a> {
    cases: Vec<&'a Case>,
    objective: Objective,
    pool: &'a rayon::ThreadPool,
}

impl<'a> Evaluator<'a> {
    pub fn new(cases: Vec<&'a Case>, objective: Objective, pool: &'a rayon::ThreadPool) -> Self {
        Evaluator {
            cases,
            objective,
            pool,
        }
    }

    pub fn cases(&self) -> &[&'a Case] {
        &self.cases
    }

    /// Each case's score under `profile`, in the order of the cases.
    pub fn case_scores(&self, profile: &Profile) -> Vec<f64> {
        self.batch_case_scores(std::slice::from_ref(profile))
            .pop()
            .unwrap_or_default()
    }

    /// Each case's score under each profile: one list per profile, in order.
    pub fn batch_case_scores(&self, profiles: &[Profile]) -> Vec<Vec<f64>> {
        let engines: Vec<Engine> = profiles.iter().cloned().map(Engine::new).collect();
        let n = self.cases.len();
        let flat: Vec<f64> = self.pool.install(|| {
            (0..engines.len() * n)
                .into_par_iter()
                .map(|i| {
                    let result = run_case(&engines[i / n], self.cases[i % n]);
                    self.objective.score(&result)
                })
                .collect()
        });
        if n == 0 {
            return vec![Vec::new(); engines.len()];
        }
        flat.chunks(n).map(<[f64]>::to_vec).collect()
    }

    /// The objective (the mean case score) of each profile.
    pub fn batch_objective(&self, profiles: &[Profile]) -> Vec<f64> {
        self.batch_case_scores(profiles)
            .iter()
            .map(|s| mean(s))
            .collect()
    }
}
