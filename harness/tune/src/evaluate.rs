//! Evaluating profiles: every case of a set run with the profile over its fixture, loaded
//! once and shared by every evaluation (a fixture's tree, store, kept index and ranking
//! statistics are read once), and scored by the objective. A corpus case runs as `run`
//! runs it; a trace as `replay` replays it (identical requests answered once per profile).
//! The cases of a batch of profiles run in parallel on one rayon pool; scores come back in
//! the order given, whatever the number of threads.

use crate::objective::{mean, Objective};
use crate::split::project_of;
use crate::traces::TraceCase;
use findbench_engine::{Engine, Profile};
use findbench_eval::corpus::Case;
use findbench_eval::runner::run_case;
use findbench_traces::replay::memo::Memo;
use findbench_traces::replay::options::ReplayOptions;
use findbench_traces::replay::replay_trace;
use rayon::prelude::*;

/// One case a tuning run scores: a corpus case, or a trace that names expected files.
#[derive(Clone, Copy)]
pub enum Item<'a> {
    Corpus(&'a Case),
    Trace(&'a TraceCase),
}

impl Item<'_> {
    /// The project the case belongs to (`split.rs`).
    pub fn project(&self) -> String {
        match self {
            Item::Corpus(c) => project_of(c),
            Item::Trace(t) => t.project.clone(),
        }
    }
}

/// The cases an objective scores, and the pool they run on.
pub struct Evaluator<'a> {
    cases: Vec<Item<'a>>,
    objective: Objective,
    pool: &'a rayon::ThreadPool,
    replay: &'a ReplayOptions,
}

impl<'a> Evaluator<'a> {
    /// `replay` is what the traces among `cases` replay with.
    pub fn new(
        cases: Vec<Item<'a>>,
        objective: Objective,
        pool: &'a rayon::ThreadPool,
        replay: &'a ReplayOptions,
    ) -> Self {
        Evaluator {
            cases,
            objective,
            pool,
            replay,
        }
    }

    pub fn len(&self) -> usize {
        self.cases.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cases.is_empty()
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
        // a memo per profile: the same request answers differently under another one
        let memos: Vec<Memo> = profiles.iter().map(|_| Memo::new()).collect();
        let n = self.cases.len();
        let flat: Vec<f64> = self.pool.install(|| {
            (0..engines.len() * n)
                .into_par_iter()
                .map(|i| match self.cases[i % n] {
                    Item::Corpus(case) => self.objective.score(&run_case(&engines[i / n], case)),
                    Item::Trace(t) => {
                        let result = replay_trace(
                            &engines[i / n],
                            &t.fixture,
                            &t.trace,
                            self.replay,
                            &memos[i / n],
                        );
                        self.objective.score_trace(&result)
                    }
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
