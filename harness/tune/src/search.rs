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

    /// A search's every batch, in order, for a budget.
    fn batches<F: Fn(&[f64]) -> f64>(
        params: &[Param],
        start: Vec<f64>,
        settings: SearchSettings,
        f: F,
    ) -> (SearchResult, Vec<Vec<Vec<f64>>>) {
        let mut seen = Vec::new();
        let r = coordinate_ascent(params, start, settings, |points| {
            seen.push(points.to_vec());
            points.iter().map(|x| f(x)).collect()
        });
        (r, seen)
    }

    /// Every point of a climb worked by hand. Two numbers in [-24, 1000] (a range of 1024),
    /// a first step of 1/1024 of it (one unit) and a smallest of half that;
    /// f(a, b) = b - (distance of a to [100, 200]). From (40, 990):
    /// - a moves by ±1, ±2, ±4; 44 is best, and the move goes on with doubled steps: 52, 68,
    ///   100, then 164, no higher than 100 (both on the plateau), so a stops at 100;
    /// - b moves to 994, then 1000 (1002 clamped); the next doubling is clamped onto 1000;
    /// - at step 1 nothing is higher: a's moves up stay on the plateau, b's up are all
    ///   clamped onto 1000 and left out; at step 1/2 neither; the step then falls below the
    ///   smallest and the climb ends;
    /// - the restart draws each number uniformly in its range, and the budget ends with it.
    #[test]
    fn every_point_of_a_climb_worked_by_hand() {
        let params = [
            param("a", -24.0, 1000.0, false),
            param("b", -24.0, 1000.0, false),
        ];
        let settings = SearchSettings {
            budget: Some(37),
            deadline: None,
            seed: 1,
            initial_step: 1.0 / 1024.0,
            min_step: 1.0 / 2048.0,
        };
        let f = |x: &[f64]| x[1] - (100.0 - x[0]).max(0.0) - (x[0] - 200.0).max(0.0);
        let (r, seen) = batches(&params, vec![40.0, 990.0], settings, f);
        let a = |b: f64, xs: &[f64]| xs.iter().map(|&x| vec![x, b]).collect::<Vec<_>>();
        let b = |a: f64, xs: &[f64]| xs.iter().map(|&x| vec![a, x]).collect::<Vec<_>>();
        let mut rng = SplitMix64(1);
        let restart = vec![-24.0 + rng.unit() * 1024.0, -24.0 + rng.unit() * 1024.0];
        let expected = vec![
            vec![vec![40.0, 990.0]],
            a(990.0, &[41.0, 42.0, 44.0, 39.0, 38.0, 36.0]),
            a(990.0, &[52.0]),
            a(990.0, &[68.0]),
            a(990.0, &[100.0]),
            a(990.0, &[164.0]),
            b(100.0, &[991.0, 992.0, 994.0, 989.0, 988.0, 986.0]),
            b(100.0, &[1000.0]),
            a(1000.0, &[101.0, 102.0, 104.0, 99.0, 98.0, 96.0]),
            b(100.0, &[999.0, 998.0, 996.0]),
            a(1000.0, &[100.5, 101.0, 102.0, 99.5, 99.0, 98.0]),
            b(100.0, &[999.5, 999.0, 998.0]),
            vec![restart],
        ];
        assert_eq!(seen, expected);
        assert_eq!(
            (
                r.best,
                r.best_score,
                r.start_score,
                r.evaluations,
                r.restarts
            ),
            (vec![100.0, 1000.0], 1000.0, 930.0, 37, 1)
        );
    }

    /// Moves that score alike: the first tried wins (up before down). From 512 on
    /// |a - 512|, +4 and -4 both score 4; 516 is taken and followed to 524.
    #[test]
    fn of_moves_that_score_alike_the_first_tried_is_taken() {
        let params = [param("a", 0.0, 1024.0, false)];
        let settings = SearchSettings {
            budget: Some(8),
            initial_step: 1.0 / 1024.0,
            min_step: 1.0 / 1024.0,
            ..SearchSettings::default()
        };
        let (r, _) = batches(&params, vec![512.0], settings, |x| (x[0] - 512.0).abs());
        assert_eq!((r.best, r.best_score), (vec![524.0], 12.0));
    }

    /// A point scoring no more than EPSILON above the best does not replace it: here every
    /// point but the start scores exactly EPSILON above it, the restarts' included.
    #[test]
    fn a_gain_of_no_more_than_epsilon_is_not_taken() {
        let params = [param("a", 0.0, 1.0, false)];
        let settings = SearchSettings {
            budget: Some(60),
            ..SearchSettings::default()
        };
        let f = |x: &[f64]| if x[0] == 0.5 { 0.0 } else { EPSILON };
        let (r, _) = batches(&params, vec![0.5], settings, f);
        assert!(r.restarts >= 1, "{r:?}");
        assert_eq!((r.best, r.best_score, r.evaluations), (vec![0.5], 0.0, 60));
    }

    /// Nothing to search: the start is scored once and kept, whatever the budget.
    #[test]
    fn without_parameters_the_start_is_scored_once() {
        let settings = SearchSettings {
            budget: Some(10),
            ..SearchSettings::default()
        };
        let (r, seen) = batches(&[], vec![], settings, |_| 1.0);
        assert_eq!(seen, [vec![Vec::<f64>::new()]]);
        assert_eq!((r.evaluations, r.restarts, r.best_score), (1, 0, 1.0));
    }

    /// A deadline already reached runs nothing; one an hour away leaves the budget to
    /// bound the search.
    #[test]
    fn a_deadline_reached_runs_nothing() {
        let params = [param("a", 0.0, 1.0, false)];
        let at = |deadline: Instant| SearchSettings {
            budget: Some(5),
            deadline: Some(deadline),
            ..SearchSettings::default()
        };
        let (r, seen) = batches(&params, vec![0.5], at(Instant::now()), |_| 1.0);
        assert_eq!(
            (r.evaluations, seen.len(), r.start_score),
            (0, 0, f64::NEG_INFINITY)
        );
        let later = Instant::now() + std::time::Duration::from_secs(3600);
        let (r, _) = batches(&params, vec![0.5], at(later), |_| 1.0);
        assert_eq!(r.evaluations, 5);
    }
}
