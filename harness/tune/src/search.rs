//! Coordinate ascent with random restarts, as RankLib searches the weights of a linear
//! ranker: from a point, each parameter in turn is moved up and down by one, two and four
//! steps (a step is a share of its range), evaluated as one batch; the best move that
//! raises the objective is kept and followed in its direction with doubled steps while it
//! keeps raising it; a pass that moves nothing
//! halves the step, down to `min_step`. Then the search restarts from a random point of
//! the ranges, until the budget of evaluations (or the time) runs out. The best point met
//! is the answer: the start when nothing beat it.
//!
//! Deterministic for a seed and a budget: the points tried depend only on the scores, and
//! the random points only on the seed. A time limit stops it wherever the clock says.

use findbench_engine::profile::tunable::Param;
use findbench_eval::stats::SplitMix64;
use std::time::Instant;

/// The moves tried at once along a parameter, each way, in steps: a ranking's objective is
/// flat between the points where two results swap, so one step alone rarely crosses to
/// the next swap.
const REACHES: [f64; 3] = [1.0, 2.0, 4.0];

/// A move must raise the objective by more than this to be kept.
const EPSILON: f64 = 1e-9;

/// What bounds a search and where it starts drawing.
#[derive(Debug, Clone, Copy)]
pub struct SearchSettings {
    /// Evaluations at most, the start's included.
    pub budget: Option<usize>,
    /// No batch starts after this instant.
    pub deadline: Option<Instant>,
    pub seed: u64,
    /// The first step, as a share of each range.
    pub initial_step: f64,
    /// The smallest step before a climb ends.
    pub min_step: f64,
}

impl Default for SearchSettings {
    fn default() -> Self {
        SearchSettings {
            budget: Some(200),
            deadline: None,
            seed: 1,
            initial_step: 0.25,
            min_step: 1.0 / 64.0,
        }
    }
}

/// What a search found.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult {
    pub best: Vec<f64>,
    pub best_score: f64,
    pub start_score: f64,
    pub evaluations: usize,
    /// Climbs from a random point begun (the climb from the start not counted).
    pub restarts: usize,
}

/// Evaluations left to spend, counted as they are spent.
struct Spender<'a, E> {
    settings: SearchSettings,
    used: usize,
    evaluate: &'a mut E,
}

impl<E: FnMut(&[Vec<f64>]) -> Vec<f64>> Spender<'_, E> {
    /// The scores of as many of `points` as the budget allows; `None` when none may run.
    fn run(&mut self, points: &[Vec<f64>]) -> Option<Vec<f64>> {
        let left = self
            .settings
            .budget
            .map_or(usize::MAX, |b| b - self.used.min(b));
        let past = self.settings.deadline.is_some_and(|d| Instant::now() >= d);
        let n = points.len().min(left);
        if n == 0 || past {
            return None;
        }
        self.used += n;
        Some((self.evaluate)(&points[..n]))
    }
}

/// Searches `params` from `start`; `evaluate` scores a batch of points (higher is better).
pub fn coordinate_ascent<E>(
    params: &[Param],
    start: Vec<f64>,
    settings: SearchSettings,
    mut evaluate: E,
) -> SearchResult
where
    E: FnMut(&[Vec<f64>]) -> Vec<f64>,
{
    let mut spender = Spender {
        settings,
        used: 0,
        evaluate: &mut evaluate,
    };
    let start_score = spender
        .run(std::slice::from_ref(&start))
        .and_then(|s| s.first().copied())
        .unwrap_or(f64::NEG_INFINITY);
    let mut result = SearchResult {
        best: start.clone(),
        best_score: start_score,
        start_score,
        evaluations: spender.used,
        restarts: 0,
    };
    if params.is_empty() || spender.used == 0 {
        return result;
    }
    let mut rng = SplitMix64(settings.seed);
    let mut point = start;
    let mut score = start_score;
    loop {
        let finished = climb(params, &mut point, &mut score, &mut spender, &mut result);
        if !finished {
            break;
        }
        // restart from a random point of the ranges
        let random: Vec<f64> = params
            .iter()
            .map(|p| p.clamp(p.min + rng.unit() * (p.max - p.min)))
            .collect();
        let Some(s) = spender.run(std::slice::from_ref(&random)) else {
            break;
        };
        result.restarts += 1;
        point = random;
        score = s[0];
        keep_best(&mut result, &point, score);
    }
    result.evaluations = spender.used;
    result
}

fn keep_best(result: &mut SearchResult, point: &[f64], score: f64) {
    if score > result.best_score + EPSILON {
        result.best = point.to_vec();
        result.best_score = score;
    }
}

