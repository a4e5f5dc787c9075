//! How an answer of `ask` turns the share of the question it holds into the chance that it
//! is right: a monotone map fitted on questions with known answers
//! (`benches/fit_calibration.py`, an isotonic fit; figures in `benches/RESULTS.md`), one per
//! way the answer's file was found, since a file `find` matched by the question's name and
//! a file ranked by a task's words are right at very different rates for the same share.

use serde::{Deserialize, Serialize};

/// The calibration maps of `ask`'s confidence, each a list of `[held share, chance right]`
/// points joined by straight lines. An empty map leaves the held share as the confidence.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Calibration {
    /// Answers whose file `find` or `grep` matched for the question's term.
    pub named: ChanceMap,
    /// Answers whose file the `rank` tool ranked by every word of a task.
    pub ranked: ChanceMap,
}

impl Calibration {
    /// The default profile's maps: fitted by `benches/fit_calibration.py` on the commit
    /// subjects and symbol questions of ten projects, each map checked on the projects
    /// left out of its fit (`benches/RESULTS.md`, "Honest answers on real trees").
    pub fn fitted() -> Calibration {
        Calibration {
            named: ChanceMap(vec![[0.014, 0.0], [0.994, 0.903]]),
            ranked: ChanceMap(vec![[0.092, 0.405], [0.427, 0.465], [0.923, 0.605]]),
        }
    }

    /// The chance an answer is right, from its held share and how its file was found.
    pub fn chance(&self, ranked: bool, held_share: f64) -> f64 {
        let map = if ranked { &self.ranked } else { &self.named };
        map.at(held_share)
    }
}

/// A monotone map from `[0, 1]` to `[0, 1]`: points with rising held shares and chances
/// that never fall, read between them on the line that joins them and beyond them as the
/// nearest point's chance.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Vec<[f64; 2]>", into = "Vec<[f64; 2]>")]
pub struct ChanceMap(Vec<[f64; 2]>);

impl ChanceMap {
    pub fn points(&self) -> &[[f64; 2]] {
        &self.0
    }

    /// The chance at `share` (the share itself when the map is empty).
    pub fn at(&self, share: f64) -> f64 {
        let points = &self.0;
        let (Some(first), Some(last)) = (points.first(), points.last()) else {
            return share.clamp(0.0, 1.0);
        };
        if share <= first[0] {
            return first[1];
        }
        if share >= last[0] {
            return last[1];
        }
        let right = points.partition_point(|p| p[0] <= share);
        let ([x0, y0], [x1, y1]) = (points[right - 1], points[right]);
        y0 + (y1 - y0) * (share - x0) / (x1 - x0)
    }
}

impl TryFrom<Vec<[f64; 2]>> for ChanceMap {
    type Error = String;

    fn try_from(points: Vec<[f64; 2]>) -> Result<ChanceMap, String> {
        for (i, [share, chance]) in points.iter().enumerate() {
            if !(0.0..=1.0).contains(share) || !(0.0..=1.0).contains(chance) {
                return Err(format!(
                    "calibration point {i} is [{share}, {chance}]: a held share and a chance are each between 0 and 1"
                ));
            }
        }
        for (i, pair) in points.windows(2).enumerate() {
            if pair[1][0] <= pair[0][0] {
                return Err(format!(
                    "calibration point {} has held share {} after {}: held shares must rise",
                    i + 1,
                    pair[1][0],
                    pair[0][0]
                ));
            }
            if pair[1][1] < pair[0][1] {
                return Err(format!(
                    "calibration point {} has chance {} after {}: a larger share is never less likely right",
                    i + 1,
                    pair[1][1],
                    pair[0][1]
                ));
            }
        }
        Ok(ChanceMap(points))
    }
}

impl From<ChanceMap> for Vec<[f64; 2]> {
    fn from(map: ChanceMap) -> Vec<[f64; 2]> {
        map.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(points: &[[f64; 2]]) -> ChanceMap {
        ChanceMap::try_from(points.to_vec()).unwrap()
    }

    #[test]
    fn a_map_is_read_on_the_line_between_its_points_and_flat_beyond_them() {
        let m = map(&[[0.2, 0.1], [0.6, 0.3], [1.0, 0.5]]);
        assert_eq!(m.at(0.0), 0.1);
        assert_eq!(m.at(0.2), 0.1);
        assert!((m.at(0.4) - 0.2).abs() < 1e-12);
        assert!((m.at(0.8) - 0.4).abs() < 1e-12);
        assert_eq!(m.at(0.6), 0.3);
        assert_eq!(m.at(1.0), 0.5);
        // an empty map is the identity, a one-point map a constant
        assert_eq!(ChanceMap::default().at(0.37), 0.37);
        assert_eq!(map(&[[0.5, 0.9]]).at(0.1), 0.9);
    }

    #[test]
    fn the_fitted_maps_are_monotone_maps_of_the_unit_square() {
        let fitted = Calibration::fitted();
        for map in [&fitted.named, &fitted.ranked] {
            assert_eq!(ChanceMap::try_from(map.points().to_vec()).as_ref(), Ok(map));
        }
    }

    #[test]
    fn each_kind_of_answer_reads_its_own_map() {
        let c = Calibration {
            named: map(&[[0.0, 0.9], [1.0, 0.95]]),
            ranked: map(&[[0.0, 0.05], [1.0, 0.45]]),
        };
        assert_eq!(c.chance(false, 1.0), 0.95);
        assert_eq!(c.chance(true, 1.0), 0.45);
        assert!((c.chance(true, 0.5) - 0.25).abs() < 1e-12);
    }

    #[test]
    fn a_map_that_falls_or_leaves_the_unit_square_is_refused_by_name() {
        let falls = serde_json::from_str::<ChanceMap>("[[0.1, 0.5], [0.9, 0.4]]").unwrap_err();
        assert!(
            falls
                .to_string()
                .contains("point 1 has chance 0.4 after 0.5"),
            "{falls}"
        );
        let back = serde_json::from_str::<ChanceMap>("[[0.5, 0.1], [0.5, 0.2]]").unwrap_err();
        assert!(back.to_string().contains("held shares must rise"), "{back}");
        let out = serde_json::from_str::<ChanceMap>("[[0.5, 1.5]]").unwrap_err();
        assert!(out.to_string().contains("between 0 and 1"), "{out}");
        let fine: ChanceMap = serde_json::from_str("[[0.0, 0.1], [1.0, 0.1]]").unwrap();
        assert_eq!(fine.points().len(), 2);
    }
}
