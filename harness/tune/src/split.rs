//! Train and held-out cases by project: a project is a corpus's fixture (its root or store,
//! as the corpus names it; for a `git` fixture its repository, whatever the commit) and
//! every case of a project falls on one side. By default the
//! projects are ordered by a hash of their names and the first `--holdout` share of them
//! (rounded, at least one and never all when there are two or more) is held out;
//! `--holdout-project NAME` names them instead.

use findbench_eval::corpus::Case;
use findbench_eval::shard::fnv1a64;
use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

/// The share of projects held out when none is named.
pub const DEFAULT_HOLDOUT: f64 = 0.3;

/// How the held-out projects are chosen.
#[derive(Debug, Clone, PartialEq)]
pub enum Holdout {
    /// This share of the projects, the first by the hash of their names.
    Fraction(f64),
    /// These projects (a project's path, or its last or first part).
    Projects(Vec<String>),
    /// The projects of the inputs given as held out (`--holdout-input`).
    Inputs,
}

/// The projects on each side, each list sorted by name.
#[derive(Debug, Clone, PartialEq)]
pub struct Split {
    pub train: Vec<String>,
    pub held_out: Vec<String>,
}

impl Split {
    pub fn is_held_out(&self, project: &str) -> bool {
        self.held_out.iter().any(|p| p == project)
    }
}

/// A case's project: its fixture's project (a `git` fixture's repository, whatever the
/// commit; else the fixture's path) named by [`project_name`].
pub fn project_of(case: &Case) -> String {
    project_name(&case.fixture.project)
}

/// A project's name: its path with `.` and `..` resolved as written (`corpora/../` is
/// `.`), and an absolute path inside the working directory made relative to it, so a
/// corpus and a trace on one tree name it alike.
pub fn project_name(path: &Path) -> String {
    if path.is_absolute() {
        let inside = std::env::current_dir()
            .and_then(|cwd| cwd.canonicalize())
            .ok()
            .zip(path.canonicalize().ok())
            .and_then(|(cwd, p)| p.strip_prefix(&cwd).ok().map(Path::to_path_buf));
        if let Some(relative) = inside {
            return lexical(&relative);
        }
    }
    lexical(path)
}

/// The split of `members` (each case's project, its input, and whether that input is held
/// out) by their inputs: refused when a project has cases in a train input and in a held-out
/// one, naming both inputs.
pub fn split_by_inputs(members: &[(String, String, bool)]) -> Result<Split, String> {
    let mut train = BTreeSet::new();
    let mut held = BTreeSet::new();
    for (project, input, is_held) in members {
        let other = members
            .iter()
            .find(|(p, _, h)| p == project && h != is_held);
        if let Some((_, other_input, _)) = other {
            let (t, h) = if *is_held {
                (other_input, input)
            } else {
                (input, other_input)
            };
            return Err(format!(
                "the train input `{t}` and the held-out input `{h}` share the project \
                 `{project}`: a project is never on both sides of the split"
            ));
        }
        if *is_held {
            held.insert(project.clone());
        } else {
            train.insert(project.clone());
        }
    }
    if held.is_empty() {
        return Err("--holdout-input: the held-out inputs have no case to score".into());
    }
    if train.is_empty() {
        return Err("the train inputs have no case to tune on".into());
    }
    Ok(Split {
        train: train.into_iter().collect(),
        held_out: held.into_iter().collect(),
    })
}

fn lexical(path: &Path) -> String {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    let s = out.display().to_string();
    if s.is_empty() {
        ".".to_string()
    } else {
        s
    }
}

