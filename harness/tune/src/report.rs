//! What a tuning run reports: its provenance (the inputs with their hashes, the objective,
//! seed, budget, split and scores: written into the output profile too), the numbers it
//! changed, its speed, and a plain verdict on the held-out gain. Rendered as a text table
//! or as JSON (`schemas/tune.schema.json`).

use serde::Serialize;
use std::fmt::Write;

/// Where a tuned profile came from: kept in the profile as `provenance`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Provenance {
    pub generator: String,
    pub findbench_version: String,
    pub engine_version: String,
    /// The base profile as given to `--profile` (a built-in name or a file).
    pub base_profile: String,
    pub inputs: Vec<Input>,
    pub objective: String,
    pub seed: u64,
    /// `--budget`: evaluations at most (none when only `--time` bounds the search).
    pub budget: Option<usize>,
    /// `--time`, in seconds.
    pub time_secs: Option<f64>,
    /// Evaluations the search spent (the four before/after scorings not counted).
    pub evaluations: usize,
    /// The numbers searched, by JSON path.
    pub params: Vec<String>,
    pub split: SplitInfo,
    pub train: Scores,
    /// None when no project is held out.
    pub held_out: Option<HeldOut>,
}

/// One corpus file read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Input {
    pub kind: String,
    pub path: String,
    pub sha256: String,
}

/// How the cases were split.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SplitInfo {
    /// `hash` (a share of the projects by the hash of their names), `named`
    /// (`--holdout-project`) or `inputs` (`--holdout-input`).
    pub rule: String,
    /// The share held out, for `hash`.
    pub holdout: Option<f64>,
    pub train_projects: Vec<String>,
    pub held_out_projects: Vec<String>,
    pub train_cases: usize,
    pub held_out_cases: usize,
}

/// The objective on a set of cases under the base and the tuned profile.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Scores {
    pub before: f64,
    pub after: f64,
}

/// The held-out scores, with the paired bootstrap interval of the gain per case.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct HeldOut {
    pub before: f64,
    pub after: f64,
    /// `after - before`: the mean per-case gain.
    pub gain: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub resamples: usize,
    /// The interval does not include 0.
    pub clear_of_zero: bool,
}

/// A number the tuned profile holds otherwise than the base.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    pub param: String,
    pub before: f64,
    pub after: f64,
}

/// How fast the search evaluated profiles.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Speed {
    pub evaluations: usize,
    pub seconds: f64,
    pub evaluations_per_second: f64,
    /// Train cases run per evaluation.
    pub cases_per_evaluation: usize,
    /// Climbs begun from a random point.
    pub restarts: usize,
}

/// Everything `findbench tune` reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TuneReport {
    pub provenance: Provenance,
    pub changes: Vec<Change>,
    pub speed: Speed,
    /// The held-out gain in a sentence.
    pub verdict: String,
}

/// The held-out gain in a sentence: whether its interval includes 0, said plainly.
pub fn verdict(held_out: Option<&HeldOut>, changed: bool) -> String {
    let searched = if changed {
        ""
    } else {
        "The search found no profile better than the base on the train cases: the output \
         holds the base's numbers. "
    };
    let held = match held_out {
        None => "No project is held out (one project only, or --holdout 0): the gain is \
                 measured on the cases tuned on, and says nothing of other projects."
            .to_string(),
        Some(h) if h.ci_low > 0.0 => format!(
            "The held-out gain {:+.4} has a 95% interval [{:+.4}, {:+.4}] above 0: the tuned \
             profile does better on projects it was not tuned on.",
            h.gain, h.ci_low, h.ci_high
        ),
        Some(h) if h.ci_high < 0.0 => format!(
            "The held-out gain {:+.4} has a 95% interval [{:+.4}, {:+.4}] below 0: the tuned \
             profile does worse than the base on projects it was not tuned on; keep the base.",
            h.gain, h.ci_low, h.ci_high
        ),
        Some(h) => format!(
            "The held-out gain {:+.4} has a 95% interval [{:+.4}, {:+.4}] that includes 0: \
             the tuned profile is not shown to do better than the base on projects it was \
             not tuned on.",
            h.gain, h.ci_low, h.ci_high
        ),
    };
    format!("{searched}{held}")
}

impl TuneReport {
    /// The report as text: the split, a before/after table, the verdict, the changes.
    pub fn text(&self) -> String {
        let p = &self.provenance;
        let s = &self.split_line();
        let mut out = String::new();
        let _ = writeln!(
            out,
            "tune: objective {}, {} parameters, {} evaluations in {:.1} s ({:.2}/s, {} train \
             cases each, {} restarts), seed {}",
            p.objective,
            p.params.len(),
            self.speed.evaluations,
            self.speed.seconds,
            self.speed.evaluations_per_second,
            self.speed.cases_per_evaluation,
            self.speed.restarts,
            p.seed
        );
        let _ = writeln!(out, "{s}\n");
        let _ = writeln!(
            out,
            "{:<10} {:>8} {:>8} {:>8}",
            "cases", "before", "after", "gain"
        );
        let _ = writeln!(
            out,
            "{:<10} {:>8.4} {:>8.4} {:>+8.4}",
            "train",
            p.train.before,
            p.train.after,
            p.train.after - p.train.before
        );
        match &p.held_out {
            Some(h) => {
                let _ = writeln!(
                    out,
                    "{:<10} {:>8.4} {:>8.4} {:>+8.4}  95% CI [{:+.4}, {:+.4}]",
                    "held-out", h.before, h.after, h.gain, h.ci_low, h.ci_high
                );
            }
            None => {
                let _ = writeln!(out, "{:<10} {:>8} {:>8} {:>8}", "held-out", "-", "-", "-");
            }
        }
        let _ = writeln!(out, "\n{}", self.verdict);
        if self.changes.is_empty() {
            let _ = writeln!(out, "\nNo number changed.");
        } else {
            let _ = writeln!(out, "\nChanged ({}):", self.changes.len());
            let width = self
                .changes
                .iter()
                .map(|c| c.param.len())
                .max()
                .unwrap_or(0);
            for c in &self.changes {
                let _ = writeln!(
                    out,
                    "  {:<width$}  {} -> {}",
                    c.param,
                    number(c.before),
                    number(c.after)
                );
            }
        }
        out
    }