/// One climb from `point` until the step is below the smallest; false when the budget ran
/// out first.
fn climb<E: FnMut(&[Vec<f64>]) -> Vec<f64>>(
    params: &[Param],
    point: &mut Vec<f64>,
    score: &mut f64,
    spender: &mut Spender<'_, E>,
    result: &mut SearchResult,
) -> bool {
    let settings = spender.settings;
    let mut step = settings.initial_step;
    while step >= settings.min_step {
        let mut moved = false;
        for (d, p) in params.iter().enumerate() {
            let range = p.max - p.min;
            let mut candidates: Vec<Vec<f64>> = Vec::with_capacity(2 * REACHES.len());
            for dir in [1.0, -1.0] {
                for reach in REACHES {
                    let v = p.clamp(point[d] + dir * reach * step * range);
                    if v != point[d] && !candidates.iter().any(|c| c[d] == v) {
                        let mut c = point.clone();
                        c[d] = v;
                        candidates.push(c);
                    }
                }
            }
            if candidates.is_empty() {
                continue;
            }
            let Some(scores) = spender.run(&candidates) else {
                return false;
            };
            let (i, best) =
                scores
                    .iter()
                    .enumerate()
                    .fold((0, f64::NEG_INFINITY), |acc, (i, s)| {
                        if *s > acc.1 {
                            (i, *s)
                        } else {
                            acc
                        }
                    });
            if best <= *score + EPSILON {
                continue;
            }
            let distance = candidates[i][d] - point[d];
            let dir = distance.signum();
            *point = candidates.swap_remove(i);
            *score = best;
            moved = true;
            keep_best(result, point, *score);
            // follow the direction with doubled steps while it keeps raising the score
            let mut reach = 2.0 * distance.abs() / range;
            loop {
                let v = p.clamp(point[d] + dir * reach * range);
                if v == point[d] {
                    break;
                }
                let mut c = point.clone();
                c[d] = v;
                let Some(s) = spender.run(std::slice::from_ref(&c)) else {
                    return false;
                };
                if s[0] <= *score + EPSILON {
                    break;
                }
                *point = c;
                *score = s[0];
                keep_best(result, point, *score);
                reach *= 2.0;
            }
        }
        if !moved {
            step /= 2.0;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(path: &str, min: f64, max: f64, integer: bool) -> Param {
        Param {
            path: path.into(),
            min,
            max,
            integer,
        }
    }

    #[test]
    fn it_climbs_to_the_peak_of_a_smooth_objective_within_the_budget() {
        let params = [param("a", 0.0, 10.0, false), param("b", 0.0, 100.0, true)];
        let mut calls = 0;
        let r = coordinate_ascent(
            &params,
            vec![1.0, 90.0],
            SearchSettings {
                budget: Some(300),
                ..SearchSettings::default()
            },
            |points| {
                calls += points.len();
                points
                    .iter()
                    .map(|x| -(x[0] - 7.0).powi(2) - (x[1] - 20.0).powi(2) / 100.0)
                    .collect()
            },
        );
        assert_eq!((r.evaluations, calls), (300, 300));
        assert!((r.best[0] - 7.0).abs() < 0.2, "{r:?}");
        assert!(
            (r.best[1] - 20.0).abs() <= 2.0 && r.best[1].fract() == 0.0,
            "{r:?}"
        );
        assert!(r.best_score > r.start_score);
        assert!(r.restarts >= 1, "{r:?}");
    }

    #[test]
    fn the_start_is_kept_when_nothing_beats_it_and_the_seed_fixes_the_walk() {
        let params = [param("a", 0.0, 1.0, false)];
        let flat = |points: &[Vec<f64>]| vec![0.5; points.len()];
        let settings = SearchSettings {
            budget: Some(40),
            ..SearchSettings::default()
        };
        let r = coordinate_ascent(&params, vec![0.3], settings, flat);
        assert_eq!((r.best, r.best_score, r.evaluations), (vec![0.3], 0.5, 40));
        let bumpy = |points: &[Vec<f64>]| points.iter().map(|x| (x[0] * 40.0).sin()).collect();
        let a = coordinate_ascent(&params, vec![0.3], settings, bumpy);
        let b = coordinate_ascent(&params, vec![0.3], settings, bumpy);
        assert_eq!(a, b);
        let other = SearchSettings {
            seed: 2,
            ..settings
        };
        assert_ne!(
            coordinate_ascent(&params, vec![0.3], other, bumpy).best,
            vec![0.3]
        );
    }
}
