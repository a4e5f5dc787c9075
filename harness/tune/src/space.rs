//! The space a run searches: the profile's tunable numbers (all of them, or those named
//! with `--param`), a point of it as one value per number, and the profile at a point (the
//! base profile's JSON with those numbers written in, read back).

use findbench_engine::profile::tunable::{number_at, set_number_at, Param};
use findbench_engine::Profile;
use findbench_eval::stats::SplitMix64;
use serde_json::Value;

/// The searched numbers of a base profile.
#[derive(Debug, Clone)]
pub struct Space {
    base: Value,
    pub params: Vec<Param>,
}

impl Space {
    /// The space of `base` over the tunable numbers `selected` names (a full path such as
    /// `task_ranking.k1`, or a section or nested prefix such as `code` or
    /// `task_ranking.path`); every tunable number when `selected` is empty. An unknown name
    /// is an error naming it and the sections.
    pub fn new(base: &Profile, selected: &[String]) -> Result<Space, String> {
        let all = Profile::tunables();
        let params: Vec<Param> = if selected.is_empty() {
            all
        } else {
            for name in selected {
                if !all.iter().any(|p| names(name, &p.path)) {
                    return Err(unknown_param(name, &all));
                }
            }
            all.into_iter()
                .filter(|p| selected.iter().any(|name| names(name, &p.path)))
                .collect()
        };
        let mut base = serde_json::to_value(base).map_err(|e| e.to_string())?;
        if let Some(map) = base.as_object_mut() {
            map.remove("provenance");
        }
        Ok(Space { base, params })
    }

    /// The base profile's values, clamped into the ranges (a base outside a range starts
    /// at its bound).
    pub fn base_point(&self) -> Vec<f64> {
        self.params
            .iter()
            .map(|p| p.clamp(number_at(&self.base, &p.path).unwrap_or(p.min)))
            .collect()
    }

    /// The base profile's own values, as it holds them.
    pub fn base_values(&self) -> Vec<f64> {
        self.params
            .iter()
            .map(|p| number_at(&self.base, &p.path).unwrap_or(f64::NAN))
            .collect()
    }

    /// A point drawn uniformly in the ranges.
    pub fn random_point(&self, rng: &mut SplitMix64) -> Vec<f64> {
        self.params
            .iter()
            .map(|p| p.clamp(p.min + rng.unit() * (p.max - p.min)))
            .collect()
    }

    /// The base profile's JSON with the numbers of `point` written in.
    pub fn json_at(&self, point: &[f64]) -> Value {
        let mut json = self.base.clone();
        for (p, v) in self.params.iter().zip(point) {
            set_number_at(&mut json, &p.path, *v, p.integer);
        }
        json
    }

    /// The profile at `point`.
    pub fn profile_at(&self, point: &[f64]) -> Profile {
        // the base profile read back with numbers in their ranges always deserialises
        serde_json::from_value(self.json_at(point)).unwrap_or_default()
    }
}

/// Whether the `--param` value `name` selects the parameter at `path`.
fn names(name: &str, path: &str) -> bool {
    path == name
        || path
            .strip_prefix(name)
            .is_some_and(|rest| rest.starts_with('.'))
}

fn unknown_param(name: &str, all: &[Param]) -> String {
    let mut sections: Vec<&str> = all
        .iter()
        .map(|p| p.path.split('.').next().unwrap_or(""))
        .collect();
    sections.dedup();
    let near: Vec<&str> = all
        .iter()
        .map(|p| p.path.as_str())
        .filter(|path| {
            let leaf = name.rsplit('.').next().unwrap_or(name);
            path.rsplit('.').next() == Some(leaf)
        })
        .collect();
    let mut message = format!(
        "unknown --param `{name}`: not a tunable number of the profile (a path such as \
         `task_ranking.k1`, or a section: {})",
        sections.join(", ")
    );
    if !near.is_empty() {
        message.push_str(&format!("; did you mean {}?", near.join(", ")));
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_param_is_selected_by_its_path_or_a_prefix_of_whole_keys() {
        let base = Profile::default();
        let space = Space::new(
            &base,
            &["task_ranking.path".into(), "code.impl_boost".into()],
        )
        .unwrap();
        let paths: Vec<&str> = space.params.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "code.impl_boost",
                "task_ranking.path.weight",
                "task_ranking.path.b"
            ]
        );
        assert_eq!(Space::new(&base, &[]).unwrap().params, Profile::tunables());
        let err = Space::new(&base, &["k1".into()]).unwrap_err();
        assert!(err.contains("unknown --param `k1`"), "{err}");
        assert!(err.contains("did you mean task_ranking.k1?"), "{err}");
        assert!(Space::new(&base, &["code.impl".into()]).is_err());
    }

    #[test]
    fn the_base_point_gives_back_the_base_profile() {
        let base = Profile::default();
        let space = Space::new(&base, &[]).unwrap();
        assert_eq!(space.profile_at(&space.base_point()), base);
        let mut rng = SplitMix64(9);
        let point = space.random_point(&mut rng);
        let p = space.profile_at(&point);
        let depth = space
            .params
            .iter()
            .position(|p| p.path == "task_ranking.rerank_depth")
            .unwrap();
        assert_eq!(p.task_ranking.rerank_depth as f64, point[depth]);
        assert_ne!(p, base);
    }

    /// A random point is `min + u x (max - min)` for each number, `u` the generator's next
    /// unit draw (drawn here from a second generator of the same seed).
    #[test]
    fn a_random_point_scales_each_unit_draw_into_its_range() {
        let space = Space::new(&Profile::default(), &[]).unwrap();
        let point = space.random_point(&mut SplitMix64(41));
        let mut draws = SplitMix64(41);
        for (p, v) in space.params.iter().zip(&point) {
            let u = draws.unit();
            let expected = p.clamp(p.min + u * (p.max - p.min));
            assert_eq!(*v, expected, "{}", p.path);
            assert!(p.min <= *v && *v <= p.max, "{}", p.path);
        }
        // k1 is a real number in 0.1..3.0: worked once by hand from its draw
        let k1 = space
            .params
            .iter()
            .position(|p| p.path == "task_ranking.k1")
            .unwrap();
        let mut draws = SplitMix64(41);
        let u = (0..=k1).map(|_| draws.unit()).last().unwrap();
        assert!((point[k1] - (0.1 + u * 2.9)).abs() < 1e-12, "{}", point[k1]);
    }

    /// The base's own values as it holds them, a value outside its range included; the
    /// base point starts such a value at its bound.
    #[test]
    fn the_base_values_are_the_profiles_own() {
        let mut base = Profile::default();
        base.task_ranking.k1 = 7.5;
        let space = Space::new(&base, &["task_ranking.k1".into()]).unwrap();
        assert_eq!(space.base_values(), [7.5]);
        assert_eq!(space.base_point(), [3.0]);
        base.task_ranking.k1 = 1.7;
        let space = Space::new(&base, &["task_ranking.k1".into()]).unwrap();
        assert_eq!(space.base_values(), [1.7]);
        assert_eq!(space.base_point(), [1.7]);
    }
}