    fn split_line(&self) -> String {
        let s = &self.provenance.split;
        format!(
            "split ({}): train {} cases of {}; held out {} cases of {}",
            match s.holdout {
                Some(f) => format!("hash, --holdout {f}"),
                None => s.rule.clone(),
            },
            s.train_cases,
            s.train_projects.join(", "),
            s.held_out_cases,
            if s.held_out_projects.is_empty() {
                "no project".to_string()
            } else {
                s.held_out_projects.join(", ")
            }
        )
    }
}

/// A number as people read it: at most four decimals, trailing zeros dropped.
fn number(v: f64) -> String {
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(low: f64, high: f64) -> HeldOut {
        HeldOut {
            before: 0.5,
            after: 0.6,
            gain: 0.1,
            ci_low: low,
            ci_high: high,
            resamples: 2000,
            clear_of_zero: low > 0.0 || high < 0.0,
        }
    }

    #[test]
    fn the_verdict_says_plainly_when_the_interval_includes_zero() {
        assert!(verdict(Some(&held(-0.01, 0.2)), true).contains("includes 0"));
        assert!(verdict(Some(&held(0.0, 0.2)), true).contains("includes 0"));
        assert!(verdict(Some(&held(0.01, 0.2)), true).contains("above 0"));
        assert!(verdict(Some(&held(-0.3, -0.1)), true).contains("keep the base"));
        assert!(verdict(None, true).contains("No project is held out"));
        assert!(verdict(None, false).contains("no profile better than the base"));
        assert_eq!(number(0.5), "0.5");
        assert_eq!(number(13.0), "13");
    }

    /// An interval that ends at 0 includes it: a loss is said only when it is below 0.
    #[test]
    fn an_interval_ending_at_zero_is_not_a_loss() {
        let v = verdict(Some(&held(-0.2, 0.0)), true);
        assert!(
            v.contains("includes 0") && !v.contains("keep the base"),
            "{v}"
        );
    }

    fn report(held_out: Option<HeldOut>, split: SplitInfo, changes: Vec<Change>) -> TuneReport {
        TuneReport {
            provenance: Provenance {
                generator: "findbench tune".into(),
                findbench_version: "0.1.0".into(),
                engine_version: "1".into(),
                base_profile: "default".into(),
                inputs: Vec::new(),
                objective: "mrr".into(),
                seed: 7,
                budget: Some(40),
                time_secs: None,
                evaluations: 40,
                params: vec!["task.title".into(), "task.threshold".into()],
                split,
                train: Scores {
                    before: 0.5,
                    after: 0.625,
                },
                held_out,
            },
            changes,
            speed: Speed {
                evaluations: 40,
                seconds: 2.5,
                evaluations_per_second: 16.0,
                cases_per_evaluation: 8,
                restarts: 3,
            },
            verdict: "VERDICT".into(),
        }
    }

    /// The whole text of a report with a held-out side and two changes, written out by hand.
    #[test]
    fn the_text_report_of_a_run_with_held_out_projects_and_changes() {
        let split = SplitInfo {
            rule: "hash".into(),
            holdout: Some(0.3),
            train_projects: vec!["a".into(), "b".into()],
            held_out_projects: vec!["c".into()],
            train_cases: 8,
            held_out_cases: 4,
        };
        let changes = vec![
            Change {
                param: "task.title".into(),
                before: 1.0,
                after: 1.25,
            },
            Change {
                param: "task.threshold".into(),
                before: 0.3,
                after: 0.12345,
            },
        ];
        let held_out = HeldOut {
            before: 0.25,
            after: 0.5,
            gain: 0.25,
            ci_low: -0.125,
            ci_high: 0.5,
            resamples: 2000,
            clear_of_zero: false,
        };
        let text = report(Some(held_out), split, changes).text();
        let expected = "\
tune: objective mrr, 2 parameters, 40 evaluations in 2.5 s (16.00/s, 8 train cases each, 3 restarts), seed 7
split (hash, --holdout 0.3): train 8 cases of a, b; held out 4 cases of c

cases        before    after     gain
train        0.5000   0.6250  +0.1250
held-out     0.2500   0.5000  +0.2500  95% CI [-0.1250, +0.5000]

VERDICT

Changed (2):
  task.title      1 -> 1.25
  task.threshold  0.3 -> 0.1235
";
        assert_eq!(text, expected);
    }

    /// Without held-out projects: dashes in the table, the split's rule by name and "no
    /// project" held out.
    #[test]
    fn the_text_report_of_a_run_without_held_out_projects_or_changes() {
        let split = SplitInfo {
            rule: "named".into(),
            holdout: None,
            train_projects: vec!["a".into()],
            held_out_projects: Vec::new(),
            train_cases: 8,
            held_out_cases: 0,
        };
        let text = report(None, split, Vec::new()).text();
        let expected = "\
tune: objective mrr, 2 parameters, 40 evaluations in 2.5 s (16.00/s, 8 train cases each, 3 restarts), seed 7
split (named): train 8 cases of a; held out 0 cases of no project

cases        before    after     gain
train        0.5000   0.6250  +0.1250
held-out          -        -        -

VERDICT

No number changed.
";
        assert_eq!(text, expected);
    }
}
