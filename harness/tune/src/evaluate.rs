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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::traces::{load_traces, replay_options, TraceInputs};
    use findbench_eval::corpus::load::load_corpora_with;
    use findbench_eval::corpus::Corpus;
    use std::path::Path;

    fn no_cache() -> findbench_engine::TreeOptions {
        findbench_engine::TreeOptions {
            no_cache: true,
            ..Default::default()
        }
    }

    /// A corpus per name, each on its own task store `NAME/NAME.json`: T1 holds `alpha` in
    /// its description, T2 in its title (and alone holds `handler`); both cases expect T2
    /// first.
    pub(crate) fn title_projects(dir: &Path, names: &[&str]) -> Vec<Corpus> {
        let mut paths = Vec::new();
        for p in names {
            std::fs::create_dir_all(dir.join(p)).unwrap();
            let store = serde_json::json!({"tasks": [
                {"id": "T1", "title": "Other thing", "description": "mentions alpha here",
                 "status": "active"},
                {"id": "T2", "title": "alpha handler", "description": "nothing",
                 "status": "active"},
            ]});
            std::fs::write(dir.join(p).join(format!("{p}.json")), store.to_string()).unwrap();
            let corpus = dir.join(format!("{p}.yaml"));
            std::fs::write(
                &corpus,
                format!(
                    "suite: {p}\nfixture: {{store: {p}/{p}.json}}\ncases:\n  \
                     - id: alpha\n    query: alpha\n    mode: task\n    expect: {{top: T2}}\n  \
                     - id: handler\n    query: handler\n    mode: task\n    expect: {{top: T2}}\n"
                ),
            )
            .unwrap();
            paths.push(corpus);
        }
        load_corpora_with(&paths, &no_cache()).unwrap()
    }

    /// The default profile with a task's title weighing less than its description: `alpha`
    /// then ranks T1 (description 1.0) above T2 (title 0.05), T2 second.
    pub(crate) fn title_below_description() -> Profile {
        let mut p = Profile::default();
        p.task.title = 0.05;
        p.task.description = 1.0;
        p
    }

    /// A trace file of one trace on a tree of one source file, expecting that file.
    pub(crate) fn parser_traces(dir: &Path) -> TraceInputs {
        let tree = dir.join("tree");
        std::fs::create_dir_all(tree.join("src")).unwrap();
        std::fs::write(tree.join("src/parser.rs"), "fn parse_header() {}\n").unwrap();
        let line = serde_json::json!({
            "trace_id": "t", "timestamp": "2026-06-19T00:00:00Z",
            "query": "where is parse_header", "fixture": {"root": tree.display().to_string()},
            "tools": [], "outcome": "success", "expected": ["src/parser.rs"]
        });
        let file = dir.join("t.jsonl");
        std::fs::write(&file, format!("{line}\n")).unwrap();
        load_traces(
            &[file],
            replay_options(dir.to_path_buf(), Vec::new(), no_cache()),
        )
        .unwrap()
    }

    /// Each case's score under each profile, in the order of the cases and the profiles:
    /// `alpha` ranks T2 second under the low title weight (1/2) and first under the default
    /// (title 1.0, description 0.55); `handler` and the trace find their file first.
    #[test]
    fn each_case_is_scored_under_each_profile_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let corpora = title_projects(dir.path(), &["north"]);
        let traces = parser_traces(dir.path());
        let mut cases: Vec<Item> = corpora[0].cases.iter().map(Item::Corpus).collect();
        cases.push(Item::Trace(&traces.sets[0].cases[0]));
        assert_eq!(
            cases.iter().map(Item::project).collect::<Vec<_>>(),
            [
                dir.path().join("north/north.json").display().to_string(),
                dir.path().join("north/north.json").display().to_string(),
                dir.path().join("tree").display().to_string(),
            ]
        );
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let eval = Evaluator::new(cases, Objective::Mrr, &pool, &traces.options);
        assert_eq!((eval.len(), eval.is_empty()), (3, false));
        let low_title = title_below_description();
        assert_eq!(eval.case_scores(&low_title), [0.5, 1.0, 1.0]);
        let profiles = [low_title, Profile::default()];
        assert_eq!(
            eval.batch_case_scores(&profiles),
            [vec![0.5, 1.0, 1.0], vec![1.0, 1.0, 1.0]]
        );
        assert_eq!(
            eval.batch_objective(&profiles),
            [(0.5 + 1.0 + 1.0) / 3.0, 1.0]
        );
    }

    #[test]
    fn no_case_scores_an_empty_list_per_profile() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let replay = TraceInputs::none().options;
        let eval = Evaluator::new(Vec::new(), Objective::Mrr, &pool, &replay);
        assert_eq!((eval.len(), eval.is_empty()), (0, true));
        let profiles = [title_below_description(), Profile::default()];
        assert_eq!(
            eval.batch_case_scores(&profiles),
            [Vec::<f64>::new(), Vec::new()]
        );
        assert_eq!(eval.batch_objective(&profiles), [0.0, 0.0]);
        assert!(eval.case_scores(&profiles[0]).is_empty());
    }
}