/// Whether `--holdout-project NAME` names `project`: its whole path, its last part, or its
/// first part (`east` for a store `east/todo.json`).
fn names_project(name: &str, project: &str) -> bool {
    let name = name.trim_end_matches('/');
    project == name
        || Path::new(project).file_name() == Some(name.as_ref())
        || project
            .strip_prefix(name)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// The split of `projects` `how` says.
pub fn split(projects: &BTreeSet<String>, how: &Holdout) -> Result<Split, String> {
    let held: BTreeSet<String> = match how {
        Holdout::Fraction(f) => {
            if !(0.0..1.0).contains(f) {
                return Err(format!(
                    "--holdout {f}: the share of projects held out must be at least 0 and below 1"
                ));
            }
            let n = projects.len();
            let mut k = (f * n as f64).round() as usize;
            if *f > 0.0 && n >= 2 {
                k = k.clamp(1, n - 1);
            }
            if n < 2 {
                k = 0;
            }
            let mut by_hash: Vec<&String> = projects.iter().collect();
            by_hash.sort_by_key(|p| (fnv1a64(p.as_bytes()), p.as_str()));
            by_hash.into_iter().take(k).cloned().collect()
        }
        Holdout::Projects(names) => {
            let mut held = BTreeSet::new();
            for name in names {
                let found: Vec<&String> =
                    projects.iter().filter(|p| names_project(name, p)).collect();
                if found.is_empty() {
                    return Err(format!(
                        "--holdout-project `{name}`: no case's project is named so; the projects \
                         are {}",
                        projects.iter().cloned().collect::<Vec<_>>().join(", ")
                    ));
                }
                held.extend(found.into_iter().cloned());
            }
            if held.len() == projects.len() {
                return Err(
                    "--holdout-project holds out every project: no case is left to tune on".into(),
                );
            }
            held
        }
        Holdout::Inputs => {
            return Err("the split by inputs is made by `split_by_inputs`".into());
        }
    };
    Ok(Split {
        train: projects.difference(&held).cloned().collect(),
        held_out: held.into_iter().collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn projects(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn no_project_is_on_both_sides_and_none_is_lost() {
        for n in 0..12 {
            let all: BTreeSet<String> = (0..n).map(|i| format!("fixtures/p{i}")).collect();
            for f in [0.0, 0.1, 0.3, 0.5, 0.9] {
                let s = split(&all, &Holdout::Fraction(f)).unwrap();
                let train: BTreeSet<_> = s.train.iter().cloned().collect();
                let held: BTreeSet<_> = s.held_out.iter().cloned().collect();
                assert!(train.is_disjoint(&held), "{s:?}");
                assert_eq!(&train | &held, all);
                if n >= 2 && f > 0.0 {
                    assert!(!held.is_empty() && !train.is_empty(), "n={n} f={f}: {s:?}");
                }
            }
        }
    }

    #[test]
    fn the_hash_split_depends_on_the_names_only() {
        let all = projects(&["a", "b", "c", "d", "e"]);
        let s = split(&all, &Holdout::Fraction(0.3)).unwrap();
        assert_eq!(s.held_out.len(), 2);
        // the same names in another order of insertion: the same split
        let again = projects(&["e", "d", "c", "b", "a"]);
        assert_eq!(split(&again, &Holdout::Fraction(0.3)).unwrap(), s);
        assert!(split(&all, &Holdout::Fraction(1.0)).is_err());
    }

    #[test]
    fn named_projects_are_held_out_by_name_or_last_part() {
        let all = projects(&[
            "corpora/fixtures/agent-cpp",
            "corpora/fixtures/todo.json",
            ".",
        ]);
        let s = split(&all, &Holdout::Projects(vec!["todo.json".into()])).unwrap();
        assert_eq!(s.held_out, ["corpora/fixtures/todo.json"]);
        assert_eq!(s.train, [".", "corpora/fixtures/agent-cpp"]);
        let s = split(&all, &Holdout::Projects(vec!["corpora/fixtures".into()])).unwrap();
        assert_eq!(s.train, ["."]);
        let err = split(&all, &Holdout::Projects(vec!["nope".into()])).unwrap_err();
        assert!(err.contains("`nope`") && err.contains("agent-cpp"), "{err}");
        let every = vec!["agent-cpp".into(), "todo.json".into(), ".".into()];
        assert!(split(&all, &Holdout::Projects(every)).is_err());
    }

    #[test]
    fn a_project_in_a_train_and_a_held_out_input_is_refused_naming_both() {
        let m = |p: &str, i: &str, h: bool| (p.to_string(), i.to_string(), h);
        let ok = split_by_inputs(&[m("a", "t.jsonl", false), m("b", "c.yaml", true)]).unwrap();
        assert_eq!(
            (ok.train, ok.held_out),
            (vec!["a".into()], vec!["b".into()])
        );
        let err = split_by_inputs(&[
            m("a", "t.jsonl", false),
            m("b", "x.yaml", true),
            m("a", "c.yaml", true),
        ])
        .unwrap_err();
        assert!(
            err.contains("train input `t.jsonl`")
                && err.contains("held-out input `c.yaml`")
                && err.contains("project `a`"),
            "{err}"
        );
    }

    #[test]
    fn a_fixture_path_is_resolved_as_written() {
        assert_eq!(lexical(Path::new("corpora/../")), ".");
        assert_eq!(
            lexical(Path::new("corpora/./fixtures/x")),
            "corpora/fixtures/x"
        );
        assert_eq!(lexical(Path::new("../up")), "../up");
    }

    #[test]
    fn a_project_is_held_out_by_its_whole_name() {
        let s = Split {
            train: vec!["a".into()],
            held_out: vec!["corpora/b".into(), "c".into()],
        };
        assert!(s.is_held_out("corpora/b") && s.is_held_out("c"));
        assert!(!s.is_held_out("a") && !s.is_held_out("b") && !s.is_held_out("corpora"));
    }

    /// A share of 0 holds out nothing, whatever the number of projects; one project is
    /// never held out by a share.
    #[test]
    fn a_share_of_zero_holds_out_nothing() {
        let all = projects(&["a", "b", "c", "d", "e"]);
        let s = split(&all, &Holdout::Fraction(0.0)).unwrap();
        assert!(s.held_out.is_empty());
        assert_eq!(s.train.len(), 5);
        let one = projects(&["a"]);
        let s = split(&one, &Holdout::Fraction(0.9)).unwrap();
        assert!(s.held_out.is_empty(), "{s:?}");
        // 0.5 of 5 is 2.5, rounded to 3; 0.9 of 5 is 4.5, rounded to 5, kept below all
        assert_eq!(
            split(&all, &Holdout::Fraction(0.5)).unwrap().held_out.len(),
            3
        );
        assert_eq!(
            split(&all, &Holdout::Fraction(0.9)).unwrap().held_out.len(),
            4
        );
    }

    /// An absolute path inside the working directory is named relative to it, as a corpus
    /// naming it relatively would; the working directory itself is `.`.
    #[test]
    fn an_absolute_path_inside_the_working_directory_is_named_relative_to_it() {
        let cwd = std::env::current_dir().unwrap();
        assert_eq!(project_name(&cwd.join("src")), "src");
        assert_eq!(project_name(&cwd.join("src/../src/./")), "src");
        assert_eq!(project_name(&cwd), ".");
        assert_eq!(project_name(Path::new("corpora/./x/../y")), "corpora/y");
    }

    /// A case's project is its fixture's path as the corpus resolved it, named as
    /// `project_name` names a path.
    #[test]
    fn a_cases_project_is_its_fixtures_project() {
        let mut case = crate::objective::tests::case_expecting("{top: a.rs}");
        let fixture = std::sync::Arc::get_mut(&mut case.fixture).unwrap();
        // a git fixture's tree lives in the cache; its project is the repository
        fixture.path = "/cache/git/agent-cpp-0123/abc".into();
        fixture.project = "corpora/./fixtures/x/../agent-cpp".into();
        assert_eq!(project_of(&case), "corpora/fixtures/agent-cpp");
    }
}
